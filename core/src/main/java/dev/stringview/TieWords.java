package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_INT;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;
import static dev.stringview.ViewLayout.PREFIX_SIZE;

import java.lang.foreign.MemorySegment;

/**
 * The second phase shared by the equality, prefix and order kernels: rows that the view words could not decide
 * ("ties": their prefix agrees with the constant's) are first collected over a whole window of rows, then settled
 * in one tight loop whose loads do not depend on each other. A window is {@link #WINDOW} rows, or
 * {@link #LARGE_WINDOW} over a buffer of 8 MiB or more while ties stay sparse ({@link #windowRows},
 * {@link #nextWindowRows}), for order and for starts-with's and long-constant equality's {@code count}; otherwise
 * for equality and prefix it is the range one {@code selectRows} call covers.
 *
 * <p>Why a window and not a 64-row word: on a heap far larger than the cache, each tie's bytes sit at a sparse,
 * irregular address that the hardware prefetcher does not follow, so each costs a DRAM miss. Resolved a few at a
 * time between view scans, the misses came one after another; in a loop over hundreds of ties with a handful of
 * instructions each, the out-of-order core has many of them in flight at once (memory-level parallelism). Suite 1's
 * contiguous heap showed the difference: decision record 010 has the figures.
 *
 * <p>Over one buffer far larger than the cache, sparse long candidates are also read in separate loops
 * ({@link #countMatchingLongGathered}, {@link #keepMatchingGathered}): first their buffer offsets from their views,
 * then the bytes at those offsets, so that no buffer load, a DRAM miss, waits on the view load that gives its
 * address.
 */
final class TieWords {
    /** Rows per window (a multiple of 64): its tie bits and outcome words stay in L1. */
    static final int WINDOW = 1024;
    /** Rows per window over data buffers far larger than the cache ({@link #windowRows}): a multiple of WINDOW. */
    static final int LARGE_WINDOW = 16 * WINDOW;
    /** Data buffers of at least this many bytes in all are far larger than the L2 cache. */
    static final long LARGE_BUFFER_BYTES = 8L << 20;

    /**
     * Rows per window for {@code column}: {@value #LARGE_WINDOW} when its data buffers hold at least
     * {@value #LARGE_BUFFER_BYTES} bytes (far more than the cache, so each long tie's bytes are a DRAM miss), else
     * {@value #WINDOW}. Over a large buffer the view pass and the tie loop take turns, and each turn starts cold:
     * the first buffer misses of a tie loop wait the full DRAM latency, and the pass's stream of views restarts.
     * Fewer, longer turns cost less per tie (Suite 1's 10M 25-byte rows, decision record 010).
     * {@value #LARGE_WINDOW} rows of views
     * (256 KB) still fit the L2 cache that the tie loop reads them from again; 65536 rows did not, and measured
     * slower.
     */
    static int windowRows(ViewColumn column) {
        return column.bufferBytes() >= LARGE_BUFFER_BYTES ? LARGE_WINDOW : WINDOW;
    }

    /**
     * Rows in the next window after one of {@code rows} rows with {@code ties} ties, for a call whose windows may
     * have up to {@code largest} rows ({@link #windowRows}): {@code largest} while at most one row in eight ties,
     * else {@value #WINDOW}. Dense ties read the buffer almost in order (the prefetcher streams it), and then a
     * large window only costs: the tie loop finds the views in L2 instead of L1 (measured on 10M 25-byte rows with
     * 50-100% ties; decision record 010).
     */
    static int nextWindowRows(int largest, int ties, int rows) {
        return sparse(ties, rows) ? largest : WINDOW;
    }

    /**
     * Whether {@code ties} ties among {@code rows} rows are sparse: at most one row in eight. Sparse ties over a
     * large buffer keep the large windows ({@link #nextWindowRows}) and, when long, are gathered
     * ({@code OrderPredicate.resolveTiesGathered}).
     */
    static boolean sparse(int ties, int rows) {
        return ties <= rows >>> 3;
    }

    private TieWords() {}

