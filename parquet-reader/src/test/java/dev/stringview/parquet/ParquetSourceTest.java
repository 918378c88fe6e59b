package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading through {@link ParquetSource}s: every source and memory mode gives what the memory mapping gives; the
 * I/O plan (one tail read, one coalesced read per row group, prefetch within its bound) issues the requests it
 * promises; and a source that fails mid-read gives one error naming file, row group, columns and byte range, with
 * nothing left open.
 */
class ParquetSourceTest {
    @TempDir
    static Path dir;
    static Path file;
    static ExecutorService pool;

    @BeforeAll
    static void setUp() throws IOException {
        file = SourceFiles.write(dir, "sources", 3000, 700, CompressionCodecName.SNAPPY, 0, 31);
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void tearDown() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }

    /** A channel that is not a FileChannel, so the source takes its locked path. */
    static SeekableByteChannel plainChannel(SeekableByteChannel inner) {
        return new SeekableByteChannel() {
            public int read(ByteBuffer dst) throws IOException { return inner.read(dst); }
            public int write(ByteBuffer src) throws IOException { return inner.write(src); }
            public long position() throws IOException { return inner.position(); }
            public SeekableByteChannel position(long p) throws IOException { inner.position(p); return this; }
            public long size() throws IOException { return inner.size(); }
            public SeekableByteChannel truncate(long size) throws IOException { inner.truncate(size); return this; }
            public boolean isOpen() { return inner.isOpen(); }
            public void close() throws IOException { inner.close(); }
        };
    }

    interface SourceMaker {
        ParquetSource open(Path path, Arena arena) throws IOException;
    }

    static List<SourceMaker> sources() {
        return List.of(
                (p, a) -> ParquetSources.channel(FileChannel.open(p, StandardOpenOption.READ), "file-channel"),
                (p, a) -> ParquetSources.channel(plainChannel(Files.newByteChannel(p)), "byte-channel"),
                (p, a) -> ParquetSources.inputFile(new LocalInputFile(p), "input-file"),
                (p, a) -> ParquetSources.memory(MemorySegment.ofArray(Files.readAllBytes(p)), "heap-bytes"));
    }

    @TestFactory
    Stream<DynamicTest> everySourceReadsWhatTheMappingReads() throws IOException {
        List<List<byte[]>> expected = SourceFiles.readMapped(file, "a", "b", "c", "d");
        List<DynamicTest> tests = new ArrayList<>();
        String[] names = {"file-channel", "byte-channel", "input-file", "heap-bytes"};
        for (int s = 0; s < sources().size(); s++) {
            SourceMaker maker = sources().get(s);
            for (boolean batchScoped : new boolean[] {false, true}) {
                for (boolean prefetch : new boolean[] {false, true}) {
                    for (int batch : new int[] {1, 333, 8192}) {
                        String name = names[s] + " batchScoped=" + batchScoped + " prefetch=" + prefetch
                                + " batch=" + batch;
                        tests.add(DynamicTest.dynamicTest(name, () -> {
                            ParquetViewOptions options = ParquetViewOptions.defaults().withBatchSize(batch)
                                    .withBatchScopedMemory(batchScoped).withPrefetch(prefetch ? pool : null);
                            try (Arena arena = Arena.ofShared(); ParquetSource source = maker.open(file, arena);
                                    ParquetViewReader reader = ParquetViewReader.open(source, arena, options)) {
                                SourceFiles.assertSameValues(expected, SourceFiles.readAll(reader), name);
                                reader.close();
                                assertEquals(0, reader.openChunkArenas(), "every chunk arena freed");
                            }
                        }));
                    }
                }
            }
        }
        return tests.stream();
    }

