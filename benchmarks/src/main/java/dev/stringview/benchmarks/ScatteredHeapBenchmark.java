package dev.stringview.benchmarks;

import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * Suite 1, scattered heap (seed 001's first table): 1M rows whose bytes sit at random offsets of a 256 MiB buffer,
 * far beyond the L3 cache, so every read of a value's bytes is a DRAM miss. The 16 MB of views or records stay
 * cache-friendly. Scores are ns/row.
 */
@OperationsPerInvocation(ScatteredHeapBenchmark.ROWS)
public class ScatteredHeapBenchmark extends PrefixCompareBenchmark {
    static final int ROWS = 1_000_000;

    /** Keep at {@value #ROWS}: the score divides by that. Smaller values are for the smoke test only. */
    @Param("1000000")
    public int rows;

    @Param("268435456")
    public long heapBytes;

    @Override
    StringHeap.Layout layout() {
        return StringHeap.Layout.SCATTERED;
    }

    @Override
    int rows() {
        return rows;
    }

    @Override
    long heapBytes() {
        return heapBytes;
    }
}
