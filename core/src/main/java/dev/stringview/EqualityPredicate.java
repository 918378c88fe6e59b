package dev.stringview;

import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.Vectorization;
import java.lang.foreign.MemorySegment;

/**
 * {@code value = constant} or {@code value <> constant}, after seed 001's equality scan, in the two steps of
 * {@link ViewWordPredicate}.
 *
 * <p><b>The view-word pass</b> compares both view words of every row with the constant's, with no branch. For an
 * inline constant that decides every row: equal values have equal views (the padding is zero). For a long constant
 * a row whose first view word (length and prefix) equals the constant's is a tie.
 *
 * <p><b>The ties</b> of a long constant compare their bytes after the prefix in their buffer
 * ({@link Constant#differenceAfterPrefix}). Each tie's loads do not depend on another tie's, so over a heap far
 * larger than the cache their misses overlap instead of stalling the scan one by one.
 */
final class EqualityPredicate extends ViewWordPredicate {
    private final Constant constant;
    private final boolean negated;

    EqualityPredicate(Constant constant, boolean negated) {
        this.constant = constant;
        this.negated = negated;
    }

    @Override
    void decide(ViewColumn column, int[] selection, int base, int count, Window window) {
        MemorySegment views = column.viewSegment();
        long[] accepted = window.accepted;
        long[] word0Equal = window.ties;
        long[] viewEqual = window.pass;
        long k0 = constant.word0;
        long k1 = constant.word1;
        Vectorization.ViewWordScan vector = selection == null ? Vectorization.viewWords() : null;
        if (vector != null) {
            vector.equalWords(views, base, count, k0, k1, word0Equal, viewEqual);
        } else {
            equalWords(views, selection, base, count, k0, k1, word0Equal, viewEqual);
        }
        boolean inline = constant.isInline();
        long flip = negated ? -1L : 0;
        long anyTie = 0;
        for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
            long keep = keep(column, selection, base + (w << 6), Math.min(Long.SIZE, count - (w << 6)));
            if (inline) {
                accepted[w] = (viewEqual[w] ^ flip) & keep;
                word0Equal[w] = 0;
            } else {
                long ties = word0Equal[w] & keep;
                word0Equal[w] = ties;
                anyTie |= ties;
                accepted[w] = flip & keep & ~ties; // a row whose length or prefix differs is not equal
            }
        }
        if (anyTie != 0) {
            MemorySegment[] buffers = column.bufferArray();
            try {
                resolveTies(views, buffers, selection, base, count, accepted, word0Equal, window.words, negated);
            } catch (IndexOutOfBoundsException e) {
                throw misplacedTie(views, buffers, selection, base, word0Equal, count, e);
            }
        }
    }

    /**
     * The scalar view-word pass, twin of {@link Vectorization.ViewWordScan#equalWords}: bit {@code i} of
     * {@code word0Equal} when entry {@code base + i}'s first view word is {@code k0}, of {@code viewEqual} when its
     * second is also {@code k1}.
     */
    private static void equalWords(MemorySegment views, int[] selection, int base, int count, long k0, long k1,
            long[] word0Equal, long[] viewEqual) {
        for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
            int start = base + (w << 6);
            int n = Math.min(Long.SIZE, count - (w << 6));
            long first = 0;
            long both = 0;
            for (int i = 0; i < n; i++) {
                long at = (long) (selection == null ? start + i : selection[start + i]) << 4;
                long same0 = views.get(LAYOUT_LE_LONG, at) == k0 ? 1 : 0;
                long same1 = views.get(LAYOUT_LE_LONG, at + 8) == k1 ? 1 : 0;
                first |= same0 << i;
                both |= (same0 & same1) << i;
            }
            word0Equal[w] = first;
            viewEqual[w] = both;
        }
    }

    /**
     * Adds the outcome bits of the ties (long rows with the long constant's length and prefix) to {@code accepted}:
     * equal, or not equal when {@code negated}. Per 64-entry word, their bytes 4..11 ({@link #tieWords}) rule out
     * most; only those that agree there read the rest ({@link Constant#differenceAfterPrefix}).
     */
    private void resolveTies(MemorySegment views, MemorySegment[] buffers, int[] selection, int base, int count,
            long[] accepted, long[] ties, long[] words, boolean negated) {
        long bytes4To11 = constant.word1;
        int likelyIndex = likelyBufferIndex(views, buffers, selection, base, ties, count);
        MemorySegment likely = likelyBuffer(buffers, likelyIndex);
        for (int w = 0, n = (count + 63) >>> 6; w < n; w++) {
            long t = ties[w];
            if (t == 0) {
                continue;
            }
            int start = base + (w << 6);
            tieWords(views, buffers, likelyIndex, likely, selection, start, t, words);
            long equal = 0;
            for (long m = t; m != 0; m &= m - 1) {
                int i = Long.numberOfTrailingZeros(m);
                equal |= (words[i] == bytes4To11 ? 1L : 0L) << i;
            }
            for (long m = equal; m != 0; m &= m - 1) {
                int i = Long.numberOfTrailingZeros(m);
                long w1 = views.get(LAYOUT_LE_LONG,
                        ((long) (selection == null ? start + i : selection[start + i]) << 4) + 8);
                int index = (int) w1;
                if (constant.differenceAfterPrefix(index == likelyIndex ? likely : buffers[index], w1 >>> 32) != 0) {
                    equal &= ~(1L << i);
                }
            }
            accepted[w] |= negated ? t & ~equal : equal;
        }
    }
}
