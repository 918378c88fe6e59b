package dev.stringview.spark.internal;

import dev.stringview.parquet.ParquetScan;
import dev.stringview.parquet.RowFilter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;

/**
 * The planned scan: one input partition per row group that parquet-reader's pruning (statistics, bloom filters,
 * dictionaries, page index, all from the one {@link RowFilter}) does not rule out.
 */
final class ViewScan implements Scan, Batch {
    private final List<Path> files;
    private final ScanPlan plan;
    private int rowGroups;
    private int skipped;

    ViewScan(List<Path> files, ScanPlan plan) {
        this.files = files;
        this.plan = plan;
    }

    @Override
    public org.apache.spark.sql.types.StructType readSchema() {
        return plan.output();
    }

    @Override
    public String description() {
        return "StringviewScan[files=" + files.size() + " columns=" + plan.output().fieldNames().length
                + " filter=" + plan.filter() + "]";
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        List<InputPartition> partitions = new ArrayList<>();
        rowGroups = 0;
        skipped = 0;
        for (Path file : files) {
            ParquetMetadata footer = ParquetLayout.footer(file);
            List<Integer> read = plan.filter() == null ? null : rowGroupsToRead(file, plan.filter());
            for (int g = 0; g < footer.getBlocks().size(); g++) {
                long rows = footer.getBlocks().get(g).getRowCount();
                rowGroups++;
                if (rows == 0 || (read != null && !read.contains(g))) {
                    skipped++;
                    continue;
                }
                partitions.add(new RowGroupPartition(file.toString(), g, rows));
            }
        }
        return partitions.toArray(InputPartition[]::new);
    }

    /** The row groups of {@code file} where {@code filter} may be TRUE. */
    static List<Integer> rowGroupsToRead(Path file, RowFilter filter) {
        try {
            return ParquetScan.of(file).rowGroupsToRead(filter);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot plan the scan: file=" + file + ": " + e.getMessage(), e);
        }
    }

    /** Row groups seen and skipped by the last {@link #planInputPartitions()} (for tests). */
    int[] lastPlanCounts() {
        return new int[] {rowGroups, skipped};
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new RowGroupReaderFactory(plan);
    }

    @Override
    public ColumnarSupportMode columnarSupportMode() {
        return ColumnarSupportMode.SUPPORTED;
    }
}
