package dev.stringview.benchmarks;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One query through this library's views, parquet-java's standard path (Binary to String, Suite 3's baseline) and
 * DuckDB in alternating rounds in one JVM, on the hits-like files of Suite 3, printing the medians. Single-threaded:
 * the views' reader, the parallel scan ({@code ParquetScan}) at 1 thread, parquet-java and DuckDB at
 * {@code threads=1}. All cores: the parallel scan at all available processors and DuckDB at its default threads.
 * JMH measures one benchmark method after another, so Suite 3's cells are minutes apart; on a machine whose speed
 * drifts by the hour, their ratios drift too. Here the engines' rounds come from the same minutes, after two
 * uncounted warm-up rounds. Not timed in the build; a test runs it on a small file.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.SideBySide [query] [rounds] [rows] [files] [layouts]
 * </pre>
 * {@code files}: {@code parquet-java} (the writer's defaults, Suite 3's files), {@code pyarrow} (1M-row row
 * groups, as pyarrow writes) or {@code both} (the default). {@code layouts}: layout names separated by commas
 * (e.g. {@code dictZstd,dictZstdPa}), all by default.
 */
public final class SideBySide {
    /** Rounds per layout run first and not counted, as JMH's warm-up: the JIT compiles the views' code in them. */
    static final int WARMUP_ROUNDS = 2;

    private SideBySide() {}

    /**
     * One layout's result: medians in ns per row. {@code views}: the reader, one thread; {@code scan1} and
     * {@code scanAll}: the parallel scan at 1 thread and at all cores; {@code duckdb} at one thread,
     * {@code duckdbDefault} at its default thread count.
     */
    record Result(String layout, String query, double views, double parquetJava, double duckdb, double scan1,
            double scanAll, double duckdbDefault, long count) {}

    public static void main(String[] args) throws Exception {
        Query query = Query.of(args.length > 0 ? args[0] : Query.Q20.name());
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        long rows = args.length > 2 ? Long.parseLong(args[2]) : HitsQueryBenchmark.ROWS;
        String files = args.length > 3 ? args[3] : "both";
        List<ParquetFiles.Layout> layouts = new java.util.ArrayList<>();
        if (!files.equals("pyarrow")) {
            layouts.addAll(PARQUET_JAVA_LAYOUTS);
        }
        if (!files.equals("parquet-java")) {
            PARQUET_JAVA_LAYOUTS.forEach(l -> layouts.add(l.pyarrowLike()));
        }
        if (args.length > 4) { // only the layouts named, e.g. dictZstd,dictZstdPa
            List<String> names = Arrays.asList(args[4].split(","));
            layouts.removeIf(l -> !names.contains(l.name()));
        }
        System.out.println(Demo.machine() + ", commit " + RunContext.commit() + ", all cores = "
                + Runtime.getRuntime().availableProcessors() + " threads");
        for (Result r : run(Locations.benchData(), query, rounds, rows, layouts)) {
            System.out.println(String.format(Locale.ROOT,
                    "%-11s %s: 1 thread: views %.1f, scan %.1f, parquet-java %.1f, DuckDB %.1f ns/row"
                            + " (scan/DuckDB %.2f); all cores: scan %.1f, DuckDB %.1f ns/row (scan/DuckDB %.2f);"
                            + " medians of %d rounds",
                    r.layout(), r.query(), r.views(), r.scan1(), r.parquetJava(), r.duckdb(), r.scan1() / r.duckdb(),
                    r.scanAll(), r.duckdbDefault(), r.scanAll() / r.duckdbDefault(), rounds));
        }
    }

    /** Suite 3's files: parquet-java's defaults. */
    static final List<ParquetFiles.Layout> PARQUET_JAVA_LAYOUTS = List.of(ParquetFiles.PLAIN, ParquetFiles.SNAPPY,
            ParquetFiles.DICTIONARY_ZSTD, ParquetFiles.DICTIONARY_URLS_ZSTD);

    static List<Result> run(Path dir, Query query, int rounds, long rows) throws Exception {
        return run(dir, query, rounds, rows, PARQUET_JAVA_LAYOUTS);
    }

    static List<Result> run(Path dir, Query query, int rounds, long rows, List<ParquetFiles.Layout> layouts)
            throws Exception {
        if (rounds < 1 || rows < 1) {
            throw new IllegalArgumentException("rounds and rows must be positive: rounds=" + rounds + " rows=" + rows);
        }
        int cores = Runtime.getRuntime().availableProcessors();
        Result[] results = new Result[layouts.size()];
        try (Connection duckdb = HitsQueryBenchmark.openDuckDb();
                Connection duckdbDefault = HitsQueryBenchmark.openDuckDbDefaultThreads()) {
            for (int l = 0; l < layouts.size(); l++) {
                Path file = Locations.hitsFile(dir, layouts.get(l), rows, null);
                double[] views = new double[rounds];
                double[] java = new double[rounds];
                double[] duck = new double[rounds];
                double[] scan1 = new double[rounds];
                double[] scanAll = new double[rounds];
                double[] duckAll = new double[rounds];
                long count = -1;
                for (int r = -WARMUP_ROUNDS; r < rounds; r++) {
                    long t0 = System.nanoTime();
                    long a = query.countViews(file);
                    long t1 = System.nanoTime();
                    long b = query.countParquetJavaString(file);
                    long t2 = System.nanoTime();
                    long c = query.countDuckDb(duckdb, file);
                    long t3 = System.nanoTime();
                    long d = query.countScan(file, 1);
                    long t4 = System.nanoTime();
                    long e = query.countScan(file, cores);
                    long t5 = System.nanoTime();
                    long f = query.countDuckDb(duckdbDefault, file);
                    long t6 = System.nanoTime();
                    if (a != b || a != c || a != d || a != e || a != f || (count >= 0 && a != count)) {
                        throw new IllegalStateException("engines disagree: layout=" + layouts.get(l).name()
                                + " query=" + query.name() + " round=" + r + " views=" + a + " parquetJava=" + b
                                + " duckdb=" + c + " scan1=" + d + " scanAll=" + e + " duckdbDefault=" + f);
                    }
                    count = a;
                    if (r >= 0) {
                        views[r] = (t1 - t0) / (double) rows;
                        java[r] = (t2 - t1) / (double) rows;
                        duck[r] = (t3 - t2) / (double) rows;
                        scan1[r] = (t4 - t3) / (double) rows;
                        scanAll[r] = (t5 - t4) / (double) rows;
                        duckAll[r] = (t6 - t5) / (double) rows;
                    }
                }
                results[l] = new Result(layouts.get(l).name(), query.name(), median(views), median(java),
                        median(duck), median(scan1), median(scanAll), median(duckAll), count);
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
