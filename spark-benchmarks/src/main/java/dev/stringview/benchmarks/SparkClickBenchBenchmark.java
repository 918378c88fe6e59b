package dev.stringview.benchmarks;

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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ClickBench's string queries (Q13, Q21-Q24, Q34 and Q37, numbered as on ClickBench's site, in spirit: on the
 * columns {@link ClickBenchTable} has) and a scan of every fixed-width column, through {@code spark.read.parquet}
 * on a table Spark wrote, with the drop-in ({@code spark.sql.extensions=dev.stringview.spark.StringviewExtensions})
 * on against off ({@code spark.stringview.enabled=false}) in the same session. Scores are milliseconds per query.
 *
 * <p>{@link #stringview} sorts last among the parameters (JMH varies the last name fastest), so JMH runs the two sides of each query back to back and
 * their ratio compares the same minutes of a noisy machine. The setup runs both sides once and fails unless they
 * give the same rows (every query orders its output totally).
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
    /** Spark's master is {@code local[cores]}. */
    @Param({"1", "2"})
    public int cores;

    /** Parquet codec of the table: {@code uncompressed} (PLAIN pages as Spark writes them) or {@code snappy}. */
    @Param({"uncompressed", "snappy"})
    public String codec;

    @Param({"q13", "q21", "q22", "q23", "q24", "q34", "q37", "fixedScan"})
    public String query;

    /** {@code on}: the drop-in reads the table; {@code off}: Spark's own vectorized reader. */
    @Param({"on", "off"})
    public String stringview;

    @Param("1000000")
    public int rows;

    private SparkSession session;

    private String sql;

    /**
     * The query's SQL over the view {@code hits}; every result is ordered totally so the two sides compare. Q23's
     * title constant is {@code News}, not ClickBench's {@code Google}: the generated titles never hold the latter.
     */
    static String sql(String query) {
        return switch (query) {
            case "q13" -> "SELECT SearchPhrase, COUNT(*) AS c FROM hits WHERE SearchPhrase <> '' "
                    + "GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10";
            case "q21" -> "SELECT COUNT(*) FROM hits WHERE URL LIKE '%google%'";
            case "q22" -> "SELECT SearchPhrase, MIN(URL), COUNT(*) AS c FROM hits WHERE URL LIKE '%google%' "
                    + "AND SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10";
            case "q23" -> "SELECT SearchPhrase, MIN(URL), MIN(Title), COUNT(*) AS c, COUNT(DISTINCT UserID) "
                    + "FROM hits WHERE Title LIKE '%News%' AND URL NOT LIKE '%.google.%' AND SearchPhrase <> '' "
                    + "GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10";
            case "q24" -> "SELECT * FROM hits WHERE URL LIKE '%google%' ORDER BY EventTime, UserID, URL, Title, "
                    + "Referer LIMIT 10";
            case "q34" -> "SELECT URL, COUNT(*) AS c FROM hits GROUP BY URL ORDER BY c DESC, URL LIMIT 10";
            case "q37" -> "SELECT URL, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 "
                    + "AND EventDate >= DATE '2013-07-01' AND EventDate <= DATE '2013-07-31' AND DontCountHits = 0 "
                    + "AND IsRefresh = 0 AND URL <> '' GROUP BY URL ORDER BY PageViews DESC, URL LIMIT 10";
            case "fixedScan" -> "SELECT SUM(UserID), SUM(CounterID), SUM(RegionID), MAX(EventDate), MAX(EventTime), "
                    + "SUM(IsRefresh), SUM(DontCountHits), SUM(Revenue), COUNT(Revenue) FROM hits";
            default -> throw new IllegalArgumentException("unknown query: query=" + query
                    + " expected=q13|q21|q22|q23|q24|q34|q37|fixedScan");
        };
    }

    @Setup
    public void setup() {
        session = session(cores);
        String path = ClickBenchTable.path(session, codec, rows).toAbsolutePath().toString();
        sql = sql(query);
        session.conf().set("spark.stringview.enabled", "true");
        session.read().parquet(path).createOrReplaceTempView("hits");
        List<Row> ours = session.sql(sql).collectAsList();
        session.conf().set("spark.stringview.enabled", "false");
        session.read().parquet(path).createOrReplaceTempView("hits");
        List<Row> spark = session.sql(sql).collectAsList();
        if (!ours.equals(spark)) {
            throw new IllegalStateException("the drop-in and Spark's reader disagree: query=" + query + " codec="
                    + codec + " rows=" + rows + " on=" + ours + " off=" + spark);
        }
        session.conf().set("spark.stringview.enabled", "true");
        session.read().parquet(path).createOrReplaceTempView("hits");
        String plan = session.sql(sql).queryExecution().executedPlan().toString();
        if (!plan.toLowerCase(java.util.Locale.ROOT).contains("stringview")) {
            throw new IllegalStateException("the drop-in did not take the scan: query=" + query + " plan=" + plan);
        }
        if (ours.isEmpty()) {
            throw new IllegalStateException("no rows: query=" + query + " codec=" + codec + " rows=" + rows);
        }
        session.conf().set("spark.stringview.enabled", Boolean.toString(stringview.equals("on")));
        session.read().parquet(path).createOrReplaceTempView("hits");
    }

    /** The JVM's session on {@code local[cores]} with the drop-in installed: {@link SparkScanBenchmark}'s. */
    static SparkSession session(int cores) {
        return SparkScanBenchmark.session(cores);
    }

    static void stopSession() {
        SparkScanBenchmark.stopSession();
    }

    @TearDown
    public void tearDown() {
        sql = null; // the session is shared by the trials of this JVM
    }

    /** Runs the query and returns its rows' hash, so nothing is optimized away. */
    @Benchmark
    public int query() {
        return session.sql(sql).collectAsList().hashCode();
    }
}
