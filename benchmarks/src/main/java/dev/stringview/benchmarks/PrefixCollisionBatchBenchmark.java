package dev.stringview.benchmarks;

import org.openjdk.jmh.annotations.Param;

/**
 * Suite 1's cache-resident batch (8192 contiguous rows) in the prefix-collision variant: every value starts with
 * the same four bytes as the constants, so the view prefix decides nothing and every long row must look past it
 * (arrow-rs#7351: views lost to offsets there). Scores are ns/row.
 */
public class PrefixCollisionBatchBenchmark extends CacheResidentBatchBenchmark {
    /**
     * Distinct 4-byte prefixes: 1 (the default, the published variant) gives every value the constants' prefix;
     * {@code -p prefixes=2} gives it to half of them (for {@code equal}, {@code lessThan} and {@code startsWith}).
     */
    @Param("1")
    public int prefixes = 1; // also when built outside JMH (PeerKernelsAgreeTest)

    @Override
    int prefixes() {
        return prefixes;
    }
}
