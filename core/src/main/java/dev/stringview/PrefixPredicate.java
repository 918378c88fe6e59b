package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;
import static dev.stringview.ViewLayout.PREFIX_SIZE;

import dev.stringview.internal.Vectorization;
import java.lang.foreign.MemorySegment;

/**
 * {@code value LIKE 'p%'}, in the two steps of {@link ViewWordPredicate}.
 *
 * <p><b>The view-word pass</b> makes a row a candidate when it is long enough, its prefix masked to the pattern's
 * first four bytes matches, and it is long or its inline bytes 4..11, masked to the pattern's, match. That decides
 * every row for a pattern of at most 4 bytes, and every inline row for any pattern.
 *
 * <p><b>The ties</b> are the long candidates of a pattern longer than 4 bytes: their bytes 4..11 from the buffer,
 * masked, decide a pattern of at most 12 bytes; a longer one's candidates that agree there compare the rest.
 */
final class PrefixPredicate extends ViewWordPredicate {
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
    void decide(ViewColumn column, int[] selection, int base, int count, Window window) {
        MemorySegment views = column.viewSegment();
        long[] accepted = window.accepted;
        long[] candidates = window.pass;
        long[] longCandidates = window.ties;
        Vectorization.ViewWordScan vector = selection == null ? Vectorization.viewWords() : null;
        if (vector != null) {
            vector.prefixWords(views, base, count, prefixMask, prefixBits, pattern.length, inlineMask, inlineBits,
                    candidates, longCandidates);
        } else {
            prefixWords(views, selection, base, count, candidates, longCandidates);
        }
        // A pattern of at most 4 bytes is decided by prefix and length alone: no candidate reads its buffer.
        long undecided = pattern.length > PREFIX_SIZE ? -1L : 0;
        long anyTie = 0;
        for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
            long keep = keep(column, selection, base + (w << 6), Math.min(Long.SIZE, count - (w << 6)));
            long ties = longCandidates[w] & undecided & keep;
            longCandidates[w] = ties;
            anyTie |= ties;
            accepted[w] = candidates[w] & keep & ~ties;
        }
        if (anyTie != 0) {
            MemorySegment[] buffers = column.bufferArray();
            try {
                resolveTies(views, buffers, selection, base, count, accepted, longCandidates);
            } catch (IndexOutOfBoundsException e) {
                throw misplacedTie(views, buffers, selection, base, longCandidates, count, e);
            }
        }
    }

    /**
     * The scalar view-word pass, twin of {@link Vectorization.ViewWordScan#prefixWords}: bit {@code i} of
     * {@code candidates} when entry {@code base + i} is a candidate, of {@code longCandidates} when it is also long.
     */
    private void prefixWords(MemorySegment views, int[] selection, int base, int count, long[] candidates,
            long[] longCandidates) {
        int patternLength = pattern.length;
        for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
            int start = base + (w << 6);
            int n = Math.min(Long.SIZE, count - (w << 6));
            long candidateBits = 0;
            long longBits = 0;
            for (int i = 0; i < n; i++) {
                long at = (long) (selection == null ? start + i : selection[start + i]) << 4;
                long w0 = views.get(LAYOUT_LE_LONG, at);
                long w1 = views.get(LAYOUT_LE_LONG, at + 8);
                int length = (int) w0;
                boolean isLong = length > INLINE_MAX;
                long candidate = (w0 & prefixMask) == prefixBits & length >= patternLength
                        & (isLong | (w1 & inlineMask) == inlineBits) ? 1 : 0;
                candidateBits |= candidate << i;
                longBits |= (isLong ? candidate : 0) << i;
            }
            candidates[w] = candidateBits;
            longCandidates[w] = longBits;
        }
    }

    /**
     * Adds the outcome bits of the ties (long candidates of a pattern longer than 4 bytes) to {@code accepted}: per
     * 64-entry word, their bytes 4..11 from their buffers, masked, decide a pattern of at most 12 bytes
     * ({@link #matchTies}); a longer pattern's ties that agree there compare the rest.
     */
    private void resolveTies(MemorySegment views, MemorySegment[] buffers, int[] selection, int base, int count,
            long[] accepted, long[] ties) {
        boolean patternIsLong = pattern.length > INLINE_MAX;
        int likelyIndex = likelyBufferIndex(views, buffers, selection, base, ties, count);
        MemorySegment likely = likelyBuffer(buffers, likelyIndex);
        for (int w = 0, n = (count + 63) >>> 6; w < n; w++) {
            long t = ties[w];
            if (t == 0) {
                continue;
            }
            int start = base + (w << 6);
            long match = matchTies(views, buffers, likelyIndex, likely, selection, start, t, inlineMask, inlineBits);
            if (patternIsLong) {
                for (long m = match; m != 0; m &= m - 1) {
                    int i = Long.numberOfTrailingZeros(m);
                    long w1 = views.get(LAYOUT_LE_LONG,
                            ((long) (selection == null ? start + i : selection[start + i]) << 4) + 8);
                    int index = (int) w1;
                    if (pattern.differenceAfterPrefix(index == likelyIndex ? likely : buffers[index], w1 >>> 32)
                            != 0) {
                        match &= ~(1L << i);
                    }
                }
            }
            accepted[w] |= match;
        }
    }

    /**
     * Bit {@code i} for each long tie marked in {@code t} (entry {@code start + i}) whose bytes 4..11, from its
     * buffer, masked with {@code mask}, are {@code bits}: the ties' loads do not wait on each other, and a static
     * method with nothing live but the bits, the segments and the two words keeps its loop in registers. A fused
     * loop rather than {@link #tieWords} and a second loop, which measured slower here (decision record 030).
     */
    private static long matchTies(MemorySegment views, MemorySegment[] buffers, int likelyIndex,
            MemorySegment likely, int[] selection, int start, long t, long mask, long bits) {
        long match = 0;
        if (t == -1L && selection == null) {
            // Every entry of the word ties: a counted loop over the rows, as in tieWords (decision record 031).
            long first = (long) start << 4;
            for (int i = 0; i < Long.SIZE; i++) {
                long w1 = views.get(LAYOUT_LE_LONG, first + ((long) i << 4) + 8);
                int index = (int) w1;
                long word = (index == likelyIndex ? likely : buffers[index]).get(LAYOUT_LE_LONG,
                        (w1 >>> 32) + PREFIX_SIZE);
                match |= ((word & mask) == bits ? 1L : 0L) << i;
            }
            return match;
        }
        for (; t != 0; t &= t - 1) {
            int i = Long.numberOfTrailingZeros(t);
            long w1 = views.get(LAYOUT_LE_LONG,
                    ((long) (selection == null ? start + i : selection[start + i]) << 4) + 8);
            int index = (int) w1;
            long word = (index == likelyIndex ? likely : buffers[index]).get(LAYOUT_LE_LONG,
                    (w1 >>> 32) + PREFIX_SIZE);
            match |= ((word & mask) == bits ? 1L : 0L) << i;
        }
        return match;
    }
}
