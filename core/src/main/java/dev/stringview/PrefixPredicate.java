package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.Vectorization;
import java.lang.foreign.MemorySegment;

/**
 * {@code value LIKE 'p%'}, in two phases like {@link EqualityPredicate}. First, rows long enough and whose masked
 * prefix word matches become candidates, from the first view word alone. Then the candidates are confirmed: a
 * pattern of at most 4 bytes needs nothing more; otherwise every candidate's bytes 4..11 (an inline row's second
 * view word, a long row's buffer) are compared masked, in one loop over all candidates ({@link TieWords}), and
 * only a pattern longer than 12 bytes reads the rest of its candidates that agree so far.
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
        int candidates = 0;
        long mask = prefixMask;
        long bits = prefixBits;
        int patternLength = pattern.length;
        // The first view word decides most rows. Only rows it keeps read the second, which settles inline rows
        // (reading it for every row measured 2-3x slower at a 5% share; a branch-free form, 64 rows a word, was
        // slower as well), so that only long candidates go on to their buffers.
        Vectorization.ViewWordScan vector = Vectorization.viewWords();
        if (selection == null && vector != null) {
            candidates = vector.prefixCandidates(views, from, to, mask, bits, patternLength, inlineMask, inlineBits,
                    out);
        } else if (selection == null) { // the row as induction variable lets the JIT hoist bounds checks
            for (int row = from; row < to; row++) {
                long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
                if ((w0 & mask) == bits && (int) w0 >= patternLength
                        && inlineRestMatches(views, (long) row << 4, (int) w0)) {
                    out[candidates++] = row;
                }
            }
        } else {
            for (int i = from; i < to; i++) {
                int row = selection[i];
                long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
                if ((w0 & mask) == bits && (int) w0 >= patternLength
                        && inlineRestMatches(views, (long) row << 4, (int) w0)) {
                    out[candidates++] = row;
                }
            }
        }
        int found = TieWords.keepValid(column, out, candidates);
        if (patternLength <= 4) {
            return found;
        }
        // Bytes 4..11 of every candidate in one loop whose loads do not wait on each other (TieWords): for a
        // pattern of at most 12 bytes they decide; a longer one's candidates that agree there compare the rest.
        MemorySegment[] buffers = column.bufferArray();
        found = TieWords.keepMatching(views, buffers, out, found, inlineMask, inlineBits);
        if (patternLength <= INLINE_MAX) {
            return found;
        }
        int likely = likelyBufferIndex(views, out, found, buffers);
        MemorySegment likelyBuffer = bufferOrEmpty(buffers, likely);
        int kept = 0;
        for (int j = 0; j < found; j++) {
            int row = out[j];
            long w1 = views.get(LAYOUT_LE_LONG, ((long) row << 4) + 8); // a long row: the pattern is longer than 12
            int index = (int) w1;
            if (pattern.differenceAfterPrefix(index == likely ? likelyBuffer : buffers[index], w1 >>> 32) == 0) {
                out[kept++] = row; // a branch on purpose: see EqualityPredicate
            }
        }
        return kept;
    }

    /**
     * For a candidate of {@code length} bytes whose prefix and length fit, at view offset {@code at}: false when it
     * is inline and its bytes 4..11 already differ from the pattern's (no branch on which kind it is: mixed data
     * would mispredict).
     */
    private boolean inlineRestMatches(MemorySegment views, long at, int length) {
        boolean isLong = length > INLINE_MAX; // from the first view word already loaded, not read again
        return isLong | (views.get(LAYOUT_LE_LONG, at + 8) & inlineMask) == inlineBits;
    }
}
