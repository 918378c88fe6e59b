package dev.stringview.benchmarks;

import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * Suite 1, a cache-resident batch: 8192 contiguous rows (128 KiB of views plus at most 200 KiB of bytes), the
 * size of one batch of a vectorized engine, scanned again and again from L1/L2. This isolates the kernels'
 * instruction costs from memory. Scores are ns/row.
 */
@OperationsPerInvocation(CacheResidentBatchBenchmark.ROWS)
public class CacheResidentBatchBenchmark extends PrefixCompareBenchmark {
    static final int ROWS = 8192;

    /** Keep at {@value #ROWS}: the score divides by that. Smaller values are for the smoke test only. */
    @Param("8192")
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
