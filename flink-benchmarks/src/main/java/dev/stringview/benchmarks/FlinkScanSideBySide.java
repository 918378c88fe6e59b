package dev.stringview.benchmarks;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@link FlinkScanBenchmark}'s cells as a side-by-side main: for each layout and query, both formats set up in one
 * JVM and one cluster, warmed, then timed query by query in ABBA order ({@code stringview-parquet}, Flink's
 * {@code parquet}, Flink's, ours, ...), so that both see the same seconds of a machine whose load drifts. JMH's
 * trials of the two formats run a minute or more apart; on a shared machine this main's ratio is the steadier
 * figure, and the JMH benchmark the standard one. Prints, per cell, each format's median and min milliseconds per
 * query and two ratios: Flink's median over ours, and the median of the per-pair ratios.
 *
 * <pre>
 * java $FLINK_OPTS -Xmx4g -cp "flink-benchmarks/target/classes:$(cat flink-benchmarks/target/classpath.txt)" \
 *     dev.stringview.benchmarks.FlinkScanSideBySide [--rounds N] [--warmup N] [--layouts a,b] [--queries a,b]
 * </pre>
 * where {@code FLINK_OPTS} is the {@code flink.java.options} property of this module's pom.
 */
public final class FlinkScanSideBySide {
    private FlinkScanSideBySide() {}

    public static void main(String[] args) throws Exception {
        int rounds = 10;
        int warmup = 3;
        List<String> layouts = List.of("plain", "snappy", "dictZstd");
        List<String> queries = List.of("q20Contains", "equality", "prefix", "groupBy");
        int rows = 2_000_000;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(required(args[i], value));
                case "--warmup" -> warmup = Integer.parseInt(required(args[i], value));
                case "--layouts" -> layouts = List.of(required(args[i], value).split(","));
                case "--queries" -> queries = List.of(required(args[i], value).split(","));
                case "--rows" -> rows = Integer.parseInt(required(args[i], value));
                default -> throw new IllegalArgumentException("unknown argument: arg=" + args[i]
                        + " expected=--rounds|--warmup|--layouts|--queries|--rows");
            }
            i++;
        }
        FlinkScanBenchmark.keepClusterAcrossTrials = true;
        System.out.printf(Locale.ROOT, "%-9s %-12s %10s %10s %10s %10s %9s %9s%n", "layout", "query", "ours_med",
                "ours_min", "flink_med", "flink_min", "med/med", "pair_med");
        try {
            for (String layout : layouts) {
                for (String query : queries) {
                    cell(layout, query, rows, warmup, rounds);
                }
            }
        } finally {
            FlinkScanBenchmark.stopCluster();
        }
        System.out.println("load: " + new String(Runtime.getRuntime().exec(new String[] {"uptime"})
                .getInputStream().readAllBytes()).trim());
    }

    private static String required(String name, String value) {
        if (value == null) {
            throw new IllegalArgumentException("missing value: arg=" + name);
        }
        return value;
    }

    private static void cell(String layout, String query, int rows, int warmup, int rounds) throws Exception {
        FlinkScanBenchmark ours = side(layout, query, rows, "stringviewParquet");
        FlinkScanBenchmark flink = side(layout, query, rows, "flinkParquet");
        for (int i = 0; i < warmup; i++) {
            ours.query();
            flink.query();
        }
        double[] a = new double[rounds];
        double[] b = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            if (i % 2 == 0) {
                a[i] = time(ours);
                b[i] = time(flink);
            } else {
                b[i] = time(flink);
                a[i] = time(ours);
            }
        }
        double[] pair = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            pair[i] = b[i] / a[i];
        }
        System.out.printf(Locale.ROOT, "%-9s %-12s %10.1f %10.1f %10.1f %10.1f %9.2f %9.2f%n", layout, query,
                median(a), min(a), median(b), min(b), median(b) / median(a), median(pair));
        ours.tearDown();
        flink.tearDown();
    }

    private static FlinkScanBenchmark side(String layout, String query, int rows, String reader) throws Exception {
        FlinkScanBenchmark b = new FlinkScanBenchmark();
        b.layout = layout;
        b.query = query;
        b.rows = rows;
        b.reader = reader;
        b.setup(); // also checks that both formats give the same answer
        return b;
    }

    private static double time(FlinkScanBenchmark side) throws Exception {
        long start = System.nanoTime();
        side.query();
        return (System.nanoTime() - start) / 1e6;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }
}
