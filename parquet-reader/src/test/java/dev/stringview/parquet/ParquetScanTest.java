package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewColumn;
import dev.stringview.ViewPredicates;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
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
 * Differential tests of {@link ParquetScan}: every skipping path (statistics, bloom filters), page-range split and
 * thread count gives exactly the answers of an on-heap model of the written values (which the plain
 * single-threaded reader is checked against elsewhere). Files from parquet-java's writer with many row groups and
 * pages, with and without statistics and bloom filters, truncated statistics, nulls, all-null row groups and
 * values around the 12/13-byte inline limit.
 */
class ParquetScanTest {
    static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message m { optional binary s (STRING); }");
    static final int ROWS = 4000;
    static final int[] THREADS = {1, 2, 7};
    /** Tails chosen so that values land on 0, 1, 11, 12, 13, 15, 16, 17 bytes and beyond. */
    static final int[] TAIL_LENGTHS = {0, 10, 11, 12, 14, 15, 16, 39};
    static final String[] ALPHABET = {"a", "b", "c", "é", "€", "z", "\u00ff", "q"};

    @TempDir
    static Path dir;

    /** One written file and the values in it. */
    record Written(Path path, List<String> values, int rowGroupSize, String describe) {}

    /** How one file is written. */
    record Layout(String name, WriterVersion version, boolean dictionary, CompressionCodecName codec,
            boolean statistics, boolean bloom, int rowGroupRows, double nullRatio, int truncate) {}

    static final List<Layout> LAYOUTS = List.of(
            new Layout("plain-stats-bloom-truncated", WriterVersion.PARQUET_1_0, false,
                    CompressionCodecName.UNCOMPRESSED, true, true, 400, 0.2, 8),
            new Layout("dict-snappy-stats", WriterVersion.PARQUET_1_0, true, CompressionCodecName.SNAPPY, true,
                    false, 500, 0, Integer.MAX_VALUE),
            new Layout("delta-zstd-bloom-only", WriterVersion.PARQUET_2_0, false, CompressionCodecName.ZSTD, false,
                    true, 300, 0.3, Integer.MAX_VALUE),
            new Layout("plain-zstd-one-group", WriterVersion.PARQUET_1_0, false, CompressionCodecName.ZSTD, false,
                    false, ROWS, 0.1, Integer.MAX_VALUE),
            new Layout("dict-v2-one-group-stats", WriterVersion.PARQUET_2_0, true, CompressionCodecName.UNCOMPRESSED,
                    true, false, ROWS, 0.05, Integer.MAX_VALUE));

