package dev.stringview.benchmarks;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.ViewPredicate;
import dev.stringview.internal.Vectorization;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What a fresh JVM pays for its first kernel calls, scalar against the Vector API view-word passes: each case runs
 * in a new JVM process (the JIT starts cold every time), which builds Suite 1's contiguous column of {@code rows}
 * values and times its first {@code calls} {@code count} calls one by one, wall clock. Processes alternate between
 * the two modes, scalar ({@code -Dstringview.vectorization=false}) and vector (the default, with
 * {@code --add-modules=jdk.incubator.vector} in both), and the parent prints each call's median over the runs in
 * milliseconds, plus when the child saw the vector passes ready. Not run in the build except once, tiny, by a test.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.ColdStartSideBySide [runs] [rows,...] [equal,lessThan,startsWith] [lengths] [calls] \
 *     [OLD_CLASS_PATH]
 * </pre>
 * {@code OLD_CLASS_PATH}, an older build's benchmarks.jar (one that holds this class), adds the mode
 * {@value #OLD}: that build's vector code, in the same rounds.
 */
public final class ColdStartSideBySide {
    static final List<String> MODES = List.of("scalar", "vector");
    /** The mode that runs an older build's vector code, when its class path is given. */
    static final String OLD = "vector-old";

    private ColdStartSideBySide() {}

    /** One case: its name, its modes and, per mode, the median milliseconds of each call. */
    record Result(String name, List<String> modes, double[][] millisPerCall) {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int[] rows = args.length > 1 ? Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray()
                : new int[] {100_000, 1_000_000, 10_000_000};
        List<String> kernels = args.length > 2 ? List.of(args[2].split(",")) : List.of("equal", "lessThan",
                "startsWith");
        String lengths = args.length > 3 ? args[3] : "8";
        int calls = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        String oldClassPath = args.length > 5 ? args[5] : null;
        System.out.println(Demo.machine() + ", commit " + RunContext.commit() + ", lengths " + lengths + ", "
                + runs + " runs, ms per call (1st, 2nd, ...) in a fresh JVM");
        run(runs, rows, kernels, lengths, calls, oldClassPath, r -> {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-28s", r.name()));
            for (int m = 0; m < r.modes().size(); m++) {
                line.append("  ").append(r.modes().get(m));
                for (double ms : r.millisPerCall()[m]) {
                    line.append(String.format(Locale.ROOT, " %9.2f", ms));
                }
            }
            line.append(String.format(Locale.ROOT, "  (1st call vector/scalar %.2f)",
                    r.millisPerCall()[1][0] / r.millisPerCall()[0][0]));
            System.out.println(line);
        });
    }

    /**
     * Runs every case; with {@code oldClassPath} (an older build's jar or classes, which must hold this class)
     * a third mode, {@value #OLD}, runs that build's vector code in the same rounds.
     */
    static List<Result> run(int runs, int[] rowCounts, List<String> kernels, String lengths, int calls,
            String oldClassPath, java.util.function.Consumer<Result> sink) throws Exception {
        List<String> modes = new ArrayList<>(MODES);
        if (oldClassPath != null) {
            modes.add(OLD);
        }
        if (runs < 1 || calls < 1) {
            throw new IllegalArgumentException("runs and calls must be positive: runs=" + runs + " calls=" + calls);
        }
        List<Result> results = new ArrayList<>();
        for (int rows : rowCounts) {
            for (String kernel : kernels) {
                double[][][] times = new double[modes.size()][calls][runs];
                for (int r = 0; r < runs; r++) {
                    long[] counts = new long[modes.size()];
                    for (int m = 0; m < modes.size(); m++) {
                        double[] got = child(modes.get(m), kernel, lengths, rows, calls,
                                modes.get(m).equals(OLD) ? oldClassPath : System.getProperty("java.class.path"));
                        for (int c = 0; c < calls; c++) {
                            times[m][c][r] = got[c];
                        }
                        counts[m] = (long) got[calls];
                    }
                    for (int m = 1; m < modes.size(); m++) {
                        if (counts[m] != counts[0]) {
                            throw new IllegalStateException("modes disagree: kernel=" + kernel + " rows=" + rows
                                    + " scalar=" + counts[0] + " " + modes.get(m) + "=" + counts[m]);
                        }
                    }
                }
                double[][] medians = new double[modes.size()][calls];
                for (int m = 0; m < modes.size(); m++) {
                    for (int c = 0; c < calls; c++) {
                        medians[m][c] = CoreBuilds.median(times[m][c]);
                    }
                }
                Result result = new Result(kernel + " " + lengths + "B " + rows + " rows", modes, medians);
                sink.accept(result);
                results.add(result);
            }
        }
        return results;
    }

    /** Runs one fresh JVM; returns the milliseconds of each call, then the count. */
    private static double[] child(String mode, String kernel, String lengths, int rows, int calls, String classPath)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.add("--add-modules=jdk.incubator.vector");
        command.add("--enable-native-access=ALL-UNNAMED");
        if (mode.equals("scalar")) {
            command.add("-Dstringview.vectorization=false");
        }
        command.addAll(List.of("-cp", classPath, Child.class.getName(), kernel, lengths,
                Integer.toString(rows), Integer.toString(calls)));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String last = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                last = line;
            }
        }
        int exit = process.waitFor();
        if (exit != 0 || last == null || !last.startsWith("result ")) {
            throw new IllegalStateException("child failed: mode=" + mode + " kernel=" + kernel + " rows=" + rows
                    + " exit=" + exit + " lastLine=" + last);
        }
        String[] parts = last.substring("result ".length()).trim().split(" ");
        return Arrays.stream(parts).mapToDouble(Double::parseDouble).toArray();
    }

    /** The child process: builds the column, then times each call. */
    public static final class Child {
        private Child() {}

        public static void main(String[] args) {
            Kernel op = Kernel.of(args[0]);
            int rows = Integer.parseInt(args[2]);
            int calls = Integer.parseInt(args[3]);
            try (StringHeap data = StringHeap.generate(StringHeap.Layout.CONTIGUOUS, rows, args[1], 0)) {
                ViewColumnBuilder builder = ViewColumns.builder(data.arena, ViewKind.UTF8)
                        .withUtf8Validation(false).withExpectedRows(rows);
                int heap = builder.adoptBuffer(data.heap);
                for (int row = 0; row < rows; row++) {
                    builder.appendView(heap, data.offsets[row], data.lengths[row]);
                }
                ViewColumn column = builder.build();
                ViewPredicate predicate = op.predicate(data.constant(op));
                StringBuilder result = new StringBuilder("result");
                int count = 0;
                for (int c = 0; c < calls; c++) {
                    long start = System.nanoTime();
                    count = predicate.count(column);
                    result.append(' ').append((System.nanoTime() - start) / 1e6);
                }
                System.out.println("vectorization: " + Vectorization.describe());
                System.out.println(result.append(' ').append(count));
            }
        }
    }
}
