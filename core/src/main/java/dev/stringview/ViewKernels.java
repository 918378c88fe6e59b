package dev.stringview;

import java.util.Arrays;
import java.util.Objects;

/**
 * Kernels over whole columns: column-versus-column comparison, hashing, sorting and distinct counting. Like the
 * predicates they decide from the views first and read data buffers only when the views cannot tell.
 */
public final class ViewKernels {
    private ViewKernels() {}

    /**
     * Writes the rows {@code i} where {@code left[i] <op> right[i]} holds (both non-null) to {@code out}, ascending,
     * and returns their number.
     */
    public static int compare(Comparison comparison, ViewColumn left, ViewColumn right, int[] out) {
        checkSameSize(left, right);
        checkOutput(out, left.size());
        return compareRows(comparison, left, right, null, 0, left.size(), out);
    }

    /** Like {@link #compare(Comparison, ViewColumn, ViewColumn, int[])} over the rows of a selection. */
    public static int compare(Comparison comparison, ViewColumn left, ViewColumn right, int[] selection,
            int selectionSize, int[] out) {
        checkSameSize(left, right);
        ViewPredicate.checkSelection(left, selection, selectionSize);
        checkOutput(out, selectionSize);
        return compareRows(comparison, left, right, selection, 0, selectionSize, out);
    }

    private static int compareRows(Comparison comparison, ViewColumn left, ViewColumn right, int[] selection,
            int from, int to, int[] out) {
        boolean hasNulls = left.hasNulls() || right.hasNulls();
        boolean equality = comparison == Comparison.EQUAL || comparison == Comparison.NOT_EQUAL;
        int found = 0;
        for (int i = from; i < to; i++) {
            int row = selection == null ? i : selection[i];
            if (hasNulls && (!left.isValid(row) || !right.isValid(row))) {
                continue;
            }
            int cmp = equality ? (ViewColumn.Rows.equal(left, row, right, row) ? 0 : 1)
                    : ViewColumn.Rows.compare(left, row, right, row);
            if (comparison.accepts(cmp)) {
                out[found++] = row;
            }
        }
        return found;
    }

    /**
     * Fills {@code out[row]} with {@link ViewColumn#hash(int)} of every row: equal bytes give equal hashes
     * whatever buffer they sit in; null rows hash to 0.
     */
    public static void hash(ViewColumn column, long[] out) {
        checkOutput(out.length, column.size());
        for (int row = 0; row < column.size(); row++) {
            out[row] = column.hash(row);
        }
    }

    /**
     * The row order that sorts the column ascending in unsigned bytewise order, stable, nulls last.
     *
     * <p>Each non-null row gets a 64-bit key: its 4-byte prefix read big-endian (so it orders like the bytes)
     * above its row number. One primitive sort of the keys orders rows by prefix, and stably; only runs of rows
     * that share a prefix are then refined by full comparisons, which read inline bytes from the views and
     * buffer bytes only for long values.
     */
    public static int[] argsort(ViewColumn column) {
        int size = column.size();
        long[] keys = new long[size - column.nullCount()];
        int[] order = new int[size];
        int nonNull = 0;
        int nullAt = keys.length;
        for (int row = 0; row < size; row++) {
            if (!column.isValid(row)) {
                order[nullAt++] = row;
                continue;
            }
            long prefix = Integer.reverseBytes((int) (column.word0(row) >>> 32)) & 0xFFFF_FFFFL;
            // Flip the top bit so signed order of the keys is unsigned order of the prefixes.
            keys[nonNull++] = ((prefix << 32) | row) ^ Long.MIN_VALUE;
        }
        Arrays.sort(keys);
        for (int i = 0; i < keys.length; i++) {
            order[i] = (int) keys[i];
        }
        int[] scratch = new int[keys.length];
        for (int start = 0; start < keys.length; ) {
            long prefix = keys[start] >>> 32;
            int end = start + 1;
            while (end < keys.length && keys[end] >>> 32 == prefix) {
                end++;
            }
            if (end - start > 1) {
                mergeSort(column, order, scratch, start, end);
            }
            start = end;
        }
        return order;
    }

    /** Stable merge sort of {@code rows[from..to)} by value; rows arrive in ascending row order. */
    private static void mergeSort(ViewColumn column, int[] rows, int[] scratch, int from, int to) {
        if (to - from <= 16) {
            for (int i = from + 1; i < to; i++) {
                int row = rows[i];
                int j = i - 1;
                while (j >= from && ViewColumn.Rows.compare(column, rows[j], column, row) > 0) {
                    rows[j + 1] = rows[j];
                    j--;
                }
                rows[j + 1] = row;
            }
            return;
        }
        int middle = (from + to) >>> 1;
        mergeSort(column, rows, scratch, from, middle);
        mergeSort(column, rows, scratch, middle, to);
        if (ViewColumn.Rows.compare(column, rows[middle - 1], column, rows[middle]) <= 0) {
            return;
        }
        System.arraycopy(rows, from, scratch, from, to - from);
        int a = from;
        int b = middle;
        for (int k = from; k < to; k++) {
            if (b >= to || (a < middle && ViewColumn.Rows.compare(column, scratch[a], column, scratch[b]) <= 0)) {
                rows[k] = scratch[a++];
            } else {
                rows[k] = scratch[b++];
            }
        }
    }

    /**
     * Number of distinct non-null values (SQL {@code COUNT(DISTINCT x)}). Rows are hashed into an open-addressing
     * table of row numbers; equal hashes are confirmed with the view-first row equality.
     */
    public static int distinctCount(ViewColumn column) {
        int nonNull = column.size() - column.nullCount();
        int capacity = Integer.highestOneBit(Math.max(16, nonNull * 2 - 1)) << 1;
        int[] table = new int[capacity];
        long[] hashes = new long[capacity];
        Arrays.fill(table, -1);
        int mask = capacity - 1;
        int distinct = 0;
        for (int row = 0; row < column.size(); row++) {
            if (!column.isValid(row)) {
                continue;
            }
            long hash = column.hash(row);
            int slot = (int) hash & mask;
            boolean seen = false;
            while (table[slot] >= 0) {
                if (hashes[slot] == hash && ViewColumn.Rows.equal(column, table[slot], column, row)) {
                    seen = true;
                    break;
                }
                slot = (slot + 1) & mask;
            }
            if (!seen) {
                table[slot] = row;
                hashes[slot] = hash;
                distinct++;
            }
        }
        return distinct;
    }

    private static void checkSameSize(ViewColumn left, ViewColumn right) {
        Objects.requireNonNull(left, "left");
        Objects.requireNonNull(right, "right");
        if (left.size() != right.size()) {
            throw new IllegalArgumentException("columns differ in size: leftSize=" + left.size() + " rightSize="
                    + right.size());
        }
    }

    private static void checkOutput(int[] out, int needed) {
        checkOutput(out.length, needed);
    }

    private static void checkOutput(int length, int needed) {
        if (length < needed) {
            throw new IllegalArgumentException("output too small: outLength=" + length + " needed=" + needed);
        }
    }
}
