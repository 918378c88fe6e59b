package dev.stringview.benchmarks;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.ViewPredicate;
import dev.stringview.internal.Vectorization;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where the time of a long tie goes in {@code lessThan} over Suite 1's contiguous heap (10M rows, one 250 MB buffer
 * for 25-byte values, 5% of rows sharing the constant's prefix): a bisection from a bare loop over the real ties'
 * buffer addresses up to the real kernel, one piece of the kernel added per step, alternating the steps round by
 * round in this JVM and timing each by thread CPU time (the machine is shared). The tie rows and their addresses
 * come from core's own vector view pass ({@link Vectorization.ViewWordScan#orderWords}) over the real views.
 *
 * <p>The steps ({@link Step}): the view pass alone; the bare loads of the ties' bytes 4..11 (addresses from an
 * array); the same loads each waiting on the one before (their latency, so that the bare loop's time over it is
 * how many misses it keeps in flight); those loads after each window's view pass, after the next window's pass (a
 * pipeline one window deep) and interleaved with the pass in pieces of the window size, 16384 rows behind it; the
 * same with each address read from the tie's view (word 1,
 * a load the buffer load depends on), without and with the pass; that plus the length, the compares and the
 * outcome bits ({@code OrderPredicate.resolveTiesOneBuffer}'s body); the gathered two loops (the kernel's
 * {@code resolveTiesGathered} before 2e4139b); its three loops since (offsets, bare loads, compares); the two loops
 * with the addresses taken from the pass's loads instead of the views;
 * and the kernel itself ({@code ViewPredicate.count}). Steps with the pass run at each window size given. Prints
 * medians in ns/row and, per step, ns per tie above the pass. Steps that compute the outcome check their count
 * against the kernel's; it checks that the three steps of bare loads after the pass load each long tie once.
 * Needs {@code --add-modules=jdk.incubator.vector} and 512-bit vectors. Not run in the build except once, tiny,
 * by a test.
 *
 * <pre>
 * java -Xmx8g --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector \
 *     -cp benchmarks/target/benchmarks.jar dev.stringview.benchmarks.LongTieBisection \
 *     [rounds] [rows] [lengths] [windows, e.g. 256,1024,4096]
 * </pre>
 */
public final class LongTieBisection {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final ValueLayout.OfLong LE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private LongTieBisection() {}

    /** One piece of the kernel more per step. */
    enum Step {
        /** The vector view pass over every window, nothing else. */
        PASS(true),
        /** Only the ties' buffer loads, addresses from an array, no pass. */
        LOADS(false),
        /**
         * The same loads, each address made to wait on the load before it (plus that load's value ANDed with a
         * field holding 0): one miss at a time, so its ns a tie is the latency of a long tie's load. LOADS' time
         * over this one is how many of those misses the bare loop keeps in flight.
         */
        CHASE(false),
        /** Each window's pass, then its ties' buffer loads, addresses from an array. */
        PASS_LOADS(true),
        /**
         * As PASS_LOADS, but each window's loads issued after the next window's pass, so that they are in flight
         * while the pass after that one starts (a software pipeline one window deep).
         */
        PASS_LAGGED(true),
        /**
         * The pass in pieces of the window's rows, each followed by the loads of the ties LAG rows before it: the
         * misses interleaved with the stream of views at that grain instead of in a loop of their own.
         */
        PASS_INTERLEAVED(true),
        /** The tie bits of the real pass (precomputed), each tie's address read from its view, then the load. */
        VIEW_LOADS(false),
        /** Each window's pass, then its ties' addresses from the views, then the loads. */
        PASS_VIEW_LOADS(true),
        /** As above, plus the length, the compares, the outcome bits and the window's result (the one-buffer loop). */
        PASS_RESOLVE(true),
        /**
         * As above in two loops: each tie's view and buffer loads into an array first, compares after (the gathered
         * loop before 2e4139b).
         */
        PASS_GATHER(true),
        /**
         * As above in three loops: the long ties' buffer offsets from their views, then the bare buffer loads, then
         * the compares ({@code resolveTiesGathered} since 2e4139b).
         */
        PASS_SPLIT(true),
        /** The gathered loops with each tie's buffer offset taken from the pass's own loads, not the views. */
        PASS_OFFSETS(true),
        /** {@code ViewPredicate.count}: the kernel, window 1024. */
        KERNEL(false);

