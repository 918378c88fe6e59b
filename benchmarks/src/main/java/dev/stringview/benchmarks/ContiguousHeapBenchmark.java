package dev.stringview.benchmarks;

import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * Suite 1, contiguous heap (seed 001's second table): 10M rows whose bytes follow one another in row order, so
 * the hardware prefetcher hides the cost of following each pointer. 160 MB of views or records stream from DRAM;
 * the floor is {@link StreamingBandwidthBenchmark}. Scores are ns/row.
 */
@OperationsPerInvocation(ContiguousHeapBenchmark.ROWS)
public class ContiguousHeapBenchmark extends PrefixCompareBenchmark {
    static final int ROWS = 10_000_000;

    /** Keep at {@value #ROWS}: the score divides by that. Smaller values are for the smoke test only. */
    @Param("10000000")
    public int rows;

    @Override
    StringHeap.Layout layout() {
        return StringHeap.Layout.CONTIGUOUS;
    }

    @Override
    int rows() {
        return rows;
    }

    @Override
    long heapBytes() {
        return 0;
    }
}
