package dev.stringview.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Date;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source against Spark's own Parquet source on the same files, written by Spark with several row groups:
 * every answer must be the same, for full reads, filters that are pushed (and evaluated by our kernels) and
 * filters that are not, nulls, the 12/13-byte inline edge, non-ASCII text and GROUP BY.
 */
class SparkSourceTest {
    static final long SEED = 20261123L;
    static final int ROWS = 3000;

    /** Values at the edges of the view layout: lengths 0, 1, 11, 12, 13, 15, 16, 17; shared prefixes; non-ASCII. */
    static final List<String> EDGES = List.of("", "a", "abcdefghijk", "abcdefghijkl", "abcdefghijklm",
            "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq", "abcd", "abce", "héllo wörld",
            "日本語のテキスト", "ébcdefghijklmnopq", "éb", "zzzzzzzzzzzzz", "http://www.google.com/search?q=1",
            "http://yandex.ru/", "abcdefghijkl" + "é");

    static final String[] LAYOUTS = {"plain", "dictionary", "v2"};

    @TempDir
    static Path dir;
    static SparkSession spark;

    @BeforeAll
    static void write() {
        spark = Sessions.local();
        StructType schema = new StructType()
                .add("id", DataTypes.LongType, false)
                .add("s", DataTypes.StringType, true)
                .add("t", DataTypes.StringType, false)
                .add("i", DataTypes.IntegerType, true)
                .add("d", DataTypes.DoubleType, true)
                .add("f", DataTypes.FloatType, true)
                .add("b", DataTypes.BooleanType, true)
                .add("dt", DataTypes.DateType, true)
                .add("ts", DataTypes.TimestampType, true)
                .add("bin", DataTypes.BinaryType, true);
        Random random = new Random(SEED);
        List<Row> rows = new ArrayList<>();
        for (int r = 0; r < ROWS; r++) {
            boolean nulls = random.nextInt(10) == 0;
            rows.add(RowFactory.create((long) r, nulls ? null : value(random), value(random),
                    nulls ? null : random.nextInt(100), nulls ? null : random.nextGaussian(),
                    nulls ? null : random.nextFloat(), nulls ? null : random.nextBoolean(),
                    nulls ? null : new Date(86_400_000L * random.nextInt(20_000)),
                    nulls ? null : new Timestamp(1_000L * random.nextInt(2_000_000_000)),
                    nulls ? null : value(random).getBytes(StandardCharsets.UTF_8)));
        }
        Dataset<Row> df = spark.createDataFrame(rows, schema).repartition(1);
        df.write().option("parquet.block.size", "65536").option("parquet.enable.dictionary", "false")
                .option("compression", "none").parquet(dir.resolve("plain").toString());
        df.write().option("parquet.block.size", "65536").option("compression", "snappy")
                .parquet(dir.resolve("dictionary").toString());
        df.write().option("parquet.block.size", "65536").option("parquet.writer.version", "v2")
                .option("parquet.enable.dictionary", "false").option("compression", "zstd")
                .parquet(dir.resolve("v2").toString());
        for (String layout : LAYOUTS) {
            spark.read().format("stringview").load(dir.resolve(layout).toString()).createOrReplaceTempView("sv_" + layout);
            spark.read().parquet(dir.resolve(layout).toString()).createOrReplaceTempView("pq_" + layout);
        }
    }

