package dev.stringview.samples.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SearchEngineReportTest {
    private static final String[] HOSTS = {"www.google.com", "google.de", "bing.com", "duckduckgo.com",
        "example.org", "googleplex.example", "news.site", "日本.jp"};

    /** Three day partitions of two files each; the report reads the last two days. */
    @Test
    void countsMatchAPlainJavaModel(@TempDir Path dir) throws Exception {
        MessageType schema = MessageTypeParser.parseMessageType(
                "message visits { optional binary url (STRING); required int64 user_id; }");
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        Random random = new Random(7);
        long total = 0;
        long engines = 0;
        Set<Long> users = new HashSet<>();
        String[] days = {"2024-01-01", "2024-01-02", "2024-01-03"};
        for (int f = 0; f < 2 * days.length; f++) {
            String day = days[f / 2];
            Path file = Files.createDirectories(dir.resolve("dt=" + day)).resolve("part-" + f % 2 + ".parquet");
            boolean counted = day.compareTo(days[1]) >= 0;
            try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(file))
                    .withConf(new PlainParquetConfiguration()).withType(schema).build()) {
                for (int i = 0; i < 1000; i++) {
                    long user = random.nextInt(200);
                    Group g = groups.newGroup().append("user_id", user);
                    if (random.nextInt(20) != 0) {
                        String host = HOSTS[random.nextInt(HOSTS.length)];
                        String url = (random.nextBoolean() ? "https://" : "http://") + host + "/q?"
                                + random.nextInt(99);
                        g.append("url", url);
                        if (counted && url.startsWith("https://")) {
                            total++;
                            users.add(user);
                            if (url.contains("google.") || url.contains("bing.") || url.contains("duckduckgo.")) {
                                engines++;
                            }
                        }
                    }
                    writer.write(g);
                }
            }
        }
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        assertEquals(List.of(total, engines, (long) users.size()), SearchEngineReport.run(env, dir.toString(),
                days[1]));
    }
}