    /**
     * Bytes 4..11 of a non-null row of {@code length} bytes whose second view word is {@code w1}, as a
     * little-endian word: for an inline row {@code w1} itself (zero-padded past its end), else the eight bytes after
     * the prefix in its buffer (a long row has at least 13 bytes, so they are all its own), for a column whose only
     * buffer is {@code buffer} ({@link #onlyBuffer}): the buffer is one loop-invariant local, so the JIT keeps its
     * base, size and liveness in registers instead of selecting and reloading a segment per row. The caller checks
     * the buffer index ({@link #rowNamingOtherBuffer}) for its whole loop.
     *
     * <p>Kept this small on purpose, so that C2 inlines it into the callers' loops. Its earlier form, which took the
     * buffer array and the likely buffer, was compiled on its own first and then refused as "too big" (its machine
     * code exceeded {@code InlineSmallCode}; {@code -XX:+PrintInlining} shows it), so every candidate paid a call.
     * A branch-free form that loaded the buffer at offset 0 for inline rows measured slower than this branch on the
     * row's kind (decision record 010).
     */
    static long bytes4To11(int length, long w1, MemorySegment buffer) {
        boolean isLong = length > INLINE_MAX;
        return isLong ? buffer.get(LAYOUT_LE_LONG, (w1 >>> 32) + PREFIX_SIZE) : w1;
    }

    /**
     * The column's single data buffer when it has exactly one and that one holds at least eight bytes, else null.
     * One buffer is the common case (a builder that adopted one heap, a Parquet page's values, an Arrow array with
     * one data buffer); with none, or fewer than eight bytes, no valid row is long.
     */
    static MemorySegment onlyBuffer(MemorySegment[] buffers) {
        return buffers.length == 1 && buffers[0].byteSize() >= Long.BYTES ? buffers[0] : null;
    }

    /**
     * {@code row} when the non-null row of {@code length} bytes and second view word {@code w1} is long and names
     * a buffer other than 0, else {@code previous}: a loop over a one-buffer column carries it as a conditional move
     * and, after the loop, hands a row other than -1 to {@link #missingBuffer}.
     */
    static int rowNamingOtherBuffer(int length, long w1, int row, int previous) {
        return (length > INLINE_MAX ? (int) w1 : 0) != 0 ? row : previous;
    }

