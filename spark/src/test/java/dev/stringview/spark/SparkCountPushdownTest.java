package dev.stringview.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
 * {@code COUNT(*)} / {@code COUNT(column)} pushed into the scan ({@code CountScan}) against Spark's own Parquet
 * reader on the same files: every pushed filter kind (one leaf counted by parquet-reader, trees and null tests
 * counted by the row reader), nulls, the 12/13-byte edge, non-ASCII, a file of one row group cut into slices, and
 * the cases that must not be pushed (a filter left to Spark, GROUP BY, other aggregates, the option off).
 */
class SparkCountPushdownTest {
    static final int ROWS = 3000;
    static final String[] LAYOUTS = {"plainOneGroup", "dictGroups", "v2Zstd"};

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
                .add("bin", DataTypes.BinaryType, true);
        Random random = new Random(SparkSourceTest.SEED + 7);
        List<Row> rows = new ArrayList<>();
        for (int r = 0; r < ROWS; r++) {
            boolean nulls = random.nextInt(8) == 0;
            rows.add(RowFactory.create((long) r, nulls ? null : SparkSourceTest.value(random),
                    SparkSourceTest.value(random), nulls ? null : random.nextInt(100),
                    nulls ? null : SparkSourceTest.value(random).getBytes(StandardCharsets.UTF_8)));
        }
        Dataset<Row> df = spark.createDataFrame(rows, schema).repartition(1);
        // One row group of many small pages: the count is cut into page slices.
        df.write().option("parquet.block.size", String.valueOf(64 << 20)).option("parquet.page.size", "2048")
                .option("parquet.enable.dictionary", "false").option("compression", "none")
                .parquet(dir.resolve(LAYOUTS[0]).toString());
        df.write().option("parquet.block.size", "16384").option("compression", "snappy")
                .parquet(dir.resolve(LAYOUTS[1]).toString());
        df.write().option("parquet.block.size", "32768").option("parquet.writer.version", "v2")
                .option("parquet.enable.dictionary", "false").option("compression", "zstd")
                .parquet(dir.resolve(LAYOUTS[2]).toString());
        for (String layout : LAYOUTS) {
            spark.read().format("stringview").option("aggregatePushdown", "true")
                    .load(dir.resolve(layout).toString()).createOrReplaceTempView("cv_" + layout);
            spark.read().format("stringview").load(dir.resolve(layout).toString())
                    .createOrReplaceTempView("cvoff_" + layout); // the default: off
            spark.read().parquet(dir.resolve(layout).toString()).createOrReplaceTempView("cpq_" + layout);
        }
    }

    /** Our answer, Spark's answer (compared) and how many scans of the executed plan answered a count. */
    static int countScans(String layout, String table, String sql) {
        Dataset<Row> ours = spark.sql(sql.replace("{T}", table + layout));
        List<String> got = Sessions.rows(ours);
        List<String> want = Sessions.rows(spark.sql(sql.replace("{T}", "cpq_" + layout)));
        assertEquals(want, got, "layout=" + layout + " table=" + table + " sql=" + sql);
        String plan = ours.queryExecution().sparkPlan().toString();
        return plan.split("StringviewCount\\[", -1).length - 1;
    }

    static final List<String> PUSHED = List.of(
            "s = 'abcdefghijkl'", "s = 'abcdefghijklm'", "s = ''", "s <> 'a'", "s < 'abcd'", "s <= 'abcd'",
            "s > 'éb'", "s >= 'zzzzzzzzzzzzz'", "s IN ('a', 'abcdefghijkl', '日本語のテキスト')", "s IN ('a', NULL)",
            "s LIKE 'abcdefghijkl%'", "s LIKE '%klm'", "s LIKE '%é%'", "s LIKE 'é%'",
            "s IS NULL", "s IS NOT NULL", "NOT (s = 'a')", "s = 'a' OR t LIKE 'é%'", "s LIKE 'a%' AND t LIKE '%z'",
            "NOT (s LIKE 'a%' OR s LIKE '%é')", "s = 'nowhere-at-all'", "s > 'zzzzzzzzzzzzzzzzzzzz'",
            "sv.fn.like_any(s, array('%b%', 'z%'))", "sv.fn.starts_with_any(s, array('abc'))",
            "sv.fn.like_any(t, array('a_c%'))", "t = 'abcdefghijk'", "t LIKE 'abc%'");

    @Test
    void pushedCountsEqualSparksCountsForEveryFilterKind() {
        for (String layout : LAYOUTS) {
            List<String> parts = new ArrayList<>();
            for (int q = 0; q < PUSHED.size(); q++) {
                parts.add("SELECT " + q + " AS q, count(*), count(s), count(t), count(bin) FROM {T} WHERE "
                        + PUSHED.get(q));
            }
            parts.add("SELECT -1 AS q, count(*), count(s), count(t), count(bin) FROM {T}");
            String sql = String.join(" UNION ALL ", parts);
            int scans = countScans(layout, "cv_", sql);
            if (scans != parts.size()) {
                for (String where : PUSHED) { // name the filter that was not pushed
                    assertEquals(1, countScans(layout, "cv_", "SELECT count(*) FROM {T} WHERE " + where),
                            "layout=" + layout + " where=" + where);
                }
            }
            assertEquals(parts.size(), scans, "layout=" + layout);
            assertEquals(0, countScans(layout, "cvoff_", sql), "aggregatePushdown off (the default)");
        }
    }

    @Test
    void countsThatMustNotBePushedStillGiveSparksAnswers() {
        for (String layout : LAYOUTS) {
            // A filter left to Spark: the scan returns rows, Spark filters and counts.
            for (String where : List.of("i + 1 > 50", "s LIKE 'a_c%'", "upper(s) = 'ABCD'", "s = t",
                    "s = 'abcd' OR i % 7 = 3")) {
                assertEquals(0, countScans(layout, "cv_", "SELECT count(*), count(s) FROM {T} WHERE " + where),
                        "where=" + where);
            }
            assertEquals(0, countScans(layout, "cv_", "SELECT s, count(*) FROM {T} GROUP BY s"));
            assertEquals(0, countScans(layout, "cv_",
                    "SELECT t, count(*) FROM {T} WHERE s LIKE 'abc%' GROUP BY t"));
            assertEquals(0, countScans(layout, "cv_", "SELECT count(DISTINCT s) FROM {T}"));
            assertEquals(0, countScans(layout, "cv_", "SELECT count(*), sum(id) FROM {T} WHERE s LIKE 'a%'"));
            assertEquals(0, countScans(layout, "cv_", "SELECT count(i) FROM {T} WHERE s LIKE 'a%'"));
        }
    }

    @Test
    void aSingleRowGroupIsCountedInSlicesWithTheSameAnswer() {
        String sql = "SELECT count(*) FROM {T} WHERE s LIKE '%b%'";
        assertEquals(1, countScans(LAYOUTS[0], "cv_", sql));
        Dataset<Row> ours = spark.sql(sql.replace("{T}", "cv_" + LAYOUTS[0]));
        String plan = ours.queryExecution().executedPlan().toString();
        assertFalse(plan.contains("Filter "), plan);
        // local[2]: about two partitions per task slot, so a one-row-group file gives 4 slices.
        long partitions = spark.sql("SELECT * FROM cv_" + LAYOUTS[0]).rdd().getNumPartitions();
        assertEquals(1, partitions, "the row scan reads the one row group as one partition");
        int slices = sliceCount(sql.replace("{T}", "cv_" + LAYOUTS[0]));
        assertTrue(slices >= 2, "count partitions: " + slices);
    }

    /** The number of input partitions of the query's count scan. */
    static int sliceCount(String sql) {
        Dataset<Row> df = spark.sql(sql);
        Object leaf = df.queryExecution().sparkPlan().collectLeaves().head();
        if (leaf instanceof org.apache.spark.sql.execution.datasources.v2.BatchScanExec scan) {
            return scan.inputPartitions().size();
        }
        throw new AssertionError("no batch scan leaf: " + df.queryExecution().sparkPlan());
    }
}
