package dev.stringview.benchmarks;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The two class loaders of a side-by-side harness that runs an older build of core next to the current one
 * ({@link OrderSideBySide}, {@link ArgsortSideBySide}, {@link ByteViewSideBySide}): both see this JVM's class
 * path, and the old one sees the older core's classes first, so each case loaded through it runs that core.
 */
final class CoreBuilds implements AutoCloseable {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    final URLClassLoader oldLoader;
    final URLClassLoader newLoader;

    private CoreBuilds(URLClassLoader oldLoader, URLClassLoader newLoader) {
        this.oldLoader = oldLoader;
        this.newLoader = newLoader;
    }

    /** Loaders over this JVM's class path, the old one with {@code oldCoreClasses} (a directory or jar) in front. */
    static CoreBuilds open(Path oldCoreClasses) throws Exception {
        URL[] classPath = classPath();
        URL[] withOld = new URL[classPath.length + 1];
        withOld[0] = oldCoreClasses.toUri().toURL();
        System.arraycopy(classPath, 0, withOld, 1, classPath.length);
        return new CoreBuilds(new URLClassLoader(withOld, ClassLoader.getPlatformClassLoader()),
                new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader()));
    }

    @Override
    public void close() throws Exception {
        try (URLClassLoader o = oldLoader; URLClassLoader n = newLoader) {
            // closes both, the second even if the first throws
        }
    }

    /**
     * Makes the core that {@code loader} loads run its Vector API view-word passes, so that timings measure those
     * passes: a core with the explicit warm-up ({@code Vectorization.warmUp}) runs it; an older core with a
     * warm-up thread is waited for ({@code Vectorization.awaitViewWords}). Returns false when that core has the
     * passes but could not make them ready; true otherwise (also when it has none: no 512-bit vectors).
     */
    static boolean awaitViewWords(ClassLoader loader) throws Exception {
        Class<?> type = Class.forName("dev.stringview.internal.Vectorization", true, loader);
        try {
            type.getMethod("warmUp").invoke(null);
            return true;
        } catch (NoSuchMethodException e) {
            // an older core: warmed up by its own thread, or (older still) taking the passes from the start
        }
        java.lang.reflect.Method chosen;
        java.lang.reflect.Method await;
        try {
            chosen = type.getMethod("viewWordsChosen");
            await = type.getMethod("awaitViewWords", java.time.Duration.class);
        } catch (NoSuchMethodException e) {
            return true; // a core without the gate: its kernels take the passes from the start
        }
        return !(boolean) chosen.invoke(null) || (boolean) await.invoke(null, java.time.Duration.ofSeconds(150));
    }

    /** This JVM's class path as URLs. */
    static URL[] classPath() throws Exception {
        String[] entries = System.getProperty("java.class.path").split(File.pathSeparator);
        URL[] urls = new URL[entries.length];
        for (int i = 0; i < entries.length; i++) {
            urls[i] = Path.of(entries[i]).toUri().toURL();
        }
        return urls;
    }

    /** The median of {@code values} (the mean of the middle two for an even count). */
    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * Each part's median CPU ns per operation over {@code rounds} rounds (after two uncounted warm-up rounds), the
     * parts alternating within every round; a part's time is {@code repeat} calls of {@code ops} operations each.
     */
    static Map<String, Double> medianTimes(Map<String, LongSupplier> parts, int rounds, long repeat, int ops) {
        List<String> names = new ArrayList<>(parts.keySet());
        double[][] times = new double[names.size()][rounds];
        for (int r = -2; r < rounds; r++) {
            for (int p = 0; p < names.size(); p++) {
                double t = cpuNanosPerOp(parts.get(names.get(p)), repeat, ops);
                if (r >= 0) {
                    times[p][r] = t;
                }
            }
        }
        Map<String, Double> medians = new LinkedHashMap<>();
        for (int p = 0; p < names.size(); p++) {
            medians.put(names.get(p), median(times[p]));
        }
        return medians;
    }

    /** CPU ns per operation of {@code repeat} calls of {@code ops} operations each. */
    static double cpuNanosPerOp(LongSupplier part, long repeat, int ops) {
        long sink = 0;
        long t0 = THREADS.getCurrentThreadCpuTime();
        for (long i = 0; i < repeat; i++) {
            sink += part.getAsLong();
        }
        long elapsed = THREADS.getCurrentThreadCpuTime() - t0;
        if (sink == Long.MIN_VALUE) {
            System.out.println(sink); // keeps the work alive
        }
        return elapsed / (double) (repeat * ops);
    }
}
