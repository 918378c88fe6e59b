package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewPredicates;
import java.io.IOException;
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
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test of {@link ParquetScan#withPageSearch}: substring filters decided by one search over each PLAIN
 * page give exactly the rows of the plain single-threaded scan (batches of views, then the predicate) and of an
 * on-heap model, at 1, 2 and 7 threads, over parquet-java files with PLAIN pages v1 and v2, uncompressed, snappy,
 * zstd, LZ4_RAW and gzip, optional and required columns, pages of one value, and a dictionary writer falling back to
 * PLAIN mid-chunk. Needles include bytes that occur in length prefixes (0x00, 0x07, 0x0d) and byte strings that occur
 * in the pages only across a length prefix.
 */
class PageSearchTest {
    private static final int ROWS = 2000;
    private static final int[] THREADS = {1, 2, 7};
    private static final String[] ALPHABET = {"g", "o", "l", "e", "\u0000", "\u0007", "\r", "é", "€", "x"};
    private static final int[] LENGTHS = {0, 1, 11, 12, 13, 15, 16, 17};

    @TempDir
    static Path dir;

    private record Layout(String name, WriterVersion version, CompressionCodecName codec, boolean optional,
            boolean dictionary, int pageRows, int rowGroupRows) {}

    private static final List<Layout> LAYOUTS = List.of(
            new Layout("plain-v1", WriterVersion.PARQUET_1_0, CompressionCodecName.UNCOMPRESSED, true, false, 90, 1000),
            new Layout("plain-v1-snappy-required", WriterVersion.PARQUET_1_0, CompressionCodecName.SNAPPY, false,
                    false, 200, ROWS),
            new Layout("plain-v2-zstd", WriterVersion.PARQUET_2_0, CompressionCodecName.ZSTD, true, false, 70, 700),
            new Layout("plain-v2-one-value-pages", WriterVersion.PARQUET_2_0, CompressionCodecName.UNCOMPRESSED,
                    true, false, 1, 400),
            new Layout("dictionary-falls-back-to-plain", WriterVersion.PARQUET_1_0, CompressionCodecName.SNAPPY,
                    true, true, 100, 1500),
            new Layout("plain-v1-lz4raw", WriterVersion.PARQUET_1_0, CompressionCodecName.LZ4_RAW, true, false, 150,
                    ROWS),
            new Layout("dictionary-v2-gzip-falls-back", WriterVersion.PARQUET_2_0, CompressionCodecName.GZIP, false,
                    true, 120, 900));

    private record Written(Path path, List<byte[]> values, Layout layout) {}

    private static Written write(Layout layout, Random random) throws IOException {
        String repetition = layout.optional() ? "optional" : "required";
        MessageType schema = MessageTypeParser.parseMessageType(
                "message m { " + repetition + " binary s (STRING); }");
        Path path = dir.resolve(layout.name() + ".parquet");
        Files.deleteIfExists(path);
        List<byte[]> values = new ArrayList<>();
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(path))
                .withConf(new PlainParquetConfiguration())
                .withType(schema)
                .withCodecFactory(new TestCodecs())
                .withCompressionCodec(layout.codec())
                .withWriterVersion(layout.version())
                .withDictionaryEncoding(layout.dictionary())
                .withDictionaryPageSize(512) // the dictionary writer falls back to PLAIN early in each chunk
                .withPageRowCountLimit(layout.pageRows())
                .withRowGroupRowCountLimit(layout.rowGroupRows())
                .build()) {
            for (int row = 0; row < ROWS; row++) {
                String value = null;
                if (!layout.optional() || random.nextInt(5) != 0) {
                    int bytes = random.nextInt(4) == 0 ? random.nextInt(150) : LENGTHS[random.nextInt(LENGTHS.length)];
                    StringBuilder sb = new StringBuilder();
                    while (sb.toString().getBytes(StandardCharsets.UTF_8).length < bytes) {
                        sb.append(ALPHABET[random.nextInt(ALPHABET.length)]);
                    }
                    value = sb.toString();
                }
                Group g = groups.newGroup();
                if (value != null) {
                    g.add("s", value);
                }
                writer.write(g);
                values.add(value == null ? null : value.getBytes(StandardCharsets.UTF_8));
            }
        }
        return new Written(path, values, layout);
    }

    /** Needles: inside values, across two values' bytes with the length prefix between, and prefix bytes. */
    private static List<byte[]> needles(Written w, Random random) {
        List<byte[]> needles = new ArrayList<>();
        List<byte[]> present = w.values().stream().filter(v -> v != null && v.length > 2).toList();
        for (int i = 0; i < 4; i++) {
            byte[] v = present.get(random.nextInt(present.size()));
            int from = random.nextInt(v.length - 1);
            needles.add(Arrays.copyOfRange(v, from, Math.min(v.length, from + 1 + random.nextInt(14))));
            // A value's end, the next value's length prefix and its start: as PLAIN lays them out.
            byte[] next = present.get(random.nextInt(present.size()));
            byte[] across = new byte[2 + 4 + 2];
            System.arraycopy(v, v.length - 2, across, 0, 2);
            across[2] = (byte) next.length;
            across[3] = (byte) (next.length >>> 8);
            System.arraycopy(next, 0, across, 6, 2);
            needles.add(across);
        }
        needles.add(new byte[] {7, 0, 0, 0}); // the prefix of every 7-byte value
        needles.add(new byte[] {0, 0});
        needles.add(new byte[] {13});
        needles.add("é".getBytes(StandardCharsets.UTF_8));
        needles.add("google".getBytes(StandardCharsets.UTF_8));
        needles.add("gole€x".getBytes(StandardCharsets.UTF_8));
        needles.add("o".getBytes(StandardCharsets.UTF_8));
        return needles;
    }

    private static boolean contains(byte[] value, byte[] needle) {
        for (int i = 0; i + needle.length <= value.length; i++) {
            if (Arrays.equals(value, i, i + needle.length, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void pageSearchGivesThePlainScansRowsAtEveryThreadCount() throws IOException {
        Random random = new Random(20261124);
        int scans = 0;
        int nonEmpty = 0;
        for (Layout layout : LAYOUTS) {
            Written w = write(layout, random);
            for (byte[] needle : needles(w, random)) {
                RowFilter filter = RowFilter.bytes("s", RowFilter.Op.CONTAINS, needle);
                List<Long> model = new ArrayList<>();
                for (int row = 0; row < ROWS; row++) {
                    byte[] v = w.values().get(row);
                    if (v != null && contains(v, needle)) {
                        model.add((long) row);
                    }
                }
                long[] expected = model.stream().mapToLong(Long::longValue).toArray();
                nonEmpty += expected.length > 0 ? 1 : 0;
                ParquetScan plain = TestExecutors.threads(ParquetScan.of(w.path()), 1).withPageFiltering(false);
                String where = layout.name() + " needle=" + Arrays.toString(needle);
                assertArrayEquals(expected, plain.select(filter), where + " plain scan");
                for (int threads : THREADS) {
                    // The views' page filtering (page search off) at one thread: what the switch compares with.
                    for (boolean pageSearch : threads == 1 ? new boolean[] {true, false} : new boolean[] {true}) {
                        ParquetScan scan = TestExecutors.threads(ParquetScan.of(w.path()), threads).withPageSearch(pageSearch)
                                .withOptions(ParquetViewOptions.defaults().withBatchSize(1 + random.nextInt(500)));
                        String at = where + " threads=" + threads + " pageSearch=" + pageSearch;
                        assertEquals(expected.length, scan.count(filter), at);
                        assertArrayEquals(expected, scan.select(filter), at);
                        scans++;
                    }
                }
            }
        }
        assertTrue(nonEmpty > 30, "too few needles that match: nonEmpty=" + nonEmpty);
        assertTrue(scans > 200, "scans=" + scans);
    }

    /** Constants for equality and prefixes: values of the file (empty ones too), their prefixes, and values absent. */
    private static List<byte[]> constants(Written w, Random random) {
        List<byte[]> constants = new ArrayList<>();
        List<byte[]> present = w.values().stream().filter(v -> v != null).toList();
        for (int i = 0; i < 5; i++) {
            byte[] v = present.get(random.nextInt(present.size()));
            constants.add(v);
            constants.add(Arrays.copyOf(v, random.nextInt(v.length + 1)));
        }
        for (byte[] v : present) {
            if (v.length == 12 || v.length == 13 || v.length > 100) {
                constants.add(v); // inline and not; longer than the words compared at once
                constants.add(Arrays.copyOf(v, v.length - 1));
            }
            if (constants.size() > 18) {
                break;
            }
        }
        constants.add(new byte[0]);
        constants.add("é".getBytes(StandardCharsets.UTF_8));
        constants.add("google google".getBytes(StandardCharsets.UTF_8));
        return constants;
    }

    /**
     * Equality and prefix leaves on the same files (decided through views on PLAIN pages, by id on dictionary pages),
     * with dictionary chunks cut one unit per thread and as finely as others, at 1, 2 and 7 threads and batch sizes
     * from 1: the rows of the plain scan and of the model.
     */
    @Test
    void equalityAndPrefixGiveThePlainScansRowsAtEveryThreadCount() throws IOException {
        Random random = new Random(20261129);
        int scans = 0;
        int nonEmpty = 0;
        for (Layout layout : LAYOUTS) {
            Written w = write(layout, random);
            for (byte[] constant : constants(w, random)) {
                for (RowFilter.Op op : new RowFilter.Op[] {RowFilter.Op.EQUAL, RowFilter.Op.STARTS_WITH}) {
                    RowFilter filter = RowFilter.bytes("s", op, constant);
                    List<Long> model = new ArrayList<>();
                    for (int row = 0; row < ROWS; row++) {
                        byte[] v = w.values().get(row);
                        boolean match = v != null && (op == RowFilter.Op.EQUAL ? Arrays.equals(v, constant)
                                : v.length >= constant.length
                                        && Arrays.equals(v, 0, constant.length, constant, 0, constant.length));
                        if (match) {
                            model.add((long) row);
                        }
                    }
                    long[] expected = model.stream().mapToLong(Long::longValue).toArray();
                    nonEmpty += expected.length > 0 ? 1 : 0;
                    ParquetScan plain = TestExecutors.threads(ParquetScan.of(w.path()), 1).withPageFiltering(false);
                    String where = layout.name() + " op=" + op + " constant=" + Arrays.toString(constant);
                    assertArrayEquals(expected, plain.select(filter), where + " plain scan");
                    for (int threads : THREADS) {
                        for (boolean pageTest : threads == 1 ? new boolean[] {true, false} : new boolean[] {true}) {
                            ParquetScan scan = TestExecutors.threads(ParquetScan.of(w.path()), threads)
                                    .withPageSearch(pageTest).withDictionaryPerThread(random.nextBoolean())
                                    .withOptions(ParquetViewOptions.defaults().withBatchSize(
                                            random.nextBoolean() ? 1 + random.nextInt(3) : 1 + random.nextInt(500)));
                            String at = where + " threads=" + threads + " pageTest=" + pageTest;
                            assertEquals(expected.length, scan.count(filter), at);
                            assertArrayEquals(expected, scan.select(filter), at);
                            scans++;
                        }
                    }
                }
            }
        }
        assertTrue(nonEmpty > 60, "too few constants that match: nonEmpty=" + nonEmpty);
        assertTrue(scans > 400, "scans=" + scans);
    }

    @Test
    void theOneValuePagesLayoutReallyHasPagesOfOneValue() throws IOException {
        Written w = write(LAYOUTS.get(3), new Random(7));
        ParquetScan.Plan plan = ParquetScan.of(w.path()).plan(RowFilter.equalTo("s", "x"));
        // parquet-java cuts a page after the row that reaches the limit, and sometimes one row later.
        assertTrue(plan.pagesRead() + plan.pagesSkipped() >= ROWS * 2 / 3, plan.toString());
    }
}
