package dev.stringview.internal;

import dev.stringview.ViewLayout;
import dev.stringview.internal.reader.InlineViews;
import dev.stringview.internal.reader.InlineWords;
import java.lang.foreign.MemorySegment;

/**
 * The scalar form of {@link InlineViews#build}: one view per row, always present and always
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
        long end = buildTestingAscii(sizes, from, count, chars, charsOffset, views, viewsOffset);
        return end < 0 ? ~end : end;
    }

    /**
     * {@link #build}, which also tells whether every byte of the values is ASCII (below 0x80): returns the chars
     * offset after the last row when it is, else that offset's complement {@code ~offset} (negative).
     */
    public static long buildTestingAscii(int[] sizes, int from, int count, MemorySegment chars, long charsOffset,
            MemorySegment views, long viewsOffset) {
        int end = from + count;
        long charsBytes = chars.byteSize();
        // The sizes are checked in a pass of their own (C2 vectorizes it): with the checks and their throw inside
        // the view loop, C2 kept the segments' fields and a dozen values on the stack, reloaded every row.
        int outside = 0;
        long sum = 0;
        for (int i = from; i < end; i++) {
            int length = sizes[i];
            outside |= length | (ViewLayout.INLINE_MAX - length); // negative for a size outside [0, 12]
            sum += length;
        }
        if (outside < 0 || sum > charsBytes - charsOffset) {
            throw badRow(sizes, from, end, charsOffset, charsBytes);
        }
        long p = charsOffset;
        long valueBits = 0; // the OR of every value byte, in place in its word
        long wordsEnd = charsBytes - ViewLayout.INLINE_MAX; // rows starting up to here load two words
        int i = from;
        for (; i < end && p <= wordsEnd; i++) {
            int length = sizes[i];
            long low = chars.get(ViewLayout.LAYOUT_LE_LONG, p) & InlineWords.inlineLowMask(length);
            long high = chars.get(ViewLayout.LAYOUT_LE_INT, p + 8) & InlineWords.inlineHighMask(length);
            valueBits |= low | high;
            long at = viewsOffset + 16L * (i - from); // follows the index, so C2 hoists the views' checks
            views.set(ViewLayout.LAYOUT_LE_LONG, at, InlineWords.inlineWord0(length, low));
            views.set(ViewLayout.LAYOUT_LE_LONG, at + 8, InlineWords.inlineWord1(low, high));
            p += length;
        }
        for (; i < end; i++) { // the chars' last bytes
            int length = sizes[i];
            long low = InlineWords.inlineLow(chars, p, length);
            long high = InlineWords.inlineHigh(chars, p, length);
            valueBits |= low | high;
            long at = viewsOffset + 16L * (i - from);
            views.set(ViewLayout.LAYOUT_LE_LONG, at, InlineWords.inlineWord0(length, low));
            views.set(ViewLayout.LAYOUT_LE_LONG, at + 8, InlineWords.inlineWord1(low, high));
            p += length;
        }
        return (valueBits & 0x8080_8080_8080_8080L) == 0 ? p : ~p;
    }

    /** The error for the first row whose size is outside [0, 12] or whose value ends past the chars' end. */
    private static RuntimeException badRow(int[] sizes, int from, int end, long p, long charsBytes) {
        for (int row = from; row < end; row++) {
            int length = sizes[row];
            if (length < 0 || length > ViewLayout.INLINE_MAX) {
                return new IllegalArgumentException("not an inline size: row=" + row + " size=" + length
                        + " inlineMax=" + ViewLayout.INLINE_MAX);
            }
            if (length > charsBytes - p) {
                return new IndexOutOfBoundsException("chars end inside a value: row=" + row + " size=" + length
                        + " charsOffset=" + p + " charsBytes=" + charsBytes);
            }
            p += length;
        }
        throw new AssertionError("no bad row: from=" + from + " end=" + end);
    }
}
