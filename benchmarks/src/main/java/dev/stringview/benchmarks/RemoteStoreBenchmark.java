package dev.stringview.benchmarks;

import dev.stringview.parquet.ParquetSource;
import dev.stringview.parquet.ParquetSources;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.ReadCounters;
import dev.stringview.parquet.SlowStoreFileSystem;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ClickBench Q20 ({@code count(*) WHERE URL LIKE '%google%'}) on the 2M-row hits-like file, read from a simulated
 * object store: {@link SlowStoreFileSystem}, a Hadoop file system in front of the local disk whose every request
 * waits {@code latencyMs} before its first byte and whose streams deliver {@code bytesPerSecond} each. Engines: this
 * library's reader through {@code ParquetSources.hadoop}, with and without prefetch on a two-thread executor, and
 * parquet-java's own reader ({@code HadoopInputFile}, Hadoop vectored reads on) decoding each value to bytes. The
 * local memory-mapped read is the reference without a store. Scores are ms per query.
 *
 * <p>Setup checks the I/O plan on this file: the query makes at most (projected columns x row groups) + 2
 * requests, else the run stops.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 4)
@Measurement(iterations = 5, time = 4)
@Fork(value = 1, jvmArgsAppend = {Jvm.XMX, Jvm.NATIVE_ACCESS, Jvm.VECTOR})
public class RemoteStoreBenchmark {
    @Param({"0", "20"})
    public long latencyMs;

    @Param("100000000")
    public long bytesPerSecond;

    @Param("snappy")
    public String layout;

    @Param("2000000")
    public int rows;

    Path file;
    Configuration conf;
    org.apache.hadoop.fs.Path remote;
    ExecutorService pool;
    final Query q20 = Query.Q20;

    @Setup
    public void setup() throws IOException {
        file = Locations.hitsFile(Locations.benchData(), HitsQueryBenchmark.layout(layout), rows, null);
        conf = new Configuration();
        conf.set("fs.slowstore.impl", SlowStoreFileSystem.class.getName());
        conf.setLong("slowstore.latency.ms", latencyMs);
        conf.setLong("slowstore.bytes.per.second", bytesPerSecond);
        remote = new org.apache.hadoop.fs.Path("slowstore://" + file.toAbsolutePath());
        pool = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "remote-store-prefetch");
            t.setDaemon(true);
            return t;
        });
        checkRequests();
    }

    /** Q20 reads one column: at most one request per row group, plus the footer's one or two. */
    void checkRequests() throws IOException {
        try (Arena arena = Arena.ofConfined(); ParquetSource source = ParquetSources.hadoop(remote, conf);
                ParquetViewReader reader = ParquetViewReader.open(source, arena,
                        Query.viewOptions(q20.column()).withPrefetch(pool))) {
            while (reader.nextBatch() != null) {
                // read every row group
            }
            ReadCounters counters = reader.readCounters();
            long bound = (long) reader.columns().size() * reader.rowGroupCount() + 2;
            System.out.println("RemoteStoreBenchmark: Q20 rowGroups=" + reader.rowGroupCount() + " " + counters
                    + " bound=" + bound);
            if (counters.requests() > bound) {
                throw new IllegalStateException("Q20 made more requests than its plan allows: requests="
                        + counters.requests() + " bound=" + bound);
            }
        }
    }

    @TearDown
    public void tearDown() {
        pool.shutdownNow();
    }

    /** This library, the next row group read on the executor while one is decoded. */
    @Benchmark
    public long viewsPrefetch() throws IOException {
        try (ParquetSource source = ParquetSources.hadoop(remote, conf)) {
            return q20.countViews(source, pool);
        }
    }

    /** This library, each row group read when the reader reaches it. */
    @Benchmark
    public long viewsNoPrefetch() throws IOException {
        try (ParquetSource source = ParquetSources.hadoop(remote, conf)) {
            return q20.countViews(source, null);
        }
    }

    /** parquet-java's reader over the same store, Hadoop vectored reads on, each value's bytes compared. */
    @Benchmark
    public long parquetJavaVectored() throws IOException {
        ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration())
                .withCodecFactory(new JniCodecs()).withUseHadoopVectoredIo(true).build();
        return q20.countParquetJavaBytes(HadoopInputFile.fromPath(remote, conf), options);
    }

    /** The reference without a store: the local file, memory-mapped. */
    @Benchmark
    public long viewsLocalMapped() throws IOException {
        return q20.countViews(file);
    }
}
