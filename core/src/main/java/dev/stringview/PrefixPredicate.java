package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import java.lang.foreign.MemorySegment;

/**
 * {@code value LIKE 'p%'}, in two phases like {@link EqualityPredicate}. First, rows long enough and whose masked
 * prefix word matches become candidates, from the first view word alone. Then each candidate is confirmed: a
 * pattern of at most 4 bytes needs nothing more, an inline row its masked second word, and only a long row with a
 * longer pattern reads bytes 4.. of its buffer.
 */
final class PrefixPredicate extends ViewPredicate {
    private final Constant pattern;
    private final long prefixMask;
    private final long prefixBits;
    private final long inlineMask;
    private final long inlineBits;

    PrefixPredicate(Constant pattern) {
        this.pattern = pattern;
        this.prefixMask = Constant.lowBytesMask(Math.min(pattern.length, 4)) << 32;
        this.prefixBits = pattern.word0 & prefixMask;
        this.inlineMask = Constant.lowBytesMask(Math.max(0, Math.min(pattern.length, INLINE_MAX) - 4));
        this.inlineBits = pattern.word1 & inlineMask;
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        long mask = prefixMask;
        long bits = prefixBits;
        int patternLength = pattern.length;
        int candidates = 0;
        if (selection == null) { // the row as induction variable lets the JIT hoist bounds checks
            for (int row = from; row < to; row++) {
                long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
                if ((w0 & mask) == bits && (int) w0 >= patternLength) {
                    out[candidates++] = row;
                }
            }
        } else {
            for (int i = from; i < to; i++) {
                int row = selection[i];
                long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
                if ((w0 & mask) == bits && (int) w0 >= patternLength) {
                    out[candidates++] = row;
                }
            }
        }
        MemorySegment[] buffers = column.bufferArray();
        int likely = likelyBufferIndex(views, out, candidates, buffers);
        MemorySegment likelyBuffer = bufferOrEmpty(buffers, likely);
        int found = 0;
        for (int j = 0; j < candidates; j++) {
            int row = out[j];
            long difference = 1;
            if (column.isValid(row)) { // only a null row's view may hold garbage: check before following it
                difference = patternLength <= 4 ? 0 : restDifference(views, buffers, likely, likelyBuffer, row);
            }
            if (difference == 0) { // a branch on purpose: see EqualityPredicate
                out[found++] = row;
            }
        }
        return found;
    }

    /** Zero when bytes 4.. of the pattern match a non-null candidate at least as long as the pattern. */
    private long restDifference(MemorySegment views, MemorySegment[] buffers, int likely, MemorySegment likelyBuffer,
            int row) {
        long at = (long) row << 4;
        long w1 = views.get(LAYOUT_LE_LONG, at + 8);
        if ((int) views.get(LAYOUT_LE_LONG, at) <= INLINE_MAX) {
            return (w1 & inlineMask) ^ inlineBits;
        }
        int index = (int) w1;
        return pattern.differenceAfterPrefix(index == likely ? likelyBuffer : buffers[index], w1 >>> 32);
    }
}
