package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewColumn;
import dev.stringview.ViewPredicates;
import dev.stringview.parquet.ParquetScanTest.Case;
import dev.stringview.parquet.ParquetScanTest.Written;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential tests of page skipping by the page index (column index + offset index): with it, {@link ParquetScan}
 * gives exactly the rows of an on-heap model of the written values, and exactly those it gives without it, for
 * every filter kind, at 1, 2 and 7 threads. Files from parquet-java's writer (which writes the page index by
 * default) with many row groups of many small pages, values mostly in order (so pages have narrow bounds, as a
 * sorted or clustered column has), runs of nulls long enough to make all-null pages, values of 0 to 40 bytes
 * around the 12/13-byte inline limit, 2- and 3-byte UTF-8 and bytes >= 0x80 first; column-index bounds whole or
 * truncated to 5 bytes; PLAIN, dictionary (with fallback) and DELTA_BYTE_ARRAY pages; and a file with statistics
 * off, which has no column index. Also parquet-testing's page-index files, written by other writers.
 */
class PageIndexTest {
    static final int ROWS = 6000;
    static final int GROUP_ROWS = 1500;
    static final int[] THREADS = {1, 2, 7};
    static final String[] HEADS = {"a", "ab", "b", "é", "€", "q", "\u00ff", "z"};
    /** Lengths in UTF-8 bytes of the value after its head, so values land on 11, 12, 13, 16, 17 bytes and others. */
    static final int[] TAILS = {0, 1, 10, 11, 12, 14, 15, 16, 39};

    @TempDir
    static Path dir;

    /** How one file is written. */
    record Layout(String name, WriterVersion version, boolean dictionary, CompressionCodecName codec,
            boolean statistics, int columnIndexTruncate) {}

    static final List<Layout> LAYOUTS = List.of(
            new Layout("plain-v1", WriterVersion.PARQUET_1_0, false, CompressionCodecName.UNCOMPRESSED, true, 64),
            new Layout("plain-v1-snappy-truncated", WriterVersion.PARQUET_1_0, false, CompressionCodecName.SNAPPY,
                    true, 5),
            new Layout("dict-v1-zstd", WriterVersion.PARQUET_1_0, true, CompressionCodecName.ZSTD, true, 64),
            new Layout("dict-v2-truncated", WriterVersion.PARQUET_2_0, true, CompressionCodecName.UNCOMPRESSED,
                    true, 5),
            new Layout("delta-v2", WriterVersion.PARQUET_2_0, false, CompressionCodecName.UNCOMPRESSED, true, 64),
            new Layout("plain-v1-no-statistics", WriterVersion.PARQUET_1_0, false,
                    CompressionCodecName.UNCOMPRESSED, false, 64));

    /** Sorted distinct values, drawn with repeats (dictionaries), most rows in order, some anywhere. */
    static Written write(Layout layout, long seed) throws IOException {
        Random random = new Random(seed);
        List<String> pool = new ArrayList<>();
        for (int i = 0; i < 700; i++) {
            StringBuilder sb = new StringBuilder(HEADS[random.nextInt(HEADS.length)]);
            int tail = TAILS[random.nextInt(TAILS.length)];
            for (int k = 0; k < tail; k++) {
                sb.append(k < 8 ? (char) ('0' + random.nextInt(3)) : 'x');
            }
            pool.add(sb.toString());
        }
        pool = pool.stream().distinct()
                .sorted((x, y) -> Arrays.compareUnsigned(ParquetScanTest.utf8(x), ParquetScanTest.utf8(y))).toList();
        Path path = dir.resolve(layout.name() + "-" + seed + ".parquet");
        Files.deleteIfExists(path);
        List<String> values = new ArrayList<>();
        ExampleParquetWriter.Builder builder = ExampleParquetWriter.builder(new LocalOutputFile(path))
                .withConf(new PlainParquetConfiguration())
                .withType(ParquetScanTest.SCHEMA)
                .withCodecFactory(new TestCodecs())
                .withCompressionCodec(layout.codec())
                .withWriterVersion(layout.version())
                .withDictionaryEncoding(layout.dictionary())
                .withDictionaryPageSize(4096)
                .withPageSize(1024)
                .withPageRowCountLimit(50)
                .withRowGroupRowCountLimit(GROUP_ROWS)
                .withStatisticsEnabled(layout.statistics())
                .withColumnIndexTruncateLength(layout.columnIndexTruncate())
                .withBloomFilterEnabled(false);
        SimpleGroupFactory groups = new SimpleGroupFactory(ParquetScanTest.SCHEMA);
        try (ParquetWriter<Group> writer = builder.build()) {
            int nullRun = 0;
            for (int row = 0; row < ROWS; row++) {
                if (nullRun == 0 && random.nextInt(400) == 0) {
                    nullRun = 40 + random.nextInt(120); // long enough to fill whole pages
                }
                String value;
                if (nullRun > 0) {
                    nullRun--;
                    value = null;
                } else if (random.nextInt(25) == 0) {
                    value = random.nextInt(10) == 0 ? null : pool.get(random.nextInt(pool.size()));
                } else {
                    int at = (int) ((long) row * pool.size() / ROWS);
                    value = pool.get(Math.min(pool.size() - 1, at + random.nextInt(3)));
                }
                values.add(value);
                Group g = groups.newGroup();
                if (value != null) {
                    g.add("s", value);
                }
                writer.write(g);
            }
        }
        return new Written(path, values, GROUP_ROWS, layout.name() + " seed=" + seed);
    }

