package dev.stringview.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Suite 1 cells of one build of core, timed in this JVM: for each {@code kind/lengths/prefixes} argument (as
 * {@link OrderSideBySide.Case} takes them, e.g. {@code lessThan/25/20} or {@code pointerLength:lessThan/8/20}) the
 * median thread CPU time in ns/row of counting over all rows of the contiguous data. It waits for the vector
 * passes' warm-up gate first. {@link OrderSideBySide} runs two builds in one JVM, where their code shares one JIT and
 * one heap; this harness is its cross-check in separate JVMs: put an old core's classes first on the class path for
 * the old build, alternate the JVMs, and compare. Not run in the build except once, tiny, by a test.
 *
 * <pre>
 * java -Xmx8g --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector \
 *     -cp [OLD_CORE_CLASSES:]benchmarks/target/benchmarks.jar dev.stringview.benchmarks.KernelCellTiming \
 *     rows rounds lessThan/8/20 lessThan/25/20 ...
 * </pre>
 */
public final class KernelCellTiming {
    private KernelCellTiming() {}

    /** One cell: its argument, the median ns/row and the kernel's count (the same for every build). */
    record Cell(String spec, double nsPerRow, int count) {}

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            throw new IllegalArgumentException("usage: KernelCellTiming rows rounds kind/lengths/prefixes...");
        }
        int rows = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        System.out.println(Demo.machine() + ", commit " + RunContext.commit() + ", rows " + rows);
        for (Cell cell : run(rows, rounds, List.of(args).subList(2, args.length))) {
            System.out.println(String.format(Locale.ROOT, "%-30s %.3f ns/row  (count %d)", cell.spec(),
                    cell.nsPerRow(), cell.count()));
        }
    }

    /** Times each cell: two uncounted rounds, then {@code rounds} rounds of passes over about 30M rows. */
    static List<Cell> run(int rows, int rounds, List<String> specs) throws Exception {
        if (rows < 1 || rounds < 1) {
            throw new IllegalArgumentException("rows and rounds must be positive: rows=" + rows + " rounds=" + rounds);
        }
        if (!CoreBuilds.awaitViewWords(KernelCellTiming.class.getClassLoader())) {
            throw new IllegalStateException("the vector passes' warm-up did not end well");
        }
        List<Cell> cells = new ArrayList<>();
        long repeat = Math.max(1, 30_000_000L / rows);
        for (String spec : specs) {
            String[] parts = spec.split("/");
            if (parts.length != 3) {
                throw new IllegalArgumentException("cell must be kind/lengths/prefixes: cell=" + spec);
            }
            try (OrderSideBySide.Case cell = new OrderSideBySide.Case(
                    new String[] {parts[0], parts[1], parts[2], Integer.toString(rows)})) {
                double[] times = new double[rounds];
                for (int r = -2; r < rounds; r++) {
                    double t = OrderSideBySide.time(cell, repeat, rows);
                    if (r >= 0) {
                        times[r] = t;
                    }
                }
                cells.add(new Cell(spec, CoreBuilds.median(times), cell.getAsInt()));
            }
        }
        return cells;
    }
}
