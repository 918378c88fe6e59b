package dev.stringview.parquet;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** One pool for the tests' scans, made once (a library makes none): scans pass it with their parallelism. */
final class TestExecutors {
    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-scan");
        t.setDaemon(true);
        return t;
    });

    private TestExecutors() {}

    /** {@code scan} on {@code threads} tasks of the tests' pool; 1 runs on the calling thread. */
    static ParquetScan threads(ParquetScan scan, int threads) {
        return threads == 1 ? scan.withExecutor(null, 1) : scan.withExecutor(POOL, threads);
    }
}
