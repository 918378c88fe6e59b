package dev.stringview.benchmarks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
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

/**
 * The floor for Suite 1's contiguous scans: this machine's single-core streaming read bandwidth, measured by
 * summing the longs of a 1 GiB off-heap segment (four independent sums, so the adds never limit). The score is
 * ns per 16 bytes, the cost of streaming one view or one pointer+length record from DRAM; GB/s = 16 / score.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {Jvm.XMX})
@OperationsPerInvocation(StreamingBandwidthBenchmark.BYTES / 16)
public class StreamingBandwidthBenchmark {
    static final int BYTES = 1 << 30;

    /** Keep at {@value #BYTES}: the score divides by {@code BYTES / 16}. Smaller values are for the smoke test. */
    @Param("1073741824")
    public long bytes;

    private Arena arena;
    private MemorySegment segment;

    @Setup
    public void setup() {
        arena = Arena.ofShared();
        segment = arena.allocate(bytes, 4096);
        for (long i = 0; i < bytes; i += 8) {
            segment.set(ValueLayout.JAVA_LONG, i, i);
        }
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    /** Sums every long of the segment. */
    @Benchmark
    public long sumLongs() {
        MemorySegment s = segment;
        long n = s.byteSize() & ~31L;
        long a = 0;
        long b = 0;
        long c = 0;
        long d = 0;
        for (long i = 0; i < n; i += 32) {
            a += s.get(ValueLayout.JAVA_LONG, i);
            b += s.get(ValueLayout.JAVA_LONG, i + 8);
            c += s.get(ValueLayout.JAVA_LONG, i + 16);
            d += s.get(ValueLayout.JAVA_LONG, i + 24);
        }
        return a + b + c + d;
    }
}
