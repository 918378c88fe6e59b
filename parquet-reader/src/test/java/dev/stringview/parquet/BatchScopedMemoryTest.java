package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewColumn;
import dev.stringview.parquet.GeneratedFilesTest.Encoding;
import dev.stringview.parquet.GeneratedFilesTest.Lengths;
import dev.stringview.parquet.GeneratedFilesTest.Scenario;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ParquetViewOptions#withBatchScopedMemory}: a batch is freed when the next one is read, the buffers its
 * pages were decompressed into once reading has moved past them, and everything when the reader closes. A stale
 * batch must throw rather than read freed memory, and live memory must not grow with the file. Values read in
 * this mode are compared with parquet-java in {@link GeneratedFilesTest} and {@link CrossPagePrefixTest}.
 */
class BatchScopedMemoryTest {
    private static final List<String> COLUMNS = List.of("s", "b", "j");

    /** Batch-scoped reads in 7-row batches, so that the files' few pages span many batches. */
    static final ParquetViewOptions SMALL_BATCHES = ParquetViewOptions.defaults().withBatchSize(7)
            .withBatchScopedMemory(true);

    @TempDir
    static Path dir;

    /** Compressed and uncompressed; dictionary, DELTA_BYTE_ARRAY (v2) and PLAIN; many small pages each. */
    static Stream<Scenario> files() {
        return Stream.of(
                new Scenario(WriterVersion.PARQUET_2_0, Encoding.PLAIN_OR_DELTA, CompressionCodecName.SNAPPY, 0.3,
                        Lengths.LONG, 3000),
                new Scenario(WriterVersion.PARQUET_1_0, Encoding.DICTIONARY, CompressionCodecName.ZSTD, 0.3,
                        Lengths.MIXED, 1500),
                new Scenario(WriterVersion.PARQUET_1_0, Encoding.PLAIN_OR_DELTA, CompressionCodecName.UNCOMPRESSED, 0,
                        Lengths.MIXED, 1500));
    }

    static Path file(Scenario s) throws IOException {
        Path path = dir.resolve(s.name() + ".parquet");
        GeneratedFilesTest.write(path, s, new Random(s.name().hashCode()));
        return path;
    }

    @ParameterizedTest
    @MethodSource("files")
    void staleBatchThrowsInsteadOfReadingFreedMemory(Scenario s) throws IOException {
        Path path = file(s);
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(path, arena, SMALL_BATCHES)) {
            ViewColumn first = reader.nextBatch().column("b"); // required: every row has a value
            first.bytes(0);
            MemorySegment pageBuffer = first.bufferCount() > 0 ? first.buffer(0) : null;
            reader.nextBatch();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> first.bytes(0));
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
            if (pageBuffer != null && s.codec() != CompressionCodecName.UNCOMPRESSED) {
                // The first batch's buffer (a decompressed page, or a block of rebuilt DELTA_BYTE_ARRAY values)
                // outlives its batch while it is read from; by the end of the file it is freed too.
                pageBuffer.get(ValueLayout.JAVA_BYTE, 0);
                while (reader.nextBatch() != null) {
                    // read to the end
                }
                assertThrows(IllegalStateException.class, () -> pageBuffer.get(ValueLayout.JAVA_BYTE, 0));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("files")
    void lastBatchIsFreedWhenTheReaderCloses(Scenario s) throws IOException {
        Path path = file(s);
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column;
            try (ParquetViewReader reader = ParquetViewReader.open(path, arena,
                    ParquetViewOptions.defaults().withBatchScopedMemory(true))) {
                column = reader.nextBatch().column("b");
                column.bytes(0);
            }
            assertThrows(IllegalStateException.class, () -> column.bytes(0));
        }
    }