    /** Every conformance file the mapping reads reads the same through a channel, or fails the same way. */
    @Test
    void conformanceFilesReadTheSameThroughAChannel() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(TestData.dataDir())) {
            files = list.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
        }
        int read = 0;
        for (Path p : files) {
            List<List<byte[]>> expected;
            try {
                expected = SourceFiles.readMapped(p);
            } catch (IOException | RuntimeException mappedFailure) {
                try (Arena arena = Arena.ofConfined();
                        ParquetSource source = ParquetSources.channel(FileChannel.open(p), p.getFileName().toString())) {
                    Exception e = assertThrows(Exception.class, () -> {
                        try (ParquetViewReader r = ParquetViewReader.open(source, arena, ParquetViewOptions.defaults())) {
                            SourceFiles.readAll(r);
                        }
                    }, p.toString());
                    assertEquals(mappedFailure.getClass(), e.getClass(), p + ": " + e.getMessage());
                }
                continue;
            }
            try (Arena arena = Arena.ofConfined();
                    ParquetSource source = ParquetSources.channel(FileChannel.open(p), p.getFileName().toString());
                    ParquetViewReader reader = ParquetViewReader.open(source, arena, ParquetViewOptions.defaults())) {
                SourceFiles.assertSameValues(expected, SourceFiles.readAll(reader), p.toString());
                read++;
            }
        }
        assertTrue(read >= 10, "conformance files read: " + read);
    }

    /** The requests a whole read makes: one tail read, then one per row group for adjacent projected chunks. */
    @Test
    void oneTailReadThenOneRequestPerRowGroup() throws IOException {
        try (Arena arena = Arena.ofConfined();
                ParquetSource source = ParquetSources.channel(FileChannel.open(file), "f");
                ParquetViewReader reader = ParquetViewReader.open(source, arena,
                        ParquetViewOptions.defaults().withColumns("a", "b"))) {
            ReadCounters afterFooter = reader.readCounters();
            assertEquals(1, afterFooter.requests(), afterFooter.toString());
            assertEquals(Math.min(Files.size(file), ParquetViewReader.FOOTER_READ), afterFooter.bytesRead());
            SourceFiles.readAll(reader);
            ReadCounters done = reader.readCounters();
            long projected = 0;
            long others = 0;
            for (BlockMetaData block : reader.footer().getBlocks()) {
                for (ColumnChunkMetaData c : block.getColumns()) {
                    String name = c.getPath().toDotString();
                    if (name.equals("a") || name.equals("b")) {
                        projected += c.getTotalSize();
                    } else {
                        others += c.getTotalSize();
                    }
                }
            }
            assertEquals(1 + reader.rowGroupCount(), done.requests(), done.toString());
            assertEquals(afterFooter.bytesRead() + projected, done.bytesRead(), done.toString());
            assertEquals(others, done.bytesSkipped(), done.toString());
        }
    }

    /** Chunks more than the gap apart are separate requests; closer ones share one, gap bytes counted as read. */
    @Test
    void chunksFarApartAreReadSeparately() throws IOException {
        Path wide = SourceFiles.write(dir, "wide", 6000, 6000, CompressionCodecName.UNCOMPRESSED, 0, 5);
        try (Arena arena = Arena.ofConfined();
                ParquetSource source = ParquetSources.channel(FileChannel.open(wide), "wide");
                ParquetViewReader reader = ParquetViewReader.open(source, arena,
                        ParquetViewOptions.defaults().withColumns("a", "c"))) {
            ColumnChunkMetaData a = reader.chunkMetaData(0, "a");
            ColumnChunkMetaData c = reader.chunkMetaData(0, "c");
            long gap = c.getStartingPos() - (a.getStartingPos() + a.getTotalSize());
            SourceFiles.readAll(reader);
            ReadCounters done = reader.readCounters();
            assertEquals(gap > 1 << 20 ? 3 : 2, done.requests(), "gap=" + gap + " " + done);
            assertTrue(gap < 1 << 20 || done.bytesSkipped() >= gap, done.toString());
        }
    }

    @Test
    void aFooterLargerThanTheTailReadTakesOneMoreRead() throws IOException {
        Path big = SourceFiles.write(dir, "bigfooter", 100, 100, CompressionCodecName.UNCOMPRESSED, 200_000, 7);
        try (Arena arena = Arena.ofConfined();
                ParquetSource source = ParquetSources.channel(FileChannel.open(big), "bigfooter");
                ParquetViewReader reader = ParquetViewReader.open(source, arena, ParquetViewOptions.defaults())) {
            assertEquals(2, reader.readCounters().requests());
            SourceFiles.assertSameValues(SourceFiles.readMapped(big), SourceFiles.readAll(reader), "big footer");
        }
    }

    /** With prefetch, a row group's chunks are requested only once the reader is at most bound - 1 groups behind. */
    @Test
    void prefetchStaysWithinItsBound() throws IOException {
        for (int bound : new int[] {1, 2, 3}) {
            List<Long> requested = Collections.synchronizedList(new ArrayList<>());
            try (Arena arena = Arena.ofShared();
                    ParquetSource inner = ParquetSources.channel(FileChannel.open(file), "f");
                    ParquetSource logged = failing(inner, requested, n -> false);
                    ParquetViewReader reader = ParquetViewReader.open(logged, arena, ParquetViewOptions.defaults()
                            .withBatchScopedMemory(true).withPrefetch(pool).withMaxRowGroupsInMemory(bound))) {
                List<BlockMetaData> blocks = reader.footer().getBlocks();
                requested.clear(); // the footer's tail read
                int group = -1;
                for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                    group = batch.rowGroup();
                    int furthest = -1;
                    synchronized (requested) {
                        for (long offset : requested) {
                            for (int g = 0; g < blocks.size(); g++) {
                                if (offset >= blocks.get(g).getStartingPos()
                                        && offset < blocks.get(g).getStartingPos() + blocks.get(g).getCompressedSize()) {
                                    furthest = Math.max(furthest, g);
                                }
                            }
                        }
                    }
                    assertTrue(furthest <= group + bound - 1,
                            "bound=" + bound + " reading=" + group + " requested up to " + furthest);
                    assertTrue(furthest >= group, "the current group was read");
                }
                assertEquals(blocks.size() - 1, group);
            }
        }
    }

    /** A source that records each read's offset and fails the reads {@code fail} picks (by their count from 0). */
    static ParquetSource failing(ParquetSource inner, List<Long> log, IntPredicate fail) {
        return new ParquetSource() {
            int reads;

            public String name() { return inner.name(); }
            public long length() throws IOException { return inner.length(); }
            public void read(long position, MemorySegment destination) throws IOException {
                int n;
                synchronized (this) {
                    n = reads++;
                }
                log.add(position);
                if (fail.test(n)) {
                    // Half the bytes arrive, then the connection drops.
                    inner.read(position, destination.asSlice(0, destination.byteSize() / 2));
                    throw new IOException("connection reset (injected) at read " + n);
                }
                inner.read(position, destination);
            }
            public void close() throws IOException { inner.close(); }
        };
    }

    @TestFactory
    Stream<DynamicTest> aFailingReadNamesFileRowGroupColumnsAndRange() {
        List<DynamicTest> tests = new ArrayList<>();
        for (boolean batchScoped : new boolean[] {false, true}) {
            for (boolean prefetch : new boolean[] {false, true}) {
                tests.add(DynamicTest.dynamicTest("batchScoped=" + batchScoped + " prefetch=" + prefetch, () -> {
                    try (Arena arena = Arena.ofShared();
                            ParquetSource source = failing(ParquetSources.channel(FileChannel.open(file), "sources.parquet"),
                                    new ArrayList<>(), n -> n == 3)) {
                        ParquetViewReader reader = ParquetViewReader.open(source, arena, ParquetViewOptions.defaults()
                                .withColumns("a", "d").withBatchScopedMemory(batchScoped)
                                .withPrefetch(prefetch ? pool : null));
                        IOException e = assertThrows(IOException.class, () -> SourceFiles.readAll(reader));
                        String m = e.getMessage();
                        assertTrue(m.startsWith("cannot read column chunks: file=sources.parquet rowGroup=2 chunks=[a@"),
                                m);
                        assertTrue(m.contains(",d@") && m.contains("connection reset (injected) at read 3"), m);
                        reader.close();
                        assertEquals(0, reader.openChunkArenas(), "chunk arenas freed after the failure");
                    }
                }));
            }
        }
        return tests.stream();
    }

    @Test
    void aFileThatShrinksAfterItsFooterWasReadFailsWithItsRange() throws IOException {
        Path copy = dir.resolve("shrinks.parquet");
        Files.copy(file, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (Arena arena = Arena.ofConfined();
                FileChannel channel = FileChannel.open(copy, StandardOpenOption.READ, StandardOpenOption.WRITE);
                ParquetSource source = ParquetSources.channel(channel, "shrinks.parquet");
                ParquetViewReader reader = ParquetViewReader.open(source, arena,
                        ParquetViewOptions.defaults().withBatchScopedMemory(true))) {
            channel.truncate(Files.size(copy) / 3);
            IOException e = assertThrows(IOException.class, () -> SourceFiles.readAll(reader));
            assertTrue(e.getMessage().startsWith("cannot read column chunks: file=shrinks.parquet rowGroup="),
                    e.getMessage());
            assertTrue(e.getCause() instanceof EOFException, String.valueOf(e.getCause()));
            assertTrue(e.getMessage().contains("endedAt="), e.getMessage());
            reader.close();
            assertEquals(0, reader.openChunkArenas());
        }
    }

    @Test
    void aTruncatedTailIsNotParquet() throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        MemorySegment cut = MemorySegment.ofArray(java.util.Arrays.copyOf(bytes, bytes.length - 3));
        try (Arena arena = Arena.ofConfined()) {
            // Not in memory: a channel over the cut bytes, so the footer comes from the tail read.
            Path p = dir.resolve("cut.parquet");
            Files.write(p, cut.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
            try (ParquetSource source = ParquetSources.channel(FileChannel.open(p), "cut.parquet")) {
                CorruptParquetException e = assertThrows(CorruptParquetException.class,
                        () -> ParquetViewReader.open(source, arena, ParquetViewOptions.defaults()));
                assertTrue(e.getMessage().startsWith("not a parquet file, or truncated: magic bytes missing: "
                        + "file=cut.parquet fileSize=" + (bytes.length - 3)), e.getMessage());
            }
        }
    }

    /** A table directory as Spark writes it, with Hive's suffix-less files, nested partitions and hidden entries. */
    @Test
    void filesListsATableLikeSparkAndHive() throws IOException {
        Path table = Files.createDirectories(dir.resolve("listed"));
        List<String> kept = List.of("000000_0", "b=1/part-1.parquet", "b=2/c=x/part-0.snappy.parquet",
                "part-0.parquet", "part-10.parquet", "part-2.parquet");
        List<String> hidden = List.of("_SUCCESS", "_common_metadata", ".part-0.parquet.crc",
                "_temporary/0/part.parquet", ".hidden/part-9.parquet", "b=1/_delta_log/0.json", "b=2/.staging/part.parquet");
        for (String name : Stream.concat(kept.stream(), hidden.stream()).toList()) {
            Path file = table.resolve(name);
            Files.createDirectories(file.getParent());
            Files.write(file, new byte[] {1});
        }
        Files.createDirectories(table.resolve("empty/sub"));
        List<String> listed = new ArrayList<>();
        for (Path p : ParquetSources.files(table)) {
            listed.add(table.relativize(p).toString().replace('\\', '/'));
        }
        assertEquals(kept, listed);
        Path one = table.resolve("part-2.parquet");
        assertEquals(List.of(one), ParquetSources.files(one));
        assertEquals(List.of(), ParquetSources.files(table.resolve("empty")));
        java.nio.file.NoSuchFileException missing = assertThrows(java.nio.file.NoSuchFileException.class,
                () -> ParquetSources.files(table.resolve("missing")));
        assertTrue(missing.getMessage().contains("path=" + table.resolve("missing")), missing.getMessage());
    }
}
