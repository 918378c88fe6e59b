package dev.stringview.flink.internal;

import dev.stringview.parquet.RowFilter;
import java.io.IOException;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The {@link BulkFormat} Flink's filesystem connector runs on each split: {@link ViewSplitReader} reads the row
 * groups whose midpoint lies in the split through one {@code ParquetViewReader}, runs the pushed filter on each
 * batch's views and hands Flink only the rows where it is TRUE. Splittable: the connector cuts files into splits
 * (HDFS blocks), and each row group belongs to exactly one split, as in parquet-java.
 *
 * <p>Serializable: it travels from the planner to the task managers with the projected row type, the filter (a
 * {@link RowFilter} value) and the options.
 */
final class ViewBulkFormat implements BulkFormat<RowData, FileSourceSplit> {
    private static final long serialVersionUID = 1L;

    private final String table;
    private final RowType fileRow;
    private final RowType produced;
    private final RowFilter filter;
    private final ReadSettings settings;
    private final TypeInformation<RowData> producedType;

    /**
     * @param table the table, for messages
     * @param fileRow the columns stored in the files (the table's physical columns but the partition columns)
     * @param produced the columns each row carries, in order (a projection of {@code fileRow})
     * @param filter the pushed filter, or null
     */
    ViewBulkFormat(String table, RowType fileRow, RowType produced, RowFilter filter, ReadSettings settings,
            TypeInformation<RowData> producedType) {
        this.table = table;
        this.fileRow = fileRow;
        this.produced = produced;
        this.filter = filter;
        this.settings = settings;
        this.producedType = producedType;
    }

    @Override
    public Reader<RowData> createReader(Configuration config, FileSourceSplit split) throws IOException {
        return ViewSplitReader.open(this, split, null);
    }

    @Override
    public Reader<RowData> restoreReader(Configuration config, FileSourceSplit split) throws IOException {
        return ViewSplitReader.open(this, split, split.getReaderPosition().orElse(null));
    }

    @Override
    public boolean isSplittable() {
        return true;
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return producedType;
    }

    String table() {
        return table;
    }

    RowType fileRow() {
        return fileRow;
    }

    RowType produced() {
        return produced;
    }

    RowFilter filter() {
        return filter;
    }

    ReadSettings settings() {
        return settings;
    }

    /** The columns a split reads: the produced ones, then those only the filter reads. */
    List<String> columnsRead() {
        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>(produced.getFieldNames());
        if (filter != null) {
            names.addAll(filter.columns());
        }
        return List.copyOf(names);
    }

    @Override
    public String toString() {
        return "ViewBulkFormat[table=" + table + " columns=" + produced.getFieldNames() + " filter=" + filter + "]";
    }
}