        final boolean windowed;

        Step(boolean windowed) {
            this.windowed = windowed;
        }
    }

    /** One timed variant: a step at a window size (0 for the steps without windows) and its median ns/row. */
    record Result(Step step, int window, double nsPerRow, double nsPerTieAbovePass) {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : ContiguousHeapBenchmark.ROWS;
        String lengths = args.length > 2 ? args[2] : "25";
        int[] windows = args.length > 3
                ? Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray() : new int[] {1024};
        System.out.println(Demo.machine() + ", commit " + RunContext.commit() + ", rows " + rows + ", lengths "
                + lengths);
        List<Result> results = run(rounds, rows, lengths, windows, line -> System.out.println(line));
        if (results == null) {
            System.out.println("no vector view-word passes in this JVM: " + Vectorization.describe());
            return;
        }
        for (Result r : results) {
            System.out.println(String.format(Locale.ROOT, "%-16s window %5d  %7.3f ns/row  %7.1f ns/tie above the pass",
                    r.step(), r.window(), r.nsPerRow(), r.nsPerTieAbovePass()));
        }
    }

    /**
     * Times every step at every window size in {@code rounds} rounds (after two uncounted ones); null without the
     * vector passes.
     */
    static List<Result> run(int rounds, int rows, String lengths, int[] windows,
            java.util.function.Consumer<String> log) throws Exception {
        if (rounds < 1 || rows < 64 || windows.length == 0) {
            throw new IllegalArgumentException("rounds, rows and windows must be positive: rounds=" + rounds
                    + " rows=" + rows + " windows=" + windows.length);
        }
        for (int window : windows) {
            if (window < 64 || window % 64 != 0) {
                throw new IllegalArgumentException("window must be a multiple of 64: window=" + window);
            }
        }
        if (!Vectorization.warmUp() || Vectorization.viewWords() == null) {
            return null;
        }
        try (StringHeap heap = StringHeap.generate(StringHeap.Layout.CONTIGUOUS, rows, lengths, 0)) {
            Data data = new Data(heap);
            log.accept(String.format(Locale.ROOT, "ties %d (%.2f%% of rows), long ties %d, kernel count %d",
                    data.tieCount, 100.0 * data.tieCount / rows, data.longTies, data.kernelCount));
            // The steps that compute the outcome must count what the kernel counts.
            for (int window : windows) {
                for (Step step : List.of(Step.PASS_RESOLVE, Step.PASS_GATHER, Step.PASS_SPLIT, Step.PASS_OFFSETS)) {
                    long count = data.run(step, window);
                    if (count != data.kernelCount) {
                        throw new IllegalStateException("step disagrees with the kernel: step=" + step + " window="
                                + window + " count=" + count + " kernel=" + data.kernelCount);
                    }
                }
            }
            // The steps of bare loads after the pass load every long tie once.
            long loadSum = data.loadSum();
            for (int window : windows) {
                for (Step step : List.of(Step.PASS_LOADS, Step.PASS_LAGGED, Step.PASS_INTERLEAVED)) {
                    long sum = data.run(step, window);
                    if (sum != loadSum) {
                        throw new IllegalStateException("step's loads differ from the long ties' words: step=" + step
                                + " window=" + window + " sum=" + sum + " expected=" + loadSum);
                    }
                }
            }
            List<Step> order = new ArrayList<>();
            List<Integer> sizes = new ArrayList<>();
            for (Step step : Step.values()) {
                for (int window : step.windowed ? windows : new int[] {0}) {
                    order.add(step);
                    sizes.add(window);
                }
            }
            double[][] times = new double[order.size()][rounds];
            long repeat = Math.max(1, 30_000_000L / rows);
            long sink = 0;
            for (int round = -2; round < rounds; round++) {
                for (int v = 0; v < order.size(); v++) {
                    Step step = order.get(v);
                    int window = sizes.get(v);
                    long t0 = THREADS.getCurrentThreadCpuTime();
                    for (long k = 0; k < repeat; k++) {
                        sink += data.run(step, window);
                    }
                    if (round >= 0) {
                        times[v][round] = (THREADS.getCurrentThreadCpuTime() - t0) / ((double) repeat * rows);
                    }
                }
            }
            if (sink == 42) {
                log.accept("sink " + sink); // keeps the work alive
            }
            List<Result> results = new ArrayList<>();
            for (int v = 0; v < order.size(); v++) {
                double median = CoreBuilds.median(times[v]);
                double pass = median;
                if (order.get(v).windowed) {
                    pass = CoreBuilds.median(times[order.indexOf(Step.PASS) + indexOf(windows, sizes.get(v))]);
                } else if (order.get(v) == Step.KERNEL) {
                    pass = CoreBuilds.median(times[order.indexOf(Step.PASS) + indexOf(windows, 1024)]);
                } else {
                    pass = 0;
                }
                results.add(new Result(order.get(v), sizes.get(v), median,
                        data.longTies == 0 ? Double.NaN : (median - pass) * rows / data.longTies));
            }
            return results;
        }
    }

