package dev.stringview.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code ViewKernels.argsort} of two builds of core side by side in one JVM, with {@code Arrays.sort(String[])}
 * ({@link ArgsortBenchmark}'s baseline) in the same rounds: an older core's classes (a directory, e.g. compiled
 * from {@code git archive <commit> core}) and the current ones, each loaded by its own class loader over this
 * class path, alternating sort by sort. JMH runs one benchmark after another, minutes apart; on a shared, noisy
 * machine only ratios taken in the same minutes mean anything. Prints medians of thread CPU time in ms per sort
 * over {@link ArgsortBenchmark}'s seeded data. Not run in the build except once, tiny, by a test.
 *
 * <pre>
 * java -Xmx6g --enable-native-access=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.ArgsortSideBySide OLD_CORE_CLASSES [rounds] [rows] [url,8,25]
 * </pre>
 */
public final class ArgsortSideBySide {
    /** Timings are this thread's CPU time: on a shared machine, time spent descheduled is not the sort's. */
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ArgsortSideBySide() {}

    /**
     * One data set: medians (ms per sort) of the old build, the new build and {@code Arrays.sort(String[])}, and
     * of both builds' {@code argsortTopK(column, 100)}.
     */
    record Result(String data, double oldViews, double newViews, double javaString, double oldTop100,
            double newTop100) {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: ArgsortSideBySide OLD_CORE_CLASSES [rounds] [rows] [data]");
        }
        Path old = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        int rows = args.length > 2 ? Integer.parseInt(args[2]) : 1_000_000;
        List<String> data = args.length > 3 ? List.of(args[3].split(",")) : List.of("url", "8", "25");
        System.out.println(Demo.machine() + ", new = commit " + RunContext.commit() + ", old = " + old);
        run(old, data, rounds, rows, r -> System.out.println(String.format(Locale.ROOT,
                "%-4s argsort old %7.1f  new %7.1f  Arrays.sort(String[]) %7.1f ms  (new/old %.2f, String[]/new %.2f);"
                        + "  top-100 old %6.1f  new %6.1f ms (new/old %.2f)",
                r.data(), r.oldViews(), r.newViews(), r.javaString(), r.newViews() / r.oldViews(),
                r.javaString() / r.newViews(), r.oldTop100(), r.newTop100(), r.newTop100() / r.oldTop100())));
    }

    /** Runs every data set and hands each result to {@code sink} as soon as it is measured. */
    static List<Result> run(Path oldCoreClasses, List<String> data, int rounds, int rows, Consumer<Result> sink)
            throws Exception {
        if (rounds < 1 || rows < 1) {
            throw new IllegalArgumentException("rounds and rows must be positive: rounds=" + rounds + " rows=" + rows);
        }
        List<Result> results = new ArrayList<>();
        try (CoreBuilds builds = CoreBuilds.open(oldCoreClasses)) {
            URLClassLoader oldLoader = builds.oldLoader;
            URLClassLoader newLoader = builds.newLoader;
            for (String d : data) {
                Sorts oldSorts = Sorts.load(oldLoader, d, rows);
                Sorts newSorts = Sorts.load(newLoader, d, rows);
                try {
                    int[] oldOrder = (int[]) oldSorts.call("views");
                    int[] newOrder = (int[]) newSorts.call("views");
                    int[] oldTop = (int[]) oldSorts.call("viewsTop100");
                    int[] newTop = (int[]) newSorts.call("viewsTop100");
                    if (!Arrays.equals(oldOrder, newOrder) || !Arrays.equals(oldTop, newTop)
                            || !Arrays.equals(newTop, Arrays.copyOf(newOrder, newTop.length))) {
                        throw new IllegalStateException("builds disagree: data=" + d + " rows=" + rows
                                + " firstDifference=" + Arrays.mismatch(oldOrder, newOrder)
                                + " firstTopDifference=" + Arrays.mismatch(oldTop, newTop));
                    }
                    double[][] t = new double[5][rounds];
                    for (int r = -2; r < rounds; r++) { // two uncounted warm-up rounds
                        double[] round = {time(oldSorts, "views"), time(newSorts, "views"),
                            time(newSorts, "javaString"), time(oldSorts, "viewsTop100"), time(newSorts, "viewsTop100")};
                        for (int m = 0; r >= 0 && m < round.length; m++) {
                            t[m][r] = round[m];
                        }
                    }
                    Result result = new Result(d, CoreBuilds.median(t[0]), CoreBuilds.median(t[1]),
                            CoreBuilds.median(t[2]), CoreBuilds.median(t[3]), CoreBuilds.median(t[4]));
                    results.add(result);
                    sink.accept(result);
                } finally {
                    oldSorts.close();
                    newSorts.close();
                }
            }
        }
        return results;
    }

    /** Thread CPU time of one call of an {@link ArgsortBenchmark} method, in ms. */
    private static double time(Sorts sorts, String method) throws Exception {
        long t0 = THREADS.getCurrentThreadCpuTime();
        Object result = sorts.call(method);
        long elapsed = THREADS.getCurrentThreadCpuTime() - t0;
        if (result == null) {
            throw new IllegalStateException("a sort returned null");
        }
        return elapsed / 1e6;
    }

    /** An {@link ArgsortBenchmark} state loaded by one class loader (so its argsort is that loader's core). */
    private record Sorts(Object state, Class<?> type) {
        static Sorts load(ClassLoader loader, String data, int rows) throws ReflectiveOperationException {
            Class<?> type = Class.forName(ArgsortBenchmark.class.getName(), true, loader);
            Object state = type.getDeclaredConstructor().newInstance();
            type.getField("data").set(state, data);
            type.getField("rows").setInt(state, rows);
            type.getMethod("setup").invoke(state);
            return new Sorts(state, type);
        }

        Object call(String method) throws ReflectiveOperationException {
            return type.getMethod(method).invoke(state);
        }

        void close() throws ReflectiveOperationException {
            type.getMethod("tearDown").invoke(state);
        }
    }
}
