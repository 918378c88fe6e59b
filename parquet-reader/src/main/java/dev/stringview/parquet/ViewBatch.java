package dev.stringview.parquet;

import dev.stringview.ViewColumn;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Rows {@code [firstRow, firstRow + rowCount)} of the file, all from one row group, one column per projected column
 * (in projection order): a {@link ViewColumn} for string and binary columns, a {@link FixedWidthColumn} for every
 * other flat type ({@link #isFixedWidth}).
 *
 * <p><b>Memory.</b> A batch owns nothing. Its columns' memory belongs to the arena the reader was opened with and
 * is freed when the caller closes it; with {@link ParquetViewOptions#withBatchScopedMemory batch-scoped memory} it
 * belongs to the reader, which frees it at its next {@link ParquetViewReader#nextBatch} or its
 * {@link ParquetViewReader#close}, and is confined to the thread that opened the reader (views into the mapped file
 * still point into the caller's arena). A batch handed to a
 * {@link ParquetScan} consumer is valid only during that call. Access after the memory is freed throws
 * {@link IllegalStateException}; copy what must outlive it with {@code ViewColumn.compact}.
 */
public final class ViewBatch {
    private final int rowGroup;
    private final long firstRow;
    private final int rowCount;
    private final List<String> names;
    /** Each a {@link ViewColumn} or a {@link FixedWidthColumn}. */
    private final List<Object> columns;

    ViewBatch(int rowGroup, long firstRow, int rowCount, List<String> names, List<?> columns) {
        this.rowGroup = rowGroup;
        this.firstRow = firstRow;
        this.rowCount = rowCount;
        this.names = List.copyOf(names);
        this.columns = Collections.unmodifiableList(new ArrayList<>(columns));
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

    /**
     * Every column as a view column.
     *
     * @throws IllegalStateException if a column is fixed-width (read those with {@link #fixedWidthColumn})
     */
    public List<ViewColumn> columns() {
        List<ViewColumn> views = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            views.add(column(i));
        }
        return Collections.unmodifiableList(views);
    }

    /** Whether column {@code index} is a {@link FixedWidthColumn} (else a {@link ViewColumn}). */
    public boolean isFixedWidth(int index) {
        return columns.get(Objects.checkIndex(index, columns.size())) instanceof FixedWidthColumn;
    }

    /**
     * The string or binary column at {@code index}.
     *
     * @throws IllegalStateException if it is fixed-width
     */
    public ViewColumn column(int index) {
        Object column = columns.get(Objects.checkIndex(index, columns.size()));
        if (column instanceof FixedWidthColumn fixed) {
            throw new IllegalStateException("column is fixed-width, not views: column=" + names.get(index)
                    + " index=" + index + " type=" + fixed.type() + " (read it with fixedWidthColumn)");
        }
        return (ViewColumn) column;
    }

    /** The string or binary column named {@code name}. */
    public ViewColumn column(String name) {
        return column(indexOf(name));
    }

    /**
     * The fixed-width column at {@code index}.
     *
     * @throws IllegalStateException if it is a string or binary column (read it with {@link #column})
     */
    public FixedWidthColumn fixedWidthColumn(int index) {
        Object column = columns.get(Objects.checkIndex(index, columns.size()));
        if (column instanceof ViewColumn views) {
            throw new IllegalStateException("column is views, not fixed-width: column=" + names.get(index)
                    + " index=" + index + " kind=" + views.kind() + " (read it with column)");
        }
        return (FixedWidthColumn) column;
    }

    /** The fixed-width column named {@code name}. */
    public FixedWidthColumn fixedWidthColumn(String name) {
        return fixedWidthColumn(indexOf(name));
    }

    private int indexOf(String name) {
        int index = names.indexOf(Objects.requireNonNull(name, "name"));
        if (index < 0) {
            throw new IllegalArgumentException("column not in batch: column=" + name + " columns=" + names);
        }
        return index;
    }
}