    static String value(Random random) {
        if (random.nextInt(3) == 0) {
            return EDGES.get(random.nextInt(EDGES.size()));
        }
        String alphabet = "abcé日z";
        int length = random.nextInt(20);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    /** Runs {@code sql} with {@code {T}} as our table and as Spark's, and compares the sorted rows. */
    static List<String> sameAnswer(String layout, String sql) {
        List<String> ours = Sessions.rows(spark.sql(sql.replace("{T}", "sv_" + layout)));
        List<String> theirs = Sessions.rows(spark.sql(sql.replace("{T}", "pq_" + layout)));
        assertEquals(theirs, ours, "layout=" + layout + " sql=" + sql);
        return ours;
    }

    /**
     * Runs {@code SELECT q, columns FROM {T} WHERE where_q} for every filter as one UNION ALL query (one Spark job
     * instead of one per filter: the suite stays within CI's time), compares with Spark's answer, and on a
     * difference finds and reports the first filter that differs on its own.
     */
    static void sameAnswers(String layout, String columns, List<String> wheres) {
        List<String> parts = new ArrayList<>();
        for (int q = 0; q < wheres.size(); q++) {
            parts.add("SELECT " + q + " AS q, " + columns + " FROM {T} WHERE " + wheres.get(q));
        }
        String sql = String.join(" UNION ALL ", parts);
        List<String> ours = Sessions.rows(spark.sql(sql.replace("{T}", "sv_" + layout)));
        List<String> theirs = Sessions.rows(spark.sql(sql.replace("{T}", "pq_" + layout)));
        if (!ours.equals(theirs)) {
            for (String where : wheres) {
                sameAnswer(layout, "SELECT " + columns + " FROM {T} WHERE " + where);
            }
            assertEquals(theirs, ours, "layout=" + layout + " sql=" + sql);
        }
    }

    /** The pushed filters of the (one) file scan in Spark's plan for {@code sql}, as Spark prints them. */
    static String pushedFilters(String sql) {
        String plan = Sessions.plan(Sessions.local().sql(sql));
        int at = plan.indexOf("PushedFilters: [");
        return at < 0 ? "" : plan.substring(at + "PushedFilters: [".length(), plan.indexOf(']', at));
    }

    /** With Spark's code generation on, as in production (the other tests run interpreted, to compile less). */
    @Test
    void fullReadsEqualSparksOwnReader() {
        Sessions.withCodegen(SparkSourceTest::fullReads);
    }

    static void fullReads() {
        for (String layout : LAYOUTS) {
            assertEquals(ROWS, sameAnswer(layout, "SELECT * FROM {T}").size());
            sameAnswer(layout, "SELECT id, bin, s FROM {T}");
            sameAnswer(layout, "SELECT count(*), count(s), sum(id), sum(i), max(ts), min(dt) FROM {T}");
        }
    }

    @Test
    void groupByAStringColumn() {
        for (String layout : LAYOUTS) {
            List<String> groups = sameAnswer(layout, "SELECT s, count(*), sum(id) FROM {T} GROUP BY s");
            assertTrue(groups.size() > EDGES.size(), "groups=" + groups.size());
            sameAnswer(layout, "SELECT t, count(*) FROM {T} WHERE s LIKE 'abc%' GROUP BY t");
        }
    }

    /**
     * With code generation on, Spark takes batches: the scan hands on only the rows where the pushed filter is TRUE
     * (through a selection), Spark's filter above it sees nothing else. Without it, Spark takes rows.
     */
    @Test
    void pushedFiltersEqualSparksAnswersInBatchesAndInRows() {
        List<String> pushed = List.of(
                "s = 'abcdefghijkl'", "s = 'abcdefghijklm'", "s = ''", "s <> 'a'", "s < 'abcd'", "s <= 'abcd'",
                "s > 'éb'", "s >= 'zzzzzzzzzzzzz'", "'abcd' < s", "s IN ('a', 'abcdefghijkl', '日本語のテキスト')",
                "s IN ('a', NULL)", "NOT s IN ('a', NULL)", "s LIKE 'abcdefghijkl%'", "s LIKE '%klm'",
                "s LIKE '%google%'", "s IS NULL", "s IS NOT NULL", "NOT (s = 'a')", "s = 'a' OR t LIKE 'é%'",
                "NOT (s LIKE 'a%' OR s LIKE '%é')", "s LIKE 'a%' AND t LIKE '%z'", "s LIKE 'é%'",
                "NOT (s IS NULL) AND NOT (t = s)", "s = NULL", "s <=> 'abcd'", "NOT (s <=> 'abcd')",
                "s <=> NULL", "i > 50 AND s LIKE 'a%'", "NOT (i = 3 OR s < 'b')", "i IN (1, 2, 3) OR s IS NULL");
        Sessions.withCodegen(() -> {
            for (String layout : LAYOUTS) {
                sameAnswers(layout, "id, s, t, i", pushed);
            }
        });
        sameAnswers("dictionary", "id, s, t, i", pushed);
        String plan = Sessions.plan(spark.sql("SELECT id FROM sv_plain WHERE s LIKE '%google%'"));
        assertTrue(plan.contains("FileScan stringview"), plan);
        assertTrue(pushedFilters("SELECT id FROM sv_plain WHERE s LIKE '%google%'").contains("StringContains(s,google)"),
                plan);
    }

    @Test
    void filtersThatAreNotPushedStillGiveSparksAnswers() {
        for (String layout : LAYOUTS) {
            sameAnswers(layout, "id, s", List.of("i + 1 > 50", "s LIKE 'a_c%'", "s = 'abcd' OR i % 7 = 3",
                    "length(s) = 12", "s = t", "upper(s) = 'ABCD'"));
        }
    }

    @Test
    void countsWithAPushedFilterAndNoColumnsToReturn() {
        for (String layout : LAYOUTS) {
            // No column is returned: Spark asks for none, the scan still reads the filter's column.
            sameAnswer(layout, "SELECT 1, count(*) FROM {T} WHERE s LIKE '%google%' UNION ALL"
                    + " SELECT 2, count(*) FROM {T} WHERE s = 'abcdefghijklm' UNION ALL"
                    + " SELECT 3, count(*) FROM {T} WHERE s LIKE 'http://%' UNION ALL SELECT 4, count(*) FROM {T}");
        }
    }

    /**
     * Property test: random predicate trees (comparisons, IN with and without NULL, LIKE shapes, null tests,
     * AND/OR/NOT, some on other columns) against Spark's answer on the same file.
     */
    @Test
    void randomPredicatesEqualSparksAnswers() {
        Random random = new Random(SEED + 1);
        for (int q = 0; q < 3; q++) {
            List<String> wheres = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                wheres.add(predicate(random, 2));
            }
            // The seed reproduces the whole sequence; sameAnswers names the filter that differs.
            sameAnswers(LAYOUTS[q % LAYOUTS.length], "id /* seed=" + (SEED + 1) + " */", wheres);
        }
    }

