package dev.stringview.internal;

import java.lang.invoke.MethodHandles;
import java.util.Optional;

/**
 * Decides once per JVM whether the kernels may use the Panama Vector API, after Lucene's
 * {@code VectorizationProvider}, and runs the Vector API loops only once they have been warmed up on purpose
 * (decision record docs/decisions/001-vectorization-without-threads.md).
 *
 * <p><b>The decision.</b> When this class initializes it logs one INFO line (System.Logger {@code dev.stringview}):
 * the vector code is available when {@code -Dstringview.vectorization=false} is not set and the incubator module
 * {@code jdk.incubator.vector} is in the boot layer ({@code --add-modules jdk.incubator.vector}); otherwise the
 * scalar (SWAR) code runs for good. The scalar code is always present and always correct. Nothing but
 * {@link #warmUp} references the incubator classes, so without the module they are never linked, and a JVM that
 * never warms up never loads them.
 *
 * <p><b>The gate.</b> Every kernel runs its scalar loop until {@link #warmUp} has run each vector loop a fixed
 * number of calls over private data on the calling thread; only then are the vector loops published to the
 * kernels. Until C2 has compiled a Vector API method, the incubator runs its Java fallback, which allocates a
 * vector object per operation and costs hundreds of times the compiled code per row; a kernel that switched on
 * its own after some count of rows would be that slow for its first vector calls, because counting scalar rows
 * does not compile the vector loop. So the only switch is the explicit warm-up, which an engine calls on a thread
 * of its own when it means to run long enough to pay for it; a short process (the CLI, a test) stays scalar and
 * is never slower than the scalar code. No thread is started and no clock is read.
 */
public final class Vectorization {
    /** The property that turns the vector code off when set to {@code false}. */
    public static final String PROPERTY = "stringview.vectorization";
    private static final String MODULE = "jdk.incubator.vector";
    private static final System.Logger LOG = System.getLogger("dev.stringview");

    /** Whether this JVM may run vector code (the property and the module), decided once and logged. */
    private static final boolean AVAILABLE = decide();
    /*
     * The vector loops once warmUp has run them, else null (then the kernels run their scalar loops). Volatile:
     * written once by warmUp, read once per kernel call, chunk or window, and by substring search once per
     * searched range of bytes (a run of values, or one scattered value), which costs a plain load on x86.
     */
    private static volatile VectorSearch search;
    private static volatile ViewWordScan viewWords;
    private static volatile InlineViewScan inlineViews;
    /** What warmUp found, for describe(); guarded by the class lock with warmedUp. */
    private static String warmedUpAs = "";
    private static boolean warmedUp;

    private Vectorization() {}

    /** Whether this JVM may use the Vector API: the property does not forbid it and the module is present. */
    public static boolean available() {
        return AVAILABLE;
    }

    /**
     * Loads the vector loops this CPU supports, runs each a fixed number of calls over private data on the calling
     * thread ({@link VectorWarmUp}), and then hands them to the kernels; returns whether any vector loop is now in
     * use. Does nothing and returns false when {@link #available} is false. The first call does the work (a few
     * seconds of CPU time, most of it the incubator's fallback code before C2 has compiled the loops);
     * later calls, and calls while another thread is warming up, return the first call's outcome. Thread-safe.
     */
    public static synchronized boolean warmUp() {
        if (!AVAILABLE) {
            return false;
        }
        if (!warmedUp) {
            warmedUp = true;
            try {
                VectorSearch loadedSearch = newInstance("PanamaByteSearch", VectorSearch.class);
                if (!loadedSearch.isUseful()) {
                    warmedUpAs = "scalar: the CPU's vectors are too narrow (" + loadedSearch.describe() + ")";
                    return false;
                }
                boolean wide = loadedSearch.preferredBits() >= 512;
                ViewWordScan loadedViewWords = wide ? newInstance("PanamaViewWords", ViewWordScan.class) : null;
                InlineViewScan loadedInlineViews = wide ? newInstance("PanamaInlineViews", InlineViewScan.class)
                        : null;
                VectorWarmUp.run(loadedSearch, loadedViewWords, loadedInlineViews);
                search = loadedSearch;
                viewWords = loadedViewWords;
                inlineViews = loadedInlineViews;
                warmedUpAs = "Panama Vector API, substring search " + loadedSearch.describe() + ", "
                        + (wide ? "512-bit inline views, 512-bit view words"
                                : "scalar inline views (512-bit vectors needed), scalar view words");
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                search = null;
                viewWords = null;
                inlineViews = null;
                warmedUpAs = "scalar: the vector code failed to load or warm up: " + e;
                LOG.log(System.Logger.Level.WARNING, "stringview: " + warmedUpAs);
            }
        }
        return search != null;
    }

