package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_BE_LONG;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.ByteRanges;
import java.lang.foreign.MemorySegment;

/**
 * {@code value < constant} and the other orderings, in unsigned bytewise order ({@link ViewOrder}).
 *
 * <p>All rows, or the rows of an input selection, are decided in blocks of {@value #BLOCK} positions
 * ({@link #decideBlock}): first 64 at a time from the views alone, with no branch, into bit words, where one
 * big-endian load of view bytes 4..11 and an unsigned compare decide every row whose prefix differs from the
 * constant's; then the rows with the constant's prefix ("ties": 5% of rows in Suite 1, every row when all values
 * share their first four bytes) have their bytes 4..11 gathered in one pass, so that their cache misses overlap,
 * and are decided from that word and the lengths, reaching the bytes from 12 on only when bytes 4..11 agree. Null
 * rows are masked out of the bit words, never branched on and never followed into a buffer.
 */
final class OrderPredicate extends ViewPredicate {
    /**
     * Positions decided per block: the ties of a block are gathered together (see {@link #decideBlock}), so a
     * block must hold enough of them to keep the memory system busy (about 50 at one tie in twenty rows), while
     * its scratch (12 KiB) stays in L1.
     */
    private static final int BLOCK = 1024;

    private final Constant constant;
    private final int acceptMask;
    private final long prefix;
    private final long second;
    private final long first; // bytes 0..7, big-endian, zero-padded
    private final boolean acceptLess; // whether rows less than the constant match (< and <=), else greater ones

    OrderPredicate(Constant constant, Comparison comparison) {
        this.constant = constant;
        this.acceptMask = comparison.acceptMask;
        this.prefix = Integer.toUnsignedLong(constant.prefixBigEndian);
        this.second = Long.reverseBytes(constant.word1); // bytes 4..11, zero-padded, for long constants too
        this.first = prefix << 32 | second >>> 32;
        this.acceptLess = (acceptMask & 1) != 0;
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        MemorySegment[] buffers = column.bufferArray();
        Block block = new Block(to - from);
        int found = 0;
        for (int base = from; base < to; base += BLOCK) {
            int count = Math.min(BLOCK, to - base);
            decideBlock(column, views, buffers, selection, base, count, block);
            // Row ids are written only after the whole block was read: out may be the selection itself, and
            // found never passes the position being read.
            for (int w = 0, words = (count + Long.SIZE - 1) >>> 6; w < words; w++) {
                long matches = block.accepted[w];
                int start = base + (w << 6);
                while (matches != 0) {
                    int position = start + Long.numberOfTrailingZeros(matches);
                    out[found++] = selection == null ? position : selection[position];
                    matches &= matches - 1;
                }
            }
        }
        return found;
    }

    /** Counts without writing row ids: the matches of each 64-row word are counted by its bits. */
    @Override
    int countRows(ViewColumn column, int[] selection, int n) {
        MemorySegment views = column.viewSegment();
        MemorySegment[] buffers = column.bufferArray();
        Block block = new Block(n);
        int total = 0;
        for (int base = 0; base < n; base += BLOCK) {
            int count = Math.min(BLOCK, n - base);
            decideBlock(column, views, buffers, selection, base, count, block);
            for (int w = 0, words = (count + Long.SIZE - 1) >>> 6; w < words; w++) {
                total += Long.bitCount(block.accepted[w]);
            }
        }
        return total;
    }

