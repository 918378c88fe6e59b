package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_INT;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;
import static dev.stringview.ViewLayout.PREFIX_SIZE;

import java.lang.foreign.MemorySegment;

/**
 * The kernels that compare values with a constant from their views (equality, starts-with, order), all in the same
 * two steps over windows of {@value #WINDOW} rows (or entries of an input selection), 64 rows per bit word:
 *
 * <ol>
 *   <li><b>The view-word pass</b> ({@link #decide}) reads only the views and gives each row two bits: decided (and
 *       whether it matches), or a tie that its view cannot settle (its prefix, or its length and prefix, agree
 *       with the constant's and its bytes past them are in a data buffer). The pass has a scalar loop and, for a
 *       window without a selection once the Vector API loops are warm, a vector twin that gives the same bits
 *       ({@link dev.stringview.internal.Vectorization.ViewWordScan}; decision record 001). Nulls are masked out
 *       with the validity bits afterwards, so a null row's view (which may hold anything) is never followed.</li>
 *   <li><b>The ties</b> of the whole window are settled in one loop over their bits, reading the data buffers.
 *       Collecting them over a window first, rather than resolving each as the pass meets it, keeps the pass free
 *       of data-dependent branches and lets the loads of consecutive ties overlap when their bytes are scattered
 *       over a heap far larger than the cache.</li>
 * </ol>
 *
 * <p>{@code select} then writes the ids of the accepted bits, {@code count} adds up their bit counts, with no row id
 * written. One path per kernel: decision record docs/decisions/003-one-path-per-kernel.md.
 */
