package dev.stringview.benchmarks;

import dev.stringview.ByteView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * {@link ByteViewBenchmark}'s key and stream rows for two builds of core side by side in one JVM: an older core's
 * classes (a directory, e.g. compiled from {@code git archive <commit> core}) and the current ones, each loaded by
 * its own class loader over this class path, alternating round by round with the JDK baseline ({@code String} or
 * {@code new byte[n]} + {@code readFully}) in the same rounds. It calls the benchmark's own methods on its own
 * state classes, so the data and the work are exactly the JMH ones. On a shared, noisy machine only ratios taken
 * in the same minutes mean anything. Prints medians of thread CPU time per operation (per lookup, per value read,
 * per sort). Not run in the build except once, tiny, by a test.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.ByteViewSideBySide OLD_CORE_CLASSES [rounds] [rows] [cases]
 * </pre>
 * Cases (comma-separated, default all): {@code lookup}, {@code lookupCopies}, {@code sort}, {@code sortCopies},
 * {@code read} and {@code readHeap} (each of the last two at 8, 12, 36 and 128 bytes): the benchmark methods of
 * the same names, against {@code lookupString}, {@code sortString} and {@code readByteArray}; the read rows also
 * time the {@code String} peer, {@code readString}.
 */
public final class ByteViewSideBySide {
    static final List<String> CASES = List.of("lookup", "lookupCopies", "sort", "sortCopies", "read", "readHeap");
    static final List<Integer> READ_LENGTHS = List.of(8, 12, 36, 128);

    private ByteViewSideBySide() {}

