package dev.stringview.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cat} and {@code pages} of an {@code hdfs://} path, against Hadoop's HDFS running in this JVM, print exactly
 * what they print for the same file on the local disk.
 */
class CliHdfsTest {
    @TempDir
    static Path dir;
    static MiniDFSCluster cluster;
    static String remote;

    @BeforeAll
    static void startHdfs() throws IOException {
        CliTest.writeTo(dir); // CliTest's file: strings with every JSON escape, binary values, nulls, a nested column
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("hdfs").toString());
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        cluster.waitActive();
        FileSystem hdfs = cluster.getFileSystem();
        remote = hdfs.getUri() + "/tables/cli.parquet";
        hdfs.copyFromLocalFile(new org.apache.hadoop.fs.Path(CliTest.file.toUri()), new org.apache.hadoop.fs.Path(remote));
    }

    @AfterAll
    static void stopHdfs() {
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    @Test
    void catOfAnHdfsPathPrintsWhatTheLocalFilePrints() {
        for (String column : new String[] {"s", "b"}) {
            CliTest.Result local = CliTest.run("cat", CliTest.file.toString(), "--column", column);
            CliTest.Result hdfs = CliTest.run("cat", remote, "--column", column);
            assertEquals(0, hdfs.status(), hdfs.err());
            assertEquals(local.out(), hdfs.out());
            assertEquals(CliTest.strings.size(), hdfs.outLines().size());
        }
    }

    @Test
    void pagesOfAnHdfsPathListWhatTheLocalFileLists() {
        CliTest.Result local = CliTest.run("pages", CliTest.file.toString());
        CliTest.Result hdfs = CliTest.run("pages", remote);
        assertEquals(0, hdfs.status(), hdfs.err());
        assertEquals(local.out(), hdfs.out());
        assertTrue(hdfs.outLines().size() > 2, hdfs.out());
    }

    @Test
    void aMissingHdfsFileIsOneLine() {
        CliTest.Result r = CliTest.run("cat", remote + ".missing", "--column", "s");
        assertEquals(StringviewCli.EXIT_BAD_INPUT, r.status());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().startsWith("stringview: no such file: file=" + remote + ".missing"), r.err());
    }
}
