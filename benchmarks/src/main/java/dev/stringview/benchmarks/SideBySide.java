package dev.stringview.benchmarks;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One query through this library's views, parquet-java's standard path (Binary to String, Suite 3's baseline) and
 * DuckDB (one thread) in alternating rounds in one JVM, on the hits-like files of Suite 3, printing the medians.
 * JMH measures one benchmark method after another, so Suite 3's cells are minutes apart; on a machine whose speed
 * drifts by the hour, their ratios drift too. Here the engines' rounds come from the same minutes, after two
 * uncounted warm-up rounds. Not timed in the build; a test runs it on a small file.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.SideBySide [query] [rounds] [rows]
 * </pre>
 */
public final class SideBySide {
    /** Rounds per layout run first and not counted, as JMH's warm-up: the JIT compiles the views' code in them. */
    static final int WARMUP_ROUNDS = 2;

    private SideBySide() {}

    /** One layout's result: medians in ns per row. */
    record Result(String layout, String query, double views, double parquetJava, double duckdb, long count) {}

    public static void main(String[] args) throws Exception {
        Query query = Query.of(args.length > 0 ? args[0] : Query.Q20.name());
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        long rows = args.length > 2 ? Long.parseLong(args[2]) : HitsQueryBenchmark.ROWS;
        System.out.println(Demo.machine() + ", commit " + RunContext.commit());
        for (Result r : run(Locations.benchData(), query, rounds, rows)) {
            System.out.println(String.format(Locale.ROOT,
                    "%-9s %s: views %.1f, parquet-java %.1f, DuckDB %.1f ns/row; speedup %.2fx vs parquet-java,"
                            + " %.2fx vs DuckDB (medians of %d rounds)",
                    r.layout(), r.query(), r.views(), r.parquetJava(), r.duckdb(), r.parquetJava() / r.views(),
                    r.duckdb() / r.views(), rounds));
        }
    }

    static List<Result> run(Path dir, Query query, int rounds, long rows) throws Exception {
        if (rounds < 1 || rows < 1) {
            throw new IllegalArgumentException("rounds and rows must be positive: rounds=" + rounds + " rows=" + rows);
        }
        List<ParquetFiles.Layout> layouts = List.of(ParquetFiles.PLAIN, ParquetFiles.SNAPPY,
                ParquetFiles.DICTIONARY_ZSTD);
        Result[] results = new Result[layouts.size()];
        try (Connection duckdb = HitsQueryBenchmark.openDuckDb()) {
            for (int l = 0; l < layouts.size(); l++) {
                Path file = Locations.hitsFile(dir, layouts.get(l), rows, null);
                double[] views = new double[rounds];
                double[] java = new double[rounds];
                double[] duck = new double[rounds];
                long count = -1;
                for (int r = -WARMUP_ROUNDS; r < rounds; r++) {
                    long t0 = System.nanoTime();
                    long a = query.countViews(file);
                    long t1 = System.nanoTime();
                    long b = query.countParquetJavaString(file);
                    long t2 = System.nanoTime();
                    long c = query.countDuckDb(duckdb, file);
                    long t3 = System.nanoTime();
                    if (a != b || a != c || (count >= 0 && a != count)) {
                        throw new IllegalStateException("engines disagree: layout=" + layouts.get(l).name()
                                + " query=" + query.name() + " round=" + r + " views=" + a + " parquetJava=" + b
                                + " duckdb=" + c);
                    }
                    count = a;
                    if (r >= 0) {
                        views[r] = (t1 - t0) / (double) rows;
                        java[r] = (t2 - t1) / (double) rows;
                        duck[r] = (t3 - t2) / (double) rows;
                    }
                }
                results[l] = new Result(layouts.get(l).name(), query.name(), median(views), median(java),
                        median(duck), count);
            }
        }
        return List.of(results);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
