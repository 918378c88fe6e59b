package dev.stringview.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ClickBench's string queries, in spirit, through {@code spark.read.parquet} with stringview's drop-in on
 * ({@code dropIn}) and off ({@code sparkParquet}, Spark's vectorized reader), in one session per JVM with the
 * extension installed, {@code local[1]} or {@code local[2]}.
 *
 * <p>The table is ClickBench-shaped, written by Spark itself (cached in {@code benchmarks/target/bench-data}):
 * {@code URL}, {@code Title}, {@code Referer}, {@code SearchPhrase} (mostly empty, as in ClickBench) beside
 * {@code UserID BIGINT}, {@code CounterID INT}, {@code RegionID INT}, {@code EventDate DATE}, {@code EventTime
 * TIMESTAMP}, {@code IsRefresh SMALLINT}, {@code DontCountHits SMALLINT} and {@code Revenue DECIMAL(12,2)}, written
 * uncompressed ({@code plain}) or with snappy. The queries ({@link #query}) are ClickBench's Q13, Q21-Q24, Q34 and
 * Q37 on these columns, plus a full scan of the fixed-width columns ({@code fixedScan}). Scores are milliseconds per
 * query. The setup fails unless both readers give the same rows.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {SparkJvm.XMX, SparkJvm.IGNORE_UNRECOGNIZED, SparkJvm.VECTOR, SparkJvm.LANG,
        SparkJvm.INVOKE, SparkJvm.REFLECT, SparkJvm.IO, SparkJvm.NET, SparkJvm.NIO, SparkJvm.UTIL,
        SparkJvm.CONCURRENT, SparkJvm.ATOMIC, SparkJvm.REF, SparkJvm.CH, SparkJvm.CS, SparkJvm.ACTION,
        SparkJvm.CALENDAR, SparkJvm.KRB5, SparkJvm.NETTY_REFLECTION, SparkJvm.NETTY_POOLED, SparkJvm.NETTY_SSL,
        SparkJvm.UNSAFE, SparkJvm.NATIVE_ACCESS})
public class SparkClickBenchBenchmark {
    @Param({"1", "2"})
    public int cores;

    @Param({"plain", "snappy"})
    public String codec;

    @Param({"q13", "q21", "q22", "q23", "q24", "q34", "q37", "fixedScan"})
    public String query;

    /** {@code dropIn}: read by stringview; {@code sparkParquet}: Spark's own reader. Sorts last: runs back to back. */
    @Param({"dropIn", "sparkParquet"})
    public String reader;

    @Param("2000000")
    public int rows;

    private static SparkSession session;
    private static int sessionCores;

    private String sql;

    @Setup
    public void setup() {
        session = session(cores);
        Path table = table(session, codec, rows);
        session.read().parquet(table.toString()).createOrReplaceTempView("hits");
        sql = sql(query);
        List<Row> ours = run(session, "dropIn", sql);
        List<Row> spark = run(session, "sparkParquet", sql);
        if (!ours.equals(spark)) {
            throw new IllegalStateException("readers disagree: codec=" + codec + " query=" + query + " rows=" + rows
                    + " dropIn=" + ours.size() + " rows sparkParquet=" + spark.size() + " rows");
        }
    }

    /** ClickBench's query of that number, on this table's columns. */
    static String sql(String query) {
        return switch (query) {
            case "q13" -> "SELECT SearchPhrase, COUNT(DISTINCT UserID) AS u FROM hits WHERE SearchPhrase <> ''"
                    + " GROUP BY SearchPhrase ORDER BY u DESC, SearchPhrase LIMIT 10";
            case "q21" -> "SELECT COUNT(*) FROM hits WHERE URL LIKE '%google%'";
            case "q22" -> "SELECT SearchPhrase, MIN(URL), COUNT(*) AS c FROM hits WHERE URL LIKE '%google%'"
                    + " AND SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10";
            case "q23" -> "SELECT SearchPhrase, MIN(URL), MIN(Title), COUNT(*) AS c, COUNT(DISTINCT UserID)"
                    + " FROM hits WHERE Title LIKE '%Google%' AND URL NOT LIKE '%.google.%' AND SearchPhrase <> ''"
                    + " GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10";
            case "q24" -> "SELECT * FROM hits WHERE URL LIKE '%google%' ORDER BY EventTime, UserID LIMIT 10";
            case "q34" -> "SELECT URL, COUNT(*) AS c FROM hits GROUP BY URL ORDER BY c DESC, URL LIMIT 10";
            case "q37" -> "SELECT URL, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62"
                    + " AND EventDate >= DATE'2013-07-01' AND EventDate <= DATE'2013-07-31' AND DontCountHits = 0"
                    + " AND IsRefresh = 0 AND URL <> '' GROUP BY URL ORDER BY PageViews DESC, URL LIMIT 10";
            case "fixedScan" -> "SELECT SUM(UserID), SUM(CounterID), SUM(RegionID), MAX(EventDate), MAX(EventTime),"
                    + " SUM(IsRefresh), SUM(Revenue) FROM hits";
            default -> throw new IllegalArgumentException("unknown query: query=" + query);
        };
    }

    static List<Row> run(SparkSession session, String reader, String sql) {
        session.conf().set("spark.stringview.enabled", String.valueOf(reader.equals("dropIn")));
        return session.sql(sql).collectAsList();
    }

    @Benchmark
    public int query() {
        return run(session, reader, sql).size();
    }

    /** The table's folder, written by Spark on first use. */
    static Path table(SparkSession session, String codec, int rows) {
        Path dir = Locations.benchData().resolve("clickbench-spark-" + rows + "-" + codec);
        if (Files.isDirectory(dir) && Files.exists(dir.resolve("_SUCCESS"))) {
            return dir;
        }
        session.conf().set("spark.stringview.enabled", "false");
        session.range(rows).selectExpr(
                "id * 7919 % 1000003 AS UserID",
                "CAST(CASE WHEN id % 10 = 0 THEN 62 ELSE id % 5000 END AS INT) AS CounterID",
                "CAST(id % 300 AS INT) AS RegionID",
                "date_add(DATE'2013-07-01', CAST(id % 31 AS INT)) AS EventDate",
                "timestamp_seconds(1372636800 + id % 2678400) AS EventTime",
                "CAST(id % 7 = 0 AS SMALLINT) AS IsRefresh",
                "CAST(id % 11 = 0 AS SMALLINT) AS DontCountHits",
                "CAST(id % 100000 / 100 AS DECIMAL(12,2)) AS Revenue",
                "concat(element_at(array('http://www.google.com/search?q=', 'https://yandex.ru/search/?text=',"
                        + " 'http://news.example.org/article/', 'https://shop.example.com/item/',"
                        + " 'http://maps.google.ru/', 'http://video.example.net/watch?v='),"
                        + " CAST(id * 31 % 6 + 1 AS INT)), CAST(id * 2654435761 % 100000 AS STRING)) AS URL",
                "concat(element_at(array('Google Search', 'Yandex', 'News of the day', 'Shop: item', 'Video'),"
                        + " CAST(id * 17 % 5 + 1 AS INT)), ' ', CAST(id % 977 AS STRING)) AS Title",
                "CASE WHEN id % 3 = 0 THEN '' ELSE concat('http://ref.example.com/', CAST(id % 5003 AS STRING))"
                        + " END AS Referer",
                "CASE WHEN id % 8 = 0 THEN concat('phrase ', CAST(id * 13 % 2003 AS STRING)) ELSE '' END"
                        + " AS SearchPhrase")
                .repartition(1).write().mode("overwrite").option("compression", codec.equals("plain") ? "none" : codec)
                .parquet(dir.toString());
        return dir;
    }

    static synchronized SparkSession session(int cores) {
        if (session != null && sessionCores != cores) {
            stopSession();
        }
        if (session == null) {
            session = SparkSession.builder().master("local[" + cores + "]").appName("SparkClickBenchBenchmark")
                    .config("spark.ui.enabled", "false")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.sql.extensions", "dev.stringview.spark.StringviewExtensions")
                    .getOrCreate();
            sessionCores = cores;
        }
        return session;
    }

    static synchronized void stopSession() {
        if (session != null) {
            session.stop();
            session = null;
        }
    }
}