    /** ParquetScanTest's cases plus constants that sit on page bounds, 12- and 13-byte prefixes. */
    static List<Case> cases(Written w, Random random) {
        List<Case> cases = ParquetScanTest.cases(w, random);
        List<String> present = w.values().stream().filter(v -> v != null).toList();
        for (int i = 0; i < 4; i++) {
            String v = present.get(random.nextInt(present.size()));
            for (int length : new int[] {12, 13}) {
                byte[] b = ParquetScanTest.utf8(v);
                if (b.length >= length) {
                    byte[] p = Arrays.copyOf(b, length);
                    String prefix = new String(p, StandardCharsets.UTF_8);
                    if (Arrays.equals(ParquetScanTest.utf8(prefix), p)) { // not cut inside a character
                        cases.add(new Case(ColumnFilter.startsWith("s", prefix), x -> x.length >= p.length
                                && Arrays.equals(x, 0, p.length, p, 0, p.length)));
                        cases.add(new Case(ColumnFilter.lessThan("s", prefix),
                                x -> Arrays.compareUnsigned(x, p) < 0));
                        cases.add(new Case(ColumnFilter.greaterThan("s", prefix),
                                x -> Arrays.compareUnsigned(x, p) > 0));
                    }
                }
            }
        }
        return cases;
    }

    @Test
    void pageSkippingGivesTheModelsRowsAtEveryThreadCount() throws IOException {
        long seed = 20261124;
        Random random = new Random(seed);
        int scans = 0;
        long skipped = 0;
        for (Layout layout : LAYOUTS) {
            Written w = write(layout, seed + layout.name().hashCode());
            for (Case c : cases(w, random)) {
                long[] expected = ParquetScanTest.expectedRows(w, c);
                ParquetScan.Plan plan = ParquetScan.of(w.path()).plan(c.filter());
                skipped += plan.pagesSkipped();
                for (int threads : THREADS) {
                    ParquetScan scan = ParquetScan.of(w.path()).withExecutor(ScanTasks.POOL, threads)
                            .withStatistics(random.nextBoolean())
                            .withOptions(ParquetViewOptions.defaults().withBatchSize(1 + random.nextInt(200)));
                    String where = w.describe() + " filter=" + c.filter() + " threads=" + threads + " plan=" + plan;
                    assertEquals(expected.length, scan.count(c.filter()), where);
                    assertArrayEquals(expected, scan.select(c.filter()), where);
                    scans += 2;
                }
                // Without the page index, and the batch scan over the same units (no page-level filtering).
                ParquetScan scan = ParquetScan.of(w.path()).withExecutor(ScanTasks.POOL, THREADS[random.nextInt(THREADS.length)]);
                String where = w.describe() + " filter=" + c.filter() + " threads=" + scan.parallelism();
                assertArrayEquals(expected, scan.withPageIndex(false).select(c.filter()), where + " pageIndex=false");
                assertArrayEquals(expected, scan.withPageFiltering(false).select(c.filter()),
                        where + " pageFiltering=false");
                scans += 2;
            }
        }
        assertTrue(scans > 1000, "scans=" + scans);
        assertTrue(skipped > 1000, "pages skipped over all cases: " + skipped);
    }

