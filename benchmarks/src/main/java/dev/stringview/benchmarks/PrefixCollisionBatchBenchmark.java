package dev.stringview.benchmarks;

/**
 * Suite 1's cache-resident batch (8192 contiguous rows) in the prefix-collision variant: every value starts with
 * the same four bytes as the constants, so the view prefix decides nothing and every long row must look past it
 * (arrow-rs#7351: views lost to offsets there). Scores are ns/row.
 */
public class PrefixCollisionBatchBenchmark extends CacheResidentBatchBenchmark {
    @Override
    int prefixes() {
        return 1;
    }
}
