package dev.stringview.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.parquet.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The format against Flink's own Parquet format on the same partitioned directory, in one embedded batch
 * {@link TableEnvironment}: every query runs on table {@code sv} ('format' = 'stringview-parquet') and on table
 * {@code fs} ('format' = 'parquet'), both of the filesystem connector and {@code PARTITIONED BY (dt)}, and the
 * sorted rows must be equal.
 */
class StringviewParquetFormatTest {
    private static final String COLUMNS = "id BIGINT, s STRING, n INT, d DOUBLE, b BOOLEAN, dat DATE, ts TIMESTAMP(6),"
            + " dt STRING";
    private static final String PARTITIONED = ") PARTITIONED BY (dt) WITH ('connector' = 'filesystem', 'path' = '";
    /** 0/1/11/12/13/15/16/17 bytes, non-ASCII, bytes >= 0x80 in the prefix, shared prefixes, a newline, '%' and '_'. */
    private static final String[] EDGES = {"", "a", "hello world", "hello world!", "hello world!!",
        "hello world!!!!", "0123456789abcdef", "0123456789abcdefg", "héllo", "日本語のテキスト", "ééééééééééééé",
        "http://google.com/x", "http://yandex.ru/search?q=1", "line\nbreak", "100%", "a_b", "google", "Google"};

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    static Path dir;

    private static TableEnvironment env;
    private static int rows;

    @BeforeAll
    static void setUp() throws IOException {
        // The same seeded rows twice: v1 pages (PLAIN or dictionary, which Flink's own reader can read) and
        // v2 pages (DELTA_BYTE_ARRAY and DELTA_BINARY_PACKED, which it cannot: "Unsupported encoding").
        // Two partitions, dt=2024-01-01 (two files) and dt=2024-01-02 (one), plus a _SUCCESS marker and a hidden
        // file that the connector's enumeration skips.
        Path v1 = Files.createDirectories(dir.resolve("v1"));
        Path v2 = Files.createDirectories(dir.resolve("v2"));
        rows = 5000;
        for (Path d : List.of(v1, v2)) {
            ParquetProperties.WriterVersion version = d == v1 ? ParquetProperties.WriterVersion.PARQUET_1_0
                    : ParquetProperties.WriterVersion.PARQUET_2_0;
            Path first = Files.createDirectories(d.resolve("dt=2024-01-01"));
            Path second = Files.createDirectories(d.resolve("dt=2024-01-02"));
            write(first.resolve("part-0.parquet"), 0, 3000, 7, version, true);
            write(first.resolve("part-1.parquet"), 3000, rows - 3000, 5, version, false);
            write(second.resolve("part-0.parquet"), rows, 1500, 11, version, false);
            Files.writeString(d.resolve("_SUCCESS"), "");
            Files.writeString(second.resolve(".part-9.parquet.crc"), "not parquet");
        }
        env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.getConfig().set("parallelism.default", "2");
        env.executeSql("CREATE TABLE sv (" + COLUMNS + PARTITIONED + v1 + "', 'format' = 'stringview-parquet',"
                + " 'stringview-parquet.batch-size' = '1000')");
        env.executeSql("CREATE TABLE svdelta (" + COLUMNS + PARTITIONED + "file://" + v2
                + "', 'format' = 'stringview-parquet')");
        env.executeSql("CREATE TABLE fs (" + COLUMNS + PARTITIONED + v1 + "', 'format' = 'parquet')");
    }

    @AfterAll
    static void tearDown() {
        env = null;
    }