    @Test
    void thePageIndexReallySkipsPagesAndOnlyWhereItMay() throws IOException {
        Written w = write(LAYOUTS.get(0), 7);
        String middle = w.values().get(ROWS / 2 + 17) != null ? w.values().get(ROWS / 2 + 17)
                : w.values().stream().filter(v -> v != null).findFirst().orElseThrow();
        ColumnFilter equal = ColumnFilter.equalTo("s", middle);
        ParquetScan scan = ParquetScan.of(w.path());
        ParquetScan.Plan plan = scan.plan(equal);
        int pagesPerGroup = GROUP_ROWS / 50;
        assertEquals(ROWS / GROUP_ROWS, plan.rowGroups());
        // In order, the value lies in a few pages; out-of-order rows (1 in 25) widen some pages' bounds.
        assertTrue(plan.pagesSkipped() > pagesPerGroup / 2, "plan=" + plan);
        assertTrue(plan.pagesRead() >= 1, "plan=" + plan);
        ParquetScan.Plan without = scan.withPageIndex(false).plan(equal);
        assertEquals(0, without.pagesSkipped(), "without=" + without);
        // Statistics off: parquet-java writes no column index either, so nothing is skipped.
        Written none = write(LAYOUTS.get(5), 7);
        ParquetScan.Plan nonePlan = ParquetScan.of(none.path()).plan(ColumnFilter.equalTo("s", middle));
        assertEquals(0, nonePlan.pagesSkipped(), "no column index: " + nonePlan);
        assertEquals(0, nonePlan.rowGroupsSkipped(), "no statistics: " + nonePlan);
        // A predicate metadata cannot decide skips nothing.
        ParquetScan.Plan contains = scan.plan(ColumnFilter.of("s", ViewPredicates.contains("1")));
        assertEquals(0, contains.pagesSkipped() + contains.rowGroupsSkipped(), "contains: " + contains);
        // DELTA_BYTE_ARRAY chunks are read whole (PARQUET-246), unless no page at all can match.
        Written delta = write(LAYOUTS.get(4), 7);
        ParquetScan.Plan deltaPlan = ParquetScan.of(delta.path()).withStatistics(false)
                .plan(ColumnFilter.equalTo("s", middle));
        assertTrue(deltaPlan.rowGroupsSkipped() > 0 || deltaPlan.pagesSkipped() == 0, "whole chunks: " + deltaPlan);
        ParquetScan.Plan nothing = ParquetScan.of(delta.path()).withStatistics(false)
                .plan(ColumnFilter.lessThan("s", ""));
        assertEquals(ROWS / GROUP_ROWS, nothing.rowGroupsSkipped(), "no value is below '': " + nothing);
        assertEquals(0, nothing.pagesRead(), "no value is below '': " + nothing);
    }

