package dev.stringview;

import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.ByteRanges;
import java.lang.foreign.MemorySegment;

/** {@code value LIKE '%s'}: the length rules rows out first; inline rows compare inside the view. */
final class SuffixPredicate extends ViewPredicate {
    private final Constant suffix;

    SuffixPredicate(Constant suffix) {
        this.suffix = suffix;
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        int found = 0;
        if (selection == null) { // the row as induction variable lets the JIT hoist bounds checks
            for (int row = from; row < to; row++) {
                out[found] = row; // written always, kept only on a match: no branch to mispredict
                found += matches(column, views, row) ? 1 : 0;
            }
        } else {
            for (int i = from; i < to; i++) {
                int row = selection[i];
                out[found] = row;
                found += matches(column, views, row) ? 1 : 0;
            }
        }
        return found;
    }

    private boolean matches(ViewColumn column, MemorySegment views, int row) {
        long at = (long) row << 4;
        long w0 = views.get(LAYOUT_LE_LONG, at);
        int length = (int) w0;
        if (length < suffix.length || !column.isValid(row)) {
            return false;
        }
        long w1 = views.get(LAYOUT_LE_LONG, at + 8);
        return ByteRanges.equal(column.dataSegment(row, w0, w1), column.dataOffset(row, w0, w1) + length - suffix.length,
                suffix.segment, 0, suffix.length);
    }
}
