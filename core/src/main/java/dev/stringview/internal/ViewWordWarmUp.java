package dev.stringview.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Warms the Vector API view-word passes on private data before any caller's rows go through them. Until C2 has
 * compiled a method of {@link PanamaViewWords}, the incubator runs its Java fallback, which allocates a vector
 * object per operation and costs about a thousand times the compiled code per row; the kernels' loops step 32 rows
 * a back-edge, so a cold JVM would push on the order of a million rows through that fallback before C2 steps in.
 * Instead, the kernels keep their scalar loops (always correct, and fast from the first call) while this task, on
 * a daemon thread, calls each pass over a few thousand synthetic views, timing rounds of calls, until every pass
 * runs below {@link #BOUND_NS_PER_ROW} in two rounds in a row: then {@link #run} returns true and the caller
 * publishes the scan. If that does not happen within the time cap, it gives up and the scalar loops stay.
 *
 * <p>Calls are short (about 200 rows, 6-8 back-edges): HotSpot's tiered policy then compiles the whole method at
 * tier 4 on its invocation and back-edge counts before an on-stack replacement would be due, and a whole-method
 * compile is what later callers enter. The calls vary everything a caller may vary (ranges starting and ending
 * anywhere, so the scalar tails run; candidate shares from none to all; order windows
 * ending at the segment's end), so that C2's profile holds every path and a caller's first rows do not hit an
 * untaken branch and send the method back to the interpreter.
 */
final class ViewWordWarmUp {
    /**
     * The per-row time that shows compiled code: the compiled passes measured 0.2-1 ns/row and the scalar loops
     * 1-3; the incubator's fallback costs hundreds. A round slowed by the scheduler only delays readiness.
     */
    static final double BOUND_NS_PER_ROW = 8.0;
    /** Views of the private data: 64 KiB, in cache. */
    static final int ROWS = 4096;
    private static final int CALLS_PER_ROUND = 32;
    private static final int METHODS = 6;

    private final Vectorization.ViewWordScan scan;
    private final long capNanos;
    private final double boundNsPerRow;
    private final WarmUpRounds rounds = new WarmUpRounds();

    ViewWordWarmUp(Vectorization.ViewWordScan scan, long capNanos, double boundNsPerRow) {
        this.scan = scan;
        this.capNanos = capNanos;
        this.boundNsPerRow = boundNsPerRow;
    }

    /** Rows pushed through the passes so far, for the log line. */
    long rowsWarmed() {
        return rounds.rowsWarmed();
    }

    /** Nanoseconds the last {@link #run} took. */
    long elapsedNanos() {
        return rounds.elapsedNanos();
    }

    /** Calls the passes ({@link WarmUpRounds}) until all of them are fast or the cap has passed; true when fast. */
    boolean run() {
        try (Arena arena = Arena.ofConfined()) {
            long[] words = views(new SplittableRandom(0x5EED_0015L));
            // A long[] holds the words in the platform's order, little-endian like a view on the CPUs with
            // 512-bit vectors this runs on; the passes read the segments little-endian either way.
            // Native memory only, as columns are. Calls over a heap array as well made the profile of every pass
            // see two segment classes, and C2 then checked the class at each vector load: the passes ran 1.6-2.0x
            // slower (OrderPassTiming, 3 JVMs each, 2026-11-24). A caller with heap views costs one
            // recompilation, not a wrong answer.
            MemorySegment offHeap = arena.allocate(8L * words.length, 16)
                    .copyFrom(MemorySegment.ofArray(words));
            SplittableRandom random = new SplittableRandom(0x5EED_0016L);
            int[] out = new int[ROWS];
            long[] words1 = new long[ROWS + 8];
            long[] less = new long[16];
            long[] ties = new long[16];
            return rounds.run(METHODS, method -> {
                long rows = 0;
                for (int c = 0; c < CALLS_PER_ROUND; c++) {
                    rows += call(method, offHeap, words, random, out, words1, less, ties);
                }
                return rows;
            }, capNanos, boundNsPerRow);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** One call of pass {@code method} over a random range; returns the rows it covered. */
    private int call(int method, MemorySegment views, long[] words, SplittableRandom random, int[] out,
            long[] words1, long[] less, long[] ties) {
        int from = random.nextInt(ROWS - 512);
        int to = from + 150 + random.nextInt(100); // the tail after the 32-row steps takes every length
        // A constant from the data (many candidates) or from nowhere (none).
        int row = random.nextInt(ROWS);
        long w0 = random.nextInt(4) == 0 ? random.nextLong() : words[2 * row];
        long w1 = words[2 * row + 1];
        switch (method) {
            case 0 -> scan.equalWord0(views, from, to, w0, out);
            case 1 -> scan.countEqualViews(views.asSlice((long) from << 4), to - from, w0, w1);
            case 5 -> scan.equalWords1(views, from, to, w0, words1);
            case 2, 4 -> {
                int patternLength = random.nextInt(18);
                long prefixMask = lowBytes(Math.min(patternLength, 4)) << 32;
                long inlineMask = lowBytes(Math.max(0, Math.min(patternLength, 12) - 4));
                if (method == 2) {
                    scan.prefixCandidates(views, from, to, prefixMask, w0 & prefixMask, patternLength, inlineMask,
                            w1 & inlineMask, out);
                } else {
                    scan.countPrefix(views, from, to, prefixMask, w0 & prefixMask, patternLength, inlineMask,
                            w1 & inlineMask, out);
                }
            }
            default -> {
                if (random.nextInt(8) == 0) { // a window at the end of the segment: the last steps go scalar
                    from = ROWS - (to - from);
                    to = ROWS;
                }
                int count = to - from;
                Arrays.fill(less, 0, (count + 63) >>> 6, 0L);
                Arrays.fill(ties, 0, (count + 63) >>> 6, 0L);
                scan.orderWords(views, from, count, Long.reverseBytes(w0 >>> 32 | w1 << 32), (int) (w0 >>> 32),
                        random.nextBoolean(), less, ties);
            }
        }
        return to - from;
    }

    /**
     * Synthetic views: lengths 0..40 (inline and long), prefixes from 8 values with bytes 0x00, 0x80 and 0xFF, so
     * that a constant from the data shares its first word with about one row in 300 and its prefix with one in 8.
     */
    static long[] views(SplittableRandom random) {
        long[] prefixes = new long[8];
        for (int i = 0; i < prefixes.length; i++) {
            prefixes[i] = random.nextLong() & 0xFF80_FF00_0000_0000L | (long) i << 32;
        }
        long[] words = new long[2 * ROWS];
        for (int row = 0; row < ROWS; row++) {
            int length = random.nextInt(41);
            words[2 * row] = prefixes[random.nextInt(prefixes.length)] | length;
            words[2 * row + 1] = length <= 12 ? random.nextLong() & lowBytes(Math.max(0, length - 4))
                    : (long) random.nextInt(1 << 20) << 32 | random.nextInt(4);
        }
        return words;
    }

    private static long lowBytes(int n) {
        return n == 8 ? -1L : (1L << (8 * n)) - 1;
    }
}
