package dev.stringview.parquet;

import dev.stringview.parquet.internal.BoundFilter;
import dev.stringview.parquet.internal.ValueDomain;
import java.util.Objects;

/**
 * A {@link RowFilter} bound to one file's schema, for engines that read batches themselves (the Spark and Flink
 * connectors) and want the rows where the filter is TRUE: string leaves compiled to core's predicates once, value
 * leaves checked against their columns' logical types. The batches must hold every column the filter reads.
 * Immutable and safe to share between threads; the scratch bitmaps are the caller's. It allocates no off-heap
 * memory and keeps no reference to a batch, which it reads during the call on the calling thread.
 */
public final class BatchFilter {
    private final BoundFilter bound;
    private final java.util.function.Function<String, ValueDomain> domains;

    private BatchFilter(BoundFilter bound, java.util.function.Function<String, ValueDomain> domains) {
        this.bound = bound;
        this.domains = domains;
    }

    /**
     * {@code filter} bound to the schema of {@code file}'s reader.
     *
     * @throws IllegalArgumentException naming the column, for a column the file lacks, a nested one, or a
     *     constant that does not compare with the column's type
     */
    public static BatchFilter of(RowFilter filter, ParquetViewReader file) {
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(file, "file");
        java.util.function.Function<String, ValueDomain> domains = c -> ValueDomain.of(file.primitiveType(c));
        return new BatchFilter(BoundFilter.bind(filter, domains), domains);
    }

    public RowFilter filter() {
        return bound.filter();
    }

    /**
     * Sets bit {@code r} of {@code trueBits} where the filter is TRUE on row {@code r} of {@code batch}, of
     * {@code falseBits} where it is FALSE (neither: NULL). Both need {@code ceil(batch.rowCount() / 64)} words.
     */
    public void evaluate(ViewBatch batch, long[] trueBits, long[] falseBits) {
        int words = (batch.rowCount() + 63) >>> 6;
        if (trueBits.length < words || falseBits.length < words) {
            throw new IllegalArgumentException("bitmap too small: words=" + Math.min(trueBits.length,
                    falseBits.length) + " rows=" + batch.rowCount() + " neededWords=" + words);
        }
        bound.evaluate(ParquetScan.rows(batch, domains), trueBits, falseBits);
    }

    /**
     * Writes the rows of {@code batch} where the filter is TRUE to {@code out}, ascending, and returns how many.
     *
     * @param out room for {@code batch.rowCount()} rows
     */
    public int select(ViewBatch batch, int[] out) {
        int rows = batch.rowCount();
        if (out.length < rows) {
            throw new IllegalArgumentException("output too small: outLength=" + out.length + " rows=" + rows);
        }
        int words = (rows + 63) >>> 6;
        long[] t = new long[Math.max(1, words)];
        long[] f = new long[t.length];
        bound.evaluate(ParquetScan.rows(batch, domains), t, f);
        int n = 0;
        for (int w = 0; w < words; w++) {
            for (long bits = t[w]; bits != 0; bits &= bits - 1) {
                out[n++] = (w << 6) + Long.numberOfTrailingZeros(bits);
            }
        }
        return n;
    }

    @Override
    public String toString() {
        return "BatchFilter[" + bound + "]";
    }
}
