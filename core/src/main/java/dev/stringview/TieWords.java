package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_INT;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;
import static dev.stringview.ViewLayout.PREFIX_SIZE;

import java.lang.foreign.MemorySegment;

/**
 * The second phase shared by the equality, prefix and order kernels: rows that the view words could not decide
 * ("ties": their prefix agrees with the constant's) are first collected over a whole window of rows ({@link #WINDOW}
 * for order; for equality and prefix the range one {@code selectRows} call covers, 1024 rows in {@code count} and
 * {@code mask}), then settled in one tight loop whose loads do not depend on each other.
 *
 * <p>Why a window and not a 64-row word: on a heap far larger than the cache, each tie's bytes sit at a sparse,
 * irregular address that the hardware prefetcher does not follow, so each costs a DRAM miss. Resolved a few at a
 * time between view scans, the misses came one after another; in a loop over hundreds of ties with a handful of
 * instructions each, the out-of-order core has many of them in flight at once (memory-level parallelism). Suite 1's
 * contiguous heap showed the difference: docs/architecture.md has the figures.
 */
final class TieWords {
    /** Rows per window (a multiple of 64): its tie bits and outcome words stay in L1. */
    static final int WINDOW = 1024;

    private TieWords() {}

    /**
     * Bytes 4..11 of a non-null row of {@code length} bytes whose second view word is {@code w1}, as a
     * little-endian word: for an inline row {@code w1} itself (zero-padded past its end), else the eight bytes after
     * the prefix in its buffer (a long row has at least 13 bytes, so they are all its own). {@code likely} is
     * {@code buffers[likelyIndex]} held in the caller's local (see {@link ViewPredicate#likelyBufferIndex}).
     */
    static long bytes4To11(int length, long w1, MemorySegment[] buffers, MemorySegment likely, int likelyIndex) {
        if (length <= INLINE_MAX) {
            return w1;
        }
        int index = (int) w1;
        return (index == likelyIndex ? likely : buffers[index]).get(LAYOUT_LE_LONG, (w1 >>> 32) + PREFIX_SIZE);
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
     * Keeps, in order, the rows of {@code rows[0..n)} (non-null) whose bytes 4..11 masked by {@code mask} equal
     * {@code bits}; returns how many are kept. Bytes past an inline row's end read as zeros.
     * Writes each row to {@code rows[kept]} and counts it only when it matches: no branch on the outcome, so a loop over hundreds of candidates keeps
     * their buffer loads in flight together.
     */
    static int keepMatching(MemorySegment views, MemorySegment[] buffers, int[] rows, int n, long mask, long bits) {
        int likelyIndex = ViewPredicate.likelyBufferIndex(views, rows, n, buffers);
        MemorySegment likely = ViewPredicate.bufferOrEmpty(buffers, likelyIndex);
        int kept = 0;
        for (int k = 0; k < n; k++) {
            int row = rows[k];
            long at = (long) row << 4;
            long word = bytes4To11(views.get(LAYOUT_LE_INT, at), views.get(LAYOUT_LE_LONG, at + 8), buffers, likely,
                    likelyIndex);
            rows[kept] = row;
            kept += (word & mask) == bits ? 1 : 0;
        }
        return kept;
    }

    /** Keeps, in order, the non-null rows of {@code rows[0..n)}; returns how many. */
    static int keepValid(ViewColumn column, int[] rows, int n) {
        if (!column.hasNulls()) {
            return n;
        }
        int kept = 0;
        for (int k = 0; k < n; k++) {
            int row = rows[k];
            rows[kept] = row;
            kept += column.isValid(row) ? 1 : 0;
        }
        return kept;
    }
}
