package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewPredicates;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Parquet from anywhere" block: run here on a file this test writes, and checked to stand in the
 * README unchanged (every line of the README's block is a line of {@link #readmeBlock}, in order).
 */
class ParquetReadmeExampleTest {
    @TempDir
    Path dir;

    static final MessageType SCHEMA = MessageTypeParser.parseMessageType(
            "message hits { required binary URL (STRING); optional int32 EventDate (DATE); }");

    @Test
    void theReadmeBlockRunsAndStandsInTheReadme() throws IOException {
        Path path = dir.resolve("hits.parquet");
        long expectedGoogle = 0;
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(path))
                .withConf(new PlainParquetConfiguration()).withType(SCHEMA).withCodecFactory(new TestCodecs())
                .withCompressionCodec(CompressionCodecName.SNAPPY).withRowGroupRowCountLimit(3000).build()) {
            for (int i = 0; i < 10_000; i++) {
                Group g = groups.newGroup();
                String url = i % 7 == 0 ? "https://www.google.com/search?q=" + i : "https://duckdb.org/" + i;
                expectedGoogle += i % 7 == 0 ? 1 : 0;
                g.add("URL", url);
                if (i % 5 != 0) {
                    g.add("EventDate", 19_000 + i % 400);
                }
                writer.write(g);
            }
        }
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            readmeBlock(path);
        } finally {
            System.setOut(stdout);
        }
        String line = printed.toString(StandardCharsets.UTF_8).strip();
        assertTrue(line.startsWith("google=" + expectedGoogle + " latest=" + LocalDate.ofEpochDay(19_399)
                + " requests=5 "), line); // the tail read and one request per row group (4)

        String readme = Files.readString(Path.of("..", "README.md"));
        String section = readme.substring(readme.indexOf("## Parquet from anywhere"));
        String block = section.substring(section.indexOf("```java\n") + 8, section.indexOf("```\n", 
                section.indexOf("```java\n") + 8));
        String source = Files.readString(Path.of("src", "test", "java", "dev", "stringview", "parquet",
                "ParquetReadmeExampleTest.java"));
        int at = 0;
        for (String readmeLine : block.strip().split("\n")) {
            String wanted = readmeLine.strip().replaceFirst("^// ", "// ");
            int found = source.indexOf(wanted, at);
            assertTrue(found >= 0, "README line not in the example, or out of order: " + wanted);
            at = found + wanted.length();
        }
        assertEquals(-1, block.indexOf('\t'));
    }

    static void readmeBlock(Path path) throws IOException {
        try (ExecutorService prefetch = Executors.newFixedThreadPool(1);        // yours: the library starts no thread
             Arena arena = Arena.ofShared();
             ParquetSource source = ParquetSources.channel(FileChannel.open(path), path.getFileName().toString());
             // or ParquetSources.hadoop(new org.apache.hadoop.fs.Path("hdfs://nn:8020/t/hits.parquet"), new Configuration())
             ParquetViewReader reader = ParquetViewReader.open(source, arena, ParquetViewOptions.defaults()
                     .withColumns("URL", "EventDate").withBatchScopedMemory(true).withPrefetch(prefetch))) {
            long google = 0;
            long latest = Long.MIN_VALUE;
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                google += ViewPredicates.contains("google").count(batch.column("URL"));     // views
                FixedWidthColumn dates = batch.fixedWidthColumn("EventDate");             // DATE: int32 days
                for (int row = 0; row < dates.rowCount(); row++) {
                    latest = dates.isNull(row) ? latest : Math.max(latest, dates.getLong(row));
                }
            }
            System.out.println("google=" + google + " latest=" + LocalDate.ofEpochDay(latest) + " " + reader.readCounters());
        }
    }
}
