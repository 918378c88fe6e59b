package dev.stringview.arrow;

import dev.stringview.ViewColumn;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Named view columns of equal length: one Arrow record batch (a {@code VectorSchemaRoot}, a C Data struct array,
 * an IPC record batch) as stringview sees it. Immutable; owns no memory (each column's segments belong to whoever
 * made them, see {@link ViewColumn}).
 */
public final class ViewTable {
    private final List<String> names;
    private final List<ViewColumn> columns;
    private final int rowCount;

    private ViewTable(List<String> names, List<ViewColumn> columns, int rowCount) {
        this.names = names;
        this.columns = columns;
        this.rowCount = rowCount;
    }

    /**
     * A table of {@code columns} named {@code names} in that order.
     *
     * @throws IllegalArgumentException if the lists differ in size, a name repeats, or the columns differ in length
     */
    public static ViewTable of(List<String> names, List<ViewColumn> columns) {
        List<String> n = List.copyOf(names);
        List<ViewColumn> c = List.copyOf(columns);
        if (n.size() != c.size()) {
            throw new IllegalArgumentException("names and columns differ: names=" + n.size() + " columns=" + c.size());
        }
        if (c.isEmpty()) {
            throw new IllegalArgumentException("a table needs at least one column: columns=0");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < n.size(); i++) {
            if (!seen.add(n.get(i))) {
                throw new IllegalArgumentException("duplicate column name: column=" + i + " name=" + n.get(i));
            }
            if (c.get(i).size() != c.get(0).size()) {
                throw new IllegalArgumentException("columns differ in length: column=" + i + " name=" + n.get(i)
                        + " rows=" + c.get(i).size() + " expected=" + c.get(0).size());
            }
        }
        return new ViewTable(n, c, c.get(0).size());
    }

    /** A table of one column. */
    public static ViewTable of(String name, ViewColumn column) {
        return of(List.of(name), List.of(column));
    }

    public int rowCount() {
        return rowCount;
    }

    public int columnCount() {
        return columns.size();
    }

    /** Column names in order. */
    public List<String> names() {
        return names;
    }

    /** Columns in order. */
    public List<ViewColumn> columns() {
        return columns;
    }

    public ViewColumn column(int index) {
        Objects.checkIndex(index, columns.size());
        return columns.get(index);
    }

    /** @throws IllegalArgumentException naming the column and the names there are */
    public ViewColumn column(String name) {
        int index = names.indexOf(name);
        if (index < 0) {
            throw new IllegalArgumentException("no such column: name=" + name + " columns=" + names);
        }
        return columns.get(index);
    }

    /** Only the named columns, in the order given. */
    public ViewTable select(List<String> selected) {
        List<ViewColumn> picked = new ArrayList<>(selected.size());
        for (String name : selected) {
            picked.add(column(name));
        }
        return of(selected, picked);
    }

    @Override
    public String toString() {
        return "ViewTable[rows=" + rowCount + " columns=" + names + "]";
    }
}
