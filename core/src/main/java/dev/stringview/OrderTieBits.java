package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_INT;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;
import static dev.stringview.ViewLayout.PREFIX_SIZE;

import java.lang.foreign.MemorySegment;

/**
 * The hot loop of order's tie resolution over a column with one data buffer ({@link OrderPredicate}): the ties of
 * one 64-row word, walked by their bits, each compared with the constant by its bytes 4..11 only.
 */
final class OrderTieBits {
    private OrderTieBits() {}

    /**
     * For the ties marked in {@code t} (bit {@code i} for the row whose view starts at {@code at + 16 i}; valid
     * rows of a column whose only buffer is {@code buffer}): bit {@code i} set when the tie's bytes 4..11
     * (big-endian: the rest of an inline view, else eight bytes from the buffer) are unsigned below
     * {@code second}, the constant's. Writes to {@code out[0]} the bits of the ties whose bytes 4..11 equal
     * {@code second} (their lengths decide, which the caller reads for those rows only) and ORs the long ties'
     * buffer indexes into {@code out[1]} (non-zero when one names a buffer the column does not have).
     *
     * <p>A method of its own, with nothing live but the bits, the two outcome words, the constant and the two
     * segments: inside {@code resolveTiesOneBuffer}, which also carried the clipped lengths, the window and the
     * deep-tie code, C2 kept the bit word in a stack slot (a load, a {@code blsr} and a store per tie, a chain
     * through memory) and the buffer-index OR in an XMM register, about 38 instructions a tie (hsdis, JDK 25).
     * The length is read only to choose where bytes 4..11 come from (a branch that rows of one kind predict),
     * not compared: a tie whose bytes 4..11 differ from the constant's is ordered by them whatever its length.
     */
    static long below(MemorySegment views, MemorySegment buffer, long at, long t, long second, long[] out) {
        long below = 0;
        long equal = 0;
        int other = 0;
        for (; t != 0; t &= t - 1) {
            int i = Long.numberOfTrailingZeros(t);
            long view = at + ((long) i << 4);
            long word = views.get(LAYOUT_LE_LONG, view + 8);
            if (views.get(LAYOUT_LE_INT, view) > INLINE_MAX) {
                other |= (int) word;
                word = buffer.get(LAYOUT_LE_LONG, (word >>> 32) + PREFIX_SIZE);
            }
            long x = Long.reverseBytes(word);
            below |= (Long.compareUnsigned(x, second) < 0 ? 1L : 0L) << i;
            equal |= (x == second ? 1L : 0L) << i;
        }
        out[0] = equal;
        out[1] |= other;
        return below;
    }

    /**
     * {@link #below} for ties left by the settling pass ({@code settleInline}), for a constant whose bytes 4..7 are
     * not all zero: such a window's inline ties agree with the constant through byte 7, so their view bytes 8..11
     * (the low half of the second view word) are the constant's bytes 4..7, not zero, while a long tie's are its
     * buffer index, zero in a one-buffer column. So the second view word alone tells the common tie, a long one
     * naming buffer 0, which reads bytes 4..11 from the buffer with no length load; only a tie whose word has a
     * non-zero low half (an inline tie equal through byte 7, or a long one naming another buffer) reads its length.
     * It pays on {@code PrefixCollisionBatchBenchmark}'s shared-prefix cells (decision records 010 and 003).
     */
    static long belowSettled(MemorySegment views, MemorySegment buffer, long at, long t, long second, long[] out) {
        long below = 0;
        long equal = 0;
        int other = 0;
        for (; t != 0; t &= t - 1) {
            int i = Long.numberOfTrailingZeros(t);
            long view = at + ((long) i << 4);
            long word = views.get(LAYOUT_LE_LONG, view + 8);
            if ((int) word == 0) {
                word = buffer.get(LAYOUT_LE_LONG, (word >>> 32) + PREFIX_SIZE);
            } else if (views.get(LAYOUT_LE_INT, view) > INLINE_MAX) {
                other |= (int) word;
                word = buffer.get(LAYOUT_LE_LONG, (word >>> 32) + PREFIX_SIZE);
            }
            long x = Long.reverseBytes(word);
            below |= (Long.compareUnsigned(x, second) < 0 ? 1L : 0L) << i;
            equal |= (x == second ? 1L : 0L) << i;
        }
        out[0] = equal;
        out[1] |= other;
        return below;
    }

    /**
     * {@link #below} for a word whose 64 rows all tie (every value sharing the constant's first four bytes): a
     * counted loop over the rows instead of a walk over the bits, so that C2 unrolls it, checks the views' bounds
     * once for the word and needs no safepoint poll per tie.
     */
    static long belowAll(MemorySegment views, MemorySegment buffer, long at, long second, long[] out) {
        long below = 0;
        long equal = 0;
        int other = 0;
        for (int i = 0; i < Long.SIZE; i++) {
            long view = at + ((long) i << 4);
            long word = views.get(LAYOUT_LE_LONG, view + 8);
            if (views.get(LAYOUT_LE_INT, view) > INLINE_MAX) {
                other |= (int) word;
                word = buffer.get(LAYOUT_LE_LONG, (word >>> 32) + PREFIX_SIZE);
            }
            long x = Long.reverseBytes(word);
            below |= (Long.compareUnsigned(x, second) < 0 ? 1L : 0L) << i;
            equal |= (x == second ? 1L : 0L) << i;
        }
        out[0] = equal;
        out[1] |= other;
        return below;
    }
}
