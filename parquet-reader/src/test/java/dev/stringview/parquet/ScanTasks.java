package dev.stringview.parquet;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The tests' executor for {@link ParquetScan#withExecutor}: the caller owns the threads, here the test JVM. */
final class ScanTasks {
    /** Daemon threads made on demand, shared by the tests of this module for the life of the test JVM. */
    static final ExecutorService POOL = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "test-scan-task");
        thread.setDaemon(true);
        return thread;
    });

    private ScanTasks() {}
}
