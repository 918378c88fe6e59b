package dev.stringview.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code format("stringview")} on Spark's own file-source machinery, against {@code spark.read.parquet} on the
 * same paths: Hive-style partition directories (partition columns, pruning), globs, several paths, a file split
 * into several tasks by {@code spark.sql.files.maxPartitionBytes}, the {@code _metadata} columns and files whose
 * columns differ ({@code mergeSchema}). Each query runs in batches (code generation on) and in rows.
 */
class SparkFileSourceTest {
    @TempDir
    static Path dir;
    static SparkSession spark;

    /** Rows with the 12/13-byte view edges, non-ASCII text, nulls and numbers, for every dataset here. */
    static String rows(int count) {
        return "SELECT id, CASE WHEN id % 11 = 0 THEN NULL ELSE concat(element_at(array('', 'abcdefghijkl',"
                + " 'abcdefghijklm', 'http://www.google.com/', 'héllo wörld', 'yandex.ru/search'),"
                + " CAST(id % 6 + 1 AS INT)), CAST(id % 1000 AS STRING)) END AS url,"
                + " CAST(id % 5 AS INT) AS region, CAST(id % 3 AS STRING) AS kind,"
                + " CAST(id * 7 % 10000 AS DECIMAL(12,2)) AS amount FROM range(" + count + ")";
    }

    @BeforeAll
    static void write() {
        spark = Sessions.local();
        spark.sql(rows(6000)).write().partitionBy("region", "kind").parquet(dir.resolve("partitioned").toString());
        spark.sql(rows(3000)).repartition(3).write().parquet(dir.resolve("glob").toString());
        spark.sql(rows(1000)).repartition(1).write().parquet(dir.resolve("a").toString());
        spark.sql(rows(1500)).where("id >= 700").repartition(1).write().parquet(dir.resolve("b").toString());
        // One file of many row groups (about 64 KiB each), for splits.
        spark.sql(rows(60000)).repartition(1).write().option("parquet.block.size", "65536")
                .option("parquet.enable.dictionary", "false").parquet(dir.resolve("split").toString());
        spark.sql("SELECT id, CAST(id AS STRING) AS s FROM range(100)").repartition(1).write()
                .parquet(dir.resolve("merge/part=1").toString());
        spark.sql("SELECT id, CAST(id AS STRING) AS s, id * 2 AS twice FROM range(100, 150)").repartition(1).write()
                .parquet(dir.resolve("merge/part=2").toString());
    }

    static void sameAnswer(Dataset<Row> ours, Dataset<Row> theirs, String what) {
        assertEquals(theirs.schema().simpleString(), ours.schema().simpleString(), what);
        List<String> expected = Sessions.rows(theirs);
        assertEquals(expected, Sessions.rows(ours), what + " (rows)");
        Sessions.withCodegen(() -> assertEquals(expected, Sessions.rows(ours), what + " (batches)"));
    }

    /** The same SQL over our table and Spark's, {@code {T}} naming the table. */
    static void sameAnswers(Dataset<Row> ours, Dataset<Row> theirs, String what, String... queries) {
        ours.createOrReplaceTempView("sv_t");
        theirs.createOrReplaceTempView("pq_t");
        for (String q : queries) {
            sameAnswer(spark.sql(q.replace("{T}", "sv_t")), spark.sql(q.replace("{T}", "pq_t")), what + ": " + q);
        }
    }

