package dev.stringview.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.SplittableRandom;

/**
 * Warms the vector form of {@code InlineViews.build} ({@link PanamaInlineViews}) on private data before any
 * caller's rows go through it, for the reason and in the way {@link ViewWordWarmUp} warms the view-word passes:
 * short calls (150-250 rows) timed in rounds until two rounds in a row run below
 * {@link ViewWordWarmUp#BOUND_NS_PER_ROW}, or give up at the cap and leave the scalar loop in place.
 *
 * <p>Chars and views live in native memory, as a column's do: a heap segment in the calls would make
 * C2's profile of the window loads and view stores see two segment classes and check the class at each of them
 * (what slowed the view-word passes 1.6-2.0x). The calls mix the two size classes a caller has (all at most 4
 * bytes, and 0..12) for {@code build}, and values of at most 4 (and of at most 8) bytes over ASCII and over any
 * bytes for {@code buildUpTo4} (and {@code buildUpTo8}); they start anywhere and half the time end at the chars'
 * very end, so that the scalar rows after the last step run too and their branches are in the profile; every
 * other few calls read the chars from a heap array ({@code buildFromArray}), never from a heap segment.
 */
final class InlineViewWarmUp {
    /** Rows of the private data. */
    static final int ROWS = 4096;
    private static final int CALLS_PER_ROUND = 48;

    private final Vectorization.InlineViewScan scan;
    private final long capNanos;
    private final WarmUpRounds rounds = new WarmUpRounds();

    InlineViewWarmUp(Vectorization.InlineViewScan scan, long capNanos) {
        this.scan = scan;
        this.capNanos = capNanos;
    }

    /** Runs on its own daemon thread: after the delay, loads, warms and publishes the vector form, or logs why not. */
    static void publish() {
        System.Logger log = System.getLogger("dev.stringview");
        Vectorization.InlineViewScan ready = null;
        try {
            Thread.sleep(Vectorization.WARM_UP_DELAY_MILLIS);
            Class<?> type = MethodHandles.lookup().findClass(Vectorization.class.getPackageName()
                    + ".PanamaInlineViews");
            Vectorization.InlineViewScan scan = (Vectorization.InlineViewScan) type.getDeclaredConstructor()
                    .newInstance();
            InlineViewWarmUp warmUp = new InlineViewWarmUp(scan, Vectorization.WARM_UP_CAP_NANOS
                    - Vectorization.WARM_UP_DELAY_MILLIS * 1_000_000L);
            if (warmUp.run()) {
                ready = scan;
                log.log(System.Logger.Level.INFO, "stringview: vector inline views (" + scan.describe() + ") ready "
                        + (Vectorization.WARM_UP_DELAY_MILLIS + warmUp.rounds.elapsedNanos() / 1_000_000) + " ms after the"
                        + " vector code loaded (warm-up rows=" + warmUp.rounds.rowsWarmed() + ")");
            } else {
                log.log(System.Logger.Level.WARNING, "stringview: scalar inline views; the vector form did not run"
                        + " compiled within the warm-up's cap: elapsedMs=" + warmUp.rounds.elapsedNanos() / 1_000_000
                        + " rows=" + warmUp.rounds.rowsWarmed());
            }
        } catch (InterruptedException e) {
            log.log(System.Logger.Level.WARNING, "stringview: scalar inline views; their warm-up was interrupted");
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            log.log(System.Logger.Level.WARNING, "stringview: scalar inline views; their warm-up failed: " + e);
        } finally {
            Vectorization.settleInlineViews(ready);
        }
    }