    /** Seeded rows: edge strings, URL-like strings, nulls in every column; small row groups (several per file). */
    private static void write(Path file, long firstId, int count, long seed,
            ParquetProperties.WriterVersion version, boolean dictionary) throws IOException {
        MessageType schema = MessageTypeParser.parseMessageType("""
                message t {
                  required int64 id;
                  optional binary s (STRING);
                  optional int32 n;
                  optional double d;
                  optional boolean b;
                  optional int32 dat (DATE);
                  optional int64 ts (TIMESTAMP(MICROS,false));
                }""");
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        Random random = new Random(seed);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withConf(new PlainParquetConfiguration()).withType(schema)
                .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
                .withWriterVersion(version).withDictionaryEncoding(dictionary).withRowGroupSize(64 * 1024).withPageSize(8 * 1024).build()) {
            for (int i = 0; i < count; i++) {
                Group g = groups.newGroup().append("id", firstId + i);
                if (random.nextInt(10) != 0) {
                    g.append("s", random.nextBoolean() ? EDGES[random.nextInt(EDGES.length)]
                            : "http://" + (random.nextBoolean() ? "google" : "example") + ".com/page/"
                                    + random.nextInt(500));
                }
                if (random.nextInt(8) != 0) {
                    g.append("n", random.nextInt(1000) - 500);
                }
                if (random.nextInt(8) != 0) {
                    g.append("d", random.nextDouble() * 100);
                }
                if (random.nextInt(8) != 0) {
                    g.append("b", random.nextBoolean());
                }
                if (random.nextInt(8) != 0) {
                    g.append("dat", (int) LocalDate.of(2020, 1, 1).toEpochDay() + random.nextInt(2000));
                }
                if (random.nextInt(8) != 0) {
                    g.append("ts", 1_600_000_000_000_000L + random.nextLong(1_000_000_000_000L));
                }
                writer.write(g);
            }
        }
    }

    private static List<String> collect(String sql) {
        List<String> out = new ArrayList<>();
        TableResult result = env.executeSql(sql);
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        } catch (Exception e) {
            throw new IllegalStateException("query failed: sql=" + sql, e);
        }
        out.sort(null);
        return out;
    }

    /**
     * Runs the query ({@code {t}} = the table) over Flink's source and ours on the v1 files and asserts the same
     * sorted rows; returns them.
     */
    private static List<String> same(String query) {
        return same(query, false);
    }

    /** Like {@link #same(String)}, and with {@code alsoDelta} our source on the v2 (DELTA) files as well. */
    private static List<String> same(String query, boolean alsoDelta) {
        List<String> theirs = collect(query.replace("{t}", "fs"));
        List<String> ours = collect(query.replace("{t}", "sv"));
        assertEquals(theirs.size(), ours.size(), () -> "row count differs: query=" + query);
        assertEquals(theirs, ours, () -> "rows differ: query=" + query);
        if (alsoDelta) {
            List<String> delta = collect(query.replace("{t}", "svdelta"));
            assertEquals(theirs, delta, () -> "rows differ on the DELTA files: query=" + query);
        }
        return ours;
    }

    /** One query (one job) for many filters: branch k of the UNION ALL tags its rows with k. */
    private static String unionOf(String select, String[] filters) {
        List<String> branches = new ArrayList<>();
        for (int k = 0; k < filters.length; k++) {
            branches.add(select.replace("SELECT ", "SELECT " + k + " AS k, ") + "(" + filters[k] + ")");
        }
        return String.join(" UNION ALL ", branches);
    }

    private static String physicalPlan(String explained) {
        return explained.substring(explained.indexOf("== Optimized Physical Plan =="));
    }

    private static String plan(String query) {
        return env.explainSql(query.replace("{t}", "sv"));
    }

    @Test
    void fullReadOfEveryType() {
        List<String> all = same("SELECT * FROM {t}", true);
        assertEquals(rows + 1500, all.size());
    }

    /**
     * The flat types beyond the shared table's: TINYINT, SMALLINT, FLOAT, DECIMAL on INT32, INT64 and
     * FIXED_LEN_BYTE_ARRAY, INT96 (instants before the epoch too) and INT64 TIMESTAMP(MILLIS), with nulls and
     * extremes, read whole and through a string filter: equal to Flink's own Parquet source on the same file.
     */
    @Test
    void everyFlatTypeEqualsFlinksOwnReader() throws IOException {
        MessageType schema = MessageTypeParser.parseMessageType("""
                message t {
                  required int64 id;
                  optional binary s (STRING);
                  optional int32 i8 (INTEGER(8,true));
                  optional int32 i16 (INTEGER(16,true));
                  optional float f;
                  optional int32 d9 (DECIMAL(9,2));
                  optional int64 d18 (DECIMAL(18,4));
                  optional fixed_len_byte_array(13) d30 (DECIMAL(30,5));
                  optional int96 t96;
                  optional int64 tms (TIMESTAMP(MILLIS,false));
                  optional boolean bo;
                  optional int32 dat (DATE);
                  optional int32 tm (TIME(MILLIS,true));
                  optional fixed_len_byte_array(5) fx;
                  optional binary bin;
                  optional int64 tltz (TIMESTAMP(MICROS,true));
                  optional binary d20 (DECIMAL(20,3));
                  optional binary e (STRING);
                }""");
        String columns = "id BIGINT, s STRING, i8 TINYINT, i16 SMALLINT, f FLOAT, d9 DECIMAL(9,2),"
                + " d18 DECIMAL(18,4), d30 DECIMAL(30,5), t96 TIMESTAMP(6), tms TIMESTAMP(3), bo BOOLEAN, dat DATE,"
                + " tm TIME(3), bin BYTES, tltz TIMESTAMP_LTZ(6), d20 DECIMAL(20,3), e STRING";
        // Flink's own reader refuses FIXED_LEN_BYTE_ARRAY as BINARY(n) ("Unexpected type"): ours is checked
        // against the bytes written instead.
        String fixedColumn = ", fx BINARY(5)";
        List<String> fixedWritten = new ArrayList<>();
        Path table = Files.createDirectories(dir.resolve("flat"));
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        Random random = new Random(31);
        long[] micros = {0, -1, 1, -86_400_000_001L, 253_402_300_799_999_999L, -2_208_988_800_000_000L};
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(
                table.resolve("part-0.parquet"))).withConf(new PlainParquetConfiguration()).withType(schema)
                .withRowGroupSize(16 * 1024).withPageSize(2 * 1024).build()) {
            for (int i = 0; i < 3000; i++) {
                Group g = groups.newGroup().append("id", (long) i).append("s", Integer.toString(i % 7));
                if (i % 5 != 0) {
                    g.append("i8", i % 256 - 128);
                }
                if (i % 6 != 0) {
                    g.append("i16", new int[] {-32768, 32767, 0, -1, 17}[i % 5]);
                }
                if (i % 4 != 0) {
                    g.append("f", random.nextFloat() * 1000 - 500);
                }
                if (i % 3 != 0) {
                    g.append("d9", new int[] {-999_999_999, 999_999_999, 0, -1,
                        random.nextInt(-999_999_999, 1_000_000_000)}[i % 5]);
                }
                if (i % 7 != 0) {
                    g.append("d18", new long[] {-999_999_999_999_999_999L, 999_999_999_999_999_999L, 0, -1,
                        random.nextLong() % 1_000_000_000_000_000_000L}[i % 5]);
                }
                if (i % 8 != 0) {
                    java.math.BigInteger unscaled = new java.math.BigInteger(99, random)
                            .multiply(java.math.BigInteger.valueOf(random.nextBoolean() ? 1 : -1));
                    byte[] big = unscaled.toByteArray();
                    byte[] fixed = new byte[13];
                    java.util.Arrays.fill(fixed, unscaled.signum() < 0 ? (byte) -1 : 0);
                    System.arraycopy(big, 0, fixed, 13 - big.length, big.length);
                    g.append("d30", org.apache.parquet.io.api.Binary.fromConstantByteArray(fixed));
                }
                if (i % 9 != 0) {
                    long m = i % 2 == 0 ? micros[i % micros.length]
                            : random.nextLong(-3_000_000_000_000_000L, 5_000_000_000_000_000L);
                    long day = Math.floorDiv(m, 86_400_000_000L);
                    long nanosOfDay = Math.floorMod(m, 86_400_000_000L) * 1000;
                    byte[] int96 = java.nio.ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                            .putLong(nanosOfDay).putInt((int) (day + 2_440_588)).array();
                    g.append("t96", org.apache.parquet.io.api.Binary.fromConstantByteArray(int96));
                }
                if (i % 10 != 0) {
                    // Not before the epoch: Flink's own reader fails on those ("nanos > 999999999 or < 0").
                    g.append("tms", random.nextLong(0, 5_000_000_000_000L));
                }
                if (i % 11 != 0) {
                    g.append("bo", i % 3 == 0);
                }
                if (i % 12 != 0) {
                    g.append("dat", random.nextInt(-40_000, 40_000));
                }
                if (i % 13 != 0) {
                    g.append("tm", random.nextInt(86_400_000));
                }
                if (i % 14 != 0) {
                    byte[] fixed = new byte[5];
                    random.nextBytes(fixed);
                    g.append("fx", org.apache.parquet.io.api.Binary.fromConstantByteArray(fixed));
                    fixedWritten.add("+I[" + i + ", " + java.util.Arrays.toString(fixed) + "]");
                } else {
                    fixedWritten.add("+I[" + i + ", null]");
                }
                if (i % 15 != 0) {
                    byte[] bytes = new byte[random.nextInt(21)];
                    random.nextBytes(bytes);
                    g.append("bin", org.apache.parquet.io.api.Binary.fromConstantByteArray(bytes));
                }
                if (i % 16 != 0) {
                    g.append("tltz", random.nextLong(0, 5_000_000_000_000_000L));
                }
                if (i % 17 != 0) {
                    java.math.BigInteger unscaled = new java.math.BigInteger(i % 2 == 0 ? 66 : 20, random)
                            .multiply(java.math.BigInteger.valueOf(random.nextBoolean() ? 1 : -1));
                    g.append("d20", org.apache.parquet.io.api.Binary.fromConstantByteArray(unscaled.toByteArray()));
                }
                if (i % 4 != 0) {
                    g.append("e", EDGES[i % EDGES.length]);
                }
                writer.write(g);
            }
        }
        env.executeSql("CREATE TABLE svflat (" + columns + fixedColumn + ") WITH ('connector' = 'filesystem', 'path' = '" + table
                + "', 'format' = 'stringview-parquet', 'stringview-parquet.batch-size' = '100')");
        env.executeSql("CREATE TABLE fsflat (" + columns + ") WITH ('connector' = 'filesystem', 'path' = '" + table
                + "', 'format' = 'parquet')");
        String all = "id, s, i8, i16, f, d9, d18, d30, t96, tms, bo, dat, tm, bin, tltz, d20, e";
        String query = "SELECT 0, " + all + " FROM {t} UNION ALL SELECT 1, " + all + " FROM {t} WHERE s IN ('1', '4',"
                + " '6') UNION ALL SELECT 2, " + all + " FROM {t} WHERE s = '3'";
        List<String> theirs = collect(query.replace("{t}", "fsflat"));
        assertEquals(3000 + 1285 + 429, theirs.size()); // s: i % 7, residues 0..3 429 times, 4..6 428
        assertEquals(theirs, collect(query.replace("{t}", "svflat")));
        fixedWritten.sort(null);
        assertEquals(fixedWritten, collect("SELECT id, fx FROM svflat"));
        // Comparisons on the fixed-width columns, run in the source where the literal has the column's type.
        String[] filters = {"i8 < CAST(-100 AS TINYINT)", "i16 >= CAST(0 AS SMALLINT)", "id > 2990", "id <= 3",
            "d9 > CAST(100.50 AS DECIMAL(9, 2))", "d18 < CAST(0 AS DECIMAL(18, 4))", "d30 IS NULL",
            "i8 IS NOT NULL AND d9 <> CAST(0 AS DECIMAL(9, 2))", "t96 IS NOT NULL", "i16 = CAST(32767 AS SMALLINT)"
            + " OR i16 = CAST(-32768 AS SMALLINT)", "f > 0", "tms IS NULL OR s = '1'", "e = 'hello world!'",
            "e = 'hello world!!'", "e LIKE '%world%'", "e IN ('a', 'hello world!', '')", "NOT (e LIKE 'hello%')",
            "dat < DATE '1971-01-01'", "d20 > CAST(0 AS DECIMAL(20, 3))", "bo IS NULL OR NOT bo",
            "NOT (d9 > CAST(0 AS DECIMAL(9, 2)) OR e IS NULL)"};
        String filtered = unionOf("SELECT id, s, i8, i16, d9, d18, d30, e, dat, d20 FROM {t} WHERE ", filters);
        List<String> expected = collect(filtered.replace("{t}", "fsflat"));
        assertTrue(expected.size() > 3000, "too few rows for a useful comparison: rows=" + expected.size());
        assertEquals(expected, collect(filtered.replace("{t}", "svflat")));
    }

    @Test
    void projectionOfSomeColumns() {
        same("SELECT s, id FROM {t} UNION ALL SELECT 'x', count(*) FROM {t} UNION ALL SELECT CAST(dat AS STRING), n"
                + " FROM {t} WHERE n > 100 UNION ALL SELECT dt, count(*) FROM {t} GROUP BY dt", true);
    }

    @Test
    void pushedFiltersGiveFlinksAnswers() {
        String[] filters = {
            "s = 'google'", "s = 'hello world!'", "s = 'hello world!!'", "s = ''", "s = 'héllo'",
            "s = '0123456789abcdef'", "s = '0123456789abcdefg'", "'google' = s", "s <> 'google'",
            "s < 'hello'", "s <= 'hello world!'", "s > 'héllo'", "s >= 'http://google.com/page/1'",
            "s LIKE 'http://google%'", "s LIKE 'hello world!%'", "s LIKE '%google%'", "s LIKE '%abcdefg'",
            "s LIKE 'h_llo'", "s LIKE '%oo_le%'", "s LIKE '日本%'", "s LIKE '%é%'", "s LIKE 'line%'", "s LIKE '%'",
            "s LIKE '100!%' ESCAPE '!'", "s LIKE 'a!_b' ESCAPE '!'",
            "s IN ('google', 'Google', 'hello world!!', '')", "s IN ('nothing')",
            "s IS NULL", "s IS NOT NULL", "s = 'google' OR s LIKE '%yandex%'",
            "s LIKE 'http%' AND s LIKE '%page/1%'", "(s = 'a' OR s IS NULL) AND n > 0",
        };
        List<String> rows = same(unionOf("SELECT id, s, n FROM {t} WHERE ", filters), true);
        assertTrue(rows.size() > 1000, "too few rows for a useful comparison: rows=" + rows.size());
    }

    /** A filter on the partition column prunes directories: the scan lists only the partition left. */
    @Test
    void partitionFilterPrunesDirectories() {
        String physical = physicalPlan(plan("SELECT id, s FROM {t} WHERE dt = '2024-01-02' AND s LIKE '%google%'"));
        assertTrue(physical.contains("partitions=[{dt=2024-01-02}]"), physical);
        same("SELECT id, s, dt FROM {t} WHERE dt = '2024-01-02' UNION ALL SELECT id, s, dt FROM {t} WHERE"
                + " dt = '2024-01-01' AND s LIKE '%google%' UNION ALL SELECT count(*), '', dt FROM {t} GROUP BY dt"
                + " UNION ALL SELECT id, s, dt FROM {t} WHERE dt > '2024-01-01' AND (s = 'google' OR n > 200)",
                true);
    }

    @Test
    void unpushedFiltersStillGiveFlinksAnswers() {
        String[] filters = {"UPPER(s) = 'GOOGLE'", "s LIKE 'a\\_b'", "NOT (s = 'google')", "CHAR_LENGTH(s) = 12",
            "s = 'google' OR n > 400", "d > 50", "NOT (s LIKE '%google%')", "NOT (s LIKE '%google%' OR n < 0)",
            "s = 'google' OR dt = '2024-01-02'"};
        same(unionOf("SELECT id, s FROM {t} WHERE ", filters));
    }

    @Test
    void likeAnyFunctionAgreesWithFlinksLike() {
        env.createTemporarySystemFunction("engines", new LikeAnyFunction("%google%", "%yandex%", "h_llo", "%!%"));
        List<String> ours = collect("SELECT id, s FROM fs WHERE engines(s)");
        List<String> theirs = collect("SELECT id, s FROM fs WHERE s LIKE '%google%' OR s LIKE '%yandex%'"
                + " OR s LIKE 'h_llo' OR s LIKE '%!%'");
        assertEquals(theirs, ours);
        assertTrue(ours.size() > 100, "too few rows: " + ours.size());
    }

    /** A bounded read in streaming mode (the same input format, run by a streaming job). */
    @Test
    void streamingModeReadsTheSameRows() throws Exception {
        TableEnvironment streaming = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        streaming.executeSql("CREATE TABLE sv (" + COLUMNS + PARTITIONED + dir.resolve("v2")
                + "', 'format' = 'stringview-parquet')");
        List<String> ours = new ArrayList<>();
        try (CloseableIterator<Row> it = streaming.executeSql(
                "SELECT id, s FROM sv WHERE s LIKE '%google%' OR s IS NULL").collect()) {
            it.forEachRemaining(r -> ours.add(r.toString()));
        }
        ours.sort(null);
        assertEquals(collect("SELECT id, s FROM fs WHERE s LIKE '%google%' OR s IS NULL"), ours);
    }

    @Test
    void groupByAString() {
        same("SELECT s, count(*), sum(n) FROM {t} GROUP BY s UNION ALL"
                + " SELECT s, count(*), 0 FROM {t} WHERE s LIKE 'http%' GROUP BY s");
    }

    /**
     * parquet-testing files (DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, v2 pages + snappy), which Flink's own
     * Parquet reader refuses ("Unsupported encoding"): the oracle is parquet-java's record reader instead.
     */
    @Test
    void parquetTestingFiles() throws IOException {
        Path data = TestData.dataDir();
        String[][] files = {
            {"delta_length_byte_array.parquet", "FRUIT STRING"},
            {"delta_byte_array.parquet", "c_customer_id STRING, c_salutation STRING, c_first_name STRING"},
            {"datapage_v2.snappy.parquet", "a STRING, b INT, c DOUBLE, d BOOLEAN"},
        };
        for (String[] f : files) {
            String table = "pt_" + f[0].replace('.', '_');
            env.executeSql("CREATE TABLE " + table + " (" + f[1] + ") WITH ('connector' = 'filesystem', 'path' = '"
                + data.resolve(f[0]) + "', 'format' = 'stringview-parquet')");
            List<String> names = new ArrayList<>();
            for (String column : f[1].split(", ")) {
                names.add(column.split(" ")[0]);
            }
            // One job per file: the full read tagged 0, the filtered rows tagged 1.
            String first = names.get(0);
            List<List<String>> expected = new ArrayList<>();
            for (List<String> row : parquetJavaRows(data.resolve(f[0]), names)) {
                List<String> tagged = new ArrayList<>(row);
                tagged.add("0");
                expected.add(tagged);
                if (row.get(0) != null && row.get(0).contains("a")) {
                    tagged = new ArrayList<>(row);
                    tagged.add("1");
                    expected.add(tagged);
                }
            }
            assertEquals(format(expected), collect("SELECT *, 0 FROM " + table + " UNION ALL SELECT *, 1 FROM "
                    + table + " WHERE " + first + " LIKE '%a%'"), f[0]);
        }
    }

    private static List<String> format(List<List<String>> rows) {
        List<String> out = new ArrayList<>();
        for (List<String> row : rows) {
            out.add("+I[" + String.join(", ", row.stream().map(String::valueOf).toList()) + "]");
        }
        out.sort(null);
        return out;
    }

    /** The named top-level columns of every row, as parquet-java's example record reader gives them. */
    private static List<List<String>> parquetJavaRows(Path file, List<String> columns) throws IOException {
        List<List<String>> out = new ArrayList<>();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file),
                ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            PageReadStore pages;
            while ((pages = reader.readNextRowGroup()) != null) {
                RecordReader<Group> records = new ColumnIOFactory().getColumnIO(schema)
                        .getRecordReader(pages, new GroupRecordConverter(schema));
                for (long r = 0; r < pages.getRowCount(); r++) {
                    Group g = records.read();
                    List<String> row = new ArrayList<>();
                    for (String c : columns) {
                        row.add(g.getFieldRepetitionCount(c) == 0 ? null : g.getValueToString(
                                schema.getFieldIndex(c), 0));
                    }
                    out.add(row);
                }
            }
        }
        return out;
    }
}