    @ParameterizedTest
    @MethodSource("files")
    void arenaScopedBatchesStayReadableUntilTheArenaCloses(Scenario s) throws IOException {
        Path path = file(s);
        List<byte[]> expected = Oracle.read(path, "b");
        try (Arena arena = Arena.ofConfined()) {
            List<ViewColumn> kept = new ArrayList<>();
            try (ParquetViewReader reader = ParquetViewReader.open(path, arena,
                    ParquetViewOptions.defaults().withBatchSize(7))) {
                for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                    kept.add(batch.column("b"));
                }
                assertEquals(0, reader.memory().openArenas(), "arena-scoped reads open no arenas of their own");
            }
            int row = 0;
            for (ViewColumn column : kept) {
                for (int i = 0; i < column.size(); i++) {
                    assertArrayEquals(expected.get(row++), column.bytes(i), "row=" + (row - 1));
                }
            }
            assertEquals(expected.size(), row);
        }
    }

    /**
     * However many pages are read, the reader holds at most: the current batch, and per column a dictionary, the
     * page being read and the one before it, and two blocks of rebuilt values. Fails if a buffer is never retired.
     */
    @ParameterizedTest
    @MethodSource("files")
    void liveMemoryDoesNotGrowWithTheFile(Scenario s) throws IOException {
        Path path = file(s);
        int bound = 1 + COLUMNS.size() * 5;
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(path, arena, SMALL_BATCHES)) {
            int pages = 0;
            for (String column : COLUMNS) {
                pages += reader.pages(column).size();
            }
            assertTrue(pages > 3 * bound, "enough pages that a leak would show: pages=" + pages + " bound=" + bound);
            int batches = 0;
            int most = 0;
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                batches++;
                int open = reader.memory().openArenas();
                most = Math.max(most, open);
                assertTrue(open <= bound, "batch=" + batches + " openArenas=" + open + " bound=" + bound);
            }
            assertTrue(most >= 1, "batch-scoped reads open arenas: most=" + most);
            reader.close();
            assertEquals(0, reader.memory().openArenas(), "closing the reader frees everything");
        }
    }

    /** Batch-scoped memory is confined: another thread gets a clear error, and the owner can still free it all. */
    @ParameterizedTest
    @MethodSource("files")
    void anotherThreadGetsWrongThreadException(Scenario s) throws Exception {
        Path path = file(s);
        try (Arena arena = Arena.ofShared();
                ParquetViewReader reader = ParquetViewReader.open(path, arena, SMALL_BATCHES)) {
            reader.nextBatch();
            Throwable thrown = thrownOnAnotherThread("other-reader-thread", reader::nextBatch);
            assertTrue(thrown instanceof WrongThreadException, String.valueOf(thrown));
            assertTrue(thrown.getMessage().contains("current=other-reader-thread"), thrown.getMessage());
            thrown = thrownOnAnotherThread("other-closing-thread", () -> {
                reader.close();
                return null;
            });
            assertTrue(thrown instanceof WrongThreadException && thrown.getMessage().contains("operation=close"),
                    String.valueOf(thrown));
            reader.nextBatch(); // the owner goes on: neither call changed the reader
            reader.close();
            assertEquals(0, reader.memory().openArenas());
        }
    }

    /** What {@code action} throws when run on a new thread of that name, or null. */
    private static Throwable thrownOnAnotherThread(String name, Callable<?> action) throws InterruptedException {
        Throwable[] thrown = new Throwable[1];
        Thread thread = new Thread(() -> {
            try {
                action.call();
            } catch (Throwable t) {
                thrown[0] = t;
            }
        }, name);
        thread.start();
        thread.join();
        return thrown[0];
    }

    /**
     * Within one row group: a page's decompressed buffer stays readable while its rows are being read, and is freed
     * within two batches of reading moving past the next page's start. Fails if pages are kept until the row
     * group (or the file) ends, and if a page is freed while still read.
     */
    @Test
    void pageBufferIsFreedSoonAfterReadingMovesPastIt() throws IOException {
        Path path = dir.resolve("one-row-group-snappy.parquet");
        MessageType schema = MessageTypeParser.parseMessageType("message m { required binary b; }");
        Random random = new Random(42);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(path))
                .withConf(new PlainParquetConfiguration()).withType(schema)
                .withCodecFactory(new TestCodecs()).withCompressionCodec(CompressionCodecName.SNAPPY)
                .withDictionaryEncoding(false).withPageRowCountLimit(PAGE_ROWS).withPageSize(1 << 20)
                .withRowGroupSize(64L << 20).build()) {
            SimpleGroupFactory groups = new SimpleGroupFactory(schema);
            for (int row = 0; row < 3000; row++) {
                byte[] value = new byte[20 + random.nextInt(20)];
                for (int i = 0; i < value.length; i++) {
                    value[i] = (byte) ('a' + random.nextInt(26));
                }
                writer.write(groups.newGroup().append("b", Binary.fromConstantByteArray(value)));
            }
        }
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(path, arena,
                        ParquetViewOptions.defaults().withBatchSize(10).withBatchScopedMemory(true))) {
            assertEquals(1, reader.rowGroupCount());
            MemorySegment firstPage = reader.nextBatch().column("b").buffer(0);
            long freedAt = -1;
            for (ViewBatch batch = reader.nextBatch(); batch != null && freedAt < 0; batch = reader.nextBatch()) {
                try {
                    firstPage.get(ValueLayout.JAVA_BYTE, 0);
                } catch (IllegalStateException e) {
                    freedAt = batch.firstRow();
                }
                if (batch.firstRow() + batch.rowCount() <= PAGE_ROWS) {
                    assertTrue(freedAt < 0, "page 0 freed while still read: row=" + batch.firstRow());
                }
            }
            // Page 0 is retired when page 1 starts (row 100) and freed when the batch after that starts.
            assertTrue(freedAt > PAGE_ROWS && freedAt <= PAGE_ROWS + 20, "page 0 freed at row=" + freedAt);
        }
    }

    private static final int PAGE_ROWS = 100;
}