    @Test
    void rangesWithGapsReadExactlyTheKeptPages() throws IOException {
        Written w = write(LAYOUTS.get(2), 9); // dictionary pages: every range needs the dictionary page first
        Random random = new Random(9);
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader file = ParquetViewReader.open(w.path(), arena,
                        ParquetViewOptions.defaults().withColumns("s"))) {
            var chunk = file.chunk(1, file.columns().get(0));
            var spans = dev.stringview.parquet.internal.ColumnChunkReader.pageSpans(chunk);
            long dataPages = spans.stream().filter(PageIndexTest::isData).count();
            for (int trial = 0; trial < 40; trial++) {
                boolean[] keep = new boolean[(int) dataPages];
                for (int p = 0; p < keep.length; p++) {
                    keep[p] = random.nextInt(3) > 0;
                }
                keep[random.nextInt(keep.length)] = true;
                int pieces = 1 + random.nextInt(6);
                List<List<ParquetViewReader.PageRange>> units = ParquetScan.pageRanges(chunk, spans, keep, pieces);
                List<String> expected = new ArrayList<>();
                List<Long> expectedRows = new ArrayList<>();
                long row = GROUP_ROWS;
                int page = 0;
                for (var s : spans) {
                    if (!isData(s)) {
                        continue;
                    }
                    for (int i = 0; i < s.numValues(); i++, row++) {
                        if (keep[page]) {
                            expected.add(w.values().get((int) row));
                            expectedRows.add(row);
                        }
                    }
                    page++;
                }
                List<String> seen = new ArrayList<>();
                List<Long> seenRows = new ArrayList<>();
                for (List<ParquetViewReader.PageRange> unit : units) {
                    try (ParquetViewReader part = file.part(1, unit, null, ParquetViewOptions.defaults()
                            .withColumns("s").withBatchSize(1 + random.nextInt(80)).withBatchScopedMemory(true))) {
                        for (ViewBatch b = part.nextBatch(); b != null; b = part.nextBatch()) {
                            ViewColumn col = b.column(0);
                            for (int i = 0; i < col.size(); i++) {
                                byte[] v = col.bytes(i);
                                seen.add(v == null ? null : new String(v, StandardCharsets.UTF_8));
                                seenRows.add(b.firstRow() + i);
                            }
                        }
                    }
                }
                String where = "keep=" + Arrays.toString(keep) + " pieces=" + pieces;
                assertEquals(expectedRows, seenRows, where);
                assertEquals(expected, seen, where);
            }
        }
    }

    /** Other writers' page indexes (parquet-mr 1.11+, Arrow C++): the same answers with and without them. */
    @Test
    void parquetTestingPageIndexFilesGiveTheSameAnswers() throws IOException {
        for (String[] f : new String[][] {
                {"alltypes_tiny_pages.parquet", "string_col"}, {"alltypes_tiny_pages_plain.parquet", "string_col"},
                {"alltypes_tiny_pages.parquet", "date_string_col"},
                {"data_index_bloom_encoding_stats.parquet", "String"},
                {"data_index_bloom_encoding_with_length.parquet", "String"}}) {
            Path path = TestData.dataDir().resolve(f[0]);
            List<String> values = new ArrayList<>();
            try (Arena arena = Arena.ofConfined();
                    ParquetViewReader reader = ParquetViewReader.open(path, arena,
                            ParquetViewOptions.defaults().withColumns(f[1]))) {
                for (ViewBatch b = reader.nextBatch(); b != null; b = reader.nextBatch()) {
                    for (int i = 0; i < b.rowCount(); i++) {
                        byte[] v = b.column(0).bytes(i);
                        values.add(v == null ? null : new String(v, StandardCharsets.UTF_8));
                    }
                }
            }
            Written w = new Written(path, values, values.size(), f[0] + " column=" + f[1]);
            Random random = new Random(f[0].hashCode());
            List<Case> cases = new ArrayList<>();
            for (Case c : ParquetScanTest.cases(w, random)) {
                cases.add(new Case(rename(c.filter(), f[1]), c.model()));
            }
            for (Case c : cases) {
                long[] expected = ParquetScanTest.expectedRows(w, c);
                for (int threads : THREADS) {
                    ParquetScan scan = ParquetScan.of(path).withExecutor(ScanTasks.POOL, threads);
                    String where = w.describe() + " filter=" + c.filter() + " threads=" + threads
                            + " plan=" + scan.plan(c.filter());
                    assertArrayEquals(expected, scan.select(c.filter()), where);
                    assertArrayEquals(expected, scan.withPageIndex(false).select(c.filter()), where);
                }
            }
        }
    }

    private static boolean isData(dev.stringview.parquet.internal.ColumnChunkReader.PageSpan s) {
        return s.type() == dev.stringview.parquet.internal.PageHeader.DATA_PAGE
                || s.type() == dev.stringview.parquet.internal.PageHeader.DATA_PAGE_V2;
    }

    /** The same filter on another column (the shared cases name column "s"). */
    private static ColumnFilter rename(ColumnFilter filter, String column) {
        return filter.onColumn(column);
    }
}