    /**
     * Decides positions {@code [base, base + count)} ({@code count <= BLOCK}) of the selection (rows, when it is
     * null) into {@code block.accepted}, bit {@code i % 64} of word {@code i / 64} for position {@code base + i},
     * in three passes:
     * <ol>
     *   <li>Over the views only, 64 positions per word, with no data-dependent branch: one big-endian load of view
     *       bytes 4..11 (the prefix, then bytes 4..7 of an inline value or the buffer index of a long one) and an
     *       unsigned compare decide every row whose prefix differs from the constant's; rows with the constant's
     *       prefix ("ties") get a bit in a second word. Nulls are masked out of both words at once, so this loop
     *       never reads the validity bitmap, and a null row's view (which may hold anything) is never followed.</li>
     *   <li>The ties' bytes 4..11 are gathered into an array, for all ties of the block before any is decided.
     *       The loads are independent and nothing branches on their values, so the CPU keeps many of them in
     *       flight: with the ties one row in twenty, each is a cache miss on a heap larger than the cache, and
     *       deciding each tie as it was loaded (as the per-chunk loop before did) serialized those misses.</li>
     *   <li>Each tie is decided from that word and the lengths in arithmetic ({@link ViewOrder#outcome}); only
     *       when both values are long and their bytes 4..11 agree are the bytes from 12 on compared, with
     *       {@link MemorySegment#mismatch}.</li>
     * </ol>
     */
    private void decideBlock(ViewColumn column, MemorySegment views, MemorySegment[] buffers, int[] selection,
            int base, int count, Block block) {
        long[] accepted = block.accepted;
        long[] ties = block.ties;
        boolean hasNulls = column.hasNulls();
        int words = (count + Long.SIZE - 1) >>> 6;
        for (int w = 0; w < words; w++) {
            int start = base + (w << 6);
            int n = Math.min(Long.SIZE, count - (w << 6));
            long less = 0;
            long tie = 0;
            if (selection == null) {
                for (int i = 0; i < n; i++) {
                    long key = views.get(LAYOUT_BE_LONG, ((long) (start + i) << 4) + 4);
                    less |= (Long.compareUnsigned(key, first) < 0 ? 1L : 0L) << i;
                    tie |= ((key >>> 32) == prefix ? 1L : 0L) << i;
                }
            } else {
                for (int i = 0; i < n; i++) {
                    long key = views.get(LAYOUT_BE_LONG, ((long) selection[start + i] << 4) + 4);
                    less |= (Long.compareUnsigned(key, first) < 0 ? 1L : 0L) << i;
                    tie |= ((key >>> 32) == prefix ? 1L : 0L) << i;
                }
            }
            long valid = -1L >>> (Long.SIZE - n);
            if (hasNulls) {
                valid = selection == null ? column.validBits(start, n) : selectedValidBits(column, selection, start, n);
            }
            // A row outside the ties differs from the constant in its prefix, so it is either less or greater.
            less = acceptLess ? less : ~less;
            tie &= valid;
            accepted[w] = less & ~tie & valid;
            ties[w] = tie;
        }

        // Gather: one pass over the tie bits loads every tie's bytes 4..11, branching only on whether the row is
        // inline (uniform in most data), never on the loaded bytes.
        int[] positions = block.tiePositions;
        long[] seconds = block.tieSeconds;
        int tieCount = 0;
        for (int w = 0; w < words; w++) {
            long tie = ties[w];
            while (tie != 0) {
                int position = (w << 6) + Long.numberOfTrailingZeros(tie);
                tie &= tie - 1;
                long at = (long) rowAt(selection, base + position) << 4;
                seconds[tieCount] = ViewOrder.second(buffers, views.get(LAYOUT_LE_LONG, at),
                        views.get(LAYOUT_LE_LONG, at + 8));
                positions[tieCount++] = position;
            }
        }
        for (int j = 0; j < tieCount; j++) {
            int position = positions[j];
            long at = (long) rowAt(selection, base + position) << 4;
            long w0 = views.get(LAYOUT_LE_LONG, at);
            int length = (int) w0;
            long rowSecond = seconds[j];
            int outcome;
            if (rowSecond == second && length > INLINE_MAX && constant.length > INLINE_MAX) {
                long w1 = views.get(LAYOUT_LE_LONG, at + 8);
                outcome = Integer.signum(ByteRanges.compare(buffers[(int) w1], (w1 >>> 32) + INLINE_MAX,
                        length - INLINE_MAX, constant.segment, INLINE_MAX, constant.length - INLINE_MAX)) + 1;
            } else {
                outcome = ViewOrder.outcome(0, rowSecond, second, (long) length - constant.length);
            }
            accepted[position >>> 6] |= (long) ((acceptMask >>> outcome) & 1) << position;
        }
    }

    private static int rowAt(int[] selection, int position) {
        return selection == null ? position : selection[position];
    }

    /** The validity of the rows {@code selection[start..start + n)} as bits {@code 0..n-1}. */
    private static long selectedValidBits(ViewColumn column, int[] selection, int start, int n) {
        long valid = 0;
        for (int i = 0; i < n; i++) {
            valid |= (column.isValid(selection[start + i]) ? 1L : 0L) << i;
        }
        return valid;
    }

    /** One evaluation's scratch: a block's outcome and tie words, and its ties' positions and bytes 4..11. */
    private static final class Block {
        final long[] accepted = new long[BLOCK / Long.SIZE];
        final long[] ties = new long[BLOCK / Long.SIZE];
        final int[] tiePositions;
        final long[] tieSeconds;

        Block(int positions) {
            int size = Math.max(1, Math.min(BLOCK, positions));
            tiePositions = new int[size];
            tieSeconds = new long[size];
        }
    }
}
