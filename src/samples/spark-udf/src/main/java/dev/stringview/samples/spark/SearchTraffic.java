package dev.stringview.samples.spark;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A small Spark job over a table of page visits ({@code url}, and {@code country} as Hive-style partition
 * directories {@code country=XX/}): how many visits per country came from a search engine, and how many went to a
 * secure page. It is plain Spark code: it reads the Parquet files with {@code spark.read.parquet} and filters with
 * the stringview V2 functions {@code sv.fn.like_any} and {@code sv.fn.starts_with_any}, which match URLs with
 * stringview's kernels. Run with stringview's drop-in ({@code spark.sql.extensions=
 * dev.stringview.spark.StringviewExtensions}), Spark's Parquet scans hand the URLs over as views instead of copies.
 *
 * <p>Run it on a cluster with {@code spark-submit --class dev.stringview.samples.spark.SearchTraffic --jars
 * stringview-spark-<version>-all.jar --conf spark.sql.extensions=dev.stringview.spark.StringviewExtensions
 * <this jar> <parquet folder>} (JDK 25 on every node, see the project's docs/spark.md).
 */
public final class SearchTraffic {
    /** The catalog's name in SQL ({@code sv.fn.like_any}); any name works. */
    public static final String CATALOG = "sv";

    /** URL patterns of search engine result pages (SQL LIKE). */
    public static final List<String> SEARCH_PATTERNS = List.of("%google.%/search%", "%yandex.%/search%", "%bing.com/search%");

    /** Prefixes of secure pages. */
    public static final List<String> SECURE_PREFIXES = List.of("https://");

    private SearchTraffic() {}

    /** Registers the stringview function catalog under {@link #CATALOG} (before its first use in this session). */
    public static void registerFunctions(SparkSession spark) {
        spark.conf().set("spark.sql.catalog." + CATALOG, "dev.stringview.spark.StringviewCatalog");
    }

    /** The visits table: Spark's Parquet source, which the drop-in reads through stringview. */
    public static Dataset<Row> visits(SparkSession spark, String path) {
        return spark.read().parquet(path);
    }

    /** {@code country, searches, secure}: per country, visits from a search page and visits to a secure page. */
    public static Dataset<Row> report(SparkSession spark, String path) {
        visits(spark, path).createOrReplaceTempView("visits");
        return spark.sql("SELECT country,"
                + " count_if(" + CATALOG + ".fn.like_any(url, " + array(SEARCH_PATTERNS) + ")) AS searches,"
                + " count_if(" + CATALOG + ".fn.starts_with_any(url, " + array(SECURE_PREFIXES) + ")) AS secure"
                + " FROM visits GROUP BY country ORDER BY country");
    }

    /** Visits from a search page: here the function is a filter. */
    public static long searchVisits(SparkSession spark, String path) {
        visits(spark, path).createOrReplaceTempView("visits");
        return spark.sql("SELECT count(*) FROM visits WHERE " + CATALOG + ".fn.like_any(url, "
                + array(SEARCH_PATTERNS) + ")").first().getLong(0);
    }

    static String array(List<String> values) {
        StringBuilder sb = new StringBuilder("array(");
        for (int i = 0; i < values.size(); i++) {
            sb.append(i == 0 ? "'" : ", '").append(values.get(i).replace("'", "\\'")).append('\'');
        }
        return sb.append(')').toString();
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: SearchTraffic <parquet file or folder with columns url, country>");
            System.exit(2);
        }
        SparkSession spark = SparkSession.builder().appName("stringview SearchTraffic").getOrCreate();
        try {
            registerFunctions(spark);
            report(spark, args[0]).show(100, false);
            System.out.println("visits from a search page: " + searchVisits(spark, args[0]));
        } finally {
            spark.stop();
        }
    }
}