    /**
     * One row: the case and the medians (ns per operation) of the old build, the new build, the baseline and, for
     * the read rows, the {@code String} peer ({@code readString}; NaN for the other rows, whose baseline is
     * {@code String} already).
     */
    record Result(String name, double oldView, double newView, double baseline, double peer) {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: ByteViewSideBySide OLD_CORE_CLASSES [rounds] [rows] [cases]");
        }
        Path old = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        int rows = args.length > 2 ? Integer.parseInt(args[2]) : 1_000_000;
        List<String> cases = args.length > 3 ? List.of(args[3].split(",")) : CASES;
        System.out.println(Demo.machine() + ", new = commit " + RunContext.commit() + ", old = " + old);
        run(old, cases, rounds, rows, 20_000_000L, r -> System.out.println(String.format(Locale.ROOT,
                "%-14s old %10.1f  new %10.1f  baseline %10.1f ns/op  (new/old %.2f, new/baseline %.2f)%s",
                r.name(), r.oldView(), r.newView(), r.baseline(), r.newView() / r.oldView(),
                r.newView() / r.baseline(), Double.isNaN(r.peer()) ? "" : String.format(Locale.ROOT,
                        "  String %.1f (new/String %.2f)", r.peer(), r.newView() / r.peer()))));
    }

    /**
     * Runs every case and hands each result to {@code sink} as soon as it is measured; each timing repeats the
     * benchmark method until about {@code budget} units of work (values read, compares) are done.
     */
    static List<Result> run(Path oldCoreClasses, List<String> cases, int rounds, int rows, long budget,
            Consumer<Result> sink) throws Exception {
        if (rounds < 1 || rows < 1) {
            throw new IllegalArgumentException("rounds and rows must be positive: rounds=" + rounds + " rows=" + rows);
        }
        List<Result> results = new ArrayList<>();
        try (CoreBuilds builds = CoreBuilds.open(oldCoreClasses)) {
            URLClassLoader oldLoader = builds.oldLoader;
            URLClassLoader newLoader = builds.newLoader;
            for (String kind : cases) {
                if (!CASES.contains(kind)) {
                    throw new IllegalArgumentException("unknown case: case=" + kind + " known=" + CASES);
                }
                List<Integer> params = kind.startsWith("read") ? READ_LENGTHS : List.of(rows);
                for (int param : params) {
                    String[] spec = {kind, Integer.toString(param)};
                    Case oldCase = load(oldLoader, spec);
                    Case newCase = load(newLoader, spec);
                    Case baseline = load(newLoader, new String[] {kind + "Baseline", spec[1]});
                    Case peer = kind.startsWith("read") ? load(newLoader, new String[] {"readPeer", spec[1]}) : null;
                    long oldSum = oldCase.getAsLong();
                    long newSum = newCase.getAsLong();
                    if (oldSum != newSum) {
                        throw new IllegalStateException("builds disagree: case=" + kind + " param=" + param
                                + " old=" + oldSum + " new=" + newSum);
                    }
                    long repeat = Math.max(1, budget / newCase.work);
                    double[] o = new double[rounds];
                    double[] n = new double[rounds];
                    double[] b = new double[rounds];
                    double[] p = new double[rounds];
                    for (int r = -2; r < rounds; r++) { // two uncounted warm-up rounds
                        double x = time(oldCase, repeat);
                        double y = time(newCase, repeat);
                        double z = time(baseline, repeat);
                        double w = peer == null ? Double.NaN : time(peer, repeat);
                        if (r >= 0) {
                            o[r] = x;
                            n[r] = y;
                            b[r] = z;
                            p[r] = w;
                        }
                    }
                    Result result = new Result(kind + (kind.startsWith("read") ? " " + param + "B" : ""),
                            CoreBuilds.median(o), CoreBuilds.median(n), CoreBuilds.median(b), CoreBuilds.median(p));
                    results.add(result);
                    sink.accept(result);
                    oldCase.close();
                    newCase.close();
                    baseline.close();
                    if (peer != null) {
                        peer.close();
                    }
                }
            }
        }
        return results;
    }

    private static Case load(ClassLoader loader, String[] spec) throws ReflectiveOperationException {
        Class<?> type = Class.forName(Task.class.getName(), true, loader);
        Object instance = type.getDeclaredConstructor(String[].class).newInstance((Object) spec);
        return new Case((LongSupplier) instance, (AutoCloseable) instance, ((Number) type.getMethod("work")
                .invoke(instance)).longValue(), ((Number) type.getMethod("ops").invoke(instance)).intValue());
    }

    /** CPU ns per operation of {@code repeat} calls. */
    private static double time(Case task, long repeat) {
        return CoreBuilds.cpuNanosPerOp(task::getAsLong, repeat, task.ops);
    }



    /** A loaded case seen through this loader's types. */
    private record Case(LongSupplier task, AutoCloseable resource, long work, int ops) implements LongSupplier {
        @Override
        public long getAsLong() {
            return task.getAsLong();
        }

        void close() throws Exception {
            resource.close();
        }
    }

    /**
     * One case, built inside the class loader that loaded it (so its values are that loader's core):
     * {@code spec} = kind ({@link #CASES}, or one of them + {@code Baseline}) and rows or value length. Each call
     * runs the benchmark method once and returns a checksum that is the same for both builds of core.
     */
    public static final class Task implements LongSupplier, AutoCloseable {
        private final ByteViewBenchmark benchmark = new ByteViewBenchmark();
        private ByteViewBenchmark.Keys keys;
        private ByteViewBenchmark.Values values;
        private final LongSupplier task;
        private final long work;
        private final int ops;

        public Task(String[] spec) {
            String kind = spec[0];
            int param = Integer.parseInt(spec[1]);
            if (kind.startsWith("read")) {
                values = new ByteViewBenchmark.Values();
                values.length = param;
                values.setup();
                ops = ByteViewBenchmark.BATCH;
                work = ByteViewBenchmark.BATCH;
                task = switch (kind) {
                    case "read" -> () -> checksum(io(() -> benchmark.readByteView(values)));
                    case "readHeap" -> () -> checksum(io(() -> benchmark.readByteViewHeap(values)));
                    case "readBaseline", "readHeapBaseline" ->
                        () -> checksum(io(() -> benchmark.readByteArray(values)));
                    case "readPeer" -> () -> checksum(io(() -> benchmark.readString(values)));
                    default -> throw new IllegalArgumentException("unknown case: kind=" + kind);
                };
            } else {
                keys = new ByteViewBenchmark.Keys();
                keys.rows = param;
                keys.setup();
                boolean lookup = kind.startsWith("lookup");
                ops = lookup ? ByteViewBenchmark.BATCH : 1;
                work = lookup ? ByteViewBenchmark.BATCH * 50L : param * 20L; // a sort does about 20 compares per key
                task = switch (kind) {
                    case "lookup" -> () -> benchmark.lookupByteView(keys);
                    case "lookupCopies" -> () -> benchmark.lookupByteViewCopies(keys);
                    case "lookupBaseline", "lookupCopiesBaseline" -> () -> benchmark.lookupString(keys);
                    case "sort" -> () -> checksum(benchmark.sortByteView(keys));
                    case "sortCopies" -> () -> checksum(benchmark.sortByteViewCopies(keys));
                    case "sortBaseline", "sortCopiesBaseline" -> () -> checksum(benchmark.sortString(keys));
                    default -> throw new IllegalArgumentException("unknown case: kind=" + kind);
                };
            }
        }

        public long work() {
            return work;
        }

        public int ops() {
            return ops;
        }

        @Override
        public long getAsLong() {
            return task.getAsLong();
        }

        @Override
        public void close() {
            if (keys != null) {
                keys.tearDown();
            }
            if (values != null) {
                values.tearDown();
            }
        }

        /** Position-weighted hashes of the first and last values: equal for equal orders and equal bytes. */
        private static long checksum(Object[] array) {
            long sum = array.length;
            int n = Math.min(array.length, 64);
            for (int i = 0; i < n; i++) {
                sum = sum * 31 + hash(array[i]);
                sum = sum * 31 + hash(array[array.length - 1 - i]);
            }
            return sum;
        }

        private static long hash(Object value) {
            return switch (value) {
                case ByteView v -> Arrays.hashCode(v.toByteArray());
                case byte[] bytes -> Arrays.hashCode(bytes);
                case String s -> s.hashCode();
                default -> value.hashCode();
            };
        }

        /** A benchmark call that may throw {@link IOException}; also used by {@link ByteViewKeyCosts}. */
        interface IoCall {
            Object[] call() throws IOException;
        }

        static Object[] io(IoCall call) {
            try {
                return call.call();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
