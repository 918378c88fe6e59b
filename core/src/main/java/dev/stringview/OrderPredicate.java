package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_BE_LONG;
import static dev.stringview.ViewLayout.LAYOUT_LE_INT;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.ByteRanges;
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
    private final long acceptsLess; // -1 when rows less than the constant match, else 0; likewise for equal, greater
    private final long acceptsEqual;
    private final long acceptsGreater;
    private final boolean constantIsLong;
    private final boolean acceptLess; // whether rows less than the constant match (< and <=), else greater ones
    private final long constantClipped; // the constant's length clipped to INLINE_MAX + 1 (see tieBits)

    OrderPredicate(Constant constant, Comparison comparison) {
        this.constant = constant;
        this.acceptMask = comparison.acceptMask;
        this.prefix = Integer.toUnsignedLong(constant.prefixBigEndian);
        this.second = Long.reverseBytes(constant.word1); // bytes 4..11, zero-padded, for long constants too
        this.first = prefix << 32 | second >>> 32;
        this.acceptsLess = -(long) (acceptMask & 1);
        this.acceptsEqual = -(long) ((acceptMask >>> 1) & 1);
        this.acceptsGreater = -(long) ((acceptMask >>> 2) & 1);
        this.constantIsLong = constant.length > INLINE_MAX;
        this.acceptLess = (acceptMask & 1) != 0;
        this.constantClipped = Math.min(constant.length, INLINE_MAX + 1);
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
     * reads only the views and decides every row whose prefix differs from the constant's in arithmetic, with no
     * branch, into a bit word; a second word marks the rows that share the constant's prefix ("ties", whose
     * outcome this one load cannot decide). Nulls are then masked out of both words at once, so the hot loop never
     * reads the validity bitmap and a null row's view (which may hold anything) is never followed into a buffer.
     * The ties left then are resolved a word at a time ({@link #resolveTies}). Deciding a row and branching on
     * whether it is a tie cost about 5 ns/row in a per-row loop (mispredicted on the 5% ties of Suite 1); this
     * loop carries no data-dependent branch.
     */
    private long chunkMatches(ViewColumn column, MemorySegment views, MemorySegment[] buffers, int base,
            int count) {
        long accepted = 0;
        long ties = 0;
        for (int i = 0; i < count; i++) {
            // Bytes 4..11 of the view: the prefix, then bytes 4..7 of an inline value (zero-padded) or the buffer
            // index of a long one. Read big-endian, it orders like the value's first eight bytes whenever the
            // prefixes differ, and for an inline row whenever it differs from the constant's first eight bytes.
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
     * 1 when a row is a tie, that is when its view bytes 4..11 read big-endian ({@code key}) and its length do not
     * decide its order: a long row with the constant's prefix, or an inline row whose first eight bytes (zero-padded)
     * equal the constant's. All other inline rows are decided by {@code key} alone, so data sharing its first four
     * bytes costs inline rows nothing more (with one prefix for all values, 8-byte {@code lessThan} went from
     * 4.1 to 1.3 ns/row: docs/architecture.md).
     */
    private long tieBit(long key, int length) {
        long sharesPrefix = (key >>> 32) == prefix ? 1 : 0;
        long isLong = (INLINE_MAX - length) >>> 31; // lengths are non-negative ints
        return (key == first ? 1 : 0) | (sharesPrefix & isLong);
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
        long valid = column.hasNulls() ? column.validBits(selection, base, count) : -1L;
        return settle(views, buffers, selection, base, count, accepted, ties, valid);
    }

    /**
     * The second phase shared by both chunk loops: {@code less} (bit set when the row's bytes 0..7 order below the
     * constant's) becomes the outcome for the comparison, nulls ({@code valid} bits clear) and bits past
     * {@code count} are cleared, and the ties left are resolved ({@link #resolveTies}). Row {@code i} of the chunk
     * is {@code base + i}, or {@code selection[base + i]} over a selection.
     */
    private long settle(MemorySegment views, MemorySegment[] buffers, int[] selection, int base, int count,
            long less, long ties, long valid) {
        long inChunk = -1L >>> (Long.SIZE - count);
        ties &= valid & inChunk;
        long outcome = acceptLess ? less : ~less;
        if (ties == inChunk) {
            // Every row shares the constant's prefix. Inline rows whose first eight bytes differ from the
            // constant's are decided by the "less" bit already: take them out of the ties in one straight pass.
            long decided = 0;
            for (int i = 0; i < count; i++) {
                long at = (long) (selection == null ? base + i : selection[base + i]) << 4;
                long inline = views.get(LAYOUT_LE_INT, at) <= INLINE_MAX ? 1 : 0;
                long differs = views.get(LAYOUT_BE_LONG, at + 4) != first ? 1 : 0;
                decided |= (inline & differs) << i;
            }
            ties &= ~decided;
        }
        long accepted = outcome & valid & inChunk & ~ties;
        return ties == 0 ? accepted : accepted | resolveTies(views, buffers, selection, base, count, ties, inChunk);
    }

    /**
     * The outcome bits of the ties (valid rows with the constant's prefix), a word at a time: first every tie's
     * bytes 4..11 and clipped length against the constant's ({@link #tieBits}), in one loop with no call and no
     * per-row outcome branch, straight over all {@code count} rows when every row of the chunk is a tie (the
     * prefix-collision case, arrow-rs#7351), else over the tie bits. The buffer of the chunk's first long tie is
     * kept in a local: rows near each other mostly share a buffer, and the JIT keeps a local segment's address and
     * bounds in registers. Only rows that agree with a long constant through byte 11 and are long themselves
     * ("deep" ties) go on to the bytes from 12, one by one.
     */
    private long resolveTies(MemorySegment views, MemorySegment[] buffers, int[] selection, int base, int count,
            long ties, long inChunk) {
        int likelyIndex = -1;
        MemorySegment likely = null;
        for (long t = ties; t != 0; t &= t - 1) {
            int i = Long.numberOfTrailingZeros(t);
            long at = (long) (selection == null ? base + i : selection[base + i]) << 4;
            if ((int) views.get(LAYOUT_LE_LONG, at) > INLINE_MAX) {
                likelyIndex = (int) views.get(LAYOUT_LE_LONG, at + 8);
                likely = buffers[likelyIndex];
                break;
            }
        }
        long below = 0;
        long same = 0;
        if (ties == inChunk) {
            for (int i = 0; i < count; i++) {
                long at = (long) (selection == null ? base + i : selection[base + i]) << 4;
                long bits = tieBits(views, buffers, likely, likelyIndex, at);
                below |= (bits & 1) << i;
                same |= (bits >>> 1) << i;
            }
        } else {
            for (long t = ties; t != 0; t &= t - 1) {
                int i = Long.numberOfTrailingZeros(t);
                long at = (long) (selection == null ? base + i : selection[base + i]) << 4;
                long bits = tieBits(views, buffers, likely, likelyIndex, at);
                below |= (bits & 1) << i;
                same |= (bits >>> 1) << i;
            }
        }
        // With an inline constant, "same" means equal (the clipped lengths are the lengths); with a long one it
        // means a long row agreeing through byte 11, decided below from the bytes after.
        long above = ties & ~below & ~same;
        long accepted = (below & acceptsLess) | (above & acceptsGreater);
        if (!constantIsLong) {
            return accepted | (same & acceptsEqual);
        }
        for (long deep = same; deep != 0; deep &= deep - 1) {
            int i = Long.numberOfTrailingZeros(deep);
            long at = (long) (selection == null ? base + i : selection[base + i]) << 4;
            accepted |= (long) ((acceptMask >>> deepOutcome(buffers, views.get(LAYOUT_LE_LONG, at),
                    views.get(LAYOUT_LE_LONG, at + 8))) & 1) << i;
        }
        return accepted;
    }

    /**
     * For a tie at view offset {@code at}: bit 0 set when its bytes 4..11 (big-endian, zero-padded; from the view
     * when inline, else the eight bytes after the prefix in its buffer) and then its length clipped to 13 order
     * below the constant's, bit 1 set when both agree. Clipping makes every long length equal, so that a long row
     * agreeing with a long constant through byte 11 is "same" and goes on to the bytes after; an inline row
     * agreeing with a long constant is a proper prefix of it (its zero padding matched the constant's bytes) and
     * orders below by its shorter length.
     */
    private long tieBits(MemorySegment views, MemorySegment[] buffers, MemorySegment likely, int likelyIndex,
            long at) {
        long w0 = views.get(LAYOUT_LE_LONG, at);
        long w1 = views.get(LAYOUT_LE_LONG, at + 8);
        int length = (int) w0;
        long bytes4To11;
        if (length <= INLINE_MAX) {
            bytes4To11 = Long.reverseBytes(w1);
        } else {
            int index = (int) w1;
            MemorySegment buffer = index == likelyIndex ? likely : buffers[index];
            bytes4To11 = buffer.get(LAYOUT_BE_LONG, (w1 >>> 32) + ViewLayout.PREFIX_SIZE);
        }
        long clipped = Math.min(length, INLINE_MAX + 1);
        long sameBytes = bytes4To11 == second ? 1 : 0;
        long below = Long.compareUnsigned(bytes4To11, second) < 0 ? 1 : 0;
        long shorter = clipped < constantClipped ? 1 : 0;
        long sameLength = clipped == constantClipped ? 1 : 0;
        return (below | (sameBytes & shorter)) | (sameBytes & sameLength) << 1;
    }

    /**
     * 0, 1 or 2 as a long valid row that agrees with the (long) constant through byte 11 is less than, equal to
     * or greater than it: the bytes from 12 on, then the lengths.
     */
    private int deepOutcome(MemorySegment[] buffers, long w0, long w1) {
        int length = (int) w0;
        return Integer.signum(ByteRanges.compare(buffers[(int) w1], (w1 >>> 32) + INLINE_MAX, length - INLINE_MAX,
                constant.segment, INLINE_MAX, constant.length - INLINE_MAX)) + 1;
    }
}
