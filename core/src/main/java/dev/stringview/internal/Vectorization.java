package dev.stringview.internal;

import java.lang.invoke.MethodHandles;
import java.util.Optional;

/**
 * Chooses, once per JVM, whether kernels may use the Panama Vector API, after Lucene's
 * {@code VectorizationProvider}. The scalar (SWAR) code is always present and always correct; the vector code
 * ({@link PanamaByteSearch}) is loaded only when the incubator module {@code jdk.incubator.vector} is in the boot
 * layer (the JVM was started with {@code --add-modules jdk.incubator.vector}) and the CPU has at least 256-bit
 * vectors. Nothing else references the incubator classes, so without the module they are never linked.
 *
 * <p>One line is logged (System.Logger {@code dev.stringview}, level INFO) saying which was chosen and why.
 * {@code -Dstringview.vectorization=false} forces the scalar code, e.g. to compare the two.
 */
public final class Vectorization {
    /** The property that turns the vector code off when set to {@code false}. */
    public static final String PROPERTY = "stringview.vectorization";
    private static final String MODULE = "jdk.incubator.vector";

    private static final VectorSearch SEARCH = load();

    private Vectorization() {}

    /** The vectorized substring screen, or null when the scalar code is in use. */
    static VectorSearch search() {
        return SEARCH;
    }

    /** A short description of what was chosen, e.g. for benchmark reports. */
    public static String describe() {
        return SEARCH == null ? "scalar (SWAR)" : "Panama Vector API, " + SEARCH.describe();
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

        String describe();
    }
}
