package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files in Hadoop's own HDFS (MiniDFSCluster, in this JVM, from hadoop-client-minicluster 3.5.0, the Hadoop line
 * Spark 4.2 ships) and behind a slow object-store-like file system read through {@link ParquetSources#hadoop}: the
 * same values as the local memory-mapped read, for every column of the generated files and of every conformance
 * file, and the requests the I/O plan promises.
 */
class HadoopSourceTest {
    @TempDir
    static java.nio.file.Path dir;
    static MiniDFSCluster cluster;
    static Configuration conf;
    static FileSystem hdfs;
    static ExecutorService pool;

    @BeforeAll
    static void startHdfs() throws IOException {
        conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("hdfs").toString());
        conf.set("fs.slowstore.impl", SlowStoreFileSystem.class.getName());
        conf.setBoolean("fs.slowstore.impl.disable.cache", true);
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        cluster.waitActive();
        hdfs = cluster.getFileSystem();
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stopHdfs() throws IOException {
        if (pool != null) {
            pool.shutdownNow();
        }
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    Path upload(java.nio.file.Path local) throws IOException {
        Path remote = new Path(hdfs.getUri().toString() + "/data/" + local.getFileName());
        hdfs.copyFromLocalFile(new Path(local.toUri()), remote);
        return remote;
    }

    @Test
    void generatedFilesInHdfsReadAsLocally() throws IOException {
        java.nio.file.Path local = SourceFiles.write(dir, "hdfs-generated", 5000, 1200, CompressionCodecName.ZSTD, 0, 3);
        Path remote = upload(local);
        List<List<byte[]>> expected = SourceFiles.readMapped(local);
        for (boolean batchScoped : new boolean[] {false, true}) {
            try (Arena arena = Arena.ofShared();
                    ParquetSource source = ParquetSources.hadoop(remote, conf);
                    ParquetViewReader reader = ParquetViewReader.open(source, arena, ParquetViewOptions.defaults()
                            .withBatchScopedMemory(batchScoped).withPrefetch(pool).withBatchSize(1000))) {
                assertEquals("hdfs-generated.parquet", source.name());
                SourceFiles.assertSameValues(expected, SourceFiles.readAll(reader), "hdfs batchScoped=" + batchScoped);
                assertEquals(1 + reader.rowGroupCount(), reader.readCounters().requests(), reader.readCounters().toString());
            }
        }
    }

    @Test
    void conformanceFilesInHdfsReadAsLocally() throws IOException {
        List<java.nio.file.Path> files;
        try (Stream<java.nio.file.Path> list = Files.list(TestData.dataDir())) {
            files = list.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
        }
        int read = 0;
        for (java.nio.file.Path p : files) {
            List<List<byte[]>> expected;
            try {
                expected = SourceFiles.readMapped(p);
            } catch (IOException | RuntimeException unreadable) {
                continue; // ParquetSourceTest checks that a source fails the same way
            }
            Path remote = upload(p);
            try (Arena arena = Arena.ofConfined();
                    ParquetSource source = ParquetSources.hadoop(remote, conf);
                    ParquetViewReader reader = ParquetViewReader.open(source, arena, ParquetViewOptions.defaults())) {
                SourceFiles.assertSameValues(expected, SourceFiles.readAll(reader), p.toString());
                read++;
            }
        }
        assertTrue(read >= 10, "conformance files read from HDFS: " + read);
    }

    /**
     * Filters (string and value leaves, AND / OR / NOT, pruning by statistics, dictionaries and the page index) over
     * files in HDFS select exactly the rows they select in the local file, on two threads, and the scan's counters
     * count what it read.
     */
    @Test
    void scansOverHdfsSelectWhatLocalScansSelect() throws IOException {
        java.nio.file.Path generated = SourceFiles.write(dir, "hdfs-filtered", 4000, 900, CompressionCodecName.SNAPPY, 0, 5);
        java.nio.file.Path tinyPages = TestData.dataDir().resolve("alltypes_tiny_pages.parquet");
        List<RowFilter> onGenerated = List.of(RowFilter.equalTo("c", "category-3"), RowFilter.contains("a", "é"),
                RowFilter.and(RowFilter.startsWith("d", "https://example.com/pp"), RowFilter.isNotNull("a")),
                RowFilter.or(RowFilter.lessThan("c", "category-1"), RowFilter.not(RowFilter.like("a", "%k%"))),
                RowFilter.isNull("c"));
        List<RowFilter> onTinyPages = List.of(RowFilter.compare("id", RowFilter.Op.LESS_THAN, 100L),
                RowFilter.and(RowFilter.compare("int_col", RowFilter.Op.EQUAL, 3L),
                        RowFilter.equalTo("string_col", "3")),
                RowFilter.or(RowFilter.compare("double_col", RowFilter.Op.GREATER_THAN, 50.0),
                        RowFilter.not(RowFilter.compare("bool_col", RowFilter.Op.EQUAL, true))),
                RowFilter.compare("id", RowFilter.Op.GREATER_THAN_OR_EQUAL, 7000L));
        java.util.Map<java.nio.file.Path, List<RowFilter>> cases = new java.util.LinkedHashMap<>();
        cases.put(generated, onGenerated);
        cases.put(tinyPages, onTinyPages);
        for (var e : cases.entrySet()) {
            Path remote = upload(e.getKey());
            for (RowFilter filter : e.getValue()) {
                long[] local = ParquetScan.of(e.getKey()).select(filter);
                try (ParquetSource source = ParquetSources.hadoop(remote, conf)) {
                    ParquetScan scan = ParquetScan.of(source).withExecutor(pool, 2);
                    long[] fromHdfs = scan.select(filter);
                    assertEquals(java.util.Arrays.toString(local), java.util.Arrays.toString(fromHdfs),
                            e.getKey().getFileName() + " " + filter);
                    assertEquals(local.length, scan.count(filter), e.getKey().getFileName() + " " + filter);
                    ReadCounters counters = scan.readCounters();
                    assertTrue(counters.requests() >= 2 && counters.bytesRead() > 0, counters.toString());
                }
            }
        }
    }

    @Test
    void aMissingHdfsFileIsNamed() {
        NoSuchFileException e = assertThrows(NoSuchFileException.class,
                () -> ParquetSources.hadoop(new Path(hdfs.getUri() + "/data/none.parquet"), conf));
        assertTrue(e.getMessage().contains("no such file: file=" + hdfs.getUri() + "/data/none.parquet"),
                e.getMessage());
    }

    /** Behind an object-store-like file system, a whole read makes one tail request and one per row group. */
    @Test
    void aSlowStoreSeesOneRequestPerRowGroupAndOneForTheFooter() throws IOException {
        java.nio.file.Path local = SourceFiles.write(dir, "slow", 4000, 1000, CompressionCodecName.SNAPPY, 0, 9);
        Configuration slow = new Configuration(conf);
        slow.setLong("slowstore.latency.ms", 5);
        List<List<byte[]>> expected = SourceFiles.readMapped(local, "a", "b");
        long before = SlowStoreFileSystem.REQUESTS.get();
        try (Arena arena = Arena.ofShared();
                ParquetSource source = ParquetSources.hadoop(new Path("slowstore://" + local.toAbsolutePath()), slow);
                ParquetViewReader reader = ParquetViewReader.open(source, arena, ParquetViewOptions.defaults()
                        .withColumns("a", "b").withBatchScopedMemory(true).withPrefetch(pool))) {
            SourceFiles.assertSameValues(expected, SourceFiles.readAll(reader), "slow store");
            long seen = SlowStoreFileSystem.REQUESTS.get() - before;
            assertEquals(1 + reader.rowGroupCount(), seen, "requests the store saw");
            assertEquals(seen, reader.readCounters().requests());
        }
    }
}
