package dev.stringview.parquet.internal;

import dev.stringview.parquet.ParquetScan;
import java.util.Objects;

/**
 * The switches that turn parts of a {@link ParquetScan} off, to measure what they are worth: pruning by metadata
 * (statistics, bloom filters, dictionaries, the page index), the substring search over whole PLAIN pages, and the
 * coarser cut of dictionary chunks into parallel units. All are on in every scan an application makes; they are not
 * API. The CLI ({@code scan --no-skipping}, {@code --no-page-search}) and the benchmarks turn them off through this
 * class; the module does not export it.
 *
 * <p>{@code ParquetScan} registers its package-private switches here when it initializes, so any scan passed in
 * finds them (the JDK's shared-secrets pattern).
 */
public final class ScanSwitches {
    /** What {@code ParquetScan} hands over: its package-private switches. */
    public interface Access {
        /** {@code scan} with pruning on or off. */
        ParquetScan withPruning(ParquetScan scan, boolean enabled);

        /** {@code scan} with the PLAIN page search on or off. */
        ParquetScan withPageSearch(ParquetScan scan, boolean enabled);

        /** {@code scan} with dictionary chunks cut into at most one unit per thread, or as finely as others. */
        ParquetScan withDictionaryPerThread(ParquetScan scan, boolean enabled);
    }

    private static volatile Access access;

    private ScanSwitches() {}

    /**
     * Called once, by {@code ParquetScan}'s static initializer.
     *
     * @throws IllegalStateException when called again
     */
    public static synchronized void register(Access scanAccess) {
        if (access != null) {
            throw new IllegalStateException("ScanSwitches registered twice");
        }
        access = Objects.requireNonNull(scanAccess, "scanAccess");
    }

    /** {@code scan} with pruning by metadata on (the default) or off: off, every row group and page is read. */
    public static ParquetScan withPruning(ParquetScan scan, boolean enabled) {
        return access(scan).withPruning(scan, enabled);
    }

    /**
     * {@code scan} with the substring search over whole PLAIN pages on (the default) or off: off, PLAIN pages are
     * decoded into views and decided by the predicate.
     */
    public static ParquetScan withPageSearch(ParquetScan scan, boolean enabled) {
        return access(scan).withPageSearch(scan, enabled);
    }

    /**
     * {@code scan} with chunks that start with a dictionary page cut into at most one unit per thread (the default),
     * or, off, as finely as other chunks (each unit then reads the dictionary page again).
     */
    public static ParquetScan withDictionaryPerThread(ParquetScan scan, boolean enabled) {
        return access(scan).withDictionaryPerThread(scan, enabled);
    }

    private static Access access(ParquetScan scan) {
        Objects.requireNonNull(scan, "scan");
        // A ParquetScan instance exists, so its class has initialized and registered.
        return access;
    }
}
