package dev.stringview;

import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.ByteRanges;
import java.lang.foreign.MemorySegment;

/**
 * {@code value = constant} or {@code value <> constant}. Seed 001's equality scan: the row's first view word
 * (length and prefix) must equal the constant's; an inline constant then needs only the second word; a long
 * one reads the row's buffer for bytes 4.. and nothing else.
 */
final class EqualityPredicate extends ViewPredicate {
    private final Constant constant;
    private final boolean negated;

    EqualityPredicate(Constant constant, boolean negated) {
        this.constant = constant;
        this.negated = negated;
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        return constant.isInline() ? selectInline(column, selection, from, to, out)
                : selectLong(column, selection, from, to, out);
    }

    private int selectInline(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        boolean hasNulls = column.hasNulls();
        long k0 = constant.word0;
        long k1 = constant.word1;
        boolean wanted = !negated;
        int found = 0;
        for (int i = from; i < to; i++) {
            int row = selection == null ? i : selection[i];
            long at = (long) row << 4;
            boolean equal = views.get(LAYOUT_LE_LONG, at) == k0 && views.get(LAYOUT_LE_LONG, at + 8) == k1;
            if (equal == wanted && (!hasNulls || column.isValid(row))) {
                out[found++] = row;
            }
        }
        return found;
    }

    private int selectLong(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        MemorySegment[] buffers = column.bufferArray();
        boolean hasNulls = column.hasNulls();
        long k0 = constant.word0;
        int rest = constant.length - 4;
        boolean wanted = !negated;
        int found = 0;
        for (int i = from; i < to; i++) {
            int row = selection == null ? i : selection[i];
            if (hasNulls && !column.isValid(row)) {
                continue;
            }
            long at = (long) row << 4;
            boolean equal = false;
            if (views.get(LAYOUT_LE_LONG, at) == k0) {
                long w1 = views.get(LAYOUT_LE_LONG, at + 8);
                equal = ByteRanges.equal(buffers[(int) w1], (w1 >>> 32) + 4, constant.segment, 4, rest);
            }
            if (equal == wanted) {
                out[found++] = row;
            }
        }
        return found;
    }
}
