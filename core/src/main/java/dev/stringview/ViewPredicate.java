package dev.stringview;

import dev.stringview.internal.Bits;
import java.util.Arrays;
import java.util.Objects;

/**
 * A predicate on one column's values, compiled once from its constant(s) by {@link ViewPredicates} and then
 * evaluated over any number of columns, from any number of threads. Null rows never match (SQL semantics).
 *
 * <p>Results come as row ids ({@link #select}) or as a bitmap ({@link #mask}), for all rows or for the rows
 * of an input selection (an {@code int[]} of row ids, such as an earlier {@code select} produced). Kernels decide
 * most rows from the view's two 64-bit words alone: length and prefix first, the inline bytes next, and the
 * data buffer only when everything in the view agrees. They allocate nothing per row and no off-heap memory at all:
 * a call reads the column's segments on the calling thread (they must be accessible from it), writes its results
 * to the caller's arrays, and keeps no reference to the column.
 *
 * <p>Each predicate class carries its own row loop instead of sharing one loop here that calls a per-row method: in
 * an engine that evaluates many kinds of predicates, such a shared call site would see every predicate type, and
 * the JIT could no longer inline the per-row test into the loop. The equality, starts-with and order kernels share
 * their window loop ({@link ViewWordPredicate}), which calls the kernel once per window of rows.
 */
public abstract sealed class ViewPredicate
        permits ViewWordPredicate, SuffixPredicate, ContainsPredicate, LikePredicate, InListPredicate {
    private static final int CHUNK = 1024;

    ViewPredicate() {}

    /**
     * Writes the ids of matching rows, ascending, to {@code out} and returns how many there are.
     *
     * @param out room for up to {@code column.size()} row ids
     */
    public final int select(ViewColumn column, int[] out) {
        checkOutput(out, column.size());
        return selectRows(column, null, 0, column.size(), out);
    }

    /**
     * Writes the ids of the rows of {@code selection[0..selectionSize)} that match, in selection order, to
     * {@code out} and returns how many there are. {@code out} may be {@code selection} itself.
     */
    public final int select(ViewColumn column, int[] selection, int selectionSize, int[] out) {
        checkSelection(column, selection, selectionSize);
        checkOutput(out, selectionSize);
        return selectRows(column, selection, 0, selectionSize, out);
    }

    /** Number of matching rows. */
    public final int count(ViewColumn column) {
        return countRows(column, null, column.size());
    }

    /** Number of matching rows among {@code selection[0..selectionSize)}. */
    public final int count(ViewColumn column, int[] selection, int selectionSize) {
        checkSelection(column, selection, selectionSize);
        return countRows(column, selection, selectionSize);
    }

    /**
     * Sets bit {@code row} of {@code bits} for every matching row and clears the others, in Arrow bit order
     * ({@code bits[row / 64]}, bit {@code row % 64}; little-endian words give Arrow's byte layout).
     *
     * @param bits at least {@code ceil(column.size() / 64)} words
     */
    public final void mask(ViewColumn column, long[] bits) {
        maskRows(column, null, column.size(), bits);
    }

    /** Like {@link #mask(ViewColumn, long[])}, evaluating only the rows of the selection; other bits are cleared. */
    public final void mask(ViewColumn column, int[] selection, int selectionSize, long[] bits) {
        checkSelection(column, selection, selectionSize);
        maskRows(column, selection, selectionSize, bits);
    }

    /**
     * Counts the matches among {@code selection[0..n)} (rows {@code 0..n-1} when {@code selection} is null).
     * Arguments are already checked. This default selects chunk by chunk into a scratch array; a kernel
     * overrides it where counting can skip writing row ids.
     */
    int countRows(ViewColumn column, int[] selection, int n) {
        int[] scratch = new int[Math.min(CHUNK, Math.max(1, n))];
        int total = 0;
        for (int from = 0; from < n; from += CHUNK) {
            total += selectRows(column, selection, from, Math.min(n, from + CHUNK), scratch);
        }
        return total;
    }

    private void maskRows(ViewColumn column, int[] selection, int n, long[] bits) {
        if ((long) bits.length * 64 < column.size()) {
            throw new IllegalArgumentException("bitmap too small: words=" + bits.length + " rows=" + column.size()
                    + " neededWords=" + ((column.size() + 63) >>> 6));
        }
        Arrays.fill(bits, 0, (column.size() + 63) >>> 6, 0L);
        int[] scratch = new int[Math.min(CHUNK, Math.max(1, n))];
        for (int from = 0; from < n; from += CHUNK) {
            int found = selectRows(column, selection, from, Math.min(n, from + CHUNK), scratch);
            for (int i = 0; i < found; i++) {
                Bits.set(bits, scratch[i]);
            }
        }
    }

    /** Whether row {@code row} matches. */
    public final boolean test(ViewColumn column, int row) {
        Objects.checkIndex(row, column.size());
        return selectRows(column, new int[] {row}, 0, 1, new int[1]) == 1;
    }

    /**
     * The kernel: evaluates rows {@code selection[from..to)} (rows {@code from..to-1} when {@code selection} is
     * null), writes the matching non-null ones to {@code out} from index 0 and returns their number. Arguments
     * are already checked; {@code out} has room for {@code to - from} ids and may alias {@code selection}
     * when {@code from} is 0 (a row is written only after it was read).
     */
    abstract int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out);

    private static void checkOutput(int[] out, int needed) {
        if (out.length < needed) {
            throw new IllegalArgumentException("output too small: outLength=" + out.length + " needed=" + needed);
        }
    }

    static void checkSelection(ViewColumn column, int[] selection, int selectionSize) {
        Objects.checkFromIndexSize(0, selectionSize, selection.length);
        int size = column.size();
        for (int i = 0; i < selectionSize; i++) {
            int row = selection[i];
            if (row < 0 || row >= size) {
                throw new IndexOutOfBoundsException("selection entry out of range: position=" + i + " row=" + row
                        + " size=" + size);
            }
        }
    }
}
