package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.ByteRanges;
import java.lang.foreign.MemorySegment;

/**
 * {@code value LIKE 'p%'}: the length must reach the pattern's, the masked prefix word must match, and then
 * an inline row is decided by its masked second word; only a long row with a matching prefix and a pattern
 * longer than four bytes reads its buffer.
 */
final class PrefixPredicate extends ViewPredicate {
    private final Constant pattern;
    private final long prefixMask;
    private final long prefixBits;
    private final long inlineMask;
    private final long inlineBits;

    PrefixPredicate(Constant pattern) {
        this.pattern = pattern;
        this.prefixMask = Constant.lowBytesMask(Math.min(pattern.length, 4));
        this.prefixBits = (pattern.word0 >>> 32) & prefixMask;
        this.inlineMask = Constant.lowBytesMask(Math.max(0, Math.min(pattern.length, INLINE_MAX) - 4));
        this.inlineBits = pattern.word1 & inlineMask;
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        MemorySegment[] buffers = column.bufferArray();
        boolean hasNulls = column.hasNulls();
        int patternLength = pattern.length;
        int found = 0;
        for (int i = from; i < to; i++) {
            int row = selection == null ? i : selection[i];
            long at = (long) row << 4;
            long w0 = views.get(LAYOUT_LE_LONG, at);
            int length = (int) w0;
            if (length < patternLength || ((w0 >>> 32) & prefixMask) != prefixBits) {
                continue;
            }
            if (hasNulls && !column.isValid(row)) {
                continue;
            }
            if (patternLength > 4) {
                long w1 = views.get(LAYOUT_LE_LONG, at + 8);
                boolean match = length <= INLINE_MAX ? (w1 & inlineMask) == inlineBits
                        : ByteRanges.equal(buffers[(int) w1], (w1 >>> 32) + 4, pattern.segment, 4, patternLength - 4);
                if (!match) {
                    continue;
                }
            }
            out[found++] = row;
        }
        return found;
    }
}
