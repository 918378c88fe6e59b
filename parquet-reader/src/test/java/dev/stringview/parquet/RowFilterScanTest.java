package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.parquet.RowFilter.Op;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RowFilter} through {@link ParquetScan} on files parquet-java wrote, with string, signed and unsigned int,
 * double, decimal and boolean columns: answers equal the on-heap model's (three-valued, every row evaluated), with
 * and without pruning, at several parallelisms; a row group pruned never holds a TRUE row; and where parquet-java's
 * own record filter ({@code FilterApi}) means the same thing (no NOT, no {@code <>}: parquet-java keeps nulls there),
 * its rows equal the model's.
 */
class RowFilterScanTest {
    private static final MessageType SCHEMA = MessageTypeParser.parseMessageType("""
            message m {
              required int64 id;
              optional binary s (STRING);
              optional binary t (STRING);
              optional int32 i;
              optional int32 u (INTEGER(32,false));
              optional double d;
              optional int64 m (DECIMAL(12,2));
              optional boolean b;
            }""");
    private static final int ROWS = 1500;
    private static final int GROUP_ROWS = 250;
    private static final String[] WORDS = {"", "a", "ab", "abcdefghijk", "abcdefghijkl", "abcdefghijklm", "é",
        "éé", "中文", "zzzzzzzzzzzzzzzz", "zzzzzzzzzzzzzzzzz", "b", "ba", "c", "\u00ff"};

    @TempDir
    static Path dir;

    /** The file's rows, in the model's shape: one array per column, null for null. */
    static Object[][] columns;
    static List<Path> files = new ArrayList<>();

    @BeforeAll
    static void write() throws IOException {
        Random random = new Random(31);
        columns = new Object[SCHEMA.getFieldCount()][ROWS];
        for (int r = 0; r < ROWS; r++) {
            int group = r / GROUP_ROWS;
            columns[0][r] = (long) r;
            // Clustered by row group (so bounds prune), with nulls; s is null in group 2 only.
            columns[1][r] = group == 2 ? null
                    : WORDS[(group * 2 + random.nextInt(3)) % WORDS.length] + (random.nextBoolean() ? "" : "x");
            columns[2][r] = random.nextInt(6) == 0 ? null : WORDS[random.nextInt(WORDS.length)];
            columns[3][r] = random.nextInt(8) == 0 ? null : (long) (group * 100 + random.nextInt(100) - 250);
            columns[4][r] = random.nextInt(8) == 0 ? null
                    : Integer.toUnsignedLong(group >= 4 ? -1 - random.nextInt(50) : group * 1000 + random.nextInt(90));
            columns[5][r] = random.nextInt(8) == 0 ? null
                    : new double[] {-2.5, 1.0, 3.75, Double.POSITIVE_INFINITY, 1e10}[random.nextInt(5)] + group;
            columns[6][r] = random.nextInt(8) == 0 ? null : BigDecimal.valueOf(group * 1000L + random.nextInt(500), 2);
            columns[7][r] = random.nextInt(8) == 0 ? null : group % 2 == 0 && random.nextInt(4) != 0;
        }
        int n = 0;
        for (boolean dictionary : new boolean[] {true, false}) {
            for (WriterVersion version : WriterVersion.values()) {
                Path path = dir.resolve("filter-" + n++ + ".parquet");
                ExampleParquetWriter.Builder builder = ExampleParquetWriter.builder(new LocalOutputFile(path))
                        .withConf(new PlainParquetConfiguration()).withType(SCHEMA)
                        .withCodecFactory(new TestCodecs()).withCompressionCodec(CompressionCodecName.SNAPPY)
                        .withWriterVersion(version).withDictionaryEncoding(dictionary).withPageRowCountLimit(40)
                        .withRowGroupRowCountLimit(GROUP_ROWS).withBloomFilterEnabled("s", true)
                        .withBloomFilterEnabled("i", true);
                SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
                try (ParquetWriter<Group> writer = builder.build()) {
                    for (int r = 0; r < ROWS; r++) {
                        Group g = groups.newGroup();
                        g.add("id", (Long) columns[0][r]);
                        if (columns[1][r] != null) {
                            g.add("s", (String) columns[1][r]);
                        }
                        if (columns[2][r] != null) {
                            g.add("t", (String) columns[2][r]);
                        }
                        if (columns[3][r] != null) {
                            g.add("i", (int) (long) (Long) columns[3][r]);
                        }
                        if (columns[4][r] != null) {
                            g.add("u", (int) (long) (Long) columns[4][r]);
                        }
                        if (columns[5][r] != null) {
                            g.add("d", (Double) columns[5][r]);
                        }
                        if (columns[6][r] != null) {
                            g.add("m", ((BigDecimal) columns[6][r]).unscaledValue().longValueExact());
                        }
                        if (columns[7][r] != null) {
                            g.add("b", (Boolean) columns[7][r]);
                        }
                        writer.write(g);
                    }
                }
                files.add(path);
            }
        }
    }

