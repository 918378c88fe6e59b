package dev.stringview.internal;

import java.lang.invoke.MethodHandles;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Chooses, once per JVM, whether kernels may use the Panama Vector API, after Lucene's
 * {@code VectorizationProvider}. The scalar (SWAR) code is always present and always correct; the vector code is
 * loaded only when the incubator module {@code jdk.incubator.vector} is in the boot layer (the JVM was started with
 * {@code --add-modules jdk.incubator.vector}): {@link PanamaByteSearch} when the CPU has at least 256-bit vectors,
 * {@link PanamaViewWords} when it has 512-bit ones. Nothing else references the incubator classes, so without the
 * module they are never linked.
 *
 * <p>The view-word passes are handed to the kernels only after a daemon thread has warmed them up
 * ({@link ViewWordWarmUp}); until then, and for good if that fails within {@link #WARM_UP_CAP_NANOS}, the kernels
 * run their scalar loops.
 *
 * <p>INFO lines (System.Logger {@code dev.stringview}) say which code was chosen and why, and when the view-word
 * passes became ready.
 * {@code -Dstringview.vectorization=false} forces the scalar code, e.g. to compare the two.
 */
public final class Vectorization {
    /** The property that turns the vector code off when set to {@code false}. */
    public static final String PROPERTY = "stringview.vectorization";
    private static final String MODULE = "jdk.incubator.vector";

    /**
     * How long the warm-up of the view-word passes may take before it gives up and the scalar loops stay. Ready
     * took 2.7-5.3 s in a JVM of its own on the loaded 2-core machine, but 28 s inside core's test run, whose own
     * hot methods fill C2's queue first; the thread mostly sleeps by then, so a long cap costs little.
     */
    static final long WARM_UP_CAP_NANOS = 120_000_000_000L;
    /** How long after the vector code loads the warm-up of the view-word passes starts (ViewWordWarmUp). */
    static final long WARM_UP_DELAY_MILLIS = 500;

    private static final VectorSearch SEARCH = load();
    /**
     * The width of the view-word passes, read once here: {@code -Dstringview.viewWordBits=256} selects 256-bit
     * passes, for comparison only (see {@link PanamaViewWords}).
     */
    static final int VIEW_WORD_BITS = Integer.getInteger("stringview.viewWordBits", 512) == 256 ? 256 : 512;
    /** Counted down when the view-word passes' warm-up has ended, ready or not (at once when none is chosen). */
    private static final CountDownLatch VIEW_WORDS_SETTLED = new CountDownLatch(1);
    /**
     * Whether this JVM will load the view-word passes (the module and 512-bit vectors). They are loaded on the
     * warm-up thread, after its delay: loading and initializing the incubator's long and int vector classes took
     * time a short run's first call would otherwise pay.
     */
    private static final boolean VIEW_WORDS_CHOSEN = SEARCH != null && viewWordsFit();
    /**
     * The passes once their warm-up has seen them compiled ({@link ViewWordWarmUp}), else null. Volatile: written
     * once by the warm-up thread, read once per kernel call (per chunk or window), never per row.
     */
    private static volatile ViewWordScan viewWords;
    /** Counted down when the inline-view builder's warm-up has ended, ready or not (at once when not chosen). */
    private static final CountDownLatch INLINE_VIEWS_SETTLED = new CountDownLatch(1);
    /** The vector form of {@code InlineViews.build} once warm ({@link InlineViewWarmUp}), else null; like viewWords. */
    private static volatile InlineViewScan inlineViews;

    static {
        if (!VIEW_WORDS_CHOSEN) {
            VIEW_WORDS_SETTLED.countDown();
            INLINE_VIEWS_SETTLED.countDown();
        } else {
            Thread.ofPlatform().daemon().name("stringview-view-word-warm-up").start(Vectorization::warmUpViewWords);
            // Its own thread: a reader of serialized columns should not wait for the view-word passes.
            Thread.ofPlatform().daemon().name("stringview-inline-view-warm-up").start(InlineViewWarmUp::publish);
        }
    }

    private Vectorization() {}

    /** The vectorized substring screen, or null when the scalar code is in use. */
    static VectorSearch search() {
        return SEARCH;
    }

    /**
     * The vectorized view-word passes of the equality, starts-with and order kernels, or null when the scalar
     * code is in use (then the kernels run their own loops): null as well until a daemon thread has warmed the
     * passes on private data and seen C2's code run them ({@link ViewWordWarmUp}), so that no caller's rows go
     * through the incubator's slow Java fallback. Kernels call this once per call, chunk or window, not per row.
     */
    public static ViewWordScan viewWords() {
        return viewWords;
    }

    /**
     * Waits up to {@code timeout} for the view-word passes' warm-up to end; true when {@link #viewWords} then
     * returns them, false when the scalar loops stay (no vector passes, a warm-up that gave up, or the timeout).
     * For tests and benchmark harnesses that must measure the vector code.
     */
    public static boolean awaitViewWords(Duration timeout) throws InterruptedException {
        return VIEW_WORDS_SETTLED.await(timeout.toNanos(), TimeUnit.NANOSECONDS) && viewWords != null;
    }

    /**
     * The vector form of {@code InlineViews.build} (512-bit vectors, byte expand), or null when the scalar loop
     * is in use: null as well until a daemon thread has warmed it over native memory and seen it run compiled
     * ({@link InlineViewWarmUp}), under the same conditions as {@link #viewWords}. Read once per call.
     */
    public static InlineViewScan inlineViews() {
        return inlineViews;
    }

    /** Like {@link #awaitViewWords}, for {@link #inlineViews}. */
    public static boolean awaitInlineViews(Duration timeout) throws InterruptedException {
        return INLINE_VIEWS_SETTLED.await(timeout.toNanos(), TimeUnit.NANOSECONDS) && inlineViews != null;
    }

    /** Called once by {@link InlineViewWarmUp} on its thread: publishes the warm builder (or none) and settles. */
    static void settleInlineViews(InlineViewScan warm) {
        inlineViews = warm;
        INLINE_VIEWS_SETTLED.countDown();
    }

    /**
     * Whether this JVM uses view-word passes (512-bit vectors and the module) once they are loaded and warmed
     * up: {@link #viewWords} returns them when their warm-up has ended well.
     */
    public static boolean viewWordsChosen() {
        return VIEW_WORDS_CHOSEN;
    }

    /**
     * Runs on the warm-up thread: after the delay, loads the passes, warms them and publishes them when they run
     * compiled, or logs why they will not.
     */
    private static void warmUpViewWords() {
        System.Logger log = System.getLogger("dev.stringview");
        try {
            // A short run (a CLI call, a test) ends before this delay and never pays for the loading, the
            // warm-up or the C2 compilations it causes, all of which take CPU and the compiler queue.
            Thread.sleep(WARM_UP_DELAY_MILLIS);
            ViewWordScan scan = loadViewWords();
            if (scan == null) {
                return;
            }
            ViewWordWarmUp warmUp = new ViewWordWarmUp(scan, WARM_UP_CAP_NANOS - WARM_UP_DELAY_MILLIS * 1_000_000L,
                    ViewWordWarmUp.BOUND_NS_PER_ROW);
            if (warmUp.run()) {
                viewWords = scan;
                log.log(System.Logger.Level.INFO, "stringview: vector view-word scans ready "
                        + (WARM_UP_DELAY_MILLIS + warmUp.elapsedNanos() / 1_000_000) + " ms after the vector code"
                        + " loaded (warm-up rows=" + warmUp.rowsWarmed()
                        + "); the scalar loops ran until then");
            } else {
                log.log(System.Logger.Level.WARNING, "stringview: scalar view-word scans; the vector passes did not"
                        + " run compiled within the warm-up's cap: elapsedMs=" + warmUp.elapsedNanos() / 1_000_000
                        + " capMs=" + WARM_UP_CAP_NANOS / 1_000_000 + " rows=" + warmUp.rowsWarmed());
            }
        } catch (InterruptedException e) {
            log.log(System.Logger.Level.WARNING, "stringview: scalar view-word scans; their warm-up was interrupted");
        } catch (RuntimeException | LinkageError e) {
            log.log(System.Logger.Level.WARNING, "stringview: scalar view-word scans; their warm-up failed: " + e);
        } finally {
            VIEW_WORDS_SETTLED.countDown();
        }
    }

    /** A short description of what was chosen, e.g. for benchmark reports. */
    public static String describe() {
        return SEARCH == null ? "scalar (SWAR)" : "Panama Vector API, " + SEARCH.describe() + ", "
                + (VIEW_WORDS_CHOSEN ? VIEW_WORD_BITS + "-bit view words" : "scalar view words");
    }

    /**
     * The CPU's preferred vector size in bits as the Vector API reports it, or 0 when the scalar code is in use
     * (the vector code is not loaded, so the size is not asked).
     */
    public static int preferredBits() {
        return SEARCH == null ? 0 : SEARCH.preferredBits();
    }

    /**
     * Loaded after {@link PanamaByteSearch}, which already checked the module; only on CPUs with 512-bit vectors.
     * With 256-bit vectors (two views a load) the passes measured slower than the scalar loops in cache
     * (docs/architecture.md), so such CPUs keep the scalar loops.
     */
    private static boolean viewWordsFit() {
        if (SEARCH.preferredBits() < 512) {
            System.getLogger("dev.stringview").log(System.Logger.Level.INFO, "stringview: scalar view-word scans;"
                    + " the CPU's vectors are " + SEARCH.preferredBits() + "-bit, the vector scans need 512");
            return false;
        }
        return true;
    }

    /**
     * The vector form of {@code InlineViews.buildTestingAscii}, implemented only by {@link PanamaInlineViews}: the
     * same views, the same return value and the same errors as {@link InlineViewLoop#buildTestingAscii}, whose
     * arguments it takes.
     */
    public interface InlineViewScan {
        long build(int[] sizes, int from, int count, java.lang.foreign.MemorySegment chars, long charsOffset,
                java.lang.foreign.MemorySegment views, long viewsOffset);

        /**
         * The same for values of at most 4 bytes ({@code InlineViews.buildTestingAsciiUpTo4}): the same views,
         * return value and errors as {@link InlineViewLoop#buildTestingAscii(int[], int, int,
         * java.lang.foreign.MemorySegment, long, java.lang.foreign.MemorySegment, long, int)} with a largest size
         * of 4.
         */
        long buildUpTo4(int[] sizes, int from, int count, java.lang.foreign.MemorySegment chars, long charsOffset,
                java.lang.foreign.MemorySegment views, long viewsOffset);

        /** The same for values of at most 8 bytes ({@code InlineViews.buildTestingAsciiUpTo8}), a largest size of 8. */
        long buildUpTo8(int[] sizes, int from, int count, java.lang.foreign.MemorySegment chars, long charsOffset,
                java.lang.foreign.MemorySegment views, long viewsOffset);

        /**
         * The same over chars in a heap array, for values of at most {@code maxSize} bytes (4, 8 or 12: the form of
         * {@code buildUpTo4}, {@code buildUpTo8} or {@code build}): {@code InlineViews.buildTestingAscii} over a
         * {@code byte[]}.
         */
        long buildFromArray(int[] sizes, int from, int count, byte[] chars, int charsOffset,
                java.lang.foreign.MemorySegment views, long viewsOffset, int maxSize);

        String describe();
    }

    /** Loads {@link PanamaViewWords} by name, on the warm-up thread; null (logged) when that fails. */
    private static ViewWordScan loadViewWords() {
        System.Logger log = System.getLogger("dev.stringview");
        try {
            Class<?> type = MethodHandles.lookup().findClass(Vectorization.class.getPackageName() + ".PanamaViewWords");
            ViewWordScan scan = (ViewWordScan) type.getDeclaredConstructor().newInstance();
            log.log(System.Logger.Level.INFO, "stringview: equality, starts-with and order scan "
                    + scan.describe() + " with the Panama Vector API");
            return scan;
        } catch (ReflectiveOperationException | LinkageError e) {
            log.log(System.Logger.Level.WARNING, "stringview: scalar view-word scans; the Vector API failed to load: "
                    + e);
            return null;
        }
    }

    private static VectorSearch load() {
        System.Logger log = System.getLogger("dev.stringview");
        if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
            log.log(System.Logger.Level.INFO, "stringview: scalar kernels (-D" + PROPERTY + "=false)");
            return null;
        }
        Optional<Module> vectorModule = ModuleLayer.boot().findModule(MODULE);
        if (vectorModule.isEmpty()) {
            log.log(System.Logger.Level.INFO, "stringview: scalar kernels; start the JVM with --add-modules "
                    + MODULE + " to let substring search use the Vector API");
            return null;
        }
        // Our own module may read it (named modules do not read incubator modules unless told to).
        Vectorization.class.getModule().addReads(vectorModule.get());
        try {
            Class<?> type = MethodHandles.lookup().findClass(Vectorization.class.getPackageName() + ".PanamaByteSearch");
            VectorSearch search = (VectorSearch) type.getDeclaredConstructor().newInstance();
            if (!search.isUseful()) {
                log.log(System.Logger.Level.INFO, "stringview: scalar kernels; the CPU's vectors are too narrow ("
                        + search.describe() + ")");
                return null;
            }
            log.log(System.Logger.Level.INFO, "stringview: substring search uses the Panama Vector API ("
                    + search.describe() + ")");
            return search;
        } catch (ReflectiveOperationException | LinkageError e) {
            log.log(System.Logger.Level.WARNING, "stringview: scalar kernels; the Vector API failed to load: " + e);
            return null;
        }
    }

    /** What the vector implementation provides; implemented only by {@link PanamaByteSearch}. */
    interface VectorSearch {
        /**
         * The first start in {@code [0, lastStart]} where {@code search}'s needle occurs in the haystack at
         * {@code offset}, or -1. Called only when {@code lastStart >= 15}.
         */
        long indexOf(ByteSearch search, java.lang.foreign.MemorySegment haystack, long offset, long lastStart);

        boolean isUseful();

        /** {@code SPECIES_PREFERRED}'s size in bits. */
        int preferredBits();

        String describe();
    }

    /**
     * The first, view-only pass of the equality, starts-with and order kernels over rows of a column without a
     * selection, implemented only by {@link PanamaViewWords}. Each method's output is exactly that of the kernel's
     * scalar loop it replaces (same rows, same order); see those kernels for what the tests mean.
     */
    public interface ViewWordScan {
        /**
         * Writes the rows of {@code [from, to)} whose first view word is {@code k0}, ascending, to {@code out}
         * from index 0 and returns their number. {@code out} has room for {@code to - from} ids; slots past the
         * returned count may be overwritten.
         */
        int equalWord0(java.lang.foreign.MemorySegment views, int from, int to, long k0, int[] out);

        /** The number of rows of {@code [0, n)} whose first view word is {@code k0} and second is {@code k1}. */
        int countEqualViews(java.lang.foreign.MemorySegment views, int n, long k0, long k1);

        /**
         * Starts-with candidates: the rows of {@code [from, to)} whose first view word masked with
         * {@code prefixMask} is {@code prefixBits}, whose length is at least {@code patternLength} and that are
         * either long or have {@code (word1 & inlineMask) == inlineBits}, written to {@code out} like
         * {@link #equalWord0}.
         */
        int prefixCandidates(java.lang.foreign.MemorySegment views, int from, int to, long prefixMask,
                long prefixBits, int patternLength, long inlineMask, long inlineBits, int[] out);

        /**
         * Starts-with for {@code count}, over the rows of {@code [from, to)} of a column without nulls, with the
         * tests of {@link #prefixCandidates}: a candidate is decided, and counted without its row id being written,
         * when the pattern has at most 4 bytes or the row is inline; the ids of the other candidates (long rows,
         * whose bytes past the prefix are in a buffer) are written to {@code longCandidates} from index 0, which
         * has room for {@code to - from} ids. Returns {@code decided << 32 | longCandidateCount}. The inline rows'
         * padding must be zero, as validation requires: for a pattern of 1 to 12 bytes whose last byte is not zero
         * the length test is left to the masked compares (an inline row shorter than the pattern has a zero there).
         */
        long countPrefix(java.lang.foreign.MemorySegment views, int from, int to, long prefixMask, long prefixBits,
                int patternLength, long inlineMask, long inlineBits, int[] longCandidates);

        /**
         * Writes the second view words of the rows of {@code [from, to)} whose first view word is {@code k0}, in
         * row order, to {@code words1} from index 0 and returns their number: {@link #equalWord0} for a caller
         * that needs the rows' buffer indexes and offsets, not their ids. {@code words1} has room for
         * {@code to - from + 8} words; slots past the returned count may be overwritten.
         */
        int equalWords1(java.lang.foreign.MemorySegment views, int from, int to, long k0, long[] words1);

        /**
         * For rows {@code first + i}, {@code i < count}: ORs into bit {@code i % 64} of {@code less[i / 64]} whether
         * the row's view bytes 4..11, read big-endian, are unsigned below {@code firstKey}, and into
         * {@code ties[i / 64]} whether its prefix (view bytes 4..7, a little-endian int) is
         * {@code prefixLittleEndian}, and, when {@code settleInline}, the row is not settled by its view: it is long
         * (its length, the view's first int, is above 12) or its bytes 4..11 equal {@code firstKey}. (An inline
         * row's view bytes 4..11 are its first eight bytes, zero-padded, so where they differ from the constant's
         * its "less" bit orders it; telling those apart costs a second load and three vector operations per four
         * views, worth it only where many rows share the prefix.) The words must be clear on entry.
         */
        void orderWords(java.lang.foreign.MemorySegment views, int first, int count, long firstKey,
                int prefixLittleEndian, boolean settleInline, long[] less, long[] ties);

        String describe();
    }
}
