package dev.stringview.benchmarks;

import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The first query of a fresh session: one JVM, one new {@code local[cores]} session with the drop-in installed
 * and {@code spark.stringview.enabled} set to {@code on} or {@code off}, then one {@link SparkClickBenchBenchmark}
 * query through {@code spark.read.parquet} on the cached {@link ClickBenchTable}, timed from {@code read} to the
 * last row. Prints one line: {@code side=on codec=... query=... cores=... sessionMs=... firstQueryMs=...
 * rows=<hash>}. Run it as separate processes, the two sides alternated ({@code run-first-query.sh} in the run's
 * directory), with {@link SparkJvm}'s flags; the table must exist (the JMH benchmark writes it, or this writes it
 * before the timed part).
 *
 * <p>Usage: {@code SparkFirstQuery on|off uncompressed|snappy q21 1 [rows]}
 */
public final class SparkFirstQuery {
    private SparkFirstQuery() {}

    public static void main(String[] args) {
        if (args.length < 4) {
            throw new IllegalArgumentException("usage: SparkFirstQuery on|off codec query cores [rows]: args="
                    + List.of(args));
        }
        String side = args[0];
        String codec = args[1];
        String query = args[2];
        int cores = Integer.parseInt(args[3]);
        int rows = args.length > 4 ? Integer.parseInt(args[4]) : 1_000_000;
        if (!side.equals("on") && !side.equals("off")) {
            throw new IllegalArgumentException("side must be on or off: side=" + side);
        }
        long t0 = System.nanoTime();
        SparkSession session = SparkClickBenchBenchmark.session(cores);
        String path = ClickBenchTable.path(session, codec, rows).toAbsolutePath().toString();
        session.conf().set("spark.stringview.enabled", Boolean.toString(side.equals("on")));
        long t1 = System.nanoTime();
        session.read().parquet(path).createOrReplaceTempView("hits");
        int hash = session.sql(SparkClickBenchBenchmark.sql(query)).collectAsList().hashCode();
        long t2 = System.nanoTime();
        System.out.printf("side=%s codec=%s query=%s cores=%d sessionMs=%d firstQueryMs=%d rows=%d%n", side, codec,
                query, cores, (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, hash);
        SparkClickBenchBenchmark.stopSession();
    }
}