    private static int indexOf(int[] windows, int window) {
        for (int i = 0; i < windows.length; i++) {
            if (windows[i] == window) {
                return i;
            }
        }
        return 0; // no such window timed: compare with the first
    }

    /** The column, the constant's keys and the real pass's ties. */
    private static final class Data {
        final int rows;
        final ViewColumn column;
        final MemorySegment views;
        final MemorySegment buffer;
        final ViewPredicate predicate;
        final Vectorization.ViewWordScan scan = Vectorization.viewWords();
        final long firstKey; // constant bytes 0..7, big-endian, zero-padded
        final int prefixLittleEndian;
        final long second; // constant bytes 4..11, big-endian
        final int clippedConstant;
        final byte[] constant;
        final int tieCount;
        final int longTies;
        final long[] tieAddress; // buffer offset of bytes 4..11 of every long tie, in row order
        final int[] tieRow; // the row of each entry of tieAddress
        final long[] tieBits; // the real pass's tie bits over all rows
        final int kernelCount;
        long[] less = new long[0];
        long[] ties = new long[0];
        long[] loaded = new long[0];
        long[] offsets = new long[0];

        Data(StringHeap heap) {
            rows = heap.rows;
            ViewColumnBuilder builder = ViewColumns.builder(heap.arena, ViewKind.UTF8).withUtf8Validation(false)
                    .withExpectedRows(rows);
            int index = builder.adoptBuffer(heap.heap);
            for (int i = 0; i < rows; i++) {
                builder.appendView(index, heap.offsets[i], heap.lengths[i]);
            }
            column = builder.build();
            views = column.views();
            buffer = column.buffer(0);
            constant = heap.constant(Kernel.LESS_THAN);
            predicate = Kernel.LESS_THAN.predicate(constant);
            byte[] padded = Arrays.copyOf(constant, Math.max(12, constant.length));
            MemorySegment c = MemorySegment.ofArray(padded);
            firstKey = c.get(BE_LONG, 0);
            prefixLittleEndian = c.get(LE_INT, 0);
            second = c.get(BE_LONG, 4);
            clippedConstant = Math.min(constant.length, 13);
            // The ties exactly as the kernel's pass marks them.
            tieBits = new long[(rows + 63) >>> 6];
            int windows = (rows + 1023) >>> 10;
            long[] l = new long[16];
            long[] t = new long[16];
            for (int w = 0; w < windows; w++) {
                int base = w << 10;
                int count = Math.min(1024, rows - base);
                Arrays.fill(l, 0);
                Arrays.fill(t, 0);
                scan.orderWords(views, base, count, firstKey, prefixLittleEndian, false, l, t);
                System.arraycopy(t, 0, tieBits, base >>> 6, (count + 63) >>> 6);
            }
            int n = 0;
            int longCount = 0;
            for (long bits : tieBits) {
                n += Long.bitCount(bits);
            }
            tieAddress = new long[n];
            tieRow = new int[n];
            for (int w = 0; w < tieBits.length; w++) {
                for (long bits = tieBits[w]; bits != 0; bits &= bits - 1) {
                    int row = (w << 6) + Long.numberOfTrailingZeros(bits);
                    long at = (long) row << 4;
                    if (views.get(LE_INT, at) > 12) {
                        tieRow[longCount] = row;
                        tieAddress[longCount++] = (views.get(LE_LONG, at + 8) >>> 32) + 4;
                    }
                }
            }
            tieCount = n;
            longTies = longCount;
            kernelCount = predicate.count(column);
        }

