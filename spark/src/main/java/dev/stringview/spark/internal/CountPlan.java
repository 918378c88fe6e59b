package dev.stringview.spark.internal;

import dev.stringview.parquet.ParquetScan;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.RowFilter;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.StructType;

/**
 * A pushed-down {@code COUNT(*)} / {@code COUNT(column)} without GROUP BY, shipped to the executors: per aggregate,
 * the rows it counts, as a {@link RowFilter} (null: every row). {@code COUNT(*)} counts the rows where the pushed
 * filter is TRUE; {@code COUNT(s)} those where it is TRUE and {@code s} is not null.
 *
 * <p>A partition counts one aggregate with no filter as the row group's row count from the footer, nothing read;
 * with one, by parquet-reader's {@link ParquetScan#countRowGroup}: pruning from the one expression, a filter that
 * is one string leaf (plus the {@code IS NOT NULL} tests Spark and {@code COUNT(s)} add) decided while pages are
 * decoded (dictionary ids, page search), any other tree on batches of its columns. A filter on one column can count
 * a slice of a row group, so one large row group still keeps every task slot busy. Every count is exact: the rows
 * Spark would count after reading every row.
 */
record CountPlan(StructType table, List<RowFilter> counts, int batchSize, boolean validateUtf8)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    CountPlan {
        counts = java.util.Collections.unmodifiableList(new ArrayList<>(counts)); // may hold nulls
    }

    /**
     * Whether slicing a row group pays: every filter reads at most one column (a filter on several is counted whole
     * by slice 0, the other slices count 0).
     */
    boolean sliceable() {
        return counts.stream().allMatch(f -> f == null || f.columns().size() <= 1);
    }

    /** The counts of one partition, one per aggregate. */
    long[] count(CountPartition p) throws IOException {
        long[] out = new long[counts.size()];
        for (int i = 0; i < out.length; i++) {
            RowFilter filter = counts.get(i);
            out[i] = filter == null ? (p.slice() == 0 ? p.rows() : 0)
                    : ParquetScan.of(Path.of(p.file()))
                            .withOptions(ParquetViewOptions.defaults().withBatchSize(batchSize)
                                    .withUtf8Validation(validateUtf8))
                            .countRowGroup(filter, p.rowGroup(), p.slice(), p.slices());
        }
        return out;
    }
}
