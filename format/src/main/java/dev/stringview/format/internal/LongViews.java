package dev.stringview.format.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The views of a separated block whose values are all longer than 12 bytes: {@link PanamaLongViews}' vector steps
 * for as many rows as they take, then {@link ViewLoops#allLong} for the rest, or that loop alone while the vector
 * form is not available.
 *
 * <p>The vector form is loaded only when the JVM has the incubator module {@code jdk.incubator.vector} and
 * 512-bit vectors, and {@code -Dstringview.vectorization=false} (core's switch) is not given; nothing else links
 * its classes. It is handed to readers only after a daemon thread has run it on private data until two rounds in a
 * row ran compiled ({@link #BOUND_NS_PER_ROW}), as core's vector kernels are: uncompiled, Vector API code runs
 * about a thousand times slower, and a reader's first blocks must not pay for that. Until then, and for good if
 * the warm-up does not end within {@link #WARM_UP_CAP_NANOS}, readers run the scalar loop. The private data lives
 * where a reader's does (chars in a heap array, views in native memory), so that C2's profile of the window
 * loads and view stores sees one kind of each.
 */
public final class LongViews {
    /** Core's switch for its vector code, honoured here too. */
    private static final String PROPERTY = "stringview.vectorization";
    /** A warm-up round ran compiled when it took less than this per row (uncompiled: microseconds a row). */
    static final double BOUND_NS_PER_ROW = 8.0;
    /** How long the warm-up may try before the scalar loop stays for good (long: it mostly waits for C2). */
    static final long WARM_UP_CAP_NANOS = 120_000_000_000L;
    private static final int WARM_UP_ROWS = 4096;
    private static final int CALLS_PER_ROUND = 16;
    private static final int FAST_ROUNDS = 2;

    /** What the vector form provides; implemented only by {@link PanamaLongViews}. */
    interface Steps {
        /**
         * Writes the views of rows {@code [0, r)} for the largest {@code r}, a multiple of 16 and at most
         * {@code rows}, that its steps take ({@link PanamaLongViews}), as {@link ViewLoops#allLong} would; returns
         * {@code r << 32 | offset}, the chars offset of row {@code r}. Reads only {@code bytes[base, base +
         * charsLength)}.
         */
        long steps(int[] sizes, int rows, byte[] bytes, int base, int charsLength, int bufferIndex,
                MemorySegment out, long outAt);

        /** Whether the CPU has the 512-bit vectors the steps are written for. */
        boolean isUseful();

        String describe();
    }

    /** The vector form when this JVM can run it, warm or not, else null. */
    private static final Steps LOADED = load();
    /** The vector form once warm, else null. Volatile: written once by the warm-up thread, read once a block. */
    private static volatile Steps vector;
    private static final CountDownLatch SETTLED = new CountDownLatch(1);

    static {
        if (LOADED == null) {
            SETTLED.countDown();
        } else {
            Thread.ofPlatform().daemon().name("stringview-long-view-warm-up").start(() -> warmUp(LOADED));
        }
    }

    private LongViews() {}

    /**
     * Writes the views of rows {@code [0, rows)} of an all-long block (sizes {@code sizes[0..rows)}, each over 12
     * bytes, chars at {@code bytes[base..]}, {@code charsLength} of them, and every row's 4 prefix bytes inside
     * them) into {@code out} from {@code outAt} on; returns the chars offset of row {@code rows}.
     */
    public static int build(int[] sizes, int rows, byte[] bytes, int base, int charsLength, int bufferIndex,
            MemorySegment out, long outAt) {
        Steps steps = vector;
        if (steps == null) {
            return ViewLoops.allLong(sizes, 0, rows, bytes, base, 0, bufferIndex, out, outAt);
        }
        long done = steps.steps(sizes, rows, bytes, base, charsLength, bufferIndex, out, outAt);
        return ViewLoops.allLong(sizes, (int) (done >>> 32), rows, bytes, base, (int) done, bufferIndex, out,
                outAt);
    }

    /** Whether readers use the vector form now. */
    public static boolean vectorized() {
        return vector != null;
    }

    /**
     * Waits until the warm-up has ended (at once when there is none) or {@code timeoutMillis} have passed; returns
     * {@link #vectorized()}. For tests and benchmarks, which must know which loop they measure.
     */
    public static boolean awaitVectorized(long timeoutMillis) throws InterruptedException {
        SETTLED.await(timeoutMillis, TimeUnit.MILLISECONDS);
        return vectorized();
    }

    /**
     * Whether the vector form is loaded (the JVM allows it), warm or not: tests check its steps against the scalar
     * loop directly, and the benchmarks' harness times them.
     */
    public static boolean vectorLoaded() {
        return LOADED != null;
    }

    /** Calls {@link Steps#steps} of the vector form, which must be loaded ({@link #vectorLoaded}). */
    public static long vectorSteps(int[] sizes, int rows, byte[] bytes, int base, int charsLength, int bufferIndex,
            MemorySegment out, long outAt) {
        return LOADED.steps(sizes, rows, bytes, base, charsLength, bufferIndex, out, outAt);
    }

    private static Steps load() {
        System.Logger log = System.getLogger("dev.stringview");
        if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
            return null;
        }
        Optional<Module> vectorModule = ModuleLayer.boot().findModule("jdk.incubator.vector");
        if (vectorModule.isEmpty()) {
            return null;
        }
        // A named module does not read an incubator module unless told to.
        LongViews.class.getModule().addReads(vectorModule.get());
        try {
            Class<?> type = MethodHandles.lookup().findClass(LongViews.class.getPackageName() + ".PanamaLongViews");
            Steps steps = (Steps) type.getDeclaredConstructor().newInstance();
            if (!steps.isUseful()) {
                log.log(System.Logger.Level.INFO, "stringview-format: scalar long-value views; the CPU's vectors are"
                        + " narrower than 512 bits");
                return null;
            }
            return steps;
        } catch (ReflectiveOperationException | LinkageError e) {
            log.log(System.Logger.Level.WARNING, "stringview-format: scalar long-value views; the Vector API failed"
                    + " to load: " + e);
            return null;
        }
    }

    /** The warm-up thread: rounds of short calls on private data until two in a row run compiled, or the cap. */
    private static void warmUp(Steps steps) {
        System.Logger log = System.getLogger("dev.stringview");
        long start = System.nanoTime();
        try (Arena arena = Arena.ofConfined()) {
            SplittableRandom random = new SplittableRandom(0x5EED_0013L);
            int[] sizes = new int[WARM_UP_ROWS];
            int[] starts = new int[WARM_UP_ROWS + 1];
            for (int i = 0; i < WARM_UP_ROWS; i++) {
                // Mostly values a window step takes (13..41 bytes), some longer ones that end a run of steps.
                sizes[i] = random.nextInt(16) == 0 ? 42 + random.nextInt(200) : 13 + random.nextInt(29);
                starts[i + 1] = starts[i] + sizes[i];
            }
            byte[] chars = new byte[starts[WARM_UP_ROWS]];
            for (int b = 0; b < chars.length; b++) {
                chars[b] = (byte) random.nextInt(256);
            }
            MemorySegment views = arena.allocate(16L * WARM_UP_ROWS, 16);
            int fast = 0;
            while (fast < FAST_ROUNDS) {
                long t0 = System.nanoTime();
                long rows = 0;
                for (int call = 0; call < CALLS_PER_ROUND; call++) {
                    int count = 150 + random.nextInt(101);
                    int from = random.nextBoolean() ? WARM_UP_ROWS - count : random.nextInt(WARM_UP_ROWS - count);
                    steps.steps(java.util.Arrays.copyOfRange(sizes, from, from + count), count, chars,
                            starts[from], starts[from + count] - starts[from], 3, views, 16L * from);
                    rows += count;
                }
                double nsPerRow = (double) (System.nanoTime() - t0) / rows;
                fast = nsPerRow < BOUND_NS_PER_ROW ? fast + 1 : 0;
                long elapsed = System.nanoTime() - start;
                if (elapsed > WARM_UP_CAP_NANOS) {
                    log.log(System.Logger.Level.WARNING, "stringview-format: scalar long-value views; the vector"
                            + " form did not run compiled within the warm-up's cap: elapsedMs=" + elapsed / 1_000_000);
                    return;
                }
                if (elapsed > 1_000_000_000L) {
                    Thread.sleep(1); // C2 has the work queued by now: do not hold a core of a small machine
                }
            }
            vector = steps;
            log.log(System.Logger.Level.INFO, "stringview-format: vector long-value views (" + steps.describe()
                    + ") ready after " + (System.nanoTime() - start) / 1_000_000 + " ms");
        } catch (InterruptedException e) {
            log.log(System.Logger.Level.WARNING, "stringview-format: scalar long-value views; warm-up interrupted");
        } catch (RuntimeException | LinkageError e) {
            log.log(System.Logger.Level.WARNING, "stringview-format: scalar long-value views; warm-up failed: " + e);
        } finally {
            SETTLED.countDown();
        }
    }
}