    @Test
    void hivePartitionedDirectoryWithPruning() {
        String path = dir.resolve("partitioned").toString();
        sameAnswers(spark.read().format("stringview").load(path), spark.read().parquet(path), "partitioned",
                "SELECT * FROM {T}", "SELECT region, kind, count(*), sum(amount) FROM {T} GROUP BY region, kind",
                "SELECT id, url FROM {T} WHERE region = 2", "SELECT id, kind FROM {T} WHERE region = 2 AND"
                        + " url LIKE '%google%'", "SELECT count(*) FROM {T} WHERE kind = '1' OR url = 'abcdefghijkl5'",
                "SELECT url, region FROM {T} WHERE region IN (1, 3) AND NOT (url LIKE 'abc%')");
        Dataset<Row> pruned = spark.read().format("stringview").load(path).where("region = 2 AND kind = '0'");
        String plan = Sessions.plan(pruned);
        assertTrue(plan.contains("FileScan stringview") && plan.contains("PartitionFilters: [isnotnull(region"),
                plan);
        // Pruning: the scan lists the one directory of region=2/kind=0.
        List<String> files = Sessions.rows(pruned.selectExpr("input_file_name() AS f").distinct());
        assertTrue(!files.isEmpty() && files.stream().allMatch(f -> f.contains("region=2/kind=0/")), files.toString());
    }

    @Test
    void globsAndSeveralPaths() {
        String glob = dir.resolve("glob").toString() + "/part-0000[01]*.parquet";
        Dataset<Row> ours = spark.read().format("stringview").load(glob);
        sameAnswers(ours, spark.read().parquet(glob), "glob", "SELECT * FROM {T}",
                "SELECT count(*) FROM {T} WHERE url LIKE '%google%'");
        assertEquals(2, Sessions.rows(ours.selectExpr("input_file_name()").distinct()).size(), "files in the glob");
        String a = dir.resolve("a").toString();
        String b = dir.resolve("b").toString();
        sameAnswers(spark.read().format("stringview").load(a, b), spark.read().parquet(a, b), "two paths",
                "SELECT * FROM {T}", "SELECT url, count(*) FROM {T} WHERE id > 800 GROUP BY url");
    }

    /**
     * A file of many row groups split into several tasks: each row group is read by exactly one of them (the one
     * whose split holds its midpoint), so counts, sums and rows equal Spark's.
     */
    @Test
    void aFileSplitIntoSeveralTasks() {
        String path = dir.resolve("split").toString();
        spark.conf().set("spark.sql.files.maxPartitionBytes", "262144");
        try {
            Dataset<Row> ours = spark.read().format("stringview").load(path);
            int tasks = ours.rdd().getNumPartitions();
            assertTrue(tasks >= 4, "tasks=" + tasks);
            sameAnswers(ours, spark.read().parquet(path), "split into " + tasks,
                    "SELECT count(*), count(url), sum(id), sum(amount), min(url), max(url) FROM {T}",
                    "SELECT id, url FROM {T} WHERE url LIKE '%google%' AND id % 97 = 3",
                    "SELECT region, count(*) FROM {T} WHERE url > 'h' GROUP BY region", "SELECT * FROM {T}");
        } finally {
            spark.conf().unset("spark.sql.files.maxPartitionBytes");
        }
    }

    @Test
    void metadataColumnsAndFilesWithDifferentColumns() {
        String path = dir.resolve("partitioned").toString();
        // The metadata columns of a relation are not visible through a view: ask the data frames.
        Dataset<Row> ours = spark.read().format("stringview").load(path);
        Dataset<Row> theirs = spark.read().parquet(path);
        sameAnswer(ours.groupBy("_metadata.file_name", "_metadata.file_size").agg(functions.count("*"),
                functions.max("url")), theirs.groupBy("_metadata.file_name", "_metadata.file_size")
                .agg(functions.count("*"), functions.max("url")), "_metadata file columns");
        sameAnswer(ours.where("url LIKE '%ya%'").selectExpr("id", "_metadata.row_index", "_metadata.file_path"),
                theirs.where("url LIKE '%ya%'").selectExpr("id", "_metadata.row_index", "_metadata.file_path"),
                "_metadata.row_index (Spark's reader computes it)");
        // part=1 lacks `twice`: that file goes to Spark's reader, which reads it as nulls.
        String merge = dir.resolve("merge").toString();
        sameAnswers(spark.read().format("stringview").option("mergeSchema", "true").load(merge),
                spark.read().option("mergeSchema", "true").parquet(merge), "mergeSchema",
                "SELECT * FROM {T}", "SELECT id, twice FROM {T} WHERE s LIKE '1%'");
    }
}
