package dev.stringview.benchmarks;

import dev.stringview.internal.Vectorization;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The first step of the order kernel alone: core's Vector API view-word pass {@code orderWords} (plain, and with
 * {@code settleInline}) over windows of 1024 random views, beside equality's {@code countEqualViews} over the same
 * views as the yardstick, alternating in rounds in one JVM by thread CPU time; prints medians in ns/row. The ties
 * the kernel resolves after this step are not included, so this isolates the pass's own machine code (what
 * {@code -XX:+PrintAssembly} shows for it). Needs {@code --add-modules=jdk.incubator.vector} and 512-bit vectors;
 * otherwise it says so and stops. Not run in the build except once, tiny, by a test.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.OrderPassTiming [rounds] [rows] [repeat]
 * </pre>
 */
public final class OrderPassTiming {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int WINDOW = 1024;

    private OrderPassTiming() {}

    /** Medians in ns/row of the plain pass, the settling pass and {@code countEqualViews}, or null without them. */
    record Result(double plain, double settling, double countEqualViews) {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : CacheResidentBatchBenchmark.ROWS;
        int repeat = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
        System.out.println(Demo.machine() + ", commit " + RunContext.commit() + ", rows " + rows);
        Result r = run(rounds, rows, repeat);
        if (r == null) {
            System.out.println("no vector view-word passes in this JVM: " + Vectorization.describe());
            return;
        }
        System.out.println(String.format(Locale.ROOT, "orderWords %.3f  orderWords settleInline %.3f  "
                + "countEqualViews %.3f ns/row", r.plain(), r.settling(), r.countEqualViews()));
    }

    /** Times {@code rounds} rounds (after two uncounted ones) of {@code repeat} passes over {@code rows} views. */
    static Result run(int rounds, int rows, int repeat) throws InterruptedException {
        if (rounds < 1 || rows < 1 || repeat < 1) {
            throw new IllegalArgumentException("rounds, rows and repeat must be positive: rounds=" + rounds
                    + " rows=" + rows + " repeat=" + repeat);
        }
        if (!Vectorization.warmUp() || Vectorization.viewWords() == null) {
            return null;
        }
        Vectorization.ViewWordScan scan = Vectorization.viewWords();
        SplittableRandom random = new SplittableRandom(StringHeap.SEED);
        try (Arena arena = Arena.ofConfined()) {
            // 64 bytes of slack: the pass's last load of a step reads 4 bytes into the next view.
            MemorySegment views = arena.allocate(rows * 16L + 64, 64);
            for (long i = 0; i < rows * 2L; i++) {
                views.setAtIndex(ValueLayout.JAVA_LONG, i, random.nextLong());
            }
            long firstKey = 0x4142_4344_4546_4748L;
            int prefix = Integer.reverseBytes((int) (firstKey >>> 32));
            long[] less = new long[WINDOW / 64];
            long[] ties = new long[WINDOW / 64];
            double[][] times = new double[3][rounds];
            long sink = 0;
            for (int round = -2; round < rounds; round++) {
                for (int which = 0; which < 3; which++) {
                    long t0 = THREADS.getCurrentThreadCpuTime();
                    for (int k = 0; k < repeat; k++) {
                        if (which == 2) {
                            sink += scan.countEqualViews(views, rows, firstKey, k);
                            continue;
                        }
                        for (int first = 0; first < rows; first += WINDOW) {
                            int count = Math.min(WINDOW, rows - first);
                            Arrays.fill(less, 0L);
                            Arrays.fill(ties, 0L);
                            scan.orderWords(views, first, count, firstKey, prefix, which == 1, less, ties);
                            sink += less[0] ^ ties[(count - 1) >>> 6];
                        }
                    }
                    if (round >= 0) {
                        times[which][round] = (THREADS.getCurrentThreadCpuTime() - t0) / ((double) repeat * rows);
                    }
                }
            }
            if (sink == 42) {
                System.out.println(sink); // keeps the work alive
            }
            return new Result(CoreBuilds.median(times[0]), CoreBuilds.median(times[1]),
                    CoreBuilds.median(times[2]));
        }
    }
}
