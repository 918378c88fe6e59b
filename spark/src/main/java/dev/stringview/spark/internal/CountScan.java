package dev.stringview.spark.internal;

import dev.stringview.parquet.RowFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * A scan that answers a pushed-down {@code COUNT(*)} / {@code COUNT(column)} (partially: Spark adds the partitions'
 * counts up): each input partition returns one row of counts, one per aggregate, so no table row reaches Spark.
 *
 * <p>Partitions are the row groups that parquet-reader's pruning does not rule out for every aggregate; when every
 * aggregate is counted by parquet-reader ({@link CountPlan#sliceable()}), a row group is cut into slices of its
 * pages, so that there are about two partitions per task slot ({@code defaultParallelism}) even on a file with one
 * row group. There is always at least one partition, so an empty or fully skipped table still yields one row of
 * zeros.
 */
final class CountScan implements Scan, Batch {
    /** At most this many slices per row group: each slice parses the chunk's page headers again. */
    static final int MAX_SLICES = 16;

    private final List<Path> files;
    private final CountPlan plan;
    private final String description;

    CountScan(List<Path> files, CountPlan plan, String description) {
        this.files = files;
        this.plan = plan;
        this.description = description;
    }

    @Override
    public StructType readSchema() {
        StructType schema = new StructType();
        for (int i = 0; i < plan.counts().size(); i++) {
            schema = schema.add("count_" + i, DataTypes.LongType, false);
        }
        return schema;
    }

    @Override
    public String description() {
        return "StringviewCount[files=" + files.size() + " " + description + "]";
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        List<long[]> groups = new ArrayList<>(); // file index, row group, rows
        for (int i = 0; i < files.size(); i++) {
            ParquetMetadata footer = ParquetLayout.footer(files.get(i));
            // A row group is read if any aggregate may count a row of it (no filter: every row).
            Set<Integer> read = new java.util.HashSet<>();
            boolean all = plan.counts().stream().anyMatch(f -> f == null);
            for (RowFilter f : all ? List.<RowFilter>of() : plan.counts()) {
                read.addAll(ViewScan.rowGroupsToRead(files.get(i), f));
            }
            for (int g = 0; g < footer.getBlocks().size(); g++) {
                long rows = footer.getBlocks().get(g).getRowCount();
                if (rows > 0 && (all || read.contains(g))) {
                    groups.add(new long[] {i, g, rows});
                }
            }
        }
        int slices = 1;
        if (plan.sliceable() && !groups.isEmpty() && plan.counts().stream().anyMatch(f -> f != null)) {
            int target = 2 * Math.max(1, parallelism());
            slices = Math.min(MAX_SLICES, Math.max(1, (target + groups.size() - 1) / groups.size()));
        }
        List<InputPartition> partitions = new ArrayList<>();
        for (long[] g : groups) {
            for (int s = 0; s < slices; s++) {
                partitions.add(new CountPartition(files.get((int) g[0]).toString(), (int) g[1], g[2], s, slices));
            }
        }
        if (partitions.isEmpty()) {
            // One partition that counts nothing: Spark sums the partitions' rows, and a sum of no rows is NULL.
            partitions.add(new CountPartition(files.get(0).toString(), -1, 0, 0, 1));
        }
        return partitions.toArray(InputPartition[]::new);
    }

    private static int parallelism() {
        return SparkSession.getActiveSession().map(s -> s.sparkContext().defaultParallelism()).getOrElse(() -> 1);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new CountReaderFactory(plan);
    }

    @Override
    public ColumnarSupportMode columnarSupportMode() {
        return ColumnarSupportMode.UNSUPPORTED;
    }

    /** Each partition's one row of counts. */
    static final class CountReaderFactory implements PartitionReaderFactory {
        private static final long serialVersionUID = 1L;
        private final CountPlan plan;

        CountReaderFactory(CountPlan plan) {
            this.plan = plan;
        }

        @Override
        public PartitionReader<InternalRow> createReader(InputPartition partition) {
            CountPartition p = (CountPartition) partition;
            return new PartitionReader<>() {
                private InternalRow row;
                private boolean done;

                @Override
                public boolean next() {
                    if (done) {
                        return false;
                    }
                    done = true;
                    long[] counts;
                    try {
                        counts = p.rowGroup() < 0 ? new long[plan.counts().size()] : plan.count(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException("count failed: file=" + p.file() + " rowGroup="
                                + p.rowGroup() + " slice=" + p.slice() + " slices=" + p.slices() + ": "
                                + e.getMessage(), e);
                    }
                    Object[] values = new Object[counts.length];
                    for (int i = 0; i < counts.length; i++) {
                        values[i] = counts[i];
                    }
                    row = new GenericInternalRow(values);
                    return true;
                }

                @Override
                public InternalRow get() {
                    return row;
                }

                @Override
                public void close() {}
            };
        }
    }
}
