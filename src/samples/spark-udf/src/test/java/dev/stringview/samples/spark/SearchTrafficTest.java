package dev.stringview.samples.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the job in a local[2] session with stringview's drop-in on a partitioned directory Spark writes, and checks
 * it against Spark's own reader (the drop-in turned off) and its built-in {@code LIKE ANY} / {@code startswith} on
 * the same files.
 */
class SearchTrafficTest {
    @TempDir
    static Path dir;

    static SparkSession spark;
    static String path;

    @BeforeAll
    static void start() {
        spark = SparkSession.builder().master("local[2]").appName("spark-udf-sample")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.extensions", "dev.stringview.spark.StringviewExtensions")
                .getOrCreate();
        SearchTraffic.registerFunctions(spark);
        // Edge values beside random URLs: nulls, 12- and 13-byte strings (inline and not), non-ASCII text.
        List<Row> rows = new ArrayList<>();
        String[] fixed = {null, "", "https://a.b/", "https://a.bc/", "http://x.y/z", "https://www.google.com/search?q=1",
            "http://yandex.ru/search/?text=погода", "https://пример.рф/", "https://www.bing.com/search?q=ü"};
        String[] countries = {"RU", "DE", "US", null};
        Random random = new Random(12);
        for (int i = 0; i < 5000; i++) {
            String url = i < fixed.length ? fixed[i] : randomUrl(random);
            rows.add(RowFactory.create(url, countries[random.nextInt(countries.length)]));
        }
        StructType schema = new StructType().add("url", DataTypes.StringType).add("country", DataTypes.StringType);
        path = dir.resolve("visits").toString();
        spark.createDataFrame(rows, schema).coalesce(1).write().option("parquet.block.size", 16 * 1024)
                .partitionBy("country").parquet(path);
    }

    private static String randomUrl(Random random) {
        String[] hosts = {"www.google.com/search?q=", "www.google.ru/search?q=", "yandex.ru/search/?text=",
            "www.bing.com/search?q=", "news.example.org/", "shop.example.com/item/", "google.com/maps/"};
        StringBuilder sb = new StringBuilder(random.nextBoolean() ? "https://" : "http://");
        sb.append(hosts[random.nextInt(hosts.length)]);
        for (int i = random.nextInt(12); i > 0; i--) {
            sb.append((char) ('a' + random.nextInt(26)));
        }
        return sb.toString();
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    /** {@code action} with the drop-in off: Spark's own Parquet reader. */
    static <T> T sparksOwnReader(java.util.function.Supplier<T> action) {
        spark.conf().set("spark.stringview.enabled", "false");
        try {
            return action.get();
        } finally {
            spark.conf().unset("spark.stringview.enabled");
        }
    }

    @Test
    void reportEqualsSparksOwnReaderAndBuiltIns() {
        List<Row> expected = sparksOwnReader(() -> {
            spark.read().parquet(path).createOrReplaceTempView("expected_visits");
            return spark.sql("SELECT country,"
                    + " count_if(url LIKE ANY ('%google.%/search%', '%yandex.%/search%', '%bing.com/search%'))"
                    + " AS searches, count_if(startswith(url, 'https://')) AS secure"
                    + " FROM expected_visits GROUP BY country ORDER BY country").collectAsList();
        });
        List<Row> actual = SearchTraffic.report(spark, path).collectAsList();
        assertEquals(4, actual.size(), "three countries and NULL");
        assertEquals(expected, actual);
    }

    @Test
    void searchVisitsCountTheSameRowsThroughStringview() {
        long expected = sparksOwnReader(() -> spark.read().parquet(path)
                .where("url LIKE ANY ('%google.%/search%', '%yandex.%/search%', '%bing.com/search%')").count());
        assertTrue(expected > 1000, "the data has search visits: " + expected);
        assertEquals(expected, SearchTraffic.searchVisits(spark, path));
        String plan = SearchTraffic.visits(spark, path).where("url LIKE '%google.%'")
                .queryExecution().executedPlan().toString();
        assertTrue(plan.contains("FileScan stringview"), "the drop-in reads the scan:\n" + plan);
        String off = sparksOwnReader(() -> SearchTraffic.visits(spark, path).queryExecution().executedPlan().toString());
        assertTrue(off.contains("FileScan parquet"), "spark.stringview.enabled=false:\n" + off);
    }
}
