package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewColumn;
import dev.stringview.ViewLayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An uncompressed PLAIN column's long values resolve to addresses inside the memory-mapped file, right after
 * their length prefixes, and the only memory the reader takes from the arena is the views and bitmaps: no
 * string byte is copied. Also: the Java heap allocation per value is about zero.
 */
class ZeroCopyTest {
    static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message m { optional binary s (STRING); }");

    @TempDir
    Path dir;

    private Path writePlain(int rows, double nulls) throws IOException {
        return writePlain(rows, nulls, 64 * 1024);
    }

    private Path writePlain(int rows, double nulls, int pageSize) throws IOException {
        Path path = dir.resolve("plain-" + rows + ".parquet");
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(path))
                .withConf(new PlainParquetConfiguration()).withType(SCHEMA).withCodecFactory(new TestCodecs())
                .withCompressionCodec(CompressionCodecName.UNCOMPRESSED).withWriterVersion(WriterVersion.PARQUET_1_0)
                .withDictionaryEncoding(false).withPageSize(pageSize).build()) {
            java.util.Random random = new java.util.Random(1);
            for (int i = 0; i < rows; i++) {
                Group g = groups.newGroup();
                if (random.nextDouble() >= nulls) {
                    g.add("s", "value-" + i + "-" + "x".repeat(random.nextInt(40)) + (i % 3 == 0 ? "é" : ""));
                }
                writer.write(g);
            }
        }
        return path;
    }

    /** An arena that counts what is allocated from it. */
    static final class CountingArena implements Arena {
        final Arena delegate = Arena.ofConfined();
        long allocated;

        @Override
        public MemorySegment allocate(long byteSize, long byteAlignment) {
            allocated += byteSize;
            return delegate.allocate(byteSize, byteAlignment);
        }

        @Override
        public MemorySegment.Scope scope() {
            return delegate.scope();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    @Test
    void longValuesPointIntoTheMappedFile() throws IOException {
        Path path = writePlain(5000, 0.1);
        List<byte[]> expected = Oracle.read(path, "s");
        try (CountingArena arena = new CountingArena();
                ParquetViewReader reader = ParquetViewReader.open(path, arena,
                        ParquetViewOptions.defaults().withBatchSize(1000))) {
            MemorySegment file = reader.mappedFile();
            long fileStart = file.address();
            long fileEnd = fileStart + file.byteSize();
            long viewAndBitmapBytes = 0;
            long longValueBytes = 0;
            int longValues = 0;
            int row0 = 0;
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                ViewColumn column = batch.column("s");
                viewAndBitmapBytes += (long) column.size() * ViewLayout.VIEW_SIZE
                        + column.validity().map(MemorySegment::byteSize).orElse(0L);
                for (int i = 0; i < column.bufferCount(); i++) {
                    long a = column.buffer(i).address();
                    assertTrue(a >= fileStart && a + column.buffer(i).byteSize() <= fileEnd,
                            "buffer " + i + " lies inside the mapped file");
                }
                for (int row = 0; row < column.size(); row++) {
                    byte[] want = expected.get(row0 + row);
                    MemorySegment value = column.segment(row);
                    if (want == null) {
                        assertTrue(column.isNull(row));
                        continue;
                    }
                    assertEquals(new String(want, StandardCharsets.UTF_8), column.string(row));
                    if (want.length > ViewLayout.INLINE_MAX) {
                        long address = value.address();
                        assertTrue(address >= fileStart && address + want.length <= fileEnd,
                                "row " + (row0 + row) + " resolves into the mapped file");
                        long offset = address - fileStart;
                        int prefix = file.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED
                                .withOrder(ByteOrder.LITTLE_ENDIAN), offset - 4);
                        assertEquals(want.length, prefix, "the PLAIN length prefix sits right before the value");
                        longValues++;
                        longValueBytes += want.length;
                    }
                }
                row0 += column.size();
            }
            assertEquals(expected.size(), row0);
            assertTrue(longValues > 4000, "most values are long: " + longValues);
            // Nothing but views and bitmaps came from the arena: the string bytes were not copied anywhere.
            assertEquals(viewAndBitmapBytes, arena.allocated, "arena bytes = views + bitmaps");
            assertTrue(arena.allocated < longValueBytes, "fewer bytes allocated than the strings hold");
        }
    }

    @Test
    void heapAllocationPerValueIsAboutZero() throws IOException {
        // parquet-java's default 1 MiB pages: the few small objects made per page (header, decoders, about 500
        // bytes) are then spread over thousands of values, as in real files.
        Path path = writePlain(200_000, 0.05, 1024 * 1024);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long rows = 0;
        for (int warmup = 0; warmup < 3; warmup++) {
            rows = readAll(path);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        rows = readAll(path);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        before = threads.getCurrentThreadAllocatedBytes();
        openOnly(path);
        long perFile = threads.getCurrentThreadAllocatedBytes() - before;
        double perValue = (double) (allocated - perFile) / rows;
        System.out.printf("heap per value %.4f bytes (read %d, open %d)%n", perValue, allocated, perFile);
        assertEquals(200_000, rows);
        // The footer (parquet-java) costs a fixed amount per file; what grows with the rows must be ~0.
        assertTrue(perValue < 0.3, "heap bytes per value: " + perValue + " (total " + allocated + ", open "
                + perFile + ")");
    }

    private static void openOnly(Path path) throws IOException {
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(path, arena)) {
            assertEquals(200_000, reader.rowCount());
        }
    }

    private static long readAll(Path path) throws IOException {
        long rows = 0;
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(path, arena,
                        ParquetViewOptions.defaults().withBatchSize(8192))) {
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                rows += batch.rowCount();
            }
        }
        return rows;
    }
}
