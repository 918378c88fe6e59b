package dev.stringview.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@link ArrowInteropBenchmark}'s IPC read and Parquet → IPC methods called in alternating rounds in one JVM, timed
 * by the CPU time of the calling thread ({@code ThreadMXBean.getCurrentThreadCpuTime}), printing the median of each
 * and its ratio to its baseline. On a shared machine, wall-clock scores of methods measured minutes apart drift
 * with the load; CPU time in alternating rounds does not count the waits for a core, and every pair of methods is
 * measured in the same minutes. Not a replacement for the JMH run on a quiet machine; a test runs it once, small.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector \
 *     --add-opens=java.base/java.nio=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
 *     -Dio.netty.tryReflectionSetAccessible=true -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.ArrowInteropSideBySide [rounds] [rows]
 * </pre>
 * Defaults: 9 rounds (the first {@link #WARMUP_ROUNDS} not counted), 1,048,576 rows (128 batches of 8192).
 */
public final class ArrowInteropSideBySide {
    /** Rounds run first and not counted: the JIT compiles both sides in them. */
    static final int WARMUP_ROUNDS = 3;

    private ArrowInteropSideBySide() {}

    /** A benchmark method and the baseline it is compared with ({@code null} for a baseline). */
    private record Row(String name, String baseline, Call call) {}

    @FunctionalInterface
    private interface Call {
        long run(ArrowInteropBenchmark state) throws Exception;
    }

    private static final List<Row> ROWS = List.of(
            new Row("ipcReadArrowJavaUnvalidated", null, ArrowInteropBenchmark::ipcReadArrowJavaUnvalidated),
            new Row("ipcReadValidatedViewsBatchScoped", "ipcReadArrowJavaUnvalidated",
                    ArrowInteropBenchmark::ipcReadValidatedViewsBatchScoped),
            new Row("ipcReadValidatedViews", "ipcReadArrowJavaUnvalidated",
                    ArrowInteropBenchmark::ipcReadValidatedViews),
            new Row("parquetToIpcArrowJava", null, ArrowInteropBenchmark::parquetToIpcArrowJava),
            new Row("parquetToIpcViews", "parquetToIpcArrowJava", ArrowInteropBenchmark::parquetToIpcViews));

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 1 << 20;
        System.out.println(Demo.machine() + ", commit " + RunContext.commit() + ", rows=" + rows + ", rounds="
                + rounds + " (" + Math.min(WARMUP_ROUNDS, rounds - 1) + " not counted), CPU ms of the calling thread");
        run(rounds, rows);
    }

    /**
     * Runs every method {@code rounds} times, alternating, and returns per method its median CPU milliseconds and,
     * for a method with a baseline, the ratio of the medians: {@code name -> [ms]} or {@code [ms, ratio]}, printed
     * one line each.
     */
    static Map<String, double[]> run(int rounds, int rows) throws Exception {
        if (rounds < 1 || rows < 1) {
            throw new IllegalArgumentException("rounds and rows must be positive: rounds=" + rounds + " rows=" + rows);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ArrowInteropBenchmark state = new ArrowInteropBenchmark();
        state.rows = rows;
        state.setup();
        int skip = Math.min(WARMUP_ROUNDS, rounds - 1);
        Map<String, List<Double>> times = new LinkedHashMap<>();
        try {
            for (int round = 0; round < rounds; round++) {
                for (Row row : ROWS) {
                    long start = threads.getCurrentThreadCpuTime();
                    long result = row.call().run(state);
                    long cpu = threads.getCurrentThreadCpuTime() - start;
                    if (result != rows) {
                        throw new IllegalStateException("wrong row count: method=" + row.name() + " rows=" + result
                                + " expected=" + rows);
                    }
                    if (round >= skip) {
                        times.computeIfAbsent(row.name(), k -> new ArrayList<>()).add(cpu / 1e6);
                    }
                }
            }
        } finally {
            state.tearDown();
        }
        Map<String, double[]> result = new LinkedHashMap<>();
        for (Row row : ROWS) {
            double median = median(times.get(row.name()));
            result.put(row.name(), row.baseline() == null ? new double[] {median}
                    : new double[] {median, median / median(times.get(row.baseline()))});
        }
        result.forEach((name, v) -> System.out.println(String.format(Locale.ROOT, "%-34s %9.1f ms%s", name, v[0],
                v.length > 1 ? String.format(Locale.ROOT, "  %.2fx its baseline", v[1]) : "")));
        return result;
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