    /** The vectorized substring screen once {@link #warmUp} has run, else null (the scalar code is in use). */
    static VectorSearch search() {
        return search;
    }

    /**
     * The vectorized view-word passes of the equality, starts-with and order kernels once {@link #warmUp} has run
     * on a CPU with 512-bit vectors, else null (then the kernels run their own loops). Kernels call this once per
     * call, chunk or window, not per row.
     */
    public static ViewWordScan viewWords() {
        return viewWords;
    }

    /**
     * The vector form of {@code InlineViews.build} (512-bit vectors, byte expand) once {@link #warmUp} has run on a
     * CPU with 512-bit vectors, else null (the scalar loop is in use). Read once per call.
     */
    public static InlineViewScan inlineViews() {
        return inlineViews;
    }

    /** A short description of the code in use now, e.g. for benchmark reports. */
    public static synchronized String describe() {
        if (!AVAILABLE) {
            return "scalar (SWAR)";
        }
        return warmedUp ? warmedUpAs : "scalar (SWAR) until ViewKernels.warmUp(); the Vector API is available";
    }

    /**
     * The CPU's preferred vector size in bits as the Vector API reports it, or 0 while the scalar code is in use
     * (the vector code is not loaded, so the size is not asked).
     */
    public static int preferredBits() {
        VectorSearch loaded = search;
        return loaded == null ? 0 : loaded.preferredBits();
    }

    private static <T> T newInstance(String simpleName, Class<T> type) throws ReflectiveOperationException {
        Class<?> loaded = MethodHandles.lookup().findClass(Vectorization.class.getPackageName() + "." + simpleName);
        return type.cast(loaded.getDeclaredConstructor().newInstance());
    }

    /** The one decision, and its one log line. */
    private static boolean decide() {
        if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
            LOG.log(System.Logger.Level.INFO, "stringview: scalar kernels (-D" + PROPERTY + "=false)");
            return false;
        }
        Optional<Module> vectorModule = ModuleLayer.boot().findModule(MODULE);
        if (vectorModule.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "stringview: scalar kernels; start the JVM with --add-modules "
                    + MODULE + " to let ViewKernels.warmUp() enable the Vector API loops");
            return false;
        }
        // Our own module may read it (named modules do not read incubator modules unless told to).
        Vectorization.class.getModule().addReads(vectorModule.get());
        LOG.log(System.Logger.Level.INFO, "stringview: scalar kernels until ViewKernels.warmUp(), then the Vector API"
                + " loops the CPU supports (-D" + PROPERTY + "=false keeps them off)");
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

        String describe();
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
     * The view-word pass of the equality, starts-with and order kernels over a window of rows of a column without
     * a selection, implemented only by {@link PanamaViewWords}; the kernels' own scalar loops are its twins. Each
     * method writes bit {@code i % 64} of word {@code i / 64} of its outputs for row {@code first + i},
     * {@code i < count}, overwriting the first {@code (count + 63) / 64} words (bits past {@code count} are clear).
     * Nothing but the views is read, and null rows are not told apart: the kernels mask them out afterwards.
     */
    public interface ViewWordScan {
        /**
         * Equality: {@code word0Equal} marks the rows whose first view word (length and prefix) is {@code k0},
         * {@code viewEqual} those whose second view word is also {@code k1}.
         */
        void equalWords(java.lang.foreign.MemorySegment views, int first, int count, long k0, long k1,
                long[] word0Equal, long[] viewEqual);

        /**
         * Starts-with: {@code candidates} marks the rows whose first view word masked with {@code prefixMask} is
         * {@code prefixBits}, whose length is at least {@code patternLength} and that are long (length above 12)
         * or have {@code (word1 & inlineMask) == inlineBits}; {@code longCandidates} those of them that are long.
         */
        void prefixWords(java.lang.foreign.MemorySegment views, int first, int count, long prefixMask,
                long prefixBits, int patternLength, long inlineMask, long inlineBits, long[] candidates,
                long[] longCandidates);

        /**
         * Order: {@code less} marks the rows whose view bytes 4..11, read big-endian, are unsigned below
         * {@code firstKey}; {@code ties} those whose prefix (view bytes 4..7, a little-endian int) is
         * {@code prefixLittleEndian} and that are long or, inline, whose view bytes 4..11 (their first eight bytes)
         * are the constant's: an inline row whose first eight bytes differ is ordered by {@code less} alone.
         */
        void orderWords(java.lang.foreign.MemorySegment views, int first, int count, long firstKey,
                int prefixLittleEndian, long[] less, long[] ties);

        String describe();
    }
}
