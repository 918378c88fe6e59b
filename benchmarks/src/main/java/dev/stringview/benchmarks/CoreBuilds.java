package dev.stringview.benchmarks;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The two class loaders of a side-by-side harness that runs an older build of core next to the current one
 * ({@link OrderSideBySide}, {@link ArgsortSideBySide}, {@link ByteViewSideBySide}): both see this JVM's class
 * path, and the old one sees the older core's classes first, so each case loaded through it runs that core.
 */
final class CoreBuilds implements AutoCloseable {
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
     * Waits until the core that {@code loader} loads has warmed its Vector API view-word passes (its
     * {@code Vectorization.awaitViewWords}), so that timings measure those passes and not the scalar loops the
     * kernels run until then. Returns false when that core chose the passes but their warm-up did not end well;
     * true when it has no passes to wait for (no 512-bit vectors, or a core older than the warm-up gate).
     */
    static boolean awaitViewWords(ClassLoader loader) throws Exception {
        Class<?> type = Class.forName("dev.stringview.internal.Vectorization", true, loader);
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
}
