package dev.stringview.parquet;

import dev.stringview.ViewColumn;
import java.util.List;
import java.util.Objects;

/**
 * Rows {@code [firstRow, firstRow + rowCount)} of the file, all from one row group, as one {@link ViewColumn} per
 * projected column (in projection order). The columns' memory belongs to the arena the reader was opened with, or,
 * with {@link ParquetViewOptions#withBatchScopedMemory batch-scoped memory}, to the reader until its next batch.
 */
public final class ViewBatch {
    private final int rowGroup;
    private final long firstRow;
    private final int rowCount;
    private final List<String> names;
    private final List<ViewColumn> columns;

    ViewBatch(int rowGroup, long firstRow, int rowCount, List<String> names, List<ViewColumn> columns) {
        this.rowGroup = rowGroup;
        this.firstRow = firstRow;
        this.rowCount = rowCount;
        this.names = List.copyOf(names);
        this.columns = List.copyOf(columns);
    }

    /** The row group the rows come from. */
    public int rowGroup() {
        return rowGroup;
    }

    /** Index of the batch's first row in the file. */
    public long firstRow() {
        return firstRow;
    }

    public int rowCount() {
        return rowCount;
    }

    /** The projected column names, in order. */
    public List<String> columnNames() {
        return names;
    }

    public List<ViewColumn> columns() {
        return columns;
    }

    public ViewColumn column(int index) {
        return columns.get(index);
    }

    /** The column named {@code name}. */
    public ViewColumn column(String name) {
        int index = names.indexOf(Objects.requireNonNull(name, "name"));
        if (index < 0) {
            throw new IllegalArgumentException("column not in batch: column=" + name + " columns=" + names);
        }
        return columns.get(index);
    }
}
