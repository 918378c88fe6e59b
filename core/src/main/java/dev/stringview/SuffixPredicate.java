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
        boolean hasNulls = column.hasNulls();
        int suffixLength = suffix.length;
        int found = 0;
        for (int i = from; i < to; i++) {
            int row = selection == null ? i : selection[i];
            long at = (long) row << 4;
            long w0 = views.get(LAYOUT_LE_LONG, at);
            int length = (int) w0;
            if (length < suffixLength || (hasNulls && !column.isValid(row))) {
                continue;
            }
            long w1 = views.get(LAYOUT_LE_LONG, at + 8);
            if (ByteRanges.equal(column.dataSegment(row, w0, w1), column.dataOffset(row, w0, w1) + length - suffixLength,
                    suffix.segment, 0, suffixLength)) {
                out[found++] = row;
            }
        }
        return found;
    }
}
