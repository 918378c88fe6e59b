package dev.stringview.benchmarks;

import dev.stringview.Comparison;
import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKernels;
import dev.stringview.ViewKind;
import dev.stringview.ViewPredicate;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * The order kernels of two builds of core side by side in one JVM: an older core's classes (a directory, e.g.
 * compiled from {@code git archive <commit> core}) and the current ones, each loaded by its own class loader over
 * this class path, alternating round by round, with pointer+length (Suite 1's baseline) in the same rounds. JMH
 * runs one benchmark after another, minutes apart; on a shared, noisy machine only ratios taken in the same
 * minutes mean anything. Prints medians of thread CPU time in ns/row. Before the first round it waits until both
 * builds' Vector API passes are warm ({@link CoreBuilds#awaitViewWords}). Not run in the build except once, tiny, by
 * a test.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.OrderSideBySide OLD_CORE_CLASSES [rounds] [rows] [lessThan,columns]
 * </pre>
 * Cases: Suite 1's {@code lessThan}, {@code equal}, {@code startsWith} or {@code contains} over all rows of its
 * contiguous data (8, 25 and mixed lengths; 20, 2 and 1 distinct prefixes, i.e. 5%, 50% and 100% of rows share the
 * constant's prefix), each with pointer+length on the same data, and column-vs-column {@code compare(LESS_THAN)} of
 * that column against its reverse. {@code rows} of {@value CacheResidentBatchBenchmark#ROWS} (the default) is the
 * cache-resident batch; {@value ContiguousHeapBenchmark#ROWS} is the contiguous heap of DRAM size.
 */
public final class OrderSideBySide {
    /** Timings are this thread's CPU time: on a shared machine, time spent descheduled is not the kernel's. */

    private OrderSideBySide() {}

    /** One case: what it runs and the medians (ns/row) of the old build, the new build and pointer+length. */
    record Result(String name, double oldViews, double newViews, double pointerLength) {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: OrderSideBySide OLD_CORE_CLASSES [rounds] [rows] [kinds]");
        }
        Path old = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        int rows = args.length > 2 ? Integer.parseInt(args[2]) : CacheResidentBatchBenchmark.ROWS;
        List<String> kinds = args.length > 3 ? List.of(args[3].split(",")) : List.of("lessThan", "columns");
        System.out.println(Demo.machine() + ", new = commit " + RunContext.commit() + ", old = " + old);
        run(old, kinds, rounds, rows, Math.max(1, 30_000_000L / rows), r -> System.out.println(String.format(Locale.ROOT,
                "%-26s old %6.2f  new %6.2f  pointer+length %6.2f ns/row  (new/old %.2f, new/p+l %.2f)", r.name(),
                r.oldViews(), r.newViews(), r.pointerLength(), r.newViews() / r.oldViews(),
                r.newViews() / r.pointerLength())));
    }

    /**
     * Runs every case, {@code repeat} passes over {@code rows} rows per timing, and hands each result to
     * {@code sink} as soon as it is measured.
     */
    static List<Result> run(Path oldCoreClasses, List<String> kinds, int rounds, int rows, long repeat,
            java.util.function.Consumer<Result> sink) throws Exception {
        if (rounds < 1 || rows < 1 || repeat < 1) {
            throw new IllegalArgumentException("rounds, rows and repeat must be positive: rounds=" + rounds
                    + " rows=" + rows + " repeat=" + repeat);
        }
        List<Result> results = new ArrayList<>();
        try (CoreBuilds builds = CoreBuilds.open(oldCoreClasses)) {
            URLClassLoader oldLoader = builds.oldLoader;
            URLClassLoader newLoader = builds.newLoader;
            // Each build's kernels take the vector passes only once its warm-up gate has opened: until then they
            // run the scalar loops, and the first cells would time those.
            for (URLClassLoader loader : List.of(oldLoader, newLoader)) {
                if (!CoreBuilds.awaitViewWords(loader)) {
                    throw new IllegalStateException("the vector passes' warm-up did not end well: build="
                            + (loader == oldLoader ? "old" : "new"));
                }
            }
            for (String kind : kinds) {
                for (String lengths : List.of("8", "25", "mix")) {
                    for (int prefixes : List.of(StringHeap.PREFIXES, 2, 1)) {
                        String[] spec = {kind, lengths, Integer.toString(prefixes), Integer.toString(rows)};
                        IntSupplier oldCase = load(oldLoader, spec);
                        IntSupplier newCase = load(newLoader, spec);
                        IntSupplier baseline = kind.equals("columns") ? null : load(newLoader, pointerLength(spec));
                        if (oldCase.getAsInt() != newCase.getAsInt()
                                || (baseline != null && baseline.getAsInt() != newCase.getAsInt())) {
                            throw new IllegalStateException("builds disagree: case=" + String.join(",", spec)
                                    + " old=" + oldCase.getAsInt() + " new=" + newCase.getAsInt()
                                    + " pointerLength=" + (baseline == null ? -1 : baseline.getAsInt()));
                        }
                        double[] o = new double[rounds];
                        double[] n = new double[rounds];
                        double[] p = new double[rounds];
                        for (int r = -2; r < rounds; r++) { // two uncounted warm-up rounds
                            double a = time(oldCase, repeat, rows);
                            double b = time(newCase, repeat, rows);
                            double c = baseline == null ? Double.NaN : time(baseline, repeat, rows);
                            if (r >= 0) {
                                o[r] = a;
                                n[r] = b;
                                p[r] = c;
                            }
                        }
                        Result result = new Result(kind + " " + lengths + "B " + (100 / prefixes) + "% ties",
                                CoreBuilds.median(o), CoreBuilds.median(n), CoreBuilds.median(p));
                        results.add(result);
                        sink.accept(result);
                        ((AutoCloseable) oldCase).close();
                        ((AutoCloseable) newCase).close();
                        if (baseline != null) {
                            ((AutoCloseable) baseline).close();
                        }
                    }
                }
            }
        }
        return results;
    }

    private static String[] pointerLength(String[] spec) {
        String[] copy = spec.clone();
        copy[0] = "pointerLength:" + spec[0];
        return copy;
    }

    static IntSupplier load(ClassLoader loader, String[] spec) throws ReflectiveOperationException {
        Class<?> type = Class.forName(Case.class.getName(), true, loader);
        return (IntSupplier) type.getDeclaredConstructor(String[].class).newInstance((Object) spec);
    }

    static double time(IntSupplier task, long repeat, int rows) {
        return CoreBuilds.cpuNanosPerOp(task::getAsInt, repeat, rows);
    }



    /**
     * One case, built inside the class loader that loaded it (so its views and predicate are that loader's
     * core): {@code spec} = kind (lessThan, columns or pointerLength; {@code select:kernel} selects row ids
     * instead of counting), lengths, prefixes, rows.
     */
    public static final class Case implements IntSupplier, AutoCloseable {
        private final StringHeap data;
        private final IntSupplier task;

        public Case(String[] spec) {
            String kind = spec[0];
            data = StringHeap.generate(StringHeap.Layout.CONTIGUOUS, Integer.parseInt(spec[3]), spec[1], 0,
                    Integer.parseInt(spec[2]));
            if (kind.startsWith("pointerLength:")) {
                Kernel kernel = Kernel.of(kind.substring(kind.indexOf(':') + 1));
                byte[] constant = data.constant(kernel);
                PointerLengthColumn column = new PointerLengthColumn(data.arena, data);
                task = () -> column.count(kernel, constant);
                return;
            }
            switch (kind) {
                case "lessThan", "equal", "startsWith", "contains" -> {
                    Kernel kernel = Kernel.of(kind);
                    ViewColumn column = views(false);
                    ViewPredicate predicate = kernel.predicate(data.constant(kernel));
                    task = () -> predicate.count(column);
                }
                case "select:lessThan", "select:equal", "select:startsWith" -> {
                    Kernel kernel = Kernel.of(kind.substring(kind.indexOf(':') + 1));
                    ViewColumn column = views(false);
                    ViewPredicate predicate = kernel.predicate(data.constant(kernel));
                    int[] out = new int[data.rows];
                    task = () -> predicate.select(column, out);
                }
                case "columns" -> {
                    ViewColumn left = views(false);
                    ViewColumn right = views(true);
                    int[] out = new int[data.rows];
                    task = () -> ViewKernels.compare(Comparison.LESS_THAN, left, right, out);
                }
                default -> throw new IllegalArgumentException("unknown case: kind=" + kind);
            }
        }

        private ViewColumn views(boolean reversed) {
            ViewColumnBuilder builder = ViewColumns.builder(data.arena, ViewKind.UTF8).withUtf8Validation(false)
                    .withExpectedRows(data.rows);
            int heap = builder.adoptBuffer(data.heap);
            for (int i = 0; i < data.rows; i++) {
                int row = reversed ? data.rows - 1 - i : i;
                builder.appendView(heap, data.offsets[row], data.lengths[row]);
            }
            return builder.build();
        }

        @Override
        public int getAsInt() {
            return task.getAsInt();
        }

        @Override
        public void close() {
            data.close();
        }
    }
}