    /** Calls the vector form ({@link WarmUpRounds}) until it is fast or the cap has passed; true when it is fast. */
    boolean run() throws InterruptedException {
        SplittableRandom random = new SplittableRandom(0x5EED_0017L);
        try (Arena arena = Arena.ofConfined()) {
            // Sizes up to 4 with ASCII chars, up to 12 with any bytes, up to 4 with any bytes (the last for
            // buildUpTo4, which also needs both ASCII outcomes profiled), up to 8 with ASCII and with any bytes
            // (buildUpTo8).
            int[][] sizes = {sizes(random, 4), sizes(random, 12), sizes(random, 4), sizes(random, 8),
                    sizes(random, 8)};
            MemorySegment[] chars = new MemorySegment[sizes.length];
            long[][] starts = new long[sizes.length][ROWS + 1];
            for (int c = 0; c < sizes.length; c++) {
                for (int i = 0; i < ROWS; i++) {
                    starts[c][i + 1] = starts[c][i] + sizes[c][i];
                }
                long total = starts[c][ROWS];
                chars[c] = arena.allocate(total, 1); // exactly: the last calls' windows must stay inside
                // ASCII chars for one size class, any bytes for the other: both outcomes of the ASCII test are
                // profiled, so neither is compiled as a trap that readers of text (or of binary) would hit
                int byteBound = c == 0 || c == 3 ? 0x80 : 0x100;
                for (long b = 0; b < total; b++) {
                    chars[c].set(java.lang.foreign.ValueLayout.JAVA_BYTE, b, (byte) random.nextInt(byteBound));
                }
            }
            byte[][] heapChars = new byte[sizes.length][];
            for (int c = 0; c < sizes.length; c++) {
                heapChars[c] = chars[c].toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            }
            MemorySegment views = arena.allocate(16L * ROWS, 16);
            // One form: each round takes buildUpTo4, build and buildUpTo8 in turn (call % 3), each over its two
            // data sets in turn (call / 3 even or odd): ASCII and any bytes for buildUpTo4 and buildUpTo8, sizes up
            // to 12 and up to 4 for build; every other six calls over the chars in a heap array (buildFromArray).
            return rounds.run(1, form -> {
                long rows = 0;
                for (int call = 0; call < CALLS_PER_ROUND; call++) {
                    int maxSize = call % 3 == 0 ? 4 : call % 3 == 1 ? 12 : 8;
                    boolean first = (call / 3 & 1) == 0;
                    int c = switch (maxSize) {
                        case 4 -> first ? 0 : 2;
                        case 12 -> first ? 1 : 0;
                        default -> first ? 3 : 4;
                    };
                    byte[] array = (call / 6 & 1) == 0 ? null : heapChars[c];
                    rows += call(maxSize, sizes[c], starts[c], chars[c], array, views, random);
                }
                return rows;
            }, capNanos, ViewWordWarmUp.BOUND_NS_PER_ROW);
        }
    }

    /**
     * One call over 150-250 rows starting anywhere, half of them ending at the chars' end, over the segment or
     * (when not null) the same chars in a heap array; returns the rows.
     */
    private int call(int maxSize, int[] sizes, long[] starts, MemorySegment chars, byte[] heapChars,
            MemorySegment views, SplittableRandom random) {
        int count = 150 + random.nextInt(101);
        int from = random.nextBoolean() ? ROWS - count : random.nextInt(ROWS - count);
        if (heapChars != null) {
            scan.buildFromArray(sizes, from, count, heapChars, (int) starts[from], views, 16L * from, maxSize);
            return count;
        }
        switch (maxSize) {
            case 4 -> scan.buildUpTo4(sizes, from, count, chars, starts[from], views, 16L * from);
            case 8 -> scan.buildUpTo8(sizes, from, count, chars, starts[from], views, 16L * from);
            default -> scan.build(sizes, from, count, chars, starts[from], views, 16L * from);
        }
        return count;
    }

    /** Sizes uniform in [0, max]. */
    private static int[] sizes(SplittableRandom random, int max) {
        int[] sizes = new int[ROWS];
        for (int i = 0; i < ROWS; i++) {
            sizes[i] = random.nextInt(max + 1);
        }
        return sizes;
    }
}
