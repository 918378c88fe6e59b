package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewColumn;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ParquetViewOptions#withSplit} against parquet-java's own split rule (a row group belongs to the split holding
 * its midpoint), and {@link ParquetViewOptions#withFilter} against {@link ParquetScan}'s pruning, for mapped files
 * and sources read ahead on an executor.
 */
class SplitAndFilterOptionsTest {
    @TempDir
    static Path dir;
    static Path groups;
    static Path numbered;
    static ExecutorService executor;

    @BeforeAll
    static void write() throws IOException {
        groups = SourceFiles.write(dir, "split", 3000, 250, CompressionCodecName.SNAPPY, 0, 11);
        numbered = dir.resolve("numbered.parquet");
        MessageType schema = MessageTypeParser.parseMessageType(
                "message m { optional binary s (STRING); required int64 n; }");
        SimpleGroupFactory factory = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(numbered))
                .withConf(new PlainParquetConfiguration()).withType(schema).withCodecFactory(new TestCodecs())
                .withCompressionCodec(CompressionCodecName.SNAPPY).withRowGroupRowCountLimit(1000)
                .withPageRowCountLimit(300).build()) {
            for (int i = 0; i < 4500; i++) {
                Group g = factory.newGroup();
                if (i % 7 != 0) {
                    g.add("s", "value-" + i + "-" + "é".repeat(i % 13));
                }
                g.add("n", (long) i);
                writer.write(g);
            }
        }
        executor = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stop() {
        executor.shutdownNow();
    }

    /** The row groups parquet-java reads for the split {@code [start, start + length)}, as indexes. */
    private static List<Integer> parquetJavaGroups(Path path, long start, long length) throws IOException {
        List<Long> starts = new ArrayList<>();
        try (ParquetFileReader all = ParquetFileReader.open(new LocalInputFile(path))) {
            for (BlockMetaData b : all.getRowGroups()) {
                starts.add(b.getStartingPos());
            }
        }
        ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration())
                .withRange(start, start + length).build();
        List<Integer> groups = new ArrayList<>();
        try (ParquetFileReader split = ParquetFileReader.open(new LocalInputFile(path), options)) {
            for (BlockMetaData b : split.getRowGroups()) {
                groups.add(starts.indexOf(b.getStartingPos()));
            }
        }
        return groups;
    }

    /** Per batch read: its row group; and every value of column {@code a} into {@code values} by file row. */
    private static List<Integer> read(ParquetViewReader reader, String column, String[] values) throws IOException {
        TreeSet<Integer> seen = new TreeSet<>();
        for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
            seen.add(batch.rowGroup());
            ViewColumn c = batch.column(column);
            for (int r = 0; r < batch.rowCount(); r++) {
                int row = Math.toIntExact(batch.firstRow() + r);
                assertEquals(null, values[row], "row read twice: row=" + row);
                values[row] = c.isNull(r) ? "<null>" : c.string(r);
            }
        }
        return new ArrayList<>(seen);
    }

    /** Channels opened by {@link #open}, closed after each test. */
    private final List<FileChannel> channels = new ArrayList<>();

    @AfterEach
    void closeChannels() throws IOException {
        for (FileChannel c : channels) {
            c.close();
        }
    }

    /** The file mapped, or read through a channel with batch-scoped memory and row groups read ahead. */
    private ParquetViewReader open(Path path, boolean fromSource, Arena arena, ParquetViewOptions options)
            throws IOException {
        if (!fromSource) {
            return ParquetViewReader.open(path, arena, options);
        }
        FileChannel channel = FileChannel.open(path);
        channels.add(channel);
        return ParquetViewReader.open(ParquetSources.channel(channel, path.toString()), arena,
                options.withBatchScopedMemory(true).withPrefetch(executor).withMaxRowGroupsInMemory(3));
    }

    @Test
    void adjacentSplitsReadEveryRowGroupOnceAsParquetJavaDoes() throws IOException {
        long size = Files.size(groups);
        String[] whole = new String[3000];
        try (Arena arena = Arena.ofConfined(); ParquetViewReader reader = ParquetViewReader.open(groups, arena,
                ParquetViewOptions.defaults().withColumns("a", "d"))) {
            assertEquals(12, reader.rowGroupCount());
            read(reader, "a", whole);
        }
        Random random = new Random(5);
        for (int trial = 0; trial < 12; trial++) {
            boolean fromSource = trial % 2 == 1;
            // Cut points: random, plus 0-length splits and one cut at every row group on some trials.
            TreeSet<Long> cuts = new TreeSet<>(List.of(0L, size));
            int pieces = 1 + random.nextInt(trial < 4 ? 3 : 20);
            for (int i = 0; i < pieces; i++) {
                cuts.add((long) random.nextInt((int) size + 1));
            }
            if (trial == 3) {
                cuts.add(cuts.ceiling(size / 2)); // a repeated cut: a 0-length split
            }
            String[] values = new String[3000];
            Long previous = null;
            for (long cut : cuts) {
                if (previous != null) {
                    long start = previous;
                    long length = cut - previous;
                    try (Arena arena = Arena.ofShared(); ParquetViewReader reader = open(groups, fromSource, arena,
                            ParquetViewOptions.defaults().withColumns("a", "d").withBatchSize(100)
                                    .withSplit(start, length))) {
                        assertEquals(parquetJavaGroups(groups, start, length), read(reader, "a", values),
                                "trial=" + trial + " start=" + start + " length=" + length);
                    }
                }
                previous = cut;
            }
            for (int row = 0; row < 3000; row++) {
                assertEquals(whole[row], values[row], "trial=" + trial + " row=" + row);
            }
        }
    }

    @Test
    void aSplitPastTheRowGroupsReadsNothing() throws IOException {
        try (Arena arena = Arena.ofConfined(); ParquetViewReader reader = ParquetViewReader.open(groups, arena,
                ParquetViewOptions.defaults().withSplit(Files.size(groups) - 8, 8))) {
            assertEquals(null, reader.nextBatch());
            assertEquals(null, reader.nextBatch());
        }
    }

    @Test
    void aFilterSkipsTheRowGroupsAScanPrunesAndKeepsEveryRowOfTheRest() throws IOException {
        List<RowFilter> filters = List.of(
                new RowFilter.StringTest("s", RowFilter.Op.EQUAL, List.of("value-4321-".getBytes())),
                new RowFilter.ValueTest("n", RowFilter.Op.GREATER_THAN, List.of(2500L)),
                RowFilter.and(new RowFilter.ValueTest("n", RowFilter.Op.LESS_THAN, List.of(1200L)),
                        RowFilter.not(RowFilter.isNull("s"))),
                RowFilter.or(new RowFilter.ValueTest("n", RowFilter.Op.EQUAL, List.of(10L)),
                        new RowFilter.ValueTest("n", RowFilter.Op.EQUAL, List.of(4400L))));
        for (RowFilter filter : filters) {
            List<Integer> pruned = ParquetScan.of(numbered).rowGroupsToRead(filter);
            assertTrue(pruned.size() < 5, "the scan prunes something: filter=" + filter + " groups=" + pruned);
            for (boolean fromSource : new boolean[] {false, true}) {
                long passing = 0;
                String[] values = new String[4500];
                try (Arena arena = Arena.ofShared(); ParquetViewReader reader = open(numbered, fromSource, arena,
                        ParquetViewOptions.defaults().withColumns("s", "n").withBatchSize(333).withFilter(filter))) {
                    BatchFilter rows = BatchFilter.of(filter, reader);
                    List<Integer> read = new ArrayList<>();
                    for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                        if (read.isEmpty() || read.get(read.size() - 1) != batch.rowGroup()) {
                            read.add(batch.rowGroup());
                        }
                        ViewColumn s = batch.column("s");
                        for (int r = 0; r < batch.rowCount(); r++) {
                            int row = Math.toIntExact(batch.firstRow() + r);
                            values[row] = s.isNull(r) ? "<null>" : s.string(r);
                        }
                        passing += rows.select(batch, new int[batch.rowCount()]);
                    }
                    assertEquals(pruned, read, "filter=" + filter + " fromSource=" + fromSource);
                }
                assertEquals(ParquetScan.of(numbered).count(filter), passing, "filter=" + filter);
                for (int g : pruned) {
                    for (int row = g * 1000; row < Math.min(4500, (g + 1) * 1000); row++) {
                        String expected = row % 7 == 0 ? "<null>" : "value-" + row + "-" + "é".repeat(row % 13);
                        assertEquals(expected, values[row], "filter=" + filter + " row=" + row);
                    }
                }
            }
        }
    }

    @Test
    void splitAndFilterTogetherAndASeekIntoASkippedRowGroup() throws IOException {
        RowFilter filter = new RowFilter.ValueTest("n", RowFilter.Op.GREATER_THAN_OR_EQUAL, List.of(2000L));
        long size = Files.size(numbered);
        List<Integer> split = parquetJavaGroups(numbered, 0, size / 2);
        try (Arena arena = Arena.ofConfined(); ParquetViewReader reader = ParquetViewReader.open(numbered, arena,
                ParquetViewOptions.defaults().withColumns("s").withSplit(0, size / 2).withFilter(filter))) {
            List<Integer> expected = new ArrayList<>(split);
            expected.removeIf(g -> g < 2);
            reader.seekRowGroup(1); // pruned: reading goes on at the next row group read
            List<Integer> read = new ArrayList<>();
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                if (!read.contains(batch.rowGroup())) {
                    read.add(batch.rowGroup());
                    assertEquals(1000L * batch.rowGroup(), batch.firstRow());
                }
            }
            assertEquals(expected, read);
        }
    }

    @Test
    void badSplitsAndFiltersAreOneLineErrors() throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ParquetViewOptions.defaults().withSplit(-1, 10));
        assertEquals("split out of range: splitStart=-1 splitLength=10", e.getMessage());
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                    () -> ParquetViewReader.open(numbered, arena, ParquetViewOptions.defaults()
                            .withFilter(RowFilter.isNull("nope"))));
            assertTrue(missing.getMessage().startsWith("no such column: file=")
                    && missing.getMessage().contains("column=nope"), missing.getMessage());
        }
    }
}
