package dev.stringview.benchmarks;

import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.ViewBatch;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Suite 2 (seed 000's "loading StringView is ~2x faster"): one string column of a 1M-row file from disk (the OS
 * page cache) to values in memory, batch by batch. Engines: this library's views ({@code stringview-parquet},
 * UTF-8 validation on, as by default), parquet-java's standard path ({@code ColumnReader.getBinary()} then
 * {@code getBytes()} or {@code toStringUsingUTF8()}), and that path filling an Arrow {@link VarCharVector} of
 * 8192 rows at a time. Baseline: {@link #parquetJavaBytes}. Scores are ns/value; run with {@code -prof gc} for
 * bytes allocated per value ({@code gc.alloc.rate.norm}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {Jvm.XMX, Jvm.ADD_OPENS_NIO, Jvm.NETTY_REFLECTION, Jvm.NETTY_UNSAFE,
        Jvm.ARROW_UNSAFE, Jvm.NATIVE_ACCESS, Jvm.VECTOR})
@OperationsPerInvocation(ParquetLoadBenchmark.ROWS)
public class ParquetLoadBenchmark {
    static final int ROWS = 1_000_000;
    static final int BATCH = 8192;

    @Param({"plainShort", "plainLong", "dictionary", "snappy", "zstd"})
    public String dataset;

    /** Keep at {@value #ROWS}: the score divides by that. Smaller values are for the smoke test only. */
    @Param("1000000")
    public int rows;

    Path file;
    BufferAllocator allocator;
    VarCharVector vector;

    @Setup
    public void setup() {
        file = LoadData.file(Locations.benchData(), dataset, rows);
        WarmUpGates.viewWords(); // the vector loops, where the JVM has them (decision record 001)
        allocator = new RootAllocator();
        vector = new VarCharVector(LoadData.COLUMN, allocator);
        vector.allocateNew(BATCH * 64L, BATCH);
    }

    @TearDown
    public void tearDown() {
        vector.close();
        allocator.close();
    }

    /** This library: a ViewColumn per batch, views pointing into the mapped or decompressed pages. */
    @Benchmark
    public long views(Blackhole bh) throws IOException {
        long n = 0;
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(file, arena,
                        ParquetViewOptions.defaults().withColumns(LoadData.COLUMN).withBatchSize(BATCH))) {
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                bh.consume(batch.column(0));
                n += batch.rowCount();
            }
        }
        return n;
    }

    /** Baseline: parquet-java's ColumnReader, each value copied out as a byte[]. */
    @Benchmark
    public long parquetJavaBytes(Blackhole bh) throws IOException {
        return ParquetFiles.scan(file, LoadData.COLUMN, value -> bh.consume(value.getBytes()));
    }

    /** parquet-java's ColumnReader, each value decoded to a String. */
    @Benchmark
    public long parquetJavaString(Blackhole bh) throws IOException {
        return ParquetFiles.scan(file, LoadData.COLUMN, value -> bh.consume(value.toStringUsingUTF8()));
    }

    /** parquet-java's ColumnReader filling an Arrow VarCharVector, 8192 values per batch. */
    @Benchmark
    public long arrowVarChar(Blackhole bh) throws IOException {
        ArrowFiller filler = new ArrowFiller(vector, bh);
        long n = ParquetFiles.scan(file, LoadData.COLUMN, filler);
        filler.flush();
        return n;
    }

    private static final class ArrowFiller extends VarCharFiller {
        final Blackhole bh;

        ArrowFiller(VarCharVector vector, Blackhole bh) {
            super(vector, BATCH);
            this.bh = bh;
        }

        @Override
        void flush() {
            vector.setValueCount(index);
            bh.consume(vector);
            vector.reset();
            index = 0;
        }
    }
}
