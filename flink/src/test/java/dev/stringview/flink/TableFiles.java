package dev.stringview.flink;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/** Seeded Parquet files (id, s, n) for the file-system and streaming tests, and running a query to sorted rows. */
final class TableFiles {
    /** The columns of a table over these files partitioned by {@code dt}. */
    static final String COLUMNS = "id BIGINT, s STRING, n INT, dt STRING";
    /** 0/1/11/12/13/16/17 bytes, non-ASCII, URL-like strings. */
    static final String[] EDGES = {"", "a", "hello world", "hello world!", "hello world!!", "0123456789abcdef",
        "0123456789abcdefg", "héllo", "日本語のテキスト", "google", "Google", "a_b", "100%"};

    private TableFiles() {}

    /**
     * Writes {@code count} rows with ids from {@code firstId}: edge and URL-like strings with nulls, small ints with
     * nulls; small row groups and pages, so a file has many row groups.
     */
    static void write(Path file, long firstId, int count, long seed, CompressionCodecName codec) throws IOException {
        MessageType schema = MessageTypeParser.parseMessageType("""
                message t {
                  required int64 id;
                  optional binary s (STRING);
                  optional int32 n;
                }""");
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        Random random = new Random(seed);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withConf(new PlainParquetConfiguration()).withType(schema).withCompressionCodec(codec)
                .withRowGroupSize(24 * 1024).withPageSize(4 * 1024).build()) {
            for (int i = 0; i < count; i++) {
                Group g = groups.newGroup().append("id", firstId + i);
                if (random.nextInt(10) != 0) {
                    g.append("s", random.nextBoolean() ? EDGES[random.nextInt(EDGES.length)]
                            : "http://" + (random.nextBoolean() ? "google" : "example") + ".com/page/"
                                    + random.nextInt(400));
                }
                if (random.nextInt(8) != 0) {
                    g.append("n", random.nextInt(1000) - 500);
                }
                writer.write(g);
            }
        }
    }

    /** The query's rows as strings, sorted. */
    static List<String> collect(TableEnvironment env, String sql) {
        List<String> out = new ArrayList<>();
        TableResult result = env.executeSql(sql);
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        } catch (Exception e) {
            throw new IllegalStateException("query failed: sql=" + sql, e);
        }
        out.sort(null);
        return out;
    }
}