    @Test
    void stringTreesGiveTheModelsRowsWithAndWithoutPruning() throws IOException {
        Random random = new Random(7);
        for (int t = 0; t < 40; t++) {
            RowFilter filter = tree(random, 3, true);
            long[] expected = modelRows(filter);
            for (Path file : files) {
                for (int parallelism : new int[] {1, 3}) {
                    ParquetScan scan = TestExecutors.threads(ParquetScan.of(file), parallelism)
                            .withOptions(ParquetViewOptions.defaults().withBatchSize(1 + random.nextInt(300)));
                    String where = "file=" + file.getFileName() + " filter=" + filter + " parallelism=" + parallelism;
                    assertArrayEquals(expected, scan.select(filter), where);
                    assertEquals(expected.length, scan.count(filter), where);
                    assertArrayEquals(expected, scan.withPruning(false).select(filter), where + " pruning=false");
                    assertArrayEquals(expected, scan.withPageFiltering(false).select(filter),
                            where + " pageFiltering=false");
                    assertPrunedGroupsHoldNoTrueRow(scan, filter, where);
                    long[] delivered = forEachBatchRows(scan, filter);
                    assertArrayEquals(expected, delivered, where + " forEachBatch");
                }
            }
        }
    }

    @Test
    void pruningOnEveryColumnTypeIsSoundAndPrunes() throws IOException {
        Random random = new Random(11);
        int pruned = 0;
        for (int t = 0; t < 300; t++) {
            RowFilter filter = tree(random, 2, false);
            for (Path file : files) {
                pruned += assertPrunedGroupsHoldNoTrueRow(ParquetScan.of(file), filter,
                        "file=" + file.getFileName() + " filter=" + filter);
            }
        }
        assertTrue(pruned > 200, "row groups pruned: " + pruned);
        // Each source prunes on its own where it can.
        Path file = files.get(0);
        ParquetScan none = ParquetScan.of(file).withPruning(false);
        assertEquals(ROWS / GROUP_ROWS, none.rowGroupsToRead(RowFilter.compare("i", Op.LESS_THAN, -200L)).size());
        ParquetScan statsOnly = none.withStatistics(true);
        assertEquals(List.of(0), statsOnly.rowGroupsToRead(RowFilter.compare("i", Op.LESS_THAN, -200L)));
        assertEquals(List.of(4, 5), statsOnly.rowGroupsToRead(RowFilter.compare("u", Op.GREATER_THAN, 1L << 31)));
        assertEquals(List.of(2), statsOnly.rowGroupsToRead(RowFilter.isNull("s")), "group 2 holds the only nulls");
        assertEquals(List.of(0, 1, 3, 4, 5), statsOnly.rowGroupsToRead(RowFilter.not(RowFilter.isNull("s"))));
        assertEquals(List.of(5), statsOnly.rowGroupsToRead(RowFilter.compare("m", Op.GREATER_THAN_OR_EQUAL,
                new BigDecimal("50.00"))));
        // Bloom filters alone (parquet-java writes them only for chunks not wholly dictionary-encoded).
        ParquetScan bloomOnly = ParquetScan.of(files.get(2)).withPruning(false).withBloomFilters(true);
        assertTrue(bloomOnly.rowGroupsToRead(RowFilter.compare("i", Op.EQUAL, 12345L)).isEmpty());
        assertTrue(bloomOnly.rowGroupsToRead(RowFilter.valueIn("i", List.of(12345L, -7777L))).isEmpty());
        assertTrue(bloomOnly.rowGroupsToRead(RowFilter.equalTo("s", "nowhere")).isEmpty());
        Object present = columns[columnIndex("i")][GROUP_ROWS * 3 + 1];
        assertTrue(present == null || bloomOnly.rowGroupsToRead(RowFilter.compare("i", Op.EQUAL, (Long) present))
                .contains(3), "the group holding the value is read");
        // Dictionary: a value within the bounds that no entry holds.
        ParquetScan dictionaryOnly = none.withDictionaries(true);
        assertTrue(dictionaryOnly.rowGroupsToRead(RowFilter.equalTo("s", "abq")).size() < ROWS / GROUP_ROWS,
                "dictionary prunes: " + dictionaryOnly.rowGroupsToRead(RowFilter.equalTo("s", "abq")));
    }