    static String predicate(Random random, int depth) {
        int kind = random.nextInt(depth > 0 ? 12 : 9);
        String column = random.nextInt(4) == 0 ? "t" : "s";
        String c = constant(random);
        return switch (kind) {
            case 0 -> column + " = '" + c + "'";
            case 1 -> column + " <> '" + c + "'";
            case 2 -> column + (random.nextBoolean() ? " < '" : " >= '") + c + "'";
            case 3 -> column + (random.nextBoolean() ? " > '" : " <= '") + c + "'";
            case 4 -> column + " IN ('" + c + "', '" + constant(random) + "'" + (random.nextBoolean() ? ", NULL" : "")
                    + ")";
            case 5 -> column + " LIKE '" + c + "%'";
            case 6 -> column + " LIKE '%" + c + "'";
            case 7 -> column + " LIKE '%" + c + "%'";
            case 8 -> column + (random.nextBoolean() ? " IS NULL" : " IS NOT NULL");
            case 9 -> "(" + predicate(random, depth - 1) + " AND " + predicate(random, depth - 1) + ")";
            case 10 -> "(" + predicate(random, depth - 1) + " OR " + predicate(random, depth - 1) + ")";
            default -> "NOT (" + predicate(random, depth - 1) + ")";
        };
    }

    static String constant(Random random) {
        String v = random.nextBoolean() ? EDGES.get(random.nextInt(EDGES.size())) : value(random);
        return random.nextInt(3) == 0 && !v.isEmpty() ? v.substring(0, random.nextInt(v.length())) : v;
    }
}
