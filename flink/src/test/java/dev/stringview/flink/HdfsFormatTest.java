package dev.stringview.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partitioned table in HDFS (MiniDFSCluster from hadoop-client-minicluster, in this JVM), read by an embedded
 * batch {@link TableEnvironment} through Flink's Hadoop file system (flink-hadoop-fs, which Flink's
 * {@code FileSystem} falls back to for {@code hdfs://}): 'format' = 'stringview-parquet' gives the answers of
 * Flink's own 'format' = 'parquet' on the same paths. The files are stored with a 32 KiB block size, so the
 * connector cuts each into several splits and the row groups must each be read by exactly one of them.
 */
class HdfsFormatTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    static java.nio.file.Path dir;
    static MiniDFSCluster hdfsCluster;
    static FileSystem hdfs;
    static TableEnvironment env;
    static final long BLOCK = 32 * 1024;

    @BeforeAll
    static void start() throws IOException {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("hdfs").toString());
        conf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
        hdfsCluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        hdfsCluster.waitActive();
        hdfs = hdfsCluster.getFileSystem();
        String root = hdfs.getUri() + "/warehouse/hits";
        java.nio.file.Path local = Files.createDirectories(dir.resolve("local"));
        String[][] files = {{"dt=2024-01-01", "part-0.parquet", "0", "9000"},
            {"dt=2024-01-01", "part-1.parquet", "9000", "2000"}, {"dt=2024-01-02", "part-0.parquet", "11000", "7000"}};
        long seed = 1;
        for (String[] f : files) {
            java.nio.file.Path file = local.resolve(f[0] + "-" + f[1]);
            TableFiles.write(file, Long.parseLong(f[2]), Integer.parseInt(f[3]), seed++, CompressionCodecName.SNAPPY);
            upload(file, new Path(root + "/" + f[0] + "/" + f[1]));
        }
        env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.getConfig().set("parallelism.default", "2");
        String ddl = " (" + TableFiles.COLUMNS + ") PARTITIONED BY (dt) WITH ('connector' = 'filesystem', 'path' = '"
                + root + "', 'format' = ";
        env.executeSql("CREATE TABLE sv" + ddl + "'stringview-parquet', 'stringview-parquet.batch-size' = '700')");
        env.executeSql("CREATE TABLE fs" + ddl + "'parquet')");
    }

    /** Copies a local file into HDFS with {@link #BLOCK}-byte blocks. */
    private static void upload(java.nio.file.Path local, Path remote) throws IOException {
        try (InputStream in = Files.newInputStream(local);
                OutputStream out = hdfs.create(remote, true, 4096, (short) 1, BLOCK)) {
            in.transferTo(out);
        }
    }

    @AfterAll
    static void stop() {
        env = null;
        if (hdfsCluster != null) {
            hdfsCluster.shutdown(true);
        }
    }

    private static List<String> same(String query) {
        List<String> theirs = TableFiles.collect(env, query.replace("{t}", "fs"));
        List<String> ours = TableFiles.collect(env, query.replace("{t}", "sv"));
        assertEquals(theirs.size(), ours.size(), () -> "row count differs: query=" + query);
        assertEquals(theirs, ours, () -> "rows differ: query=" + query);
        return ours;
    }

    @Test
    void filesSpanSeveralBlocks() throws IOException {
        Path file = new Path(hdfs.getUri() + "/warehouse/hits/dt=2024-01-01/part-0.parquet");
        long length = hdfs.getFileStatus(file).getLen();
        assertTrue(hdfs.getFileBlockLocations(file, 0, length).length > 2, "length=" + length);
    }

    @Test
    void fullReadEqualsFlinksOwnFormat() {
        assertEquals(18_000, same("SELECT * FROM {t}").size());
    }

    @Test
    void filtersGroupByAndPartitionsEqualFlinksOwnFormat() {
        String[] filters = {"s LIKE '%google%'", "s = 'hello world!'", "s = 'hello world!!'",
            "s IN ('google', 'Google', '')", "s LIKE 'http://example%' AND n > 100", "s IS NULL",
            "NOT (s LIKE '%o%')", "UPPER(s) = 'GOOGLE'", "n < -400 OR s = 'a_b'", "dt = '2024-01-02'",
            "dt = '2024-01-01' AND s LIKE '%page/1%'"};
        List<String> branches = new ArrayList<>();
        for (int k = 0; k < filters.length; k++) {
            branches.add("SELECT " + k + " AS k, id, s, dt FROM {t} WHERE " + filters[k]);
        }
        List<String> rows = same(String.join(" UNION ALL ", branches));
        assertTrue(rows.size() > 5000, "too few rows for a useful comparison: rows=" + rows.size());
        same("SELECT s, count(*), sum(n) FROM {t} GROUP BY s UNION ALL SELECT dt, count(*), min(n) FROM {t}"
                + " WHERE s LIKE 'http%' GROUP BY dt");
    }
}