    /** The error for a long row whose view names a buffer the one-buffer column does not have. */
    static IndexOutOfBoundsException missingBuffer(MemorySegment views, int row) {
        return missingBuffer(row, (int) views.get(LAYOUT_LE_LONG, ((long) row << 4) + 8), 1);
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

    /**
     * The error for the first of the non-null rows {@code rows[from..to)} that is long and names a missing buffer or
     * bytes outside its buffer, with its view's numbers; {@code cause} (the bounds failure met while reading) or an
     * {@link IllegalStateException} when none does.
     */
    static RuntimeException misplacedRow(MemorySegment views, MemorySegment[] buffers, int[] rows, int from, int to,
            RuntimeException cause) {
        for (int k = from; k < to; k++) {
            RuntimeException e = misplaced(views, buffers, rows[k]);
            if (e != null) {
                return e;
            }
        }
        return cause != null ? cause : new IllegalStateException("no misplaced row found: rows=" + (to - from) + " buffers="
                + buffers.length);
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
     * Keeps, in order, the rows of {@code rows[0..n)} (non-null) whose bytes 4..11 masked by {@code mask} equal
     * {@code bits}; returns how many are kept. Bytes past an inline row's end read as zeros. The candidates' loads do
     * not depend on each other, so over hundreds of candidates they are in flight together. Keeping a row is a
     * branch, predicted "no match", not arithmetic ({@code rows[kept] = row; kept += match}): the rows are read from
     * the array being written, and a store whose index waits on the loaded bytes held up the next candidates' reads
     * (the same as {@link EqualityPredicate}'s confirmation loop; decision record 010 has the figures). Over one
     * buffer far larger than the cache, sparse candidates go through {@link #keepMatchingGathered} ({@link #gathers}).
     */
    static int keepMatching(MemorySegment views, MemorySegment[] buffers, int[] rows, int n, long mask, long bits) {
        MemorySegment only = onlyBuffer(buffers);
        if (only == null) {
            return keepMatchingManyBuffers(views, buffers, rows, n, mask, bits);
        }
        return gathers(views, only, rows, n) ? keepMatchingGathered(views, only, buffers, rows, n, mask, bits)
                : keepMatching(views, only, rows, n, mask, bits);
    }

    /** Candidates per block of {@link #keepMatchingGathered}: the block's offsets (8 KiB) stay in L1. */
    private static final int GATHER_BLOCK = 1024;

    /** How many of the first candidates {@link #gathers} looks at for a long row. */
    private static final int SAMPLED_CANDIDATES = 4;

    /**
     * Whether {@link #keepMatchingGathered} takes the valid candidates {@code rows[0..n)} over the one buffer
     * {@code only}: the buffer holds at least {@value #LARGE_BUFFER_BYTES} bytes (each long candidate's bytes are a
     * DRAM miss); there are enough candidates to fill the loops; they are sparse (at most one in eight of the rows
     * they span, in increasing order: dense ones read the buffer almost in order, and the prefetcher streams it);
     * and one of the first {@value #SAMPLED_CANDIDATES} is long (on all-inline rows, such as Suite 1's 8-byte
     * values, there is nothing to gather and the extra loops only cost).
     */
    private static boolean gathers(MemorySegment views, MemorySegment only, int[] rows, int n) {
        if (n < 64 || only.byteSize() < LARGE_BUFFER_BYTES || (long) rows[n - 1] - rows[0] < 8L * n) {
            return false;
        }
        for (int k = 0; k < SAMPLED_CANDIDATES; k++) {
            if (views.get(LAYOUT_LE_INT, (long) rows[k] << 4) > INLINE_MAX) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@link #keepMatching} on one buffer far larger than the cache, block by block of {@value #GATHER_BLOCK}
     * candidates in three loops: the first reads each long candidate's buffer offset from its view into an array,
     * the second only loads the bytes at those offsets (no load waits on another, so many DRAM misses are in flight
     * at once), the third compares every candidate, taking a long one's word from that array and an inline one's
     * from its view, and keeps the matches (a branch predicted "no match"). The first and third loops pick by the
     * row's kind with arithmetic, not a branch, which mixed lengths would mispredict (decision record 010).
     */
    private static int keepMatchingGathered(MemorySegment views, MemorySegment only, MemorySegment[] buffers,
            int[] rows, int n, long mask, long bits) {
        long[] words = new long[Math.min(n, GATHER_BLOCK) + 1];
        int kept = 0;
        for (int base = 0; base < n; base += GATHER_BLOCK) {
            int end = Math.min(n, base + GATHER_BLOCK);
            int longs = 0;
            int otherBuffer = 0;
            for (int k = base; k < end; k++) {
                long at = (long) rows[k] << 4;
                int isLong = views.get(LAYOUT_LE_INT, at) > INLINE_MAX ? 1 : 0;
                long w1 = views.get(LAYOUT_LE_LONG, at + 8);
                otherBuffer |= (int) w1 & -isLong;
                words[longs] = (w1 >>> 32) + PREFIX_SIZE; // kept (the count stepped) for a long row only
                longs += isLong;
            }
            if (otherBuffer != 0) {
                throw misplacedRow(views, buffers, rows, base, end, null);
            }
            try {
                for (int j = 0; j < longs; j++) {
                    words[j] = only.get(LAYOUT_LE_LONG, words[j]);
                }
            } catch (IndexOutOfBoundsException e) {
                throw misplacedRow(views, buffers, rows, base, end, e);
            }
            int next = 0;
            for (int k = base; k < end; k++) {
                int row = rows[k];
                long at = (long) row << 4;
                boolean isLong = views.get(LAYOUT_LE_INT, at) > INLINE_MAX;
                long inline = views.get(LAYOUT_LE_LONG, at + 8);
                long gathered = words[next]; // one past the last long one's word when none is left: never used
                next += isLong ? 1 : 0;
                if (((isLong ? gathered : inline) & mask) == bits) {
                    rows[kept++] = row; // kept <= k: the rows still to read are not overwritten
                }
            }
        }
        return kept;
    }

    /** {@link #keepMatching} for a column whose only buffer is {@code buffer} ({@link #onlyBuffer}). */
    private static int keepMatching(MemorySegment views, MemorySegment buffer, int[] rows, int n, long mask,
            long bits) {
        int kept = 0;
        int misplaced = -1;
        for (int k = 0; k < n; k++) {
            int row = rows[k];
            long at = (long) row << 4;
            int length = views.get(LAYOUT_LE_INT, at);
            long w1 = views.get(LAYOUT_LE_LONG, at + 8);
            misplaced = rowNamingOtherBuffer(length, w1, row, misplaced);
            long word = bytes4To11(length, w1, buffer);
            if ((word & mask) == bits) {
                rows[kept++] = row;
            }
        }
        if (misplaced >= 0) {
            throw missingBuffer(views, misplaced);
        }
        return kept;
    }

    /**
     * {@link #keepMatching} for a column with several buffers: the buffer of the first candidate is held in a local
     * ({@link ViewPredicate#likelyBufferIndex}) and a row in it reads through that local.
     */
    private static int keepMatchingManyBuffers(MemorySegment views, MemorySegment[] buffers, int[] rows, int n,
            long mask, long bits) {
        int likelyIndex = ViewPredicate.likelyBufferIndex(views, rows, n, buffers);
        MemorySegment likely = ViewPredicate.bufferOrEmpty(buffers, likelyIndex);
        int kept = 0;
        for (int k = 0; k < n; k++) {
            int row = rows[k];
            long at = (long) row << 4;
            long w1 = views.get(LAYOUT_LE_LONG, at + 8);
            long word = w1;
            if (views.get(LAYOUT_LE_INT, at) > INLINE_MAX) {
                int index = (int) w1;
                if (Integer.compareUnsigned(index, buffers.length) >= 0) { // never taken in valid data
                    throw missingBuffer(row, index, buffers.length);
                }
                word = (index == likelyIndex ? likely : buffers[index]).get(LAYOUT_LE_LONG,
                        (w1 >>> 32) + PREFIX_SIZE);
            }
            if ((word & mask) == bits) {
                rows[kept++] = row;
            }
        }
        return kept;
    }

    /**
     * {@link #keepMatching} with mask -1 for rows known to be long (the candidates of equality with a long constant,
     * which share its length): neither the length is read nor the row's kind branched on. Over one buffer far
     * larger than the cache, sparse candidates go through {@link #keepMatchingLongGathered} ({@link #gathers}).
     */
    static int keepMatchingLong(MemorySegment views, MemorySegment[] buffers, int[] rows, int n, long bits) {
        MemorySegment only = onlyBuffer(buffers);
        if (only == null) {
            return keepMatchingManyBuffers(views, buffers, rows, n, -1L, bits);
        }
        if (gathers(views, only, rows, n)) {
            return keepMatchingLongGathered(views, only, buffers, rows, n, bits);
        }
        int kept = 0;
        int misplaced = -1;
        for (int k = 0; k < n; k++) {
            int row = rows[k];
            long w1 = views.get(LAYOUT_LE_LONG, ((long) row << 4) + 8);
            misplaced = (int) w1 != 0 ? row : misplaced;
            if (only.get(LAYOUT_LE_LONG, (w1 >>> 32) + PREFIX_SIZE) == bits) {
                rows[kept++] = row;
            }
        }
        if (misplaced >= 0) {
            throw missingBuffer(views, misplaced);
        }
        return kept;
    }

    /** {@link #keepMatchingGathered} for rows known to be long ({@link #keepMatchingLong}): no length read. */
    private static int keepMatchingLongGathered(MemorySegment views, MemorySegment only, MemorySegment[] buffers,
            int[] rows, int n, long bits) {
        long[] offsets = new long[Math.min(n, GATHER_BLOCK)];
        int kept = 0;
        for (int base = 0; base < n; base += GATHER_BLOCK) {
            int end = Math.min(n, base + GATHER_BLOCK);
            if (longOffsets(views, rows, base, end, offsets) != 0) {
                throw misplacedRow(views, buffers, rows, base, end, null);
            }
            try {
                for (int k = base; k < end; k++) {
                    if (only.get(LAYOUT_LE_LONG, offsets[k - base]) == bits) {
                        rows[kept++] = rows[k];
                    }
                }
            } catch (IndexOutOfBoundsException e) {
                throw misplacedRow(views, buffers, rows, base, end, e);
            }
        }
        return kept;
    }

    /**
     * How many of the valid long rows {@code rows[0..n)} have bytes 4..11 that, masked by {@code mask}, equal
     * {@code bits}: {@link #keepMatching} for a caller that needs only the count (starts-with's {@code count} with a
     * pattern of 5..12 bytes), so neither the length is read nor a kept id written. When most rows share the
     * pattern's prefix (every URL starting with "http") this loop is most of the kernel's work, and the whole
     * {@code count} is faster with it than through the keeping loop (decision record 010).
     */
    static int countMatchingLong(MemorySegment views, MemorySegment[] buffers, int[] rows, int n, long mask,
            long bits) {
        MemorySegment only = onlyBuffer(buffers);
        if (only == null) {
            return keepMatchingManyBuffers(views, buffers, rows, n, mask, bits);
        }
        int matches = 0;
        int misplaced = -1;
        for (int k = 0; k < n; k++) {
            int row = rows[k];
            long w1 = views.get(LAYOUT_LE_LONG, ((long) row << 4) + 8);
            misplaced = (int) w1 != 0 ? row : misplaced;
            matches += (only.get(LAYOUT_LE_LONG, (w1 >>> 32) + PREFIX_SIZE) & mask) == bits ? 1 : 0;
        }
        if (misplaced >= 0) {
            throw missingBuffer(views, misplaced);
        }
        return matches;
    }

    /**
     * {@link #countMatchingLong} when the candidates are the rows {@code first .. first + n - 1} (every row of a
     * window is a long candidate: every value shares the pattern's first four bytes, as URLs share "http"), with
     * those rows also in {@code rows[0..n)}. On one buffer the loop runs over the rows themselves: no id is read
     * back, and with the row as the induction variable C2 checks the views' bounds once for the loop instead of
     * once a candidate.
     */
    static int countMatchingLongRun(MemorySegment views, MemorySegment[] buffers, int[] rows, int first, int n,
            long mask, long bits) {
        MemorySegment only = onlyBuffer(buffers);
        if (only == null) {
            return keepMatchingManyBuffers(views, buffers, rows, n, mask, bits);
        }
        int matches = 0;
        int otherBuffer = 0;
        try {
            for (int row = first, end = first + n; row < end; row++) {
                long w1 = views.get(LAYOUT_LE_LONG, ((long) row << 4) + 8);
                otherBuffer |= (int) w1;
                matches += (only.get(LAYOUT_LE_LONG, (w1 >>> 32) + PREFIX_SIZE) & mask) == bits ? 1 : 0;
            }
        } catch (IndexOutOfBoundsException e) {
            throw misplacedRow(views, buffers, rows, 0, n, e);
        }
        if (otherBuffer != 0) {
            throw misplacedRow(views, buffers, rows, 0, n, null);
        }
        return matches;
    }

    /** What {@link #countPrefixRows} returns for a window that is not all long rows of the one buffer. */
    static final int NOT_ALL_LONG = -1;

    /**
     * Starts-with's {@code count} of a 5..8-byte pattern over the rows {@code [from, to)} of a one-buffer column
     * without nulls, in one loop over the rows with no pass and no candidate ids, for windows where every row is
     * long (every value longer than 12 bytes, many sharing the pattern's first four bytes: Suite 1's 25-byte
     * prefix-collision data, URLs). It assumes every row long and checks the assumption for the whole window after
     * the loop, never per row. A long value has at least 13 bytes in the buffer, so the pattern is compared there
     * alone, with the word at the value's offset masked to the pattern's length ({@code head}, {@code headMask}),
     * and counted with arithmetic ({@code numberOfLeadingZeros(d) >>> 6} is 1 exactly when {@code d} is 0): no
     * branch depends on the data. The shortest length and the OR of the buffer indexes are carried through the loop
     * and tested once after it. When a row was not long, named a buffer other than 0, or had bytes 4..11 past the
     * buffer's end (the pass reads them for every long candidate), the window's count is wrong or unread, and
     * {@link #NOT_ALL_LONG} tells the caller to count it again through the pass, which also names a malformed row.
     * Nothing is written.
     *
     * <p>The view offset is the loop's variable, stepping by 16: with the row as the variable, C2 (JDK 25) computed
     * each view's address from the row again (sign extension, shift, add: 4 instructions a row); stepping the
     * offset, the four rows of an unrolled iteration read at fixed displacements from one register, about 16
     * instructions a row in all, which measured faster (decision record 010). Not for 9..12-byte patterns: with
     * bytes 4..11 read at offset + 4 and the prefix from the view it was slower than the pass.
     */
    static int countPrefixRows(MemorySegment views, MemorySegment only, int from, int to, long head,
            long headMask) {
        if (only.byteSize() < PREFIX_SIZE + Long.BYTES) {
            return NOT_ALL_LONG;
        }
        // The pass reads every long candidate's bytes 4..11, so a row whose bytes 4..11 lie past the buffer's end
        // is an error there. Reading the word at the offset through a slice 4 bytes shorter fails for exactly those
        // rows, at no cost per row (an accumulated largest offset cost a register that C2 then took from the
        // buffer-index OR, spilled to the stack, and measured slower; decision record 010).
        MemorySegment heads = only.asSlice(0, only.byteSize() - PREFIX_SIZE);
        int matches = 0;
        int shortest = Integer.MAX_VALUE;
        int otherBuffer = 0;
        try {
            for (long at = (long) from << 4, end = (long) to << 4; at < end; at += 16) {
                int length = views.get(LAYOUT_LE_INT, at);
                long w1 = views.get(LAYOUT_LE_LONG, at + 8);
                shortest = Math.min(shortest, length);
                otherBuffer |= (int) w1;
                long differ = (heads.get(LAYOUT_LE_LONG, w1 >>> 32) ^ head) & headMask;
                matches += Long.numberOfLeadingZeros(differ) >>> 6;
            }
        } catch (IndexOutOfBoundsException e) {
            return NOT_ALL_LONG; // an inline row's bytes 8..11 taken as an offset, or a malformed long row
        }
        return shortest > INLINE_MAX && otherBuffer == 0 ? matches : NOT_ALL_LONG;
    }

    /**
     * Writes to {@code offsets[0..to - from)} the buffer offset of bytes 4..11 of each of the long rows
     * {@code rows[from..to)}, read from view word 1 (no buffer is touched), and returns the OR of their buffer
     * indexes: non-zero when one names a buffer other than 0. The first loop of the offsets-first forms
     * ({@link #countMatchingLongGathered}, {@link #keepMatchingLongGathered}).
     */
    private static int longOffsets(MemorySegment views, int[] rows, int from, int to, long[] offsets) {
        int otherBuffer = 0;
        for (int k = from; k < to; k++) {
            long w1 = views.get(LAYOUT_LE_LONG, ((long) rows[k] << 4) + 8);
            otherBuffer |= (int) w1;
            offsets[k - from] = (w1 >>> 32) + PREFIX_SIZE;
        }
        return otherBuffer;
    }

    /**
     * {@link #countMatchingLong} in two loops, for sparse candidates over a buffer far larger than the cache
     * ({@link #LARGE_BUFFER_BYTES}): the first only reads each row's buffer offset from its view (in L2 after the
     * pass) into {@code offsets} (room for {@code n}); the second loads the bytes at those offsets and compares
     * them. In the one loop each buffer load, a DRAM miss, waited on its view's load, since the address is view word
     * 1; with the addresses in an array in L1 no buffer load waits on another load, and many misses are in flight
     * at once. In cache the extra loop only costs (decision record 010).
     */
    static int countMatchingLongGathered(MemorySegment views, MemorySegment[] buffers, int[] rows, int n, long mask,
            long bits, long[] offsets) {
        MemorySegment only = onlyBuffer(buffers);
        if (only == null) {
            return keepMatchingManyBuffers(views, buffers, rows, n, mask, bits);
        }
        if (longOffsets(views, rows, 0, n, offsets) != 0) {
            throw misplacedRow(views, buffers, rows, 0, n, null);
        }
        int matches = 0;
        try {
            for (int k = 0; k < n; k++) {
                matches += (only.get(LAYOUT_LE_LONG, offsets[k]) & mask) == bits ? 1 : 0;
            }
        } catch (IndexOutOfBoundsException e) {
            throw misplacedRow(views, buffers, rows, 0, n, e);
        }
        return matches;
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

    /**
     * Returned by the loop over second view words ({@link #countEqualWords}) when one
     * names a buffer the column does not have; the caller then finds the row ({@link #missingBufferAmong}).
     */
    static final int MISSING_BUFFER = -1;

    /**
     * How many of the long rows whose second view words are {@code words[0..n)} hold {@code constant} (long), for
     * rows whose first view word is the constant's: bytes 4..11 first, in one loop that keeps the agreeing words at
     * the front of {@code words} (a branch predicted "no match", as in {@link #keepMatching}), then the rest of the
     * bytes of those. Returns {@link #MISSING_BUFFER} when a word names a buffer the column does not have.
     */
    static int countEqualWords(MemorySegment[] buffers, long[] words, int n, Constant constant) {
        long bits = constant.word1;
        MemorySegment only = onlyBuffer(buffers);
        int equal = 0;
        if (only == null) {
            for (int k = 0; k < n; k++) {
                long w1 = words[k];
                int index = (int) w1;
                if (index < 0 || index >= buffers.length) {
                    return MISSING_BUFFER;
                }
                MemorySegment buffer = buffers[index];
                if (buffer.get(LAYOUT_LE_LONG, (w1 >>> 32) + PREFIX_SIZE) == bits
                        && constant.differenceAfterPrefix(buffer, w1 >>> 32) == 0) {
                    equal++;
                }
            }
            return equal;
        }
        int kept = 0;
        int otherBuffer = 0;
        for (int k = 0; k < n; k++) {
            long w1 = words[k];
            otherBuffer |= (int) w1;
            if (only.get(LAYOUT_LE_LONG, (w1 >>> 32) + PREFIX_SIZE) == bits) {
                words[kept++] = w1;
            }
        }
        if (otherBuffer != 0) {
            return MISSING_BUFFER;
        }
        for (int k = 0; k < kept; k++) {
            equal += constant.differenceAfterPrefix(only, words[k] >>> 32) == 0 ? 1 : 0;
        }
        return equal;
    }

    /**
     * The error for the first long row of {@code rows[0..n)} whose view names a buffer the column does not have,
     * or an {@link IllegalStateException} saying none does (a caller's bug).
     */
    static RuntimeException missingBufferAmong(MemorySegment views, MemorySegment[] buffers, int[] rows, int n) {
        for (int k = 0; k < n; k++) {
            long at = (long) rows[k] << 4;
            int index = views.get(LAYOUT_LE_INT, at + 8);
            if (views.get(LAYOUT_LE_INT, at) > INLINE_MAX && (index < 0 || index >= buffers.length)) {
                return missingBuffer(rows[k], index, buffers.length);
            }
        }
        return new IllegalStateException("no row names a missing buffer: rows=" + n + " buffers=" + buffers.length);
    }
}
