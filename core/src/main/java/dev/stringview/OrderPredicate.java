package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.ByteRanges;
import java.lang.foreign.MemorySegment;

/**
 * {@code value < constant} and the other orderings, in unsigned bytewise order. The zero-padded 4-byte prefix,
 * read big-endian, orders like the bytes, so a differing prefix decides the row from the view alone; two inline
 * values with equal prefixes are decided by their second view words; only a long value with the constant's
 * prefix reads its buffer.
 */
final class OrderPredicate extends ViewPredicate {
    private final Constant constant;
    private final int acceptMask;

    OrderPredicate(Constant constant, Comparison comparison) {
        this.constant = constant;
        this.acceptMask = comparison.acceptMask;
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        int found = 0;
        if (selection == null) { // the row as induction variable lets the JIT hoist bounds checks
            for (int row = from; row < to; row++) {
                out[found] = row; // written always, kept only on a match: no branch to mispredict
                found += accepts(column, views, row);
            }
        } else {
            for (int i = from; i < to; i++) {
                int row = selection[i];
                out[found] = row;
                found += accepts(column, views, row);
            }
        }
        return found;
    }

    /** 1 if the row satisfies the comparison, else 0: an int, so the caller adds it without a branch. */
    private int accepts(ViewColumn column, MemorySegment views, int row) {
        if (!column.isValid(row)) {
            return 0;
        }
        long at = (long) row << 4;
        long w0 = views.get(LAYOUT_LE_LONG, at);
        int cmp = Integer.compareUnsigned(Integer.reverseBytes((int) (w0 >>> 32)), constant.prefixBigEndian);
        if (cmp == 0) { // rare: same zero-padded prefix
            cmp = compareSamePrefix(column, row, w0, views.get(LAYOUT_LE_LONG, at + 8));
        }
        return (acceptMask >>> (Integer.signum(cmp) + 1)) & 1;
    }

    /** Compares a non-null row whose zero-padded prefix equals the constant's. */
    private int compareSamePrefix(ViewColumn column, int row, long w0, long w1) {
        int length = (int) w0;
        if (length <= INLINE_MAX && constant.isInline()) {
            int c = Long.compareUnsigned(Long.reverseBytes(w1), Long.reverseBytes(constant.word1));
            return c != 0 ? c : Integer.compare(length, constant.length);
        }
        if (length <= 4 || constant.length <= 4) {
            return Integer.compare(length, constant.length); // the shorter one is a prefix of the other
        }
        return ByteRanges.compare(column.dataSegment(row, w0, w1), column.dataOffset(row, w0, w1) + 4, length - 4,
                constant.segment, 4, constant.length - 4);
    }
}
