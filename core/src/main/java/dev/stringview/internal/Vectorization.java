package dev.stringview.internal;

import java.lang.invoke.MethodHandles;
import java.util.Optional;

/**
 * Chooses, once per JVM, whether kernels may use the Panama Vector API, after Lucene's
 * {@code VectorizationProvider}. The scalar (SWAR) code is always present and always correct; the vector code is
 * loaded only when the incubator module {@code jdk.incubator.vector} is in the boot layer (the JVM was started with
 * {@code --add-modules jdk.incubator.vector}): {@link PanamaByteSearch} when the CPU has at least 256-bit vectors,
 * {@link PanamaViewWords} when it has 512-bit ones. Nothing else references the incubator classes, so without the
 * module they are never linked.
 *
 * <p>INFO lines (System.Logger {@code dev.stringview}) say which code was chosen and why.
 * {@code -Dstringview.vectorization=false} forces the scalar code, e.g. to compare the two.
 */
public final class Vectorization {
    /** The property that turns the vector code off when set to {@code false}. */
    public static final String PROPERTY = "stringview.vectorization";
    private static final String MODULE = "jdk.incubator.vector";

    private static final VectorSearch SEARCH = load();
    private static final ViewWordScan VIEW_WORDS = SEARCH == null ? null : loadViewWords();

    private Vectorization() {}

    /** The vectorized substring screen, or null when the scalar code is in use. */
    static VectorSearch search() {
        return SEARCH;
    }

    /**
     * The vectorized view-word passes of the equality, starts-with and order kernels, or null when the scalar
     * code is in use (then the kernels run their own loops). A static final field: C2 folds the null test.
     */
    public static ViewWordScan viewWords() {
        return VIEW_WORDS;
    }

    /** A short description of what was chosen, e.g. for benchmark reports. */
    public static String describe() {
        return SEARCH == null ? "scalar (SWAR)" : "Panama Vector API, " + SEARCH.describe() + ", "
                + (VIEW_WORDS == null ? "scalar view words" : VIEW_WORDS.describe());
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
    private static ViewWordScan loadViewWords() {
        System.Logger log = System.getLogger("dev.stringview");
        if (SEARCH.preferredBits() < 512) {
            log.log(System.Logger.Level.INFO, "stringview: scalar view-word scans; the CPU's vectors are "
                    + SEARCH.preferredBits() + "-bit, the vector scans need 512");
            return null;
        }
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
         * For rows {@code first + i}, {@code i < count}: ORs into bit {@code i % 64} of {@code less[i / 64]} whether
         * the row's view bytes 4..11, read big-endian, are unsigned below {@code firstKey}, and into
         * {@code ties[i / 64]} whether its prefix (view bytes 4..7, a little-endian int) is
         * {@code prefixLittleEndian}. The words must be clear on entry.
         */
        void orderWords(java.lang.foreign.MemorySegment views, int first, int count, long firstKey,
                int prefixLittleEndian, long[] less, long[] ties);

        String describe();
    }
}
