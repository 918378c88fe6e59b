package dev.stringview.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drop-in ({@code spark.sql.extensions=dev.stringview.spark.StringviewExtensions}, installed in the shared
 * session and turned on per test with {@code spark.stringview.enabled}): {@code spark.read.parquet}, a table
 * created {@code USING parquet} and a join of partitioned tables with dynamic partition pruning give the answers
 * they give with it off, and their plans name {@code stringview}; off, the plans name {@code parquet}.
 */
class StringviewExtensionsTest {
    @TempDir
    static Path dir;
    static SparkSession spark;

    @BeforeAll
    static void write() {
        spark = Sessions.local();
        spark.sql(SparkFileSourceTest.rows(8000)).write().partitionBy("region")
                .parquet(dir.resolve("facts").toString());
        spark.sql("SELECT * FROM VALUES (0, 'north'), (1, 'south'), (2, 'east'), (3, 'west'), (4, 'west')"
                + " AS t(region, name)").repartition(1).write().parquet(dir.resolve("regions").toString());
        spark.sql("CREATE TABLE sv_facts USING parquet LOCATION '" + dir.resolve("facts").toUri() + "'");
        spark.sql("CREATE TABLE sv_regions USING parquet LOCATION '" + dir.resolve("regions").toUri() + "'");
        spark.sql("MSCK REPAIR TABLE sv_facts"); // the catalog tracks a partitioned table's partitions
    }

    @AfterAll
    static void drop() {
        spark.sql("DROP TABLE IF EXISTS sv_facts");
        spark.sql("DROP TABLE IF EXISTS sv_regions");
    }

    /** The rows and the plan of {@code query}, with the drop-in on and off (with code generation, as by default). */
    static void sameAnswerAndOurScan(Supplier<Dataset<Row>> query, String what) {
        String[] ours = new String[2];
        List<List<String>> rows = new java.util.ArrayList<>();
        Sessions.withCodegen(() -> {
            Sessions.withDropIn(() -> {
                Dataset<Row> df = query.get();
                rows.add(Sessions.rows(df));
                ours[0] = Sessions.plan(df);
            });
            Dataset<Row> df = query.get();
            rows.add(Sessions.rows(df));
            ours[1] = Sessions.plan(df);
        });
        assertEquals(rows.get(1), rows.get(0), what);
        assertFalse(rows.get(0).isEmpty(), what + ": no rows");
        assertTrue(ours[0].contains("FileScan stringview") && !ours[0].contains("FileScan parquet"),
                what + ", on:\n" + ours[0]);
        assertTrue(ours[1].contains("FileScan parquet") && !ours[1].contains("FileScan stringview"),
                what + ", off:\n" + ours[1]);
    }

    @Test
    void readParquetIsReadByStringview() {
        String path = dir.resolve("facts").toString();
        sameAnswerAndOurScan(() -> spark.read().parquet(path).where("url LIKE '%google%'").groupBy("region").count(),
                "spark.read.parquet");
        sameAnswerAndOurScan(() -> spark.read().parquet(path), "spark.read.parquet, every column");
        // In rows (no code generation) as well.
        Dataset<Row> off = spark.read().parquet(path).where("url > 'h' AND region < 3");
        List<String> expected = Sessions.rows(off);
        Sessions.withDropIn(() -> assertEquals(expected, Sessions.rows(spark.read().parquet(path)
                .where("url > 'h' AND region < 3")), "rows"));
    }

    @Test
    void aTableCreatedUsingParquetIsReadByStringview() {
        sameAnswerAndOurScan(() -> spark.sql("SELECT kind, count(*), sum(amount) FROM sv_facts"
                + " WHERE url LIKE 'abcdefghijkl%' AND region = 1 GROUP BY kind"), "USING parquet table");
    }

    @Test
    void aJoinWithDynamicPartitionPruning() {
        Supplier<Dataset<Row>> join = () -> spark.sql("SELECT r.name, count(*), sum(f.id) FROM sv_facts f"
                + " JOIN sv_regions r ON f.region = r.region WHERE r.name = 'west' AND f.url LIKE '%o%'"
                + " GROUP BY r.name");
        sameAnswerAndOurScan(join, "join");
        Sessions.withCodegen(() -> Sessions.withDropIn(() -> {
            Dataset<Row> df = join.get();
            String plan = Sessions.plan(df);
            assertTrue(plan.contains("dynamicpruningexpression"), "dynamic partition pruning:\n" + plan);
            // West is regions 3 and 4: the join counts their rows.
            assertEquals(countWest(), df.collectAsList().get(0).getLong(1));
        }));
    }

    private static long countWest() {
        return spark.sql("SELECT count(*) FROM sv_facts WHERE region IN (3, 4) AND url LIKE '%o%'")
                .collectAsList().get(0).getLong(0);
    }

    /** The functions' filters above a drop-in scan are handed to the scan; the answers stay Spark's. */
    @Test
    void functionFiltersAreHandedToTheScan() {
        String path = dir.resolve("facts").toString();
        String[][] cases = {
            {"sv.fn.like_any(url, array('%google%', 'abc_efghijkl%', 'é%'))",
                "url LIKE ANY ('%google%', 'abc_efghijkl%', 'é%')"},
            {"NOT sv.fn.like_any(url, array('%1', NULL))", "NOT url LIKE ANY ('%1', NULL)"},
            {"sv.fn.starts_with_any(url, array('héllo', 'yandex')) AND region = 2",
                "(startswith(url, 'héllo') OR startswith(url, 'yandex')) AND region = 2"},
        };
        for (String[] c : cases) {
            spark.read().parquet(path).createOrReplaceTempView("facts_fn");
            List<String> expected = Sessions.rows(spark.sql("SELECT id, url FROM facts_fn WHERE " + c[1]));
            Sessions.withCodegen(() -> Sessions.withDropIn(() -> {
                spark.read().parquet(path).createOrReplaceTempView("facts_fn");
                Dataset<Row> ours = spark.sql("SELECT id, url FROM facts_fn WHERE " + c[0]);
                assertEquals(expected, Sessions.rows(ours), c[0]);
                String plan = Sessions.plan(ours);
                assertTrue(plan.contains("Format: Stringview[functions="), c[0] + ":\n" + plan);
            }));
        }
    }

    @Test
    void offForASessionWhenDisabled() {
        String path = dir.resolve("facts").toString();
        assertFalse(Sessions.plan(spark.read().parquet(path)).contains("stringview"));
        Sessions.withDropIn(() -> assertTrue(Sessions.plan(spark.read().parquet(path)).contains("FileScan stringview")));
    }
}
