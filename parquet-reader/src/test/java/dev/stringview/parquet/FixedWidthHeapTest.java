package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Reading fixed-width columns allocates about nothing on the Java heap per value: values go from the page to the
 * batch's off-heap buffer, and decoders' scratch is made once per column chunk. Measured with the thread's
 * allocation counter over a whole 200,000-row file of six columns, per encoding family.
 */
class FixedWidthHeapTest {
    static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message m { required int64 id;"
            + " optional int32 n; required double x; optional int64 price (DECIMAL(18,2));"
            + " required int64 ts (TIMESTAMP(MICROS,true)); optional boolean flag; }");
    static final int ROWS = 200_000;

    enum Writer { PLAIN_V1, DICTIONARY_V1, DELTA_V2 }

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Writer.class)
    void heapAllocationPerValueIsAboutZero(Writer kind) throws IOException {
        Path path = dir.resolve(kind + ".parquet");
        write(path, kind);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int warmup = 0; warmup < 3; warmup++) {
            readAll(path);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        long values = readAll(path);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        before = threads.getCurrentThreadAllocatedBytes();
        try (Arena arena = Arena.ofConfined(); ParquetViewReader reader = ParquetViewReader.open(path, arena)) {
            assertEquals(ROWS, reader.rowCount());
        }
        long perFile = threads.getCurrentThreadAllocatedBytes() - before;
        double perValue = (double) (allocated - perFile) / values;
        System.out.printf("%s heap per value %.4f bytes (read %d, open %d)%n", kind, perValue, allocated, perFile);
        assertEquals(6L * ROWS, values);
        // The footer (parquet-java) costs a fixed amount per file; what grows with the values must be ~0.
        assertTrue(perValue < 0.3, kind + " heap bytes per value: " + perValue + " (total " + allocated + ", open "
                + perFile + ")");
    }

    /** Reads every column of every batch and touches each value; returns the values read. */
    private static long readAll(Path path) throws IOException {
        long values = 0;
        long sum = 0;
        try (Arena arena = Arena.ofConfined(); ParquetViewReader reader = ParquetViewReader.open(path, arena,
                ParquetViewOptions.defaults().withBatchSize(8192))) {
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                for (int c = 0; c < batch.columnNames().size(); c++) {
                    FixedWidthColumn column = batch.fixedWidthColumn(c);
                    values += column.rowCount();
                    sum += column.values().byteSize() + column.nullCount();
                }
            }
        }
        assertTrue(sum > 0);
        return values;
    }

    private static void write(Path path, Writer kind) throws IOException {
        Files.deleteIfExists(path);
        Random random = new Random(7);
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(path))
                .withConf(new PlainParquetConfiguration()).withType(SCHEMA).withCodecFactory(new TestCodecs())
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .withWriterVersion(kind == Writer.DELTA_V2 ? WriterVersion.PARQUET_2_0 : WriterVersion.PARQUET_1_0)
                .withDictionaryEncoding(kind == Writer.DICTIONARY_V1).build()) {
            for (int r = 0; r < ROWS; r++) {
                Group g = groups.newGroup();
                g.add("id", (long) r);
                if (r % 10 != 0) {
                    g.add("n", random.nextInt(1000));
                }
                g.add("x", random.nextInt(500) / 4.0);
                if (r % 7 != 0) {
                    g.add("price", (long) random.nextInt(100_000));
                }
                g.add("ts", 1_700_000_000_000_000L + r * 1000L);
                if (r % 3 != 0) {
                    g.add("flag", random.nextBoolean());
                }
                writer.write(g);
            }
        }
    }
}