    @Test
    void parquetJavasRecordFilterAgreesWhereItMeansTheSame() throws IOException {
        Random random = new Random(13);
        int nonEmpty = 0;
        for (int t = 0; t < 120; t++) {
            Pair pair = comparableTree(random, 3);
            long[] expected = modelRows(pair.filter());
            for (Path file : List.of(files.get(0), files.get(files.size() - 1))) {
                long[] parquetJava = parquetJavaRows(file, pair.predicate());
                String where = "file=" + file.getFileName() + " filter=" + pair.filter() + " parquetJava="
                        + pair.predicate();
                assertArrayEquals(parquetJava, expected, where);
                if (pair.filter().columns().stream().allMatch(c -> c.equals("s") || c.equals("t"))) {
                    assertArrayEquals(parquetJava, ParquetScan.of(file).select(pair.filter()), where);
                }
                assertPrunedGroupsHoldNoTrueRow(ParquetScan.of(file), pair.filter(), where);
            }
            nonEmpty += expected.length > 0 ? 1 : 0;
        }
        assertTrue(nonEmpty > 30, "filters with matches: " + nonEmpty);
    }

    @Test
    void aFilterWithoutColumnsPassesEveryRowOrNone() throws IOException {
        ParquetScan scan = TestExecutors.threads(ParquetScan.of(files.get(0)), 2);
        assertEquals(ROWS, scan.count(RowFilter.and()));
        assertEquals(0, scan.count(RowFilter.or()));
        assertEquals(0, scan.count(RowFilter.not(RowFilter.and())));
        assertEquals(ROWS, scan.select(RowFilter.not(RowFilter.or())).length);
        assertEquals(ROWS - 1, scan.select(RowFilter.and())[ROWS - 1]);
        long[] delivered = forEachBatchRows(scan, RowFilter.and());
        assertEquals(ROWS, delivered.length);
    }

    /**
     * Late materialization: with a filter true only in the first and last rows, the other column's data pages that
     * lie wholly inside the batches without a passing row between them are never read. One of them is corrupted (a value length far past its
     * page): reading the column whole fails on it, reading it behind the filter does not.
     */
    @Test
    void pagesOfOtherColumnsInBatchesWithoutAPassingRowAreNeverRead() throws IOException {
        lateMaterialization(false);
        lateMaterialization(true);
    }

