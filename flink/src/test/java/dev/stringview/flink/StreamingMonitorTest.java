package dev.stringview.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code source.monitor-interval}: an unbounded streaming query over a partitioned directory read with
 * 'format' = 'stringview-parquet' returns the rows of the files there when it starts, then those of a file moved
 * into a partition while it runs. The expected rows come from Flink's own 'format' = 'parquet' (batch) over the
 * final directory. A watchdog cancels the job after two minutes, which bounds the wait; the job is cancelled at
 * the end.
 */
class StreamingMonitorTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    Path dir;

    @Test
    void aFileAddedWhileTheJobRunsIsRead() throws Exception {
        Path table = Files.createDirectories(dir.resolve("t"));
        Path partition = Files.createDirectories(table.resolve("dt=2024-01-01"));
        TableFiles.write(partition.resolve("part-0.parquet"), 0, 3000, 1, CompressionCodecName.UNCOMPRESSED);
        Files.createDirectories(table.resolve("dt=2024-01-02"));
        TableFiles.write(table.resolve("dt=2024-01-02").resolve("part-0.parquet"), 3000, 1000, 2,
                CompressionCodecName.UNCOMPRESSED);
        String filter = " WHERE s LIKE '%google%' OR n > 400";

        TableEnvironment streaming = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().set("parallelism.default", "1");
        streaming.executeSql("CREATE TABLE st (" + TableFiles.COLUMNS + ") PARTITIONED BY (dt) WITH ("
                + "'connector' = 'filesystem', 'path' = '" + table + "', 'format' = 'stringview-parquet',"
                + " 'source.monitor-interval' = '200ms')");
        TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.executeSql("CREATE TABLE fs (" + TableFiles.COLUMNS + ") PARTITIONED BY (dt) WITH ("
                + "'connector' = 'filesystem', 'path' = '" + table + "', 'format' = 'parquet')");
        List<String> before = TableFiles.collect(batch, "SELECT id, s, dt FROM fs" + filter);

        TableResult result = streaming.executeSql("SELECT id, s, dt FROM st" + filter);
        JobClient job = result.getJobClient().orElseThrow();
        // The bound on the wait: a job still running after it is cancelled, which ends the iteration below.
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
        watchdog.schedule(() -> job.cancel(), 120, TimeUnit.SECONDS);
        List<String> seen = new ArrayList<>();
        try (CloseableIterator<Row> rows = result.collect()) {
            read(rows, seen, before.size());
            // A new file, written under a hidden name (which the enumeration skips) and moved in whole.
            Path hidden = partition.resolve(".part-1.parquet.inprogress");
            TableFiles.write(hidden, 4000, 2000, 3, CompressionCodecName.SNAPPY);
            Files.move(hidden, partition.resolve("part-1.parquet"), StandardCopyOption.ATOMIC_MOVE);
            List<String> after = TableFiles.collect(batch, "SELECT id, s, dt FROM fs" + filter);
            assertTrue(after.size() > before.size() + 100, "too few new rows: " + after.size());
            read(rows, seen, after.size());
            List<String> sorted = new ArrayList<>(seen);
            sorted.sort(null);
            assertEquals(after, sorted);
        } finally {
            watchdog.shutdownNow();
            job.cancel();
        }
    }

    /** Reads rows until {@code seen} holds {@code count}; fails if the job ends first (the watchdog's cancel). */
    private static void read(CloseableIterator<Row> rows, List<String> seen, int count) {
        while (seen.size() < count) {
            assertTrue(rows.hasNext(), "the job ended before the rows came: seen=" + seen.size() + " expected="
                    + count);
            seen.add(rows.next().toString());
        }
    }
}
