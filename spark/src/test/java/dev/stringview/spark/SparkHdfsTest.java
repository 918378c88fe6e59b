package dev.stringview.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Datasets in Hadoop's own HDFS (MiniDFSCluster, in this JVM, from hadoop-client-minicluster 3.5.0, the Hadoop line
 * Spark 4.2 ships), written by Spark and read from {@code hdfs://} paths through {@code format("stringview")} and
 * through the drop-in: a partitioned dataset, a glob and a file split into several tasks, every answer equal to
 * {@code spark.read.parquet}'s on the same paths.
 */
class SparkHdfsTest {
    @TempDir
    static Path dir;
    static MiniDFSCluster cluster;
    static String root;
    static SparkSession spark;

    @BeforeAll
    static void start() throws IOException {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("hdfs").toString());
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        cluster.waitActive();
        root = cluster.getFileSystem().getUri().toString();
        spark = Sessions.local();
        spark.sql(SparkFileSourceTest.rows(5000)).write().partitionBy("region").parquet(root + "/partitioned");
        spark.sql(SparkFileSourceTest.rows(3000)).repartition(3).write().parquet(root + "/glob");
        spark.sql(SparkFileSourceTest.rows(40000)).repartition(1).write().option("parquet.block.size", "65536")
                .option("parquet.enable.dictionary", "false").parquet(root + "/split");
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    static void sameAnswers(String path, String... queries) {
        spark.read().format("stringview").load(path).createOrReplaceTempView("sv_hdfs");
        spark.read().parquet(path).createOrReplaceTempView("pq_hdfs");
        for (String q : queries) {
            List<String> expected = Sessions.rows(spark.sql(q.replace("{T}", "pq_hdfs")));
            Sessions.withCodegen(() -> {
                Dataset<Row> ours = spark.sql(q.replace("{T}", "sv_hdfs"));
                assertTrue(Sessions.plan(ours).contains("FileScan stringview"), Sessions.plan(ours));
                assertEquals(expected, Sessions.rows(ours), path + ": " + q);
                Sessions.withDropIn(() -> assertEquals(expected,
                        Sessions.rows(spark.sql(q.replace("{T}", "parquet.`" + path + "`"))), "drop-in " + q));
            });
            assertEquals(expected, Sessions.rows(spark.sql(q.replace("{T}", "sv_hdfs"))), "rows: " + q);
        }
    }

    @Test
    void aPartitionedDataset() {
        sameAnswers(root + "/partitioned", "SELECT * FROM {T}",
                "SELECT region, count(*), max(url) FROM {T} WHERE region > 2 GROUP BY region",
                "SELECT id, url FROM {T} WHERE url LIKE '%google%' AND region = 1");
    }

    @Test
    void aGlob() {
        sameAnswers(root + "/glob/part-0000[12]*", "SELECT * FROM {T}",
                "SELECT count(*), sum(amount) FROM {T} WHERE url IN ('abcdefghijkl7', 'abcdefghijklm8')");
    }

    @Test
    void aFileSplitIntoSeveralTasks() {
        spark.conf().set("spark.sql.files.maxPartitionBytes", "262144");
        try {
            int tasks = spark.read().format("stringview").load(root + "/split").rdd().getNumPartitions();
            assertTrue(tasks >= 3, "tasks=" + tasks);
            sameAnswers(root + "/split", "SELECT count(*), sum(id), count(url), max(url) FROM {T}",
                    "SELECT id, url, amount FROM {T} WHERE url LIKE 'http%' AND id % 13 = 0");
        } finally {
            spark.conf().unset("spark.sql.files.maxPartitionBytes");
        }
    }
}