    /**
     * Row r's value: clustered by row group (the group's letter first) so that statistics can skip; every other
     * group also gets a share of values from anywhere, so its bounds are wide; group 3 is all nulls.
     */
    static Written write(Layout layout, long seed) throws IOException {
        Random random = new Random(seed);
        Path path = dir.resolve(layout.name() + "-" + seed + ".parquet");
        Files.deleteIfExists(path);
        List<String> values = new ArrayList<>();
        ExampleParquetWriter.Builder builder = ExampleParquetWriter.builder(new LocalOutputFile(path))
                .withConf(new PlainParquetConfiguration())
                .withType(SCHEMA)
                .withCodecFactory(new TestCodecs())
                .withCompressionCodec(layout.codec())
                .withWriterVersion(layout.version())
                .withDictionaryEncoding(layout.dictionary())
                .withPageSize(1024)
                .withPageRowCountLimit(70)
                .withRowGroupRowCountLimit(layout.rowGroupRows())
                .withStatisticsEnabled(layout.statistics())
                .withStatisticsTruncateLength(layout.truncate())
                .withBloomFilterEnabled(layout.bloom());
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer = builder.build()) {
            for (int row = 0; row < ROWS; row++) {
                int group = row / layout.rowGroupRows();
                String value;
                if (random.nextDouble() < layout.nullRatio() || (group == 3 && layout.rowGroupRows() < ROWS)) {
                    value = null;
                } else {
                    String head = group % 2 == 1 && random.nextInt(3) == 0
                            ? ALPHABET[random.nextInt(ALPHABET.length)]
                            : ALPHABET[group % ALPHABET.length];
                    value = head + tail(random, group % 4 == 2 ? 1 : 0);
                }
                values.add(value);
                Group g = groups.newGroup();
                if (value != null) {
                    g.add("s", value);
                }
                writer.write(g);
            }
        }
        return new Written(path, values, layout.rowGroupRows(), layout.name() + " seed=" + seed);
    }

    /**
     * A tail of 0 to 39 characters from a small alphabet (repeats make dictionaries and equal values); from
     * {@code TAIL_LENGTHS[first]} on, so that some groups' minimum is longer than their letter.
     */
    static String tail(Random random, int first) {
        int length = TAIL_LENGTHS[first + random.nextInt(TAIL_LENGTHS.length - first)];
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(i < 9 ? (char) ('0' + random.nextInt(2)) : 'x');
        }
        return sb.toString();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A filter and the model's answer for one value (never for null). */
    record Case(ColumnFilter filter, Predicate<byte[]> model) {}

    /** The rows of {@code w} whose non-null value {@code c}'s model accepts, ascending. */
    static long[] expectedRows(Written w, Case c) {
        List<Long> expectedRows = new ArrayList<>();
        for (int row = 0; row < w.values().size(); row++) {
            String v = w.values().get(row);
            if (v != null && c.model().test(utf8(v))) {
                expectedRows.add((long) row);
            }
        }
        return expectedRows.stream().mapToLong(Long::longValue).toArray();
    }

    /** The cases for {@code w}, in a list callers may add to. */
    static List<Case> cases(Written w, Random random) {
        List<String> present = w.values().stream().filter(v -> v != null).toList();
        List<Case> cases = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String v = present.get(random.nextInt(present.size()));
            byte[] b = utf8(v);
            cases.add(new Case(ColumnFilter.equalTo("s", v), x -> Arrays.equals(x, b)));
            String absent = v + "!";
            byte[] a = utf8(absent);
            cases.add(new Case(ColumnFilter.equalTo("s", absent), x -> Arrays.equals(x, a)));
            String other = present.get(random.nextInt(present.size()));
            byte[] o = utf8(other);
            cases.add(new Case(ColumnFilter.in("s", v, absent, other),
                    x -> Arrays.equals(x, b) || Arrays.equals(x, a) || Arrays.equals(x, o)));
            cases.add(new Case(ColumnFilter.lessThan("s", v), x -> Arrays.compareUnsigned(x, b) < 0));
            cases.add(new Case(ColumnFilter.greaterThan("s", v), x -> Arrays.compareUnsigned(x, b) > 0));
            String prefix = v.substring(0, Math.min(v.length(), 1 + random.nextInt(4)));
            byte[] p = utf8(prefix);
            cases.add(new Case(ColumnFilter.startsWith("s", prefix),
                    x -> x.length >= p.length && Arrays.equals(x, 0, p.length, p, 0, p.length)));
        }
        for (String letter : ALPHABET) {
            byte[] p = utf8(letter);
            cases.add(new Case(ColumnFilter.startsWith("s", letter),
                    x -> x.length >= p.length && Arrays.equals(x, 0, p.length, p, 0, p.length)));
        }
        // Constants outside every row group's bounds, and a predicate that no metadata can decide.
        cases.add(new Case(ColumnFilter.equalTo("s", ""), x -> x.length == 0));
        cases.add(new Case(ColumnFilter.startsWith("s", "\u00ff\u00ff"),
                x -> new String(x, StandardCharsets.UTF_8).startsWith("\u00ff\u00ff")));
        cases.add(new Case(ColumnFilter.lessThan("s", "a"), x -> Arrays.compareUnsigned(x, utf8("a")) < 0));
        cases.add(new Case(ColumnFilter.of("s", ViewPredicates.contains("1x")),
                x -> new String(x, StandardCharsets.UTF_8).contains("1x")));
        return cases;
    }

    @Test
    void countsAndSelectionsEqualTheModelAtEveryThreadCountWithAndWithoutSkipping() throws IOException {
        long seed = 20261123;
        Random random = new Random(seed);
        int scans = 0;
        for (Layout layout : LAYOUTS) {
            Written w = write(layout, seed + layout.name().hashCode());
            for (Case c : cases(w, random)) {
                long[] expected = expectedRows(w, c);
                for (int threads : THREADS) {
                    for (boolean statistics : new boolean[] {true, false}) {
                        for (boolean bloom : new boolean[] {true, false}) {
                            ParquetScan scan = ParquetScan.of(w.path()).withExecutor(ScanTasks.POOL, threads)
                                    .withStatistics(statistics).withBloomFilters(bloom)
                                    .withOptions(ParquetViewOptions.defaults().withBatchSize(1 + random.nextInt(300)));
                            String where = w.describe() + " filter=" + c.filter() + " threads=" + threads
                                    + " statistics=" + statistics + " bloom=" + bloom;
                            assertEquals(expected.length, scan.count(c.filter()), where);
                            assertArrayEquals(expected, scan.select(c.filter()), where);
                            scans++;
                        }
                    }
                }
            }
        }
        assertTrue(scans > 1000, "scans=" + scans);
    }

    @Test
    void rowGroupSliceCountsAddUpToTheModelsCountOfEachRowGroup() throws IOException {
        long seed = 20261124;
        Random random = new Random(seed);
        int checked = 0;
        for (Layout layout : LAYOUTS) {
            Written w = write(layout, seed + layout.name().hashCode());
            int groups = (ROWS + w.rowGroupSize() - 1) / w.rowGroupSize();
            for (Case c : cases(w, random)) {
                long[] expected = expectedRows(w, c);
                ParquetScan scan = ParquetScan.of(w.path())
                        .withOptions(ParquetViewOptions.defaults().withBatchSize(1 + random.nextInt(300)));
                for (int slices : new int[] {1, 2, 3, 8}) {
                    for (int g = 0; g < groups; g++) {
                        long first = (long) g * w.rowGroupSize();
                        long end = Math.min(ROWS, first + w.rowGroupSize());
                        long want = Arrays.stream(expected).filter(r -> r >= first && r < end).count();
                        long got = 0;
                        for (int slice = 0; slice < slices; slice++) {
                            got += scan.countRowGroup(c.filter(), g, slice, slices);
                        }
                        assertEquals(want, got, w.describe() + " filter=" + c.filter() + " rowGroup=" + g
                                + " slices=" + slices);
                        checked++;
                    }
                }
            }
        }
        assertTrue(checked > 500, "checked=" + checked);
        Written one = write(LAYOUTS.get(3), 3);
        ParquetScan scan = ParquetScan.of(one.path());
        ColumnFilter any = ColumnFilter.of("s", ViewPredicates.contains("a"));
        // A single large row group really is cut: more than one slice counts something.
        int nonEmpty = 0;
        for (int slice = 0; slice < 4; slice++) {
            nonEmpty += scan.countRowGroup(any, 0, slice, 4) > 0 ? 1 : 0;
        }
        assertTrue(nonEmpty > 1, "slices with rows: " + nonEmpty);
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> scan.countRowGroup(any, 0, 2, 2));
        assertEquals("slice out of range: slice=2 slices=2", e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> scan.countRowGroup(any, 1, 0, 1));
        assertTrue(e.getMessage().startsWith("no such row group: file="), e.getMessage());
    }

    @Test
    void statisticsAndBloomFiltersReallySkip() throws IOException {
        // Statistics: a clustered prefix keeps only the row groups holding it (group 0 holds "a" values only).
        Written stats = write(LAYOUTS.get(0), 5);
        ParquetScan scan = ParquetScan.of(stats.path()).withBloomFilters(false);
        int groups = ROWS / stats.rowGroupSize();
        List<Integer> read = scan.rowGroupsToRead(ColumnFilter.startsWith("s", "c"));
        assertTrue(read.size() < groups / 2 + 1, "row groups read for a clustered prefix: " + read);
        assertTrue(!read.contains(0) && !read.contains(3), "group 0 ('a' only) and 3 (nulls only): " + read);
        assertEquals(groups, scan.withStatistics(false).rowGroupsToRead(ColumnFilter.startsWith("s", "c")).size());
        // Bloom filters alone (this file has no statistics): a value that is nowhere skips nearly every group.
        Written bloom = write(LAYOUTS.get(2), 6);
        ParquetScan bloomScan = ParquetScan.of(bloom.path()).withStatistics(true);
        int bloomGroups = (ROWS + bloom.rowGroupSize() - 1) / bloom.rowGroupSize();
        List<Integer> absent = bloomScan.rowGroupsToRead(ColumnFilter.equalTo("s", "a0101x-nowhere"));
        assertTrue(absent.size() <= 2, "groups read for an absent value: " + absent + " of " + bloomGroups);
        assertEquals(bloomGroups, bloomScan.withBloomFilters(false)
                .rowGroupsToRead(ColumnFilter.equalTo("s", "a0101x-nowhere")).size());
        String present = bloom.values().stream().filter(v -> v != null).findFirst().orElseThrow();
        assertTrue(bloomScan.rowGroupsToRead(ColumnFilter.equalTo("s", present)).contains(0),
                "the group holding the value is read");
    }

    @Test
    void aRowGroupSplitsIntoPageRangesThatReadItsRowsExactly() throws IOException {
        for (Layout layout : List.of(LAYOUTS.get(3), LAYOUTS.get(4))) {
            Written w = write(layout, 11);
            try (Arena arena = Arena.ofConfined();
                    ParquetViewReader file = ParquetViewReader.open(w.path(), arena,
                            ParquetViewOptions.defaults().withColumns("s"))) {
                for (int pieces : new int[] {2, 3, 8, 1000}) {
                    List<ParquetViewReader.PageRange> ranges = ParquetScan.pageRanges(
                            file.chunk(0, file.columns().get(0)), pieces);
                    assertNotNull(ranges, w.describe());
                    assertTrue(ranges.size() >= Math.min(pieces, 2), w.describe() + " pieces=" + pieces
                            + " ranges=" + ranges.size());
                    List<String> values = new ArrayList<>();
                    for (ParquetViewReader.PageRange range : ranges) {
                        try (ParquetViewReader part = file.part(0, List.of(range), null,
                                ParquetViewOptions.defaults().withColumns("s").withBatchSize(33)
                                        .withBatchScopedMemory(true))) {
                            long expectedFirst = range.valuesBefore();
                            for (ViewBatch b = part.nextBatch(); b != null; b = part.nextBatch()) {
                                assertEquals(expectedFirst, b.firstRow(), w.describe());
                                expectedFirst += b.rowCount();
                                ViewColumn col = b.column(0);
                                for (int i = 0; i < col.size(); i++) {
                                    byte[] v = col.bytes(i);
                                    values.add(v == null ? null : new String(v, StandardCharsets.UTF_8));
                                }
                            }
                            assertEquals(range.valuesBefore() + range.values(), expectedFirst, w.describe());
                        }
                    }
                    assertEquals(w.values(), values, w.describe() + " pieces=" + pieces);
                }
            }
        }
    }

    @Test
    void batchesArriveInFileOrderAtEveryThreadCount() throws IOException {
        for (Layout layout : LAYOUTS) {
            Written w = write(layout, 21);
            for (int threads : THREADS) {
                ParquetScan scan = ParquetScan.of(w.path()).withExecutor(ScanTasks.POOL, threads)
                        .withOptions(ParquetViewOptions.defaults().withBatchSize(97));
                List<String> seen = new ArrayList<>();
                long[] next = {0};
                scan.forEachBatch(List.of("s"), null, batch -> {
                    assertEquals(next[0], batch.firstRow(), "batches in order: " + w.describe());
                    next[0] += batch.rowCount();
                    ViewColumn col = batch.column("s");
                    for (int i = 0; i < col.size(); i++) {
                        byte[] v = col.bytes(i);
                        seen.add(v == null ? null : new String(v, StandardCharsets.UTF_8));
                    }
                });
                assertEquals(w.values(), seen, w.describe() + " threads=" + threads);
                // With a filter, only the row groups it may match arrive, whole and in order.
                ColumnFilter filter = ColumnFilter.startsWith("s", "b");
                List<Integer> groups = scan.rowGroupsToRead(filter);
                List<Integer> delivered = new ArrayList<>();
                long[] matches = {0};
                scan.forEachBatch(List.of("s"), filter, batch -> {
                    if (delivered.isEmpty() || delivered.get(delivered.size() - 1) != batch.rowGroup()) {
                        delivered.add(batch.rowGroup());
                    }
                    matches[0] += filter.predicate().count(batch.column(0));
                });
                assertEquals(groups, delivered, w.describe() + " threads=" + threads);
                long expected = w.values().stream().filter(v -> v != null && v.startsWith("b")).count();
                assertEquals(expected, matches[0], w.describe() + " threads=" + threads);
            }
        }
    }

    @Test
    void aBatchIsFreedAfterItsCallAndErrorsReachTheCaller() throws IOException {
        Written w = write(LAYOUTS.get(1), 31);
        for (int threads : THREADS) {
            List<ViewBatch> kept = new ArrayList<>();
            ParquetScan.of(w.path()).withExecutor(ScanTasks.POOL, threads).forEachBatch(List.of("s"), null, kept::add);
            assertTrue(kept.size() > 1);
            for (ViewBatch b : kept) {
                org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                        () -> b.column(0).bytes(0), "a batch kept past its call is freed: threads=" + threads);
            }
            IOException failure = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                    () -> ParquetScan.of(w.path()).withExecutor(ScanTasks.POOL, threads).forEachBatch(List.of("s"), null, b -> {
                        if (b.rowGroup() == 2) {
                            throw new IOException("consumer failed at rowGroup=2");
                        }
                    }));
            assertEquals("consumer failed at rowGroup=2", failure.getMessage());
        }
    }

    /**
     * The scan's tasks run on the caller's executor and nowhere else: with a parallelism above 1, count, select and
     * forEachBatch hand tasks to it (at most the parallelism of them at once for count and select) and give the
     * same answers as the calling thread alone; by default, and with a parallelism of 1, the executor gets none.
     * An executor that refuses tasks makes the call fail with its exception.
     */
    @Test
    void tasksRunOnTheCallersExecutorOnly() throws IOException {
        Written w = write(LAYOUTS.get(1), 34);
        ColumnFilter filter = ColumnFilter.of("s", dev.stringview.ViewPredicates.contains("a"));
        ParquetScan alone = ParquetScan.of(w.path());
        assertEquals(1, alone.parallelism());
        long count = alone.count(filter);
        long[] rows = alone.select(filter);
        java.util.concurrent.atomic.AtomicInteger handed = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.Executor counting = task -> {
            handed.incrementAndGet();
            ScanTasks.POOL.execute(task);
        };
        ParquetScan single = ParquetScan.of(w.path()).withExecutor(counting, 1);
        assertEquals(count, single.count(filter));
        assertEquals(0, handed.get(), "parallelism=1 runs on the calling thread");
        ParquetScan three = ParquetScan.of(w.path()).withExecutor(counting, 3);
        assertEquals(3, three.parallelism());
        assertEquals(count, three.count(filter));
        assertTrue(handed.get() > 0 && handed.get() <= 3, "tasks=" + handed.get());
        org.junit.jupiter.api.Assertions.assertArrayEquals(rows, three.select(filter));
        handed.set(0);
        long[] batchRows = {0};
        three.forEachBatch(List.of("s"), null, b -> batchRows[0] += b.rowCount());
        assertEquals(w.values().size(), batchRows[0]);
        assertTrue(handed.get() > 0, "forEachBatch tasks=" + handed.get());
        java.util.concurrent.Executor refusing = task -> {
            throw new java.util.concurrent.RejectedExecutionException("refused");
        };
        org.junit.jupiter.api.Assertions.assertThrows(java.util.concurrent.RejectedExecutionException.class,
                () -> ParquetScan.of(w.path()).withExecutor(refusing, 2).count(filter));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ParquetScan.of(w.path()).withExecutor(counting, 0));
    }
}
