package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import java.lang.foreign.MemorySegment;

/**
 * {@code value < constant} and the other orderings, in unsigned bytewise order ({@link ViewOrder}).
 *
 * <p>Per row: the zero-padded prefix, bytes 4..11 and the length are compared with the constant's in arithmetic,
 * with no branch ({@link ViewOrder#outcome}: the signs of the differences, each weighted above all the later
 * ones). That decides every inline row and every long row whose prefix differs from the constant's. A long
 * row with the constant's prefix (the only branch, taken by 5% of rows in Suite 1 and by every row when all
 * values share their first four bytes) loads bytes 4..11 from its buffer as one big-endian word; only when those
 * agree too, and both are longer than 12 bytes, does it compare the rest. Null rows are not branched on: their
 * outcome is computed like any other (never reading a buffer) and masked out with the validity bit.
 */
final class OrderPredicate extends ViewPredicate {
    private final Constant constant;
    private final int acceptMask;
    private final long prefix;
    private final long second;

    OrderPredicate(Constant constant, Comparison comparison) {
        this.constant = constant;
        this.acceptMask = comparison.acceptMask;
        this.prefix = Integer.toUnsignedLong(constant.prefixBigEndian);
        this.second = Long.reverseBytes(constant.word1); // bytes 4..11, zero-padded, for long constants too
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        MemorySegment[] buffers = column.bufferArray();
        boolean hasNulls = column.hasNulls();
        int found = 0;
        // The per-row work is written into both loops rather than called: a separately compiled helper grows too
        // large (every segment access carries its checks) for the JIT to inline it back into the loop.
        if (selection == null) { // the row as induction variable lets the JIT hoist bounds checks
            for (int row = from; row < to; row++) {
                long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
                long w1 = views.get(LAYOUT_LE_LONG, ((long) row << 4) + 8);
                int valid = !hasNulls || column.isValid(row) ? 1 : 0;
                int outcome;
                if (ViewOrder.prefix(w0) == prefix && (int) w0 > INLINE_MAX && valid != 0) {
                    outcome = longTie(buffers, w0, w1);
                } else {
                    outcome = inlineOutcome(w0, w1);
                }
                out[found] = row; // written always, kept only on a match: no branch to mispredict
                found += (acceptMask >>> outcome) & valid;
            }
        } else {
            for (int i = from; i < to; i++) {
                int row = selection[i];
                long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
                long w1 = views.get(LAYOUT_LE_LONG, ((long) row << 4) + 8);
                int valid = !hasNulls || column.isValid(row) ? 1 : 0;
                int outcome;
                if (ViewOrder.prefix(w0) == prefix && (int) w0 > INLINE_MAX && valid != 0) {
                    outcome = longTie(buffers, w0, w1);
                } else {
                    outcome = inlineOutcome(w0, w1);
                }
                out[found] = row;
                found += (acceptMask >>> outcome) & valid;
            }
        }
        return found;
    }

    /**
     * 0, 1 or 2 as the row is less than, equal to or greater than the constant, for a row that is inline or whose
     * prefix differs (for a long row the prefix term then dominates the others, which read only the view).
     */
    private int inlineOutcome(long w0, long w1) {
        return ViewOrder.outcome(ViewOrder.prefix(w0) - prefix, Long.reverseBytes(w1), second,
                (long) (int) w0 - constant.length);
    }

    /** The outcome of a valid long row whose prefix equals the constant's. */
    private int longTie(MemorySegment[] buffers, long w0, long w1) {
        MemorySegment buffer = buffers[(int) w1];
        long offset = w1 >>> 32;
        return ViewOrder.compareSamePrefix(buffer, offset, (int) w0, ViewOrder.chunk(buffer, offset, (int) w0, 4),
                constant.segment, 0, constant.length, second) + 1;
    }
}
