package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.KeyRounds;
import dev.stringview.internal.Vectorization;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;

/**
 * Kernels over whole columns: column-versus-column comparison, hashing, sorting and distinct counting. Like the
 * predicates they decide from the views first and read data buffers only when the views cannot tell.
 *
 * <p><b>Memory.</b> The kernels read the columns during the call, on the calling thread (so their segments must
 * be accessible from it), keep no reference to them and allocate no off-heap memory: results go to the caller's
 * arrays or to new heap arrays. {@link #warmUp} allocates its private data in an arena it closes before returning.
 */
public final class ViewKernels {
    private ViewKernels() {}

    /**
     * Warms up the Panama Vector API loops on the calling thread and then lets every kernel use them; returns
     * whether any vector loop is now in use. Until this has run, all kernels (predicates, {@code InlineViews} and
     * these) run their scalar loops, which are fast from the first row, and the library never warms anything up
     * by itself: it starts no thread (decision record docs/decisions/001-vectorization-without-threads.md).
     *
     * <p>An engine that runs long enough to gain from the vector loops (a server, a Spark executor) calls this once,
     * on a thread of its own, e.g. at start-up; queries running meanwhile stay on the scalar loops and switch at
     * their next kernel call after it returns. The work is deterministic: each vector loop runs a fixed number of
     * calls over private data, which costs a few seconds of CPU time (decision record 001), most of it before the
     * JIT has compiled the loops. It does nothing and returns false when the JVM lacks {@code --add-modules
     * jdk.incubator.vector} or runs with {@code -Dstringview.vectorization=false}, or when the CPU's vectors are
     * narrower than 256 bits; the view-word passes and the inline-view builder need 512-bit vectors, substring search
     * 256. Later calls return the first call's outcome at once. Thread-safe.
     */
    public static boolean warmUp() {
        return Vectorization.warmUp();
    }

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
     * <p>A radix sort of normalized keys ({@link ViewOrder}): one pass in row order gives every non-null row its
     * first 16 bytes as two big-endian words (zero-padded) and its length clipped to "ends within these 16 bytes,
     * or goes on", and a stable byte-wise MSD radix sort orders all rows by them. Only rows whose keys agree and
     * that all go on past the 16 bytes are sorted again, by bytes 16..31, then 32..47 and so on. Buffers are read
     * once per row and 16 bytes it needs, never through a comparison callback, and the first 16 bytes of every row
     * in one sequential pass.
     */
    public static int[] argsort(ViewColumn column) {
        return sortedPrefix(column, column.size());
    }

    /**
     * The first {@code min(k, size)} entries of {@link #argsort}: the rows of the {@code k} smallest values,
     * ascending, ties in row order, nulls last (so nulls appear only when fewer than {@code k} rows are non-null).
     *
     * <p>The same radix sort, cut down to what the first {@code k} positions need: a bucket of the radix sort
     * that starts at or after position {@code k} is not sorted further (a radix select), and a run of rows still
     * tied after 16 bytes is refined only when it starts before position {@code k}.
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
        if (limit == 0) {
            return new int[0];
        }
        int nonNull = size - column.nullCount();
        int[] order = new int[limit];
        long[] high = new long[nonNull];
        long[] low = new long[nonNull];
        long[] tail = new long[nonNull];
        MemorySegment views = column.viewSegment();
        MemorySegment[] buffers = column.bufferArray();
        // Round one, in row order: the views and (for a column built in row order) the buffers are read
        // sequentially. Nulls go to the end, in row order.
        int filled = 0;
        int nullAt = nonNull;
        boolean hasNulls = column.hasNulls();
        for (int row = 0; row < size; row++) {
            if (hasNulls && !column.isValid(row)) {
                if (nullAt < limit) {
                    order[nullAt] = row;
                }
                nullAt++;
                continue;
            }
            roundKey(views, buffers, row, 0, high, low, tail, filled++);
        }
        int sorted = Math.min(limit, nonNull);
        KeyRounds.sort(new ColumnKeys(views, buffers), high, low, tail, nonNull, size, sorted);
        for (int i = 0; i < sorted; i++) {
            order[i] = (int) tail[i];
        }
        return order;
    }

    /** The sort keys of a column's rows, for the rounds past the first ({@link #roundKey}). */
    private record ColumnKeys(MemorySegment views, MemorySegment[] buffers) implements KeyRounds.KeySource {
        @Override
        public void roundKey(int row, int depth, long[] high, long[] low, long[] tail, int at) {
            ViewKernels.roundKey(views, buffers, row, depth, high, low, tail, at);
        }
    }

    /**
     * Writes the sort key of a non-null row ({@link KeyRounds}): a short value's (depth 0 only) from its view,
     * the prefix then the inline bytes 4..11; a long value's from its buffer. Static, with the views and buffers
     * as arguments, so that round one's loop over all rows has them in locals rather than reading them from
     * {@link ColumnKeys}' fields per row.
     */
    private static void roundKey(MemorySegment views, MemorySegment[] buffers, int row, int depth, long[] high,
            long[] low, long[] tail, int at) {
        long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
        long w1 = views.get(LAYOUT_LE_LONG, ((long) row << 4) + 8);
        int length = (int) w0;
        if (length <= INLINE_MAX) {
            high[at] = ViewOrder.inlineKeyHigh(w0, w1);
            low[at] = ViewOrder.inlineKeyLow(w1);
        } else {
            MemorySegment buffer = buffers[(int) w1];
            long offset = w1 >>> 32;
            high[at] = ViewOrder.chunk(buffer, offset, length, depth);
            low[at] = length - depth > 8 ? ViewOrder.chunk(buffer, offset, length, depth + 8) : 0;
        }
        tail[at] = KeyRounds.tail(length, depth, row);
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