        private void ensure(int window) {
            if (less.length != window >>> 6) {
                less = new long[window >>> 6];
                ties = new long[window >>> 6];
                loaded = new long[window];
                offsets = new long[window];
            }
        }

        /** One pass of {@code step} over all rows; returns a checksum (the count where the step computes it). */
        long run(Step step, int window) {
            return switch (step) {
                case LOADS -> loads();
                case CHASE -> chase();
                case VIEW_LOADS -> viewLoads();
                case KERNEL -> predicate.count(column);
                case PASS_LOADS -> pipelined(window, 0);
                case PASS_LAGGED -> pipelined(window, window);
                case PASS_INTERLEAVED -> pipelined(window, LAG);
                default -> windowed(step, window);
            };
        }

        /** 0, in a field C2 cannot fold, so that {@link #chase}'s addresses depend on the loads before them. */
        long zero;

        private long loads() {
            long sum = 0;
            long[] address = tieAddress;
            MemorySegment b = buffer;
            for (int p = 0; p < address.length; p++) {
                sum += b.get(LE_LONG, address[p]);
            }
            return sum;
        }

        /** The sum of every long tie's bytes 4..11, as the pipelined steps return it. */
        long loadSum() {
            long sum = 0;
            for (int p = 0; p < longTies; p++) {
                sum += buffer.get(LE_LONG, tieAddress[p]);
            }
            return sum;
        }

        private long chase() {
            long sum = 0;
            long previous = 0;
            long zero = this.zero;
            long[] address = tieAddress;
            MemorySegment b = buffer;
            for (int p = 0; p < longTies; p++) {
                previous = b.get(LE_LONG, address[p] + (previous & zero));
                sum += previous;
            }
            return sum;
        }

        private long viewLoads() {
            long sum = 0;
            MemorySegment v = views;
            MemorySegment b = buffer;
            long[] bits = tieBits;
            for (int w = 0; w < bits.length; w++) {
                long at0 = (long) w << 10;
                for (long t = bits[w]; t != 0; t &= t - 1) {
                    long word = v.get(LE_LONG, at0 + ((long) Long.numberOfTrailingZeros(t) << 4) + 8);
                    sum += b.get(LE_LONG, (word >>> 32) + 4);
                }
            }
            return sum;
        }

        /** How far behind the pass {@link Step#PASS_INTERLEAVED} issues the ties' loads, in rows. */
        static final int LAG = 16384;

        /**
         * PASS_LOADS, PASS_LAGGED and PASS_INTERLEAVED in one method, so that they differ by their arguments and
         * not by C2's code for them: the pass in pieces of {@code piece} rows, each followed by the loads of the
         * long ties more than {@code lag} rows behind its end (0: the piece's own ties).
         */
        private long pipelined(int piece, int lag) {
            ensure(piece);
            long sum = 0;
            int p = 0; // next entry of tieAddress
            for (int base = 0; base < rows; base += piece) {
                int count = Math.min(piece, rows - base);
                int words = (count + 63) >>> 6;
                Arrays.fill(less, 0, words, 0L);
                Arrays.fill(ties, 0, words, 0L);
                scan.orderWords(views, base, count, firstKey, prefixLittleEndian, false, less, ties);
                int end = base + count - lag;
                for (; p < longTies && tieRow[p] < end; p++) {
                    sum += buffer.get(LE_LONG, tieAddress[p]);
                }
            }
            for (; p < longTies; p++) {
                sum += buffer.get(LE_LONG, tieAddress[p]);
            }
            return sum;
        }