    /**
     * Plain pages: the filter passes the first 150 and last 50 rows. Dictionary pages: only the last 50, so the
     * skipped run starts at the chunk's start, at its dictionary page (read: later pages need it).
     */
    private static void lateMaterialization(boolean dictionary) throws IOException {
        MessageType schema = MessageTypeParser.parseMessageType(
                "message m { required binary s (STRING); required binary t (STRING); }");
        Path path = dir.resolve("late-" + dictionary + ".parquet");
        int rows = 2000;
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(path))
                .withConf(new PlainParquetConfiguration()).withType(schema).withCodecFactory(new TestCodecs())
                .withCompressionCodec(CompressionCodecName.UNCOMPRESSED).withDictionaryEncoding(dictionary)
                .withWriterVersion(WriterVersion.PARQUET_1_0).withPageRowCountLimit(100)
                .withPageWriteChecksumEnabled(false).build()) {
            SimpleGroupFactory groups = new SimpleGroupFactory(schema);
            for (int r = 0; r < rows; r++) {
                writer.write(groups.newGroup().append("s", matches(r, dictionary) ? "match" : "other" + r)
                        .append("t", tValue(r, dictionary)));
            }
        }
        // Corrupt the first value length of t's data page of rows 1000..1099.
        long corruptAt;
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined();
                ParquetViewReader file = ParquetViewReader.open(path, arena)) {
            ParquetColumn t = file.stringColumn("t");
            List<dev.stringview.parquet.internal.ColumnChunkReader.PageSpan> spans =
                    dev.stringview.parquet.internal.ColumnChunkReader.pageSpans(file.chunk(0, t));
            var last = spans.get(dictionary ? 11 : 10);
            assertEquals(100, last.numValues());
            assertEquals(dictionary ? 21 : 20, spans.size(), "20 data pages, and the dictionary page");
            var header = dev.stringview.parquet.internal.PageHeader.parse(file.mappedFile(), last.offset(),
                    file.dataEnd());
            corruptAt = last.offset() + header.headerSize();
        }
        byte[] bytes = java.nio.file.Files.readAllBytes(path);
        if (dictionary) {
            bytes[(int) corruptAt] = 77; // the ids' bit width: at most 32
        } else {
            java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt((int) corruptAt, 0x7FFF_0000);
        }
        java.nio.file.Files.write(path, bytes);
        ParquetScan scan = ParquetScan.of(path).withOptions(ParquetViewOptions.defaults().withBatchSize(50));
        org.junit.jupiter.api.Assertions.assertThrows(CorruptParquetException.class,
                () -> scan.forEachBatch(List.of("t"), null, (batch, passing) -> { }));
        List<String> seen = new ArrayList<>();
        scan.forEachBatch(List.of("t"), RowFilter.equalTo("s", "match"), (batch, passing) -> {
            for (int i = 0; i < batch.rowCount(); i++) {
                if ((passing[i >>> 6] & (1L << i)) != 0) {
                    seen.add(batch.column("t").string(i));
                }
            }
        });
        List<String> expected = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            if (matches(r, dictionary)) {
                expected.add(tValue(r, dictionary));
            }
        }
        assertEquals(expected, seen);
    }

    /** Dictionary: 50 distinct values, so parquet-java keeps the dictionary encoding. */
    private static String tValue(int row, boolean dictionary) {
        return "t" + (dictionary ? row % 50 : row);
    }

    private static boolean matches(int row, boolean dictionary) {
        return row >= 1950 || !dictionary && row < 150;
    }

    // ---- checks

    /** Asserts no row of a pruned row group is TRUE by the model; returns how many groups were pruned. */
    private static int assertPrunedGroupsHoldNoTrueRow(ParquetScan scan, RowFilter filter, String where)
            throws IOException {
        List<Integer> read = scan.rowGroupsToRead(filter);
        int pruned = 0;
        for (int g = 0; g < ROWS / GROUP_ROWS; g++) {
            if (read.contains(g)) {
                continue;
            }
            pruned++;
            for (int r = g * GROUP_ROWS; r < (g + 1) * GROUP_ROWS; r++) {
                assertFalse(Boolean.TRUE.equals(model(filter, r)), "pruned rowGroup=" + g + " holds TRUE row=" + r
                        + " " + where);
            }
        }
        return pruned;
    }

    private static long[] forEachBatchRows(ParquetScan scan, RowFilter filter) throws IOException {
        List<Long> rows = new ArrayList<>();
        scan.forEachBatch(List.of("t"), filter, (batch, passing) -> {
            for (int i = 0; i < batch.rowCount(); i++) {
                if ((passing[i >>> 6] & (1L << i)) != 0) {
                    rows.add(batch.firstRow() + i);
                }
            }
        });
        return rows.stream().mapToLong(Long::longValue).toArray();
    }

    private static long[] modelRows(RowFilter filter) {
        List<Long> rows = new ArrayList<>();
        for (int r = 0; r < ROWS; r++) {
            if (Boolean.TRUE.equals(model(filter, r))) {
                rows.add((long) r);
            }
        }
        return rows.stream().mapToLong(Long::longValue).toArray();
    }

    private static long[] parquetJavaRows(Path file, FilterPredicate predicate) throws IOException {
        ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration())
                .withCodecFactory(new TestCodecs()).build();
        List<Long> ids = new ArrayList<>();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file), options)) {
            MessageColumnIO io = new ColumnIOFactory().getColumnIO(SCHEMA);
            PageReadStore pages;
            while ((pages = reader.readNextRowGroup()) != null) {
                RecordReader<Group> records = io.getRecordReader(pages, new GroupRecordConverter(SCHEMA),
                        FilterCompat.get(predicate));
                for (long i = 0; i < pages.getRowCount(); i++) {
                    Group g = records.read();
                    if (g != null && !records.shouldSkipCurrentRecord()) {
                        ids.add(g.getLong("id", 0));
                    }
                }
            }
        }
        return ids.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    // ---- random filters

    private static final String[] VALUE_COLUMNS = {"i", "u", "d", "m", "b"};

    private static RowFilter tree(Random random, int depth, boolean stringsOnly) {
        int pick = random.nextInt(depth <= 0 ? 1 : 4);
        return switch (pick) {
            case 0 -> leaf(random, stringsOnly);
            case 1 -> new RowFilter.And(children(random, depth, stringsOnly));
            case 2 -> new RowFilter.Or(children(random, depth, stringsOnly));
            default -> RowFilter.not(tree(random, depth - 1, stringsOnly));
        };
    }

    private static List<RowFilter> children(Random random, int depth, boolean stringsOnly) {
        List<RowFilter> out = new ArrayList<>();
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            out.add(tree(random, depth - 1, stringsOnly));
        }
        return out;
    }

    private static RowFilter leaf(Random random, boolean stringsOnly) {
        String column = stringsOnly || random.nextBoolean() ? (random.nextBoolean() ? "s" : "t")
                : VALUE_COLUMNS[random.nextInt(VALUE_COLUMNS.length)];
        if (random.nextInt(8) == 0) {
            return RowFilter.isNull(column);
        }
        if (column.equals("s") || column.equals("t")) {
            if (random.nextInt(6) == 0) {
                String[] patterns = {"ab%", "%k", "a_c%", "%é%", "_", "", "%", "zz%z", "ab\\%", "中_"};
                return RowFilter.like(column, patterns[random.nextInt(patterns.length)], '\\');
            }
            Op op = Op.values()[random.nextInt(Op.values().length)];
            if (op == Op.IN) {
                return RowFilter.in(column, word(random), word(random), word(random));
            }
            return RowFilter.string(column, op, word(random));
        }
        Op op = Op.values()[random.nextInt(7)];
        List<Object> constants = new ArrayList<>();
        for (int k = op == Op.IN ? random.nextInt(4) : 1; k > 0; k--) {
            constants.add(valueConstant(random, column));
        }
        return new RowFilter.ValueTest(column, op, constants);
    }

    private static String word(Random random) {
        String w = WORDS[random.nextInt(WORDS.length)];
        return random.nextInt(3) == 0 ? w + "x" : random.nextInt(5) == 0 ? w + "q" : w;
    }

    private static Object valueConstant(Random random, String column) {
        Object[] values = columns[columnIndex(column)];
        Object v = values[random.nextInt(ROWS)];
        if (v != null && random.nextBoolean()) {
            return v;
        }
        return switch (column) {
            case "i" -> (long) (random.nextInt(800) - 300);
            case "u" -> random.nextBoolean() ? (long) random.nextInt(6000) : (1L << 32) - 1 - random.nextInt(60);
            case "d" -> random.nextInt(16) - 4 + 0.75 * random.nextInt(2);
            case "m" -> BigDecimal.valueOf(random.nextInt(7000) - 500, 2);
            default -> random.nextBoolean();
        };
    }

    private static int columnIndex(String column) {
        return SCHEMA.getFieldIndex(column);
    }

    // ---- the model (as in RowFilterPropertyTest, over this file's columns)

    static Boolean model(RowFilter f, int r) {
        return switch (f) {
            case RowFilter.IsNull n -> columns[columnIndex(n.column())][r] == null;
            case RowFilter.StringTest t -> {
                Object v = columns[columnIndex(t.column())][r];
                yield v == null ? null : stringTest(t, ((String) v).getBytes(StandardCharsets.UTF_8));
            }
            case RowFilter.Like l -> {
                Object v = columns[columnIndex(l.column())][r];
                yield v == null ? null : like(l.pattern(), (String) v);
            }
            case RowFilter.ValueTest t -> {
                Object v = columns[columnIndex(t.column())][r];
                if (v == null) {
                    yield null;
                }
                boolean any = false;
                for (Object c : t.values()) {
                    int cmp = compare(t.column(), v, c);
                    any |= switch (t.op()) {
                        case EQUAL, IN -> cmp == 0;
                        case NOT_EQUAL -> cmp != 0;
                        case LESS_THAN -> cmp < 0;
                        case LESS_THAN_OR_EQUAL -> cmp <= 0;
                        case GREATER_THAN -> cmp > 0;
                        case GREATER_THAN_OR_EQUAL -> cmp >= 0;
                        default -> throw new AssertionError();
                    };
                }
                yield any;
            }
            case RowFilter.And a -> {
                Boolean out = true;
                for (RowFilter c : a.children()) {
                    Boolean x = model(c, r);
                    if (Boolean.FALSE.equals(x)) {
                        yield false;
                    }
                    out = x == null ? null : out;
                }
                yield out;
            }
            case RowFilter.Or o -> {
                Boolean out = false;
                for (RowFilter c : o.children()) {
                    Boolean x = model(c, r);
                    if (Boolean.TRUE.equals(x)) {
                        yield true;
                    }
                    out = x == null ? null : out;
                }
                yield out;
            }
            case RowFilter.Not n -> {
                Boolean x = model(n.child(), r);
                yield x == null ? null : !x;
            }
        };
    }

    private static int compare(String column, Object v, Object c) {
        return switch (column) {
            case "i", "u" -> Long.compare((Long) v, (Long) c); // u's values are held zero-extended
            case "d" -> Double.compare((Double) v, (Double) c); // no NaN, no -0.0 in this file
            case "m" -> ((BigDecimal) v).compareTo((BigDecimal) c);
            default -> Boolean.compare((Boolean) v, (Boolean) c);
        };
    }

    private static boolean stringTest(RowFilter.StringTest t, byte[] v) {
        byte[] c = t.values().get(0);
        return switch (t.op()) {
            case EQUAL -> Arrays.equals(v, c);
            case NOT_EQUAL -> !Arrays.equals(v, c);
            case LESS_THAN -> Arrays.compareUnsigned(v, c) < 0;
            case LESS_THAN_OR_EQUAL -> Arrays.compareUnsigned(v, c) <= 0;
            case GREATER_THAN -> Arrays.compareUnsigned(v, c) > 0;
            case GREATER_THAN_OR_EQUAL -> Arrays.compareUnsigned(v, c) >= 0;
            case IN -> t.values().stream().anyMatch(x -> Arrays.equals(v, x));
            case STARTS_WITH -> new String(v, StandardCharsets.UTF_8).startsWith(new String(c, StandardCharsets.UTF_8));
            case ENDS_WITH -> new String(v, StandardCharsets.UTF_8).endsWith(new String(c, StandardCharsets.UTF_8));
            case CONTAINS -> new String(v, StandardCharsets.UTF_8).contains(new String(c, StandardCharsets.UTF_8));
        };
    }

    /** LIKE with escape '\' over code points, by regex. */
    private static boolean like(String pattern, String value) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char ch = pattern.charAt(i);
            if (ch == '\\') {
                regex.append(java.util.regex.Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else {
                regex.append(ch == '%' ? ".*" : ch == '_' ? "." : java.util.regex.Pattern.quote(String.valueOf(ch)));
            }
        }
        return java.util.regex.Pattern.compile(regex.toString(), java.util.regex.Pattern.DOTALL).matcher(value)
                .matches();
    }

    // ---- the same filter in parquet-java's FilterApi

    record Pair(RowFilter filter, FilterPredicate predicate) {}

    /** A tree parquet-java's record filter means the same by: =, <, <=, >, >=, IN, IS [NOT] NULL, AND, OR. */
    private static Pair comparableTree(Random random, int depth) {
        int pick = random.nextInt(depth <= 0 ? 1 : 3);
        if (pick == 0) {
            return comparableLeaf(random);
        }
        Pair a = comparableTree(random, depth - 1);
        Pair b = comparableTree(random, depth - 1);
        return pick == 1 ? new Pair(RowFilter.and(a.filter(), b.filter()), FilterApi.and(a.predicate(), b.predicate()))
                : new Pair(RowFilter.or(a.filter(), b.filter()), FilterApi.or(a.predicate(), b.predicate()));
    }

    private static Pair comparableLeaf(Random random) {
        String column = new String[] {"s", "t", "i", "d"}[random.nextInt(4)];
        Op op = new Op[] {Op.EQUAL, Op.LESS_THAN, Op.LESS_THAN_OR_EQUAL, Op.GREATER_THAN, Op.GREATER_THAN_OR_EQUAL,
            Op.IN, null, null}[random.nextInt(8)];
        boolean notNull = random.nextBoolean();
        switch (column) {
            case "s", "t" -> {
                var col = FilterApi.binaryColumn(column);
                if (op == null) {
                    return new Pair(notNull ? RowFilter.isNotNull(column) : RowFilter.isNull(column),
                            notNull ? FilterApi.notEq(col, null) : FilterApi.eq(col, null));
                }
                if (op == Op.IN) {
                    String a = word(random);
                    String b = word(random);
                    return new Pair(RowFilter.in(column, a, b), FilterApi.in(col, new HashSet<>(List.of(
                            Binary.fromString(a), Binary.fromString(b)))));
                }
                String w = word(random);
                Binary c = Binary.fromString(w);
                return new Pair(RowFilter.string(column, op, w), switch (op) {
                    case EQUAL -> FilterApi.eq(col, c);
                    case LESS_THAN -> FilterApi.lt(col, c);
                    case LESS_THAN_OR_EQUAL -> FilterApi.ltEq(col, c);
                    case GREATER_THAN -> FilterApi.gt(col, c);
                    default -> FilterApi.gtEq(col, c);
                });
            }
            case "i" -> {
                var col = FilterApi.intColumn("i");
                if (op == null) {
                    return new Pair(notNull ? RowFilter.isNotNull("i") : RowFilter.isNull("i"),
                            notNull ? FilterApi.notEq(col, null) : FilterApi.eq(col, null));
                }
                int c = (int) (long) (Long) valueConstant(random, "i");
                if (op == Op.IN) {
                    Set<Integer> set = new HashSet<>(List.of(c, c + 1));
                    return new Pair(RowFilter.valueIn("i", List.of((long) c, (long) c + 1)), FilterApi.in(col, set));
                }
                return new Pair(RowFilter.compare("i", op, (long) c), switch (op) {
                    case EQUAL -> FilterApi.eq(col, c);
                    case LESS_THAN -> FilterApi.lt(col, c);
                    case LESS_THAN_OR_EQUAL -> FilterApi.ltEq(col, c);
                    case GREATER_THAN -> FilterApi.gt(col, c);
                    default -> FilterApi.gtEq(col, c);
                });
            }
            default -> {
                var col = FilterApi.doubleColumn("d");
                if (op == null) {
                    return new Pair(notNull ? RowFilter.isNotNull("d") : RowFilter.isNull("d"),
                            notNull ? FilterApi.notEq(col, null) : FilterApi.eq(col, null));
                }
                double c = (Double) (valueConstant(random, "d") instanceof Double x ? x : 1.0);
                if (op == Op.IN) {
                    return new Pair(RowFilter.valueIn("d", List.of(c)), FilterApi.in(col, new HashSet<>(List.of(c))));
                }
                return new Pair(RowFilter.compare("d", op, c), switch (op) {
                    case EQUAL -> FilterApi.eq(col, c);
                    case LESS_THAN -> FilterApi.lt(col, c);
                    case LESS_THAN_OR_EQUAL -> FilterApi.ltEq(col, c);
                    case GREATER_THAN -> FilterApi.gt(col, c);
                    default -> FilterApi.gtEq(col, c);
                });
            }
        }
    }
}
