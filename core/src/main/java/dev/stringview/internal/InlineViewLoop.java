package dev.stringview.internal;

import dev.stringview.ViewLayout;
import java.lang.foreign.MemorySegment;

/**
 * The scalar form of {@link dev.stringview.InlineViews#build}: one view per row, always present and always
 * correct, used until (and unless) the vector form is warm, for the rows the vector form leaves at the end of the
 * chars, and for the row whose size is bad so that its error names it.
 */
public final class InlineViewLoop {
    private InlineViewLoop() {}

    /**
     * Writes the inline views of rows {@code [from, from + count)} of {@code sizes}, whose chars follow each other
     * in {@code chars} from {@code charsOffset} on, to {@code views} from byte {@code viewsOffset} on; returns the
     * chars offset after the last row. Arguments other than the sizes are checked by the caller; a size outside
     * [0, 12] or chars running past the segment's end throw, naming the row.
     */
    public static long build(int[] sizes, int from, int count, MemorySegment chars, long charsOffset,
            MemorySegment views, long viewsOffset) {
        long p = charsOffset;
        long charsBytes = chars.byteSize();
        long wordsEnd = charsBytes - ViewLayout.INLINE_MAX; // rows starting up to here load two words
        long at = viewsOffset;
        for (int i = from; i < from + count; i++, at += ViewLayout.VIEW_SIZE) {
            int length = sizes[i];
            if (length < 0 || length > ViewLayout.INLINE_MAX || length > charsBytes - p) {
                throw badRow(i, length, p, charsBytes);
            }
            long low;
            long high;
            if (p <= wordsEnd) {
                low = chars.get(ViewLayout.LAYOUT_LE_LONG, p) & ViewLayout.inlineLowMask(length);
                high = chars.get(ViewLayout.LAYOUT_LE_INT, p + 8) & ViewLayout.inlineHighMask(length);
            } else { // the chars' last bytes
                low = ViewLayout.inlineLow(chars, p, length);
                high = ViewLayout.inlineHigh(chars, p, length);
            }
            views.set(ViewLayout.LAYOUT_LE_LONG, at, ViewLayout.inlineWord0(length, low));
            views.set(ViewLayout.LAYOUT_LE_LONG, at + 8, ViewLayout.inlineWord1(low, high));
            p += length;
        }
        return p;
    }

    /** The error for row {@code row}: a size outside [0, 12], or a value ending past the chars' end. */
    private static RuntimeException badRow(int row, int length, long p, long charsBytes) {
        if (length < 0 || length > ViewLayout.INLINE_MAX) {
            return new IllegalArgumentException("not an inline size: row=" + row + " size=" + length
                    + " inlineMax=" + ViewLayout.INLINE_MAX);
        }
        return new IndexOutOfBoundsException("chars end inside a value: row=" + row + " size=" + length
                + " charsOffset=" + p + " charsBytes=" + charsBytes);
    }
}