        private long windowed(Step step, int window) {
            ensure(window);
            long result = 0;
            for (int base = 0; base < rows; base += window) {
                int count = Math.min(window, rows - base);
                int words = (count + 63) >>> 6;
                Arrays.fill(less, 0, words, 0L);
                Arrays.fill(ties, 0, words, 0L);
                if (step == Step.PASS_OFFSETS) {
                    passWithOffsets(base, count);
                } else {
                    scan.orderWords(views, base, count, firstKey, prefixLittleEndian, false, less, ties);
                }
                switch (step) {
                    case PASS -> result += ties[0];
                    case PASS_VIEW_LOADS -> {
                        long sum = 0;
                        for (int w = 0; w < words; w++) {
                            long at0 = (long) (base + (w << 6)) << 4;
                            for (long t = ties[w]; t != 0; t &= t - 1) {
                                long word = views.get(LE_LONG, at0 + ((long) Long.numberOfTrailingZeros(t) << 4) + 8);
                                sum += buffer.get(LE_LONG, (word >>> 32) + 4);
                            }
                        }
                        result += sum;
                    }
                    case PASS_RESOLVE -> result += resolve(base, words);
                    case PASS_GATHER, PASS_OFFSETS -> result += gathered(base, words, step == Step.PASS_OFFSETS);
                    case PASS_SPLIT -> result += split(base, words);
                    default -> throw new IllegalStateException("step=" + step);
                }
            }
            return result;
        }

        /**
         * The pass, and each row's buffer offset kept in {@code offsets} while its view is read anyway: what the
         * kernel could hand its tie loop so that the buffer loads wait on no view load. A scalar stand-in for a pass
         * that would keep the offsets (the vector pass's loads do not hold view bytes 12..15 in lanes it keeps).
         */
        private void passWithOffsets(int base, int count) {
            scan.orderWords(views, base, count, firstKey, prefixLittleEndian, false, less, ties);
            long at = ((long) base << 4) + 12;
            long[] o = offsets;
            for (int i = 0; i < count; i++, at += 16) {
                o[i] = Integer.toUnsignedLong(views.get(LE_INT, at));
            }
        }

        /** The one-buffer tie loop's body and the window's count, as in {@code resolveTiesOneBuffer}. */
        private long resolve(int base, int words) {
            int accepted = 0;
            for (int w = 0; w < words; w++) {
                long at0 = (long) (base + (w << 6)) << 4;
                long below = 0;
                long same = 0;
                for (long t = ties[w]; t != 0; t &= t - 1) {
                    int i = Long.numberOfTrailingZeros(t);
                    long at = at0 + ((long) i << 4);
                    int length = views.get(LE_INT, at);
                    long word = views.get(LE_LONG, at + 8);
                    int clipped = length;
                    if (length > 12) {
                        word = buffer.get(LE_LONG, (word >>> 32) + 4);
                        clipped = 13;
                    }
                    long x = Long.reverseBytes(word);
                    long sameBytes = x == second ? 1 : 0;
                    below |= ((Long.compareUnsigned(x, second) < 0 ? 1 : 0)
                            | (sameBytes & (clipped < clippedConstant ? 1 : 0))) << i;
                    same |= (sameBytes & (clipped == clippedConstant ? 1 : 0)) << i;
                }
                accepted += settle(base, w, below, same);
            }
            return accepted;
        }

