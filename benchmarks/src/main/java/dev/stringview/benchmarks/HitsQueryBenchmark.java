package dev.stringview.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Suite 3: end to end on a hits-like file ({@link HitsGenerator}, 2M rows), {@code SELECT count(*) ... WHERE}
 * ClickBench Q20 ({@code URL LIKE '%google%'}), an equality and a prefix filter on {@code URL}, each from the
 * file on disk (in the OS page cache after the first run) to the count. Three file layouts written by
 * parquet-java: PLAIN uncompressed, PLAIN + snappy, dictionary + zstd. Engines: this library, parquet-java's
 * standard path (Binary to String, or to byte[]), and DuckDB single-threaded through JDBC in the same JVM.
 * Baseline: {@link #parquetJavaString()}. Scores are ns/row.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {Jvm.XMX, Jvm.ADD_OPENS_NIO, Jvm.NETTY_REFLECTION, Jvm.NETTY_UNSAFE,
        Jvm.ARROW_UNSAFE, Jvm.NATIVE_ACCESS, Jvm.VECTOR})
@OperationsPerInvocation(HitsQueryBenchmark.ROWS)
public class HitsQueryBenchmark {
    static final int ROWS = 2_000_000;

    @Param({"plain", "snappy", "dictZstd", "dictUrlsZstd"})
    public String layout;

    @Param({"q20Contains", "equality", "prefix"})
    public String query;

    /** Keep at {@value #ROWS}: the score divides by that. Smaller values are for the smoke test only. */
    @Param("2000000")
    public int rows;

    Path file;
    Query q;
    Connection duckdb;

    /** A layout by name; the suffix {@code Pa} gives its pyarrow-like twin (1M-row row groups). */
    static ParquetFiles.Layout layout(String name) {
        if (name.endsWith("Pa")) {
            return layout(name.substring(0, name.length() - 2)).pyarrowLike();
        }
        return switch (name) {
            case "plain" -> ParquetFiles.PLAIN;
            case "snappy" -> ParquetFiles.SNAPPY;
            case "dictZstd" -> ParquetFiles.DICTIONARY_ZSTD;
            case "dictUrlsZstd" -> ParquetFiles.DICTIONARY_URLS_ZSTD;
            case "lz4" -> ParquetFiles.LZ4;
            default -> throw new IllegalArgumentException("unknown layout: layout=" + name
                    + " expected=plain|snappy|dictZstd|dictUrlsZstd|lz4, each with the suffix Pa for 1M-row row groups");
        };
    }

    @Setup
    public void setup(BenchmarkParams params) throws SQLException {
        file = Locations.hitsFile(Locations.benchData(), layout(layout), rows, null);
        WarmUpGates.viewWords(); // the vector loops, where the JVM has them (decision record 001)
        q = Query.of(query);
        if (params.getBenchmark().endsWith(".duckdb")) {
            duckdb = openDuckDb();
        } else if (params.getBenchmark().endsWith(".duckdbDefaultThreads")) {
            duckdb = openDuckDbDefaultThreads();
        }
    }

    /** An in-memory DuckDB restricted to one thread. */
    static Connection openDuckDb() throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET threads=1");
        }
        return connection;
    }

    /** An in-memory DuckDB with its default thread count (the machine's cores). */
    static Connection openDuckDbDefaultThreads() throws SQLException {
        return DriverManager.getConnection("jdbc:duckdb:");
    }

    @TearDown
    public void tearDown() throws SQLException {
        if (duckdb != null) {
            duckdb.close();
        }
    }

    /** This library: stringview-parquet views, then the compiled predicate. */
    @Benchmark
    public long views() throws IOException {
        return q.countViews(file);
    }

    /** Baseline: parquet-java ColumnReader, Binary.toStringUsingUTF8, String.contains / equals / startsWith. */
    @Benchmark
    public long parquetJavaString() throws IOException {
        return q.countParquetJavaString(file);
    }

    /** parquet-java ColumnReader, Binary.getBytes, then byte comparisons (no UTF-8 decoding). */
    @Benchmark
    public long parquetJavaBytes() throws IOException {
        return q.countParquetJavaBytes(file);
    }

    /** This library's parallel scan on one thread: statistics and bloom filters skip row groups. */
    @Benchmark
    public long scanOneThread() throws IOException {
        return q.countScan(file, 1);
    }

    /** This library's parallel scan on all available processors. */
    @Benchmark
    public long scanAllCores() throws IOException {
        return q.countScan(file, Runtime.getRuntime().availableProcessors());
    }

    /** DuckDB at its default thread count (all cores), read_parquet on the same file. */
    @Benchmark
    public long duckdbDefaultThreads() throws SQLException {
        return q.countDuckDb(duckdb, file);
    }

    /** DuckDB, SET threads=1, read_parquet on the same file. */
    @Benchmark
    public long duckdb() throws SQLException {
        return q.countDuckDb(duckdb, file);
    }
}
