package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_BE_LONG;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import java.lang.foreign.MemorySegment;

/**
 * {@code value < constant} and the other orderings, in unsigned bytewise order ({@link ViewOrder}).
 *
 * <p>Over all rows, 64 rows at a time ({@link #chunkMatches}): one big-endian load of view bytes 4..11 and an
 * unsigned compare decide every row whose prefix differs from the constant's, with no branch, into a bit word;
 * rows with the constant's prefix (5% of rows in Suite 1, every row when all values share their first four bytes)
 * are marked as ties and resolved afterwards, from bytes 4..11 as one word, then the lengths, then the rest.
 *
 * <p>Over an input selection the same, 64 entries at a time ({@link #selectedChunkMatches}). Null rows are not
 * branched on: their bits are masked out with the validity bits, and a null row's view is never followed.
 */
final class OrderPredicate extends ViewPredicate {
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
        int found = 0;
        if (selection == null) {
            for (int base = from; base < to; base += Long.SIZE) {
                long matches = chunkMatches(column, views, buffers, base, Math.min(Long.SIZE, to - base));
                while (matches != 0) {
                    out[found++] = base + Long.numberOfTrailingZeros(matches);
                    matches &= matches - 1;
                }
            }
            return found;
        }
        // The chunk path over the selection's entries: the whole chunk is read before any row id is written, and
        // found never passes the position being read, so out may be the selection itself.
        for (int base = from; base < to; base += Long.SIZE) {
            long matches = selectedChunkMatches(column, views, buffers, selection, base, Math.min(Long.SIZE, to - base));
            while (matches != 0) {
                out[found++] = selection[base + Long.numberOfTrailingZeros(matches)];
                matches &= matches - 1;
            }
        }
        return found;
    }

    /** Counts without writing row ids: the matches of each 64-row chunk are one word, counted by its bits. */
    @Override
    int countRows(ViewColumn column, int[] selection, int n) {
        if (selection != null) {
            return super.countRows(column, selection, n);
        }
        MemorySegment views = column.viewSegment();
        MemorySegment[] buffers = column.bufferArray();
        int total = 0;
        for (int base = 0; base < n; base += Long.SIZE) {
            total += Long.bitCount(chunkMatches(column, views, buffers, base, Math.min(Long.SIZE, n - base)));
        }
        return total;
    }

    /**
     * Bit {@code i} set when row {@code base + i} ({@code i < count <= 64}) matches, in two phases. The first
     * reads only the views and decides every row in arithmetic, with no branch: its outcome bit goes into one
     * word, and a second word marks the long rows that share the constant's prefix ("ties", whose outcome the
     * view cannot decide). Nulls are then masked out of both words at once, so the hot loop never reads the
     * validity bitmap and a null row's view (which may hold anything) is never followed into a buffer. Only the
     * ties left then, few unless the data shares its prefix, are resolved one by one from their buffers. Deciding
     * a row and branching on whether it is a tie cost about 5 ns/row in a per-row loop (mispredicted on the 5%
     * ties of Suite 1); this loop carries no data-dependent branch.
     */
    private long chunkMatches(ViewColumn column, MemorySegment views, MemorySegment[] buffers, int base,
            int count) {
        long accepted = 0;
        long ties = 0;
        for (int i = 0; i < count; i++) {
            // Bytes 4..11 of the view: the prefix, then bytes 4..7 of an inline value (zero-padded) or the buffer
            // index of a long one. Read big-endian, it orders like the value's first eight bytes whenever the
            // prefixes differ; rows with the constant's prefix are ties, decided below.
            long key = views.get(LAYOUT_BE_LONG, ((long) (base + i) << 4) + 4);
            long less = Long.compareUnsigned(key, first) < 0 ? 1 : 0;
            long tie = (key >>> 32) == prefix ? 1 : 0;
            accepted |= less << i;
            ties |= tie << i;
        }
        long valid = column.hasNulls() ? column.validBits(base, count) : -1L;
        return settle(views, buffers, null, base, count, accepted, ties, valid);
    }

    /**
     * {@link #chunkMatches} over the rows {@code selection[base..base + count)}: bit {@code i} for entry
     * {@code base + i}, decided the same way (views first with no branch, nulls masked, ties resolved after).
     */
    private long selectedChunkMatches(ViewColumn column, MemorySegment views, MemorySegment[] buffers,
            int[] selection, int base, int count) {
        long accepted = 0;
        long ties = 0;
        for (int i = 0; i < count; i++) {
            long key = views.get(LAYOUT_BE_LONG, ((long) selection[base + i] << 4) + 4);
            long less = Long.compareUnsigned(key, first) < 0 ? 1 : 0;
            long tie = (key >>> 32) == prefix ? 1 : 0;
            accepted |= less << i;
            ties |= tie << i;
        }
        long valid = -1L;
        if (column.hasNulls()) {
            valid = 0;
            for (int i = 0; i < count; i++) {
                valid |= (column.isValid(selection[base + i]) ? 1L : 0L) << i;
            }
        }
        return settle(views, buffers, selection, base, count, accepted, ties, valid);
    }

    /**
     * The second phase shared by both chunk loops: {@code less} (bit set when the row's bytes 4..11 order below the
     * constant's) becomes the outcome for the comparison, nulls ({@code valid} bits clear) and bits past
     * {@code count} are cleared, and the ties left are resolved one by one. Row {@code i} of the chunk is
     * {@code base + i}, or {@code selection[base + i]} over a selection.
     */
    private long settle(MemorySegment views, MemorySegment[] buffers, int[] selection, int base, int count,
            long less, long ties, long valid) {
        long accepted = acceptLess ? less : ~less;
        ties &= valid;
        accepted &= valid & ~ties & (-1L >>> (Long.SIZE - count));
        while (ties != 0) {
            int i = Long.numberOfTrailingZeros(ties);
            ties &= ties - 1;
            long at = (long) (selection == null ? base + i : selection[base + i]) << 4;
            int outcome = tieOutcome(buffers, views.get(LAYOUT_LE_LONG, at), views.get(LAYOUT_LE_LONG, at + 8));
            accepted |= (long) ((acceptMask >>> outcome) & 1) << i;
        }
        return accepted;
    }

    /**
     * 0, 1 or 2 as a valid row whose prefix equals the constant's is less than, equal to or greater than it: bytes
     * 4..11 as one word ({@link ViewOrder#second}), then the lengths, then (both long) the bytes from 12 on.
     */
    private int tieOutcome(MemorySegment[] buffers, long w0, long w1) {
        int length = (int) w0;
        return ViewOrder.compareSamePrefix(length > INLINE_MAX ? buffers[(int) w1] : null, w1 >>> 32, length,
                ViewOrder.second(buffers, w0, w1), constant.segment, 0, constant.length, second) + 1;
    }
}