        /** The gathered loops ({@code resolveTiesGathered}), offsets from the views or from {@link #offsets}. */
        private long gathered(int base, int words, boolean offsetsFromPass) {
            for (int w = 0; w < words; w++) {
                long at0 = (long) (base + (w << 6)) << 4;
                int p0 = w << 6;
                for (long t = ties[w]; t != 0; t &= t - 1) {
                    int i = Long.numberOfTrailingZeros(t);
                    long at = at0 + ((long) i << 4);
                    long word;
                    if (offsetsFromPass) {
                        word = buffer.get(LE_LONG, offsets[p0 + i] + 4);
                    } else {
                        word = views.get(LE_LONG, at + 8);
                        if (views.get(LE_INT, at) > 12) {
                            word = buffer.get(LE_LONG, (word >>> 32) + 4);
                        }
                    }
                    loaded[p0 + i] = word;
                }
            }
            int accepted = 0;
            for (int w = 0; w < words; w++) {
                long at0 = (long) (base + (w << 6)) << 4;
                int p0 = w << 6;
                long below = 0;
                long same = 0;
                for (long t = ties[w]; t != 0; t &= t - 1) {
                    int i = Long.numberOfTrailingZeros(t);
                    int length = views.get(LE_INT, at0 + ((long) i << 4));
                    int clipped = Math.min(length, 13);
                    // An inline tie's bytes 4..11 are its second view word (the offsets step reads only long ties).
                    long word = offsetsFromPass && length <= 12
                            ? views.get(LE_LONG, at0 + ((long) i << 4) + 8) : loaded[p0 + i];
                    long x = Long.reverseBytes(word);
                    long sameBytes = x == second ? 1 : 0;
                    below |= ((Long.compareUnsigned(x, second) < 0 ? 1 : 0)
                            | (sameBytes & (clipped < clippedConstant ? 1 : 0))) << i;
                    same |= (sameBytes & (clipped == clippedConstant ? 1 : 0)) << i;
                }
                accepted += settle(base, w, below, same);
            }
            return accepted;
        }

        /**
         * The three loops of {@code resolveTiesGathered}: the long ties' buffer offsets from their views, the bare
         * loads from those offsets, the compares (inline ties from their views).
         */
        private long split(int base, int words) {
            int longTies = 0;
            for (int w = 0; w < words; w++) {
                long at0 = (long) (base + (w << 6)) << 4;
                for (long t = ties[w]; t != 0; t &= t - 1) {
                    long at = at0 + ((long) Long.numberOfTrailingZeros(t) << 4);
                    int isLong = views.get(LE_INT, at) > 12 ? 1 : 0;
                    offsets[longTies] = (views.get(LE_LONG, at + 8) >>> 32) + 4;
                    longTies += isLong;
                }
            }
            for (int k = 0; k < longTies; k++) {
                loaded[k] = buffer.get(LE_LONG, offsets[k]);
            }
            int accepted = 0;
            int k = 0;
            for (int w = 0; w < words; w++) {
                long at0 = (long) (base + (w << 6)) << 4;
                long below = 0;
                long same = 0;
                for (long t = ties[w]; t != 0; t &= t - 1) {
                    int i = Long.numberOfTrailingZeros(t);
                    long at = at0 + ((long) i << 4);
                    int length = views.get(LE_INT, at);
                    long inline = views.get(LE_LONG, at + 8);
                    long gathered = loaded[k];
                    boolean isLong = length > 12;
                    k += isLong ? 1 : 0;
                    long x = Long.reverseBytes(isLong ? gathered : inline);
                    int clipped = Math.min(length, 13);
                    long sameBytes = x == second ? 1 : 0;
                    below |= ((Long.compareUnsigned(x, second) < 0 ? 1 : 0)
                            | (sameBytes & (clipped < clippedConstant ? 1 : 0))) << i;
                    same |= (sameBytes & (clipped == clippedConstant ? 1 : 0)) << i;
                }
                accepted += settle(base, w, below, same);
            }
            return accepted;
        }

        /**
         * The rows of word {@code w} that are below the constant ({@code <}): the pass's "less" bits of the rows
         * that are not ties, the ties' "below" bits, and deep ties (same through byte 11, both long) by their
         * bytes from 12.
         */
        private int settle(int base, int w, long below, long same) {
            long add = below & ties[w];
            if (constant.length > 12) {
                for (long deep = same & ties[w]; deep != 0; deep &= deep - 1) {
                    int row = base + (w << 6) + Long.numberOfTrailingZeros(deep);
                    if (Arrays.compareUnsigned(column.bytes(row), constant) < 0) {
                        add |= 1L << Long.numberOfTrailingZeros(deep);
                    }
                }
            }
            int n = Math.min(64, rows - base - (w << 6));
            long keep = n == 64 ? -1L : (1L << n) - 1;
            return Long.bitCount(((less[w] & ~ties[w]) | add) & keep);
        }
    }
}
