package dev.stringview;

import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.ByteSearch;
import java.lang.foreign.MemorySegment;

/**
 * {@code value LIKE '%s%'}: rows shorter than the needle are ruled out from the view; inline rows are searched
 * inside the view; long rows are searched in their buffer.
 */
final class ContainsPredicate extends ViewPredicate {
    private final Constant needle;

    ContainsPredicate(Constant needle) {
        this.needle = needle;
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        boolean hasNulls = column.hasNulls();
        int needleLength = needle.length;
        int found = 0;
        for (int i = from; i < to; i++) {
            int row = selection == null ? i : selection[i];
            long at = (long) row << 4;
            long w0 = views.get(LAYOUT_LE_LONG, at);
            int length = (int) w0;
            if (length < needleLength || (hasNulls && !column.isValid(row))) {
                continue;
            }
            long w1 = views.get(LAYOUT_LE_LONG, at + 8);
            if (ByteSearch.indexOf(column.dataSegment(row, w0, w1), column.dataOffset(row, w0, w1), length,
                    needle.segment, needleLength) >= 0) {
                out[found++] = row;
            }
        }
        return found;
    }
}
