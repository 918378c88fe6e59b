package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import java.lang.foreign.MemorySegment;
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
        if (comparison == Comparison.EQUAL || comparison == Comparison.NOT_EQUAL) {
            int found = 0;
            for (int i = from; i < to; i++) {
                int row = selection == null ? i : selection[i];
                if (hasNulls && (!left.isValid(row) || !right.isValid(row))) {
                    continue;
                }
                int cmp = ViewColumn.Rows.equal(left, row, right, row) ? 0 : 1;
                if (comparison.accepts(cmp)) {
                    out[found++] = row;
                }
            }
            return found;
        }
        return orderRows(comparison.acceptMask, left, right, selection, from, to, out, hasNulls);
    }

    /**
     * The order comparisons, as {@link OrderPredicate} does them against a constant: prefixes, bytes 4..11 and
     * lengths in branch-free arithmetic for rows where both sides are inline or the prefixes differ; a long value
     * with an equal prefix reads the next eight bytes as one word ({@link ViewOrder}); nulls are masked out.
     */
    private static int orderRows(int acceptMask, ViewColumn left, ViewColumn right, int[] selection, int from,
            int to, int[] out, boolean hasNulls) {
        MemorySegment leftViews = left.viewSegment();
        MemorySegment rightViews = right.viewSegment();
        MemorySegment[] leftBuffers = left.bufferArray();
        MemorySegment[] rightBuffers = right.bufferArray();
        int found = 0;
        for (int i = from; i < to; i++) {
            int row = selection == null ? i : selection[i];
            long at = (long) row << 4;
            long a0 = leftViews.get(LAYOUT_LE_LONG, at);
            long a1 = leftViews.get(LAYOUT_LE_LONG, at + 8);
            long b0 = rightViews.get(LAYOUT_LE_LONG, at);
            long b1 = rightViews.get(LAYOUT_LE_LONG, at + 8);
            int valid = !hasNulls || (left.isValid(row) && right.isValid(row)) ? 1 : 0;
            int lengthA = (int) a0;
            int lengthB = (int) b0;
            long p = ViewOrder.prefix(a0) - ViewOrder.prefix(b0);
            int outcome;
            if (p == 0 && (lengthA > INLINE_MAX || lengthB > INLINE_MAX) && valid != 0) {
                outcome = ViewOrder.compareSamePrefix(lengthA > INLINE_MAX ? leftBuffers[(int) a1] : null, a1 >>> 32,
                        lengthA, ViewOrder.second(leftBuffers, a0, a1),
                        lengthB > INLINE_MAX ? rightBuffers[(int) b1] : null, b1 >>> 32, lengthB,
                        ViewOrder.second(rightBuffers, b0, b1)) + 1;
            } else {
                outcome = ViewOrder.outcome(p, Long.reverseBytes(a1), Long.reverseBytes(b1),
                        (long) lengthA - lengthB);
            }
            out[found] = row;
            found += (acceptMask >>> outcome) & valid;
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
     * <p>Multikey sort on 8-byte chunks ({@link ViewOrder}): each non-null row first gets a 64-bit key, its 4-byte
     * prefix read big-endian above its row number, and one primitive sort orders all rows by prefix, stably. Each
     * run of rows sharing a prefix is then sorted by its next chunk (bytes 4..11: the inline bytes of a short
     * value, the first eight bytes after the prefix of a long one) with, as tie-breakers, the length clipped to
     * "ends within this chunk or not" and the row number. Only rows whose chunks agree and that both go on past
     * the chunk are refined further, by bytes 12..19, 20..27 and so on. Buffers are read once per row and chunk,
     * never through a comparison callback: URL-like data, where every value starts with "http", is sorted by
     * primitive sorts of chunks.
     */
    public static int[] argsort(ViewColumn column) {
        return sortedPrefix(column, column.size());
    }

    /**
     * The first {@code min(k, size)} entries of {@link #argsort}: the rows of the {@code k} smallest values,
     * ascending, ties in row order, nulls last (so nulls appear only when fewer than {@code k} rows are non-null).
     *
     * <p>The same multikey sort, cut down to what the first {@code k} positions need: the 64-bit prefix keys are
     * partitioned around the {@code k}-th smallest (a quickselect, linear on average) instead of sorted, only the
     * keys up to the end of its prefix group are sorted, and a run of rows sharing a chunk is refined further only
     * when it starts before position {@code k}.
     *
     * @throws IllegalArgumentException if {@code k} is negative
     */
    public static int[] argsortTopK(ViewColumn column, int k) {
        Objects.requireNonNull(column, "column");
        if (k < 0) {
            throw new IllegalArgumentException("k must not be negative: k=" + k + " rows=" + column.size());
        }
        return sortedPrefix(column, Math.min(k, column.size()));
    }

    /** The first {@code limit} ({@code <= size}) entries of the sorted order. */
    private static int[] sortedPrefix(ViewColumn column, int limit) {
        int size = column.size();
        int nonNull = size - column.nullCount();
        long[] keys = new long[nonNull];
        int[] order = new int[size];
        int filled = 0;
        int nullAt = nonNull;
        for (int row = 0; row < size; row++) {
            if (!column.isValid(row)) {
                order[nullAt++] = row;
                continue;
            }
            // Flip the top bit so signed order of the keys is unsigned order of the prefixes.
            keys[filled++] = ((ViewOrder.prefix(column.word0(row)) << 32) | row) ^ Long.MIN_VALUE;
        }
        // Only the keys that can reach the first `limit` positions are sorted: all of them, or (top-k) those up
        // to the end of the prefix group of the limit-th smallest key.
        int sorted = nonNull;
        if (limit == 0) {
            return new int[0];
        }
        if (limit < nonNull) {
            select(keys, 0, nonNull - 1, limit - 1);
            long boundaryPrefix = keys[limit - 1] >> 32;
            sorted = limit;
            for (int i = limit; i < nonNull; i++) {
                if (keys[i] >> 32 == boundaryPrefix) {
                    long t = keys[i];
                    keys[i] = keys[sorted];
                    keys[sorted++] = t;
                }
            }
        }
        Arrays.sort(keys, 0, sorted);
        for (int i = 0; i < sorted; i++) {
            order[i] = (int) keys[i];
        }
        // Ranges of order[] still to sort by the chunk at a depth: (from, to, depth) triples on a stack.
        long[] aux = new long[sorted];
        int[] stack = new int[48];
        int top = 0;
        for (int start = 0; start < sorted && start < limit; ) {
            long prefix = keys[start] >>> 32;
            int end = start + 1;
            while (end < sorted && keys[end] >>> 32 == prefix) {
                end++;
            }
            if (end - start > 1) {
                stack = push(stack, top, start, end, ViewLayout.PREFIX_SIZE);
                top += 3;
            }
            start = end;
        }
        MemorySegment views = column.viewSegment();
        MemorySegment[] buffers = column.bufferArray();
        while (top > 0) {
            top -= 3;
            int from = stack[top];
            int to = stack[top + 1];
            int depth = stack[top + 2];
            int continues = depth + 9; // a clipped length meaning "goes on past this chunk"
            for (int i = from; i < to; i++) {
                int row = order[i];
                long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
                long w1 = views.get(LAYOUT_LE_LONG, ((long) row << 4) + 8);
                int length = (int) w0;
                long chunk = depth == ViewLayout.PREFIX_SIZE ? ViewOrder.second(buffers, w0, w1)
                        : ViewOrder.chunk(buffers[(int) w1], w1 >>> 32, length, depth);
                keys[i] = chunk ^ Long.MIN_VALUE;
                aux[i] = ((long) Math.min(length, continues) << 32) | row;
            }
            sortPairs(keys, aux, from, to - 1);
            for (int i = from; i < to; ) {
                int end = i + 1;
                while (end < to && keys[end] == keys[i] && aux[end] >>> 32 == aux[i] >>> 32) {
                    end++;
                }
                if (end - i > 1 && aux[i] >>> 32 == continues && i < limit) {
                    stack = push(stack, top, i, end, depth + 8);
                    top += 3;
                }
                i = end;
            }
            for (int i = from; i < to; i++) {
                order[i] = (int) aux[i];
            }
        }
        return limit == size ? order : Arrays.copyOf(order, limit);
    }

    /**
     * Reorders {@code keys[lo..hi]} (all distinct) so that position {@code nth} holds the key a sort would put
     * there, smaller keys before it and larger ones after: Hoare's quickselect with a median-of-three pivot.
     */
    private static void select(long[] keys, int lo, int hi, int nth) {
        while (hi > lo) {
            int mid = (lo + hi) >>> 1;
            if (keys[mid] < keys[lo]) {
                swap(keys, mid, lo);
            }
            if (keys[hi] < keys[lo]) {
                swap(keys, hi, lo);
            }
            if (keys[hi] < keys[mid]) {
                swap(keys, hi, mid);
            }
            long pivot = keys[mid];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (keys[i] < pivot) {
                    i++;
                }
                while (keys[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    swap(keys, i, j);
                    i++;
                    j--;
                }
            }
            // Now keys[lo..j] <= pivot <= keys[i..hi], and any position between j and i holds the pivot.
            if (nth <= j) {
                hi = j;
            } else if (nth >= i) {
                lo = i;
            } else {
                return;
            }
        }
    }

    private static void swap(long[] keys, int x, int y) {
        long t = keys[x];
        keys[x] = keys[y];
        keys[y] = t;
    }

    private static int[] push(int[] stack, int top, int from, int to, int depth) {
        int[] s = top + 3 > stack.length ? Arrays.copyOf(stack, stack.length * 2) : stack;
        s[top] = from;
        s[top + 1] = to;
        s[top + 2] = depth;
        return s;
    }

    /**
     * Sorts positions {@code lo..hi} (inclusive) of the parallel arrays by {@code (keys, aux)}, both signed. Every
     * pair is distinct (aux holds the row number), so the result is unique and equals a stable sort by key.
     * Quicksort with a median-of-three pivot, insertion sort for short ranges, recursing into the smaller half.
     */
    private static void sortPairs(long[] keys, long[] aux, int lo, int hi) {
        while (hi - lo > 24) {
            int mid = (lo + hi) >>> 1;
            if (less(keys, aux, mid, lo)) {
                swap(keys, aux, mid, lo);
            }
            if (less(keys, aux, hi, lo)) {
                swap(keys, aux, hi, lo);
            }
            if (less(keys, aux, hi, mid)) {
                swap(keys, aux, hi, mid);
            }
            long pivotKey = keys[mid];
            long pivotAux = aux[mid];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (keys[i] < pivotKey || (keys[i] == pivotKey && aux[i] < pivotAux)) {
                    i++;
                }
                while (keys[j] > pivotKey || (keys[j] == pivotKey && aux[j] > pivotAux)) {
                    j--;
                }
                if (i <= j) {
                    swap(keys, aux, i, j);
                    i++;
                    j--;
                }
            }
            if (j - lo < hi - i) {
                sortPairs(keys, aux, lo, j);
                lo = i;
            } else {
                sortPairs(keys, aux, i, hi);
                hi = j;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            long key = keys[i];
            long a = aux[i];
            int j = i - 1;
            while (j >= lo && (keys[j] > key || (keys[j] == key && aux[j] > a))) {
                keys[j + 1] = keys[j];
                aux[j + 1] = aux[j];
                j--;
            }
            keys[j + 1] = key;
            aux[j + 1] = a;
        }
    }

    private static boolean less(long[] keys, long[] aux, int x, int y) {
        return keys[x] < keys[y] || (keys[x] == keys[y] && aux[x] < aux[y]);
    }

    private static void swap(long[] keys, long[] aux, int x, int y) {
        long k = keys[x];
        keys[x] = keys[y];
        keys[y] = k;
        long a = aux[x];
        aux[x] = aux[y];
        aux[y] = a;
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