abstract sealed class ViewWordPredicate extends ViewPredicate
        permits EqualityPredicate, PrefixPredicate, OrderPredicate {
    /** Rows per window (a multiple of 64): the window's bit words stay in L1 and its views in L2. */
    static final int WINDOW = 1024;

    /** Per-call scratch: the bit words of one window. */
    static final class Window {
        /** Bit set: the row matches. Written by {@link ViewWordPredicate#decide} for every word of the window. */
        final long[] accepted;
        /** Bit set: the row is a tie (non-null, not settled by its view). */
        final long[] ties;
        /** The view-word pass's second output. */
        final long[] pass;
        /** Bytes 4..11 of the ties of one 64-entry word, by bit ({@link ViewWordPredicate#tieWords}). */
        final long[] words = new long[Long.SIZE];

        Window(int rows) {
            int words = (Math.max(1, Math.min(rows, WINDOW)) + 63) >>> 6;
            accepted = new long[words];
            ties = new long[words];
            pass = new long[words];
        }
    }

    /**
     * Sets {@code window.accepted} for the {@code count <= WINDOW} entries {@code base..base + count - 1} (rows, or
     * entries of the selection), bit {@code i % 64} of word {@code i / 64} for entry {@code base + i}, clearing the
     * bits of null rows and those past {@code count}.
     */
    abstract void decide(ViewColumn column, int[] selection, int base, int count, Window window);

    @Override
    final int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        Window window = new Window(to - from);
        int found = 0;
        // A whole window is read before any row id of it is written, and found never passes the position being
        // read, so out may be the selection itself.
        for (int base = from, count; base < to; base += count) {
            count = Math.min(WINDOW, to - base);
            decide(column, selection, base, count, window);
            long[] accepted = window.accepted;
            for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
                int first = base + (w << 6);
                for (long m = accepted[w]; m != 0; m &= m - 1) {
                    int position = first + Long.numberOfTrailingZeros(m);
                    out[found++] = selection == null ? position : selection[position];
                }
            }
        }
        return found;
    }

    @Override
    final int countRows(ViewColumn column, int[] selection, int n) {
        Window window = new Window(n);
        int total = 0;
        for (int base = 0, count; base < n; base += count) {
            count = Math.min(WINDOW, n - base);
            decide(column, selection, base, count, window);
            for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
                total += Long.bitCount(window.accepted[w]);
            }
        }
        return total;
    }

    /**
     * The bits of the {@code n} (1..64) entries from {@code first} that are non-null rows: the pass's bits are
     * masked with these, so that no null row is followed into a buffer or counted.
     */
    static long keep(ViewColumn column, int[] selection, int first, int n) {
        long keep = -1L >>> (Long.SIZE - n);
        return column.hasNulls() ? keep & column.validBits(selection, first, n) : keep;
    }

    /** The error for a long row whose view names buffer {@code bufferIndex} of a column with {@code buffers}. */
    private static IndexOutOfBoundsException missingBuffer(int row, int bufferIndex, int buffers) {
        return new IndexOutOfBoundsException("view names a missing data buffer: row=" + row + " bufferIndex="
                + bufferIndex + " buffers=" + buffers);
    }

    /**
     * The error for a window's ties ({@code ties}, as for {@link #likelyBufferIndex}) of which a long row names a
     * missing buffer or bytes outside its buffer: the first such row, with its view's numbers. {@code cause} is
     * the bounds failure met while reading, if any.
     */
    static RuntimeException misplacedTie(MemorySegment views, MemorySegment[] buffers, int[] selection, int base,
            long[] ties, int count, RuntimeException cause) {
        for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
            for (long t = ties[w]; t != 0; t &= t - 1) {
                int position = base + (w << 6) + Long.numberOfTrailingZeros(t);
                RuntimeException e = misplaced(views, buffers, selection == null ? position : selection[position]);
                if (e != null) {
                    return e;
                }
            }
        }
        return cause != null ? cause : new IllegalStateException("no misplaced tie found: base=" + base
                + " count=" + count);
    }

    /** The error for non-null {@code row} when it is long and its view names a missing buffer or bytes outside it. */
    private static RuntimeException misplaced(MemorySegment views, MemorySegment[] buffers, int row) {
        long at = (long) row << 4;
        int length = views.get(LAYOUT_LE_INT, at);
        if (length <= INLINE_MAX) {
            return null;
        }
        int index = views.get(LAYOUT_LE_INT, at + 8);
        long offset = Integer.toUnsignedLong(views.get(LAYOUT_LE_INT, at + 12));
        if (index < 0 || index >= buffers.length) {
            return missingBuffer(row, index, buffers.length);
        }
        long size = buffers[index].byteSize();
        if (offset + length > size) {
            return new IndexOutOfBoundsException("view points past its data buffer: row=" + row + " bufferIndex="
                    + index + " offset=" + offset + " length=" + length + " bufferBytes=" + size);
        }
        return null;
    }

    /**
     * The buffer index of the first long row among the ties of a window ({@code ties}: bit {@code i % 64} of word
     * {@code i / 64} for entry {@code base + i}), or -1 when there is none.
     */
    static int likelyBufferIndex(MemorySegment views, MemorySegment[] buffers, int[] selection, int base, long[] ties,
            int count) {
        for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
            for (long t = ties[w]; t != 0; t &= t - 1) {
                int position = base + (w << 6) + Long.numberOfTrailingZeros(t);
                long at = (long) (selection == null ? position : selection[position]) << 4;
                if (views.get(LAYOUT_LE_INT, at) > INLINE_MAX) {
                    return (int) views.get(LAYOUT_LE_LONG, at + 8);
                }
            }
        }
        return -1;
    }

    /**
     * Writes to {@code words[i]} bytes 4..11 of the value of each tie marked by bit {@code i} of {@code t} (entry
     * {@code start + i}), as a little-endian word: an inline row's second view word (zero-padded), a long row's
     * eight bytes after its prefix from its buffer (a long value has at least 13 bytes). {@code likelyIndex} and
     * {@code likely} are {@link #likelyBufferIndex} and {@link #likelyBuffer}.
     *
     * <p>One loop for every kernel's ties, that only loads: no tie's loads wait on another tie's outcome, so over a
     * heap far larger than the cache their misses overlap, and with nothing but the bits, the segments and the
     * output live, C2 keeps the loop in registers. Each kernel then compares the words in a loop of its own.
     */
    static void tieWords(MemorySegment views, MemorySegment[] buffers, int likelyIndex, MemorySegment likely,
            int[] selection, int start, long t, long[] words) {
        if (t == -1L && selection == null) {
            // Every entry of the word ties (values sharing their first bytes): a counted loop over the rows, which
            // C2 unrolls, with the views' bounds checked once and no safepoint poll per tie (decision record 031).
            long first = (long) start << 4;
            for (int i = 0; i < Long.SIZE; i++) {
                long at = first + ((long) i << 4);
                long w1 = views.get(LAYOUT_LE_LONG, at + 8);
                if (views.get(LAYOUT_LE_INT, at) > INLINE_MAX) {
                    int index = (int) w1;
                    w1 = (index == likelyIndex ? likely : buffers[index]).get(LAYOUT_LE_LONG,
                            (w1 >>> 32) + PREFIX_SIZE);
                }
                words[i] = w1;
            }
            return;
        }
        for (; t != 0; t &= t - 1) {
            int i = Long.numberOfTrailingZeros(t);
            long at = (long) (selection == null ? start + i : selection[start + i]) << 4;
            long w1 = views.get(LAYOUT_LE_LONG, at + 8);
            if (views.get(LAYOUT_LE_INT, at) > INLINE_MAX) {
                int index = (int) w1;
                w1 = (index == likelyIndex ? likely : buffers[index]).get(LAYOUT_LE_LONG, (w1 >>> 32) + PREFIX_SIZE);
            }
            words[i] = w1;
        }
    }

    /**
     * {@code buffers[index]} for the buffer index {@link #likelyBufferIndex} gave, or an empty segment (every read out
     * of bounds) when it is -1 or names no buffer. A tie loop holds it in a local and takes
     * {@code index == likely ? likelyBuffer : buffers[index]} per tie: rows near each other mostly share a buffer
     * (one builder block, one Parquet page), and for a segment in a local the JIT keeps its address and bounds in
     * registers instead of reloading them per tie. Any other index still reads its own buffer.
     */
    static MemorySegment likelyBuffer(MemorySegment[] buffers, int index) {
        return index >= 0 && index < buffers.length ? buffers[index] : MemorySegment.NULL;
    }
}
