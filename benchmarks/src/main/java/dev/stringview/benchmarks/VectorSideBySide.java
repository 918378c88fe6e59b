package dev.stringview.benchmarks;

import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * The view-word passes of the equality, starts-with and order kernels with and without the Vector API, side by
 * side in one JVM: the current core is loaded three times, each class loader deciding its own
 * {@code dev.stringview.internal.Vectorization} once: scalar ({@code -Dstringview.vectorization=false} while it
 * initializes), 512-bit and 256-bit vectors ({@code -Dstringview.viewWordBits}). Rounds alternate between them,
 * with pointer+length (Suite 1's baseline) in the same rounds, and medians of thread CPU time are printed in
 * ns/row. The JVM needs {@code --add-modules=jdk.incubator.vector}, else all three are scalar. Not run in the
 * build except once, tiny, by a test.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.VectorSideBySide [rounds] [rows] [equal,select:equal,startsWith,lessThan]
 * </pre>
 * Cases as in {@link OrderSideBySide}: Suite 1's contiguous data, 8/25/mixed lengths, 5%, 50% and 100% of rows
 * sharing the constant's prefix, counted over all rows ({@code select:kernel} writes the row ids instead, which
 * for 8-byte equality is the path {@code count} does not take). {@code rows} of
 * {@value CacheResidentBatchBenchmark#ROWS} is the cache-resident batch, {@value ContiguousHeapBenchmark#ROWS} the
 * contiguous heap.
 */
public final class VectorSideBySide {
    /** The builds compared, in the order of {@link Result#nsPerRow}. */
    static final List<String> BUILDS = List.of("scalar", "vector512", "vector256");

    private VectorSideBySide() {}

    /** One case: its name, the medians (ns/row) per build of {@link #BUILDS}, and pointer+length's. */
    record Result(String name, double[] nsPerRow, double pointerLength) {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : CacheResidentBatchBenchmark.ROWS;
        List<String> kinds = args.length > 2 ? List.of(args[2].split(","))
                : List.of("equal", "select:equal", "startsWith", "lessThan");
        System.out.println(Demo.machine() + ", commit " + RunContext.commit() + ", rows " + rows);
        run(kinds, rounds, rows, Math.max(1, 30_000_000L / rows), r -> System.out.println(String.format(Locale.ROOT,
                "%-28s scalar %6.2f  vector512 %6.2f  vector256 %6.2f  pointer+length %6.2f ns/row"
                        + "  (512/scalar %.2f, 256/scalar %.2f)", r.name(), r.nsPerRow()[0], r.nsPerRow()[1],
                r.nsPerRow()[2], r.pointerLength(), r.nsPerRow()[1] / r.nsPerRow()[0],
                r.nsPerRow()[2] / r.nsPerRow()[0])));
    }

    /** Runs every case and hands each result to {@code sink} as soon as it is measured. */
    static List<Result> run(List<String> kinds, int rounds, int rows, long repeat,
            java.util.function.Consumer<Result> sink) throws Exception {
        if (rounds < 1 || rows < 1 || repeat < 1) {
            throw new IllegalArgumentException("rounds, rows and repeat must be positive: rounds=" + rounds
                    + " rows=" + rows + " repeat=" + repeat);
        }
        List<URLClassLoader> loaders = new ArrayList<>();
        try {
            loaders.add(loader("false", "512"));
            loaders.add(loader("true", "512"));
            loaders.add(loader("true", "256"));
            List<Result> results = new ArrayList<>();
            for (String kind : kinds) {
                for (String lengths : List.of("8", "25", "mix")) {
                    for (int prefixes : List.of(StringHeap.PREFIXES, 2, 1)) {
                        String[] spec = {kind, lengths, Integer.toString(prefixes), Integer.toString(rows)};
                        results.add(measure(loaders, spec, rounds, rows, repeat, sink));
                    }
                }
            }
            return results;
        } finally {
            for (URLClassLoader loader : loaders) {
                loader.close();
            }
        }
    }

    private static Result measure(List<URLClassLoader> loaders, String[] spec, int rounds, int rows, long repeat,
            java.util.function.Consumer<Result> sink) throws Exception {
        List<IntSupplier> cases = new ArrayList<>();
        for (URLClassLoader loader : loaders) {
            cases.add(OrderSideBySide.load(loader, spec));
        }
        String base = spec[0].substring(spec[0].indexOf(':') + 1);
        String[] baselineSpec = spec.clone();
        baselineSpec[0] = "pointerLength:" + base;
        IntSupplier baseline = OrderSideBySide.load(loaders.get(0), baselineSpec);
        int expected = baseline.getAsInt();
        for (int b = 0; b < cases.size(); b++) {
            int got = cases.get(b).getAsInt();
            if (got != expected) {
                throw new IllegalStateException("builds disagree: case=" + String.join(",", spec) + " build="
                        + BUILDS.get(b) + " matches=" + got + " pointerLength=" + expected);
            }
        }
        double[][] times = new double[cases.size() + 1][rounds];
        for (int r = -2; r < rounds; r++) { // two uncounted warm-up rounds
            for (int b = 0; b <= cases.size(); b++) {
                double t = OrderSideBySide.time(b < cases.size() ? cases.get(b) : baseline, repeat, rows);
                if (r >= 0) {
                    times[b][r] = t;
                }
            }
        }
        double[] medians = new double[cases.size()];
        for (int b = 0; b < cases.size(); b++) {
            medians[b] = CoreBuilds.median(times[b]);
        }
        Result result = new Result(spec[0] + " " + spec[1] + "B " + (100 / Integer.parseInt(spec[2])) + "% ties",
                medians, CoreBuilds.median(times[cases.size()]));
        sink.accept(result);
        for (IntSupplier c : cases) {
            ((AutoCloseable) c).close();
        }
        ((AutoCloseable) baseline).close();
        return result;
    }

    /**
     * A loader over this JVM's class path whose {@code Vectorization} initializes with the given properties (it
     * reads them once, when it initializes); returns after checking what it chose.
     */
    private static URLClassLoader loader(String vectorization, String viewWordBits) throws Exception {
        URLClassLoader loader = new URLClassLoader(CoreBuilds.classPath(), ClassLoader.getPlatformClassLoader());
        String oldVectorization = System.getProperty("stringview.vectorization");
        String oldBits = System.getProperty("stringview.viewWordBits");
        try {
            System.setProperty("stringview.vectorization", vectorization);
            System.setProperty("stringview.viewWordBits", viewWordBits);
            Class<?> type = Class.forName("dev.stringview.internal.Vectorization", true, loader);
            // The kernels take the vector passes only after the warm-up: run it (or, in an older build, wait for
            // its warm-up thread), so that the rounds below measure them and not the scalar loops.
            if (!CoreBuilds.awaitViewWords(loader)) {
                throw new IllegalStateException("the vector passes' warm-up did not end well: build vectorization="
                        + vectorization + " viewWordBits=" + viewWordBits);
            }
            String chosen = (String) type.getMethod("describe").invoke(null);
            System.out.println("build vectorization=" + vectorization + " viewWordBits=" + viewWordBits + ": " + chosen);
            return loader;
        } finally {
            restore("stringview.vectorization", oldVectorization);
            restore("stringview.viewWordBits", oldBits);
        }
    }

    /** What each build chose ({@code Vectorization.describe()}), in the order of {@link #BUILDS}. */
    static List<String> describeBuilds() throws Exception {
        List<String> chosen = new ArrayList<>();
        for (String[] p : new String[][] {{"false", "512"}, {"true", "512"}, {"true", "256"}}) {
            try (URLClassLoader loader = loader(p[0], p[1])) {
                chosen.add((String) Class.forName("dev.stringview.internal.Vectorization", true, loader)
                        .getMethod("describe").invoke(null));
            }
        }
        return chosen;
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
