package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_BE_LONG;
import static dev.stringview.ViewLayout.LAYOUT_LE_INT;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;
import static dev.stringview.ViewLayout.PREFIX_SIZE;

import dev.stringview.internal.ByteRanges;
import dev.stringview.internal.Vectorization;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * {@code value < constant} and the other orderings, in unsigned bytewise order ({@link ViewOrder}).
 *
 * <p>Rows go in windows of {@value TieWords#WINDOW} (rows, or entries of an input selection;
 * {@value TieWords#LARGE_WINDOW} over data buffers far larger than the cache, {@link TieWords#windowRows}), 64 per
 * bit word ({@link #decide}): one big-endian load of view bytes 4..11 and an unsigned compare decide every row whose
 * prefix differs from the constant's, with no branch. The rest ("ties": 5% of rows in Suite 1, every row when all values
 * share their first four bytes; in words crowded with ties a second pass settles the inline ones whose first eight
 * bytes differ) are marked and, once the whole window is scanned, resolved in one loop ({@link #resolveTies}):
 * bytes 4..11 as one word, then the lengths, then the rest. Null rows are not branched on: their bits are masked out with the validity bits, and a
 * null row's view is never followed.
 */
final class OrderPredicate extends ViewPredicate {
    /** Above this many ties in a 64-row word, its inline rows are first sorted out in one pass. */
    private static final int DENSE_TIES = 16;

    private final Constant constant;
    private final int acceptMask;
    private final long prefix;
    private final int prefixLittleEndian; // the prefix as the view holds it (bytes 4..7 read little-endian)
    private final long second;
    private final long first; // bytes 0..7, big-endian, zero-padded
    private final long acceptsLess; // -1 when rows less than the constant match, else 0; likewise for equal, greater
    private final long acceptsEqual;
    private final long acceptsGreater;
    private final boolean constantIsLong;
    private final boolean acceptLess; // whether rows less than the constant match (< and <=), else greater ones
    private final long constantClipped; // the constant's length clipped to INLINE_MAX + 1 (see resolveTies)
    private final int lengthClipped; // the same, as an int
    // -1 when a tie whose clipped key equals the constant's is accepted before the flip below ("<=" and ">"), else 0
    private final long sameTerm;
    // -1 when rows above the constant match (">" and ">="): the outcome is then the complement of "below (or same)"
    private final long flip;

    OrderPredicate(Constant constant, Comparison comparison) {
        this.constant = constant;
        this.acceptMask = comparison.acceptMask;
        this.prefix = Integer.toUnsignedLong(constant.prefixBigEndian);
        this.prefixLittleEndian = Integer.reverseBytes(constant.prefixBigEndian);
        this.second = Long.reverseBytes(constant.word1); // bytes 4..11, zero-padded, for long constants too
        this.first = prefix << 32 | second >>> 32;
        this.acceptsLess = -(long) (acceptMask & 1);
        this.acceptsEqual = -(long) ((acceptMask >>> 1) & 1);
        this.acceptsGreater = -(long) ((acceptMask >>> 2) & 1);
        this.constantIsLong = constant.length > INLINE_MAX;
        this.acceptLess = (acceptMask & 1) != 0;
        this.constantClipped = Math.min(constant.length, INLINE_MAX + 1);
        this.lengthClipped = (int) constantClipped;
        this.flip = acceptLess ? 0 : -1L;
        // "<" = below, "<=" = below | same, ">" = ~(below | same), ">=" = ~below (only the four order operators
        // reach this class: ViewPredicates maps = and <> to EqualityPredicate)
        this.sameTerm = acceptLess == (acceptsEqual != 0) ? -1L : 0;
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        Window window = new Window(to - from, TieWords.windowRows(column));
        int found = 0;
        // A whole window is read (views, validity, ties) before any row id of it is written, and found never
        // passes the position being read, so out may be the selection itself.
        for (int base = from, count; base < to; base += count) {
            count = Math.min(window.size, to - base);
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

    /** Counts without writing row ids: the matches of each 64-row word are counted by its bits. */
    @Override
    int countRows(ViewColumn column, int[] selection, int n) {
        Window window = new Window(n, TieWords.windowRows(column));
        int total = 0;
        for (int base = 0, count; base < n; base += count) {
            count = Math.min(window.size, n - base);
            decide(column, selection, base, count, window);
            for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
                total += Long.bitCount(window.accepted[w]);
            }
        }
        return total;
    }

    /** Per-call scratch: the outcome and tie bits of one window, 64 rows per word. */
    private static final class Window {
        /** The most rows a window may have: {@link TieWords#windowRows}. */
        final int largest;
        /**
         * Rows in the next window: {@link #largest} after a window whose ties were sparse, else
         * {@link TieWords#WINDOW} ({@link TieWords#nextWindowRows}).
         */
        int size;
        /** Windows decided so far in this call: every eighth re-checks the inline-tie regime. */
        int number;
        final long[] accepted;
        final long[] ties;
        /** The "less" bits of the vector view pass ({@link Vectorization.ViewWordScan#orderWords}). */
        final long[] less;
        /** {@link OrderTieBits#below}'s other two results: the ties equal through byte 11, the buffer indexes. */
        final long[] equalAndOther = new long[2];
        /** Bytes 4..11 of each long tie, in row order, for {@link #resolveTiesGathered}; made on first use. */
        long[] loaded;
        /** The buffer offsets {@link #loaded} is read from, in the same order; made with it. */
        long[] offsets;
        /** The window's ties' positions (row - base), in order, for {@link #resolveTiesGathered}; made with it. */
        int[] positions;
        /** The positions of {@link #resolveTiesGathered}'s deep ties (a long constant's); made with it. */
        int[] deep;
        /** Whether the last crowded word had inline ties that {@link #decidedInline} settled. */
        boolean refineInline = true;
        /**
         * Whether the next window's vector pass should leave the inline rows its view decides out of the ties
         * ({@link Vectorization.ViewWordScan#orderWords}'s {@code settleInline}): set by a window in which
         * {@link #decidedInline} settled some, kept while the pass runs that way.
         */
        boolean settleInline;
        /** Whether this window's pass settled its inline ties: every inline tie left agrees through byte 7. */
        boolean passSettled;

        /**
         * Whether the call's views stream from DRAM: {@link OrderPredicate#STREAMED_ROWS} rows or more over a
         * buffer far larger than the cache. Its windows then settle inline ties in the pass whenever their first
         * rows hold an inline row.
         */
        final boolean streamed;

        Window(int rows, int largest) {
            this.largest = largest;
            this.streamed = largest == TieWords.LARGE_WINDOW && rows >= STREAMED_ROWS;
            this.size = largest;
            int words = (Math.max(1, Math.min(rows, largest)) + 63) >>> 6;
            accepted = new long[words];
            ties = new long[words];
            less = new long[words];
        }
    }

    /**
     * Sets {@code window.accepted} for the {@code count <= window.size} rows {@code base..base + count - 1} (or the
     * selection's entries there), bit {@code i % 64} of word {@code i / 64} for entry {@code base + i}, in two
     * phases. The first reads only the views, 64 rows per word, and decides every row whose prefix differs from
     * the constant's with arithmetic and no branch; nulls are masked out of the outcome and tie words with the
     * validity bits, so the hot loop never reads the bitmap and a null row's view (which may hold anything) is never
     * followed into a buffer. The second settles the ties of the whole window in one loop ({@link #resolveTies}).
     * Deciding a row and branching on whether it is a tie costs a misprediction per tie in a per-row loop (Suite 1
     * has 5% ties); these loops carry no data-dependent branch (decision record 010).
     */
    private void decide(ViewColumn column, int[] selection, int base, int count, Window window) {
        MemorySegment views = column.viewSegment();
        boolean hasNulls = column.hasNulls();
        long[] accepted = window.accepted;
        long[] tieWords = window.ties;
        long anyTie = 0;
        int tieCount = 0;
        int words = (count + 63) >>> 6;
        Vectorization.ViewWordScan vector = selection == null ? Vectorization.viewWords() : null;
        boolean settled = false; // whether the vector pass left the inline rows its view decides out of the ties
        if (vector != null) {
            // The scalar loop's two bits per row, from the Vector API, for the whole window. After a window whose
            // crowded words had inline ties, the pass also leaves out of its ties the inline rows whose first eight
            // bytes differ from the constant's (settleInline), so those words need no second pass. The first window
            // of a call, and every eighth after it, judges by its first 64 rows (firstWordSettles), in case the data
            // changed; with the plain pass and the scalar check below over every crowded word, those windows (an
            // eighth of a cache-resident batch of 8192 rows) were measurably slower on PrefixCollisionBatchBenchmark's
            // shared-prefix cells (decision records 010 and 003).
            Arrays.fill(window.less, 0, words, 0L);
            Arrays.fill(tieWords, 0, words, 0L);
            settled = window.streamed ? someInlineAmongFirst(views, base, count)
                    : (window.number & 7) != 0 ? window.settleInline
                    : firstWordSettles(column, views, base, count, window);
            vector.orderWords(views, base, count, this.first, prefixLittleEndian, settled, window.less, tieWords);
            window.settleInline = settled;
        }
        window.passSettled = settled;
        for (int w = 0; w < words; w++) {
            int first = base + (w << 6);
            int n = Math.min(Long.SIZE, count - (w << 6));
            long less = 0;
            long ties = 0;
            if (vector != null) {
                less = window.less[w];
                ties = tieWords[w];
            } else if (selection == null) {
                // The view offset as its own long variable, stepped by 16, not recomputed from the row: measured
                // faster than (long) (first + i) << 4 (decision record 010).
                long at = ((long) first << 4) + 4;
                for (int i = 0; i < n; i++, at += 16) {
                    // Bytes 4..11 of the view, big-endian: the prefix, then bytes 4..7 of an inline value
                    // (zero-padded) or the buffer index of a long one. Whenever the prefixes differ it orders like
                    // the value. Rows with the constant's prefix are ties, inline ones too: telling those apart
                    // here took a second load per row and cost more than resolving them later
                    // (decision record 010).
                    long key = views.get(LAYOUT_BE_LONG, at);
                    less |= (Long.compareUnsigned(key, this.first) < 0 ? 1L : 0L) << i;
                    ties |= ((key >>> 32) == prefix ? 1L : 0L) << i;
                }
            } else {
                for (int i = 0; i < n; i++) {
                    long at = (long) selection[first + i] << 4;
                    long key = views.get(LAYOUT_BE_LONG, at + 4);
                    less |= (Long.compareUnsigned(key, this.first) < 0 ? 1L : 0L) << i;
                    ties |= ((key >>> 32) == prefix ? 1L : 0L) << i;
                }
            }
            long keep = -1L >>> (Long.SIZE - n);
            if (hasNulls) {
                keep &= column.validBits(selection, first, n);
            }
            ties &= keep;
            // Crowded words first drop the inline ties their view already decides. Data whose crowded ties are all
            // long (every 25-byte value sharing the prefix) gains nothing from that pass, so it is skipped after a
            // word where it found none, and tried again at every eighth window.
            if (!settled && Long.bitCount(ties) > DENSE_TIES
                    && (window.refineInline || (vector == null && w == 0 && (window.number & 7) == 0))) {
                long decided = decidedInline(views, selection, first, n) & ties;
                window.refineInline = decided != 0;
                window.settleInline |= decided != 0;
                ties &= ~decided;
            }
            tieWords[w] = ties;
            tieCount += Long.bitCount(ties);
            anyTie |= ties;
            accepted[w] = (acceptLess ? less : ~less) & keep & ~ties;
        }
        if (anyTie != 0) {
            resolveTies(column, selection, base, count, tieCount, window);
        }
        window.number++;
        window.size = TieWords.nextWindowRows(window.largest, tieCount, count);
    }

    /**
     * For a window of the vector pass that re-checks the inline-tie regime (the first of a call, then every eighth):
     * whether the pass should settle the inline rows its view decides ({@code settleInline}), judged by the
     * window's first 64 rows alone: true when they are crowded with ties and some of those are inline rows whose
     * first eight bytes differ from the constant's. When they are crowded, {@code window.refineInline} records
     * whether any were. One scalar loop over 64 rows instead of the plain pass followed by {@link #decidedInline}
     * over every crowded word of the window.
     */
    private boolean firstWordSettles(ViewColumn column, MemorySegment views, int base, int count, Window window) {
        int n = Math.min(Long.SIZE, count);
        long ties = 0;
        long decided = 0;
        for (int i = 0; i < n; i++) {
            long at = (long) (base + i) << 4;
            long key = views.get(LAYOUT_BE_LONG, at + 4);
            long inline = views.get(LAYOUT_LE_INT, at) <= INLINE_MAX ? 1 : 0;
            ties |= ((key >>> 32) == prefix ? 1L : 0L) << i;
            decided |= (inline & (key != this.first ? 1 : 0)) << i;
        }
        if (column.hasNulls()) {
            ties &= column.validBits(null, base, n);
        }
        if (Long.bitCount(ties) <= DENSE_TIES) {
            return false;
        }
        window.refineInline = (decided & ties) != 0;
        return window.refineInline;
    }

    /**
     * Calls over at least this many rows (16 MiB of views) read their views from DRAM, and there the settling pass
     * ({@code settleInline}) costs next to nothing: its second load of each 64 bytes hits L1 while the pass waits
     * on the stream. On 10M contiguous rows it sped up 8-byte and mixed-length rows and cost 25-byte rows (no inline
     * row to settle) nothing measurable (decision record 010); so such calls settle in every window whose first
     * rows hold an inline row.
     */
    static final int STREAMED_ROWS = 1 << 20;

    /** Whether one of the first 64 of the {@code count} rows from {@code base} is inline (or null). */
    private static boolean someInlineAmongFirst(MemorySegment views, int base, int count) {
        int shortest = Integer.MAX_VALUE;
        for (int i = 0, n = Math.min(Long.SIZE, count); i < n; i++) {
            shortest = Math.min(shortest, views.get(LAYOUT_LE_INT, (long) (base + i) << 4));
        }
        return shortest <= INLINE_MAX;
    }

    /**
     * Bit {@code i} set when entry {@code first + i} is an inline row whose first eight bytes differ from the
     * constant's, so that its "less" bit from the view is its outcome: one straight pass with no branch, run only
     * over words crowded with ties (the prefix-collision case, arrow-rs#7351), where it is cheaper than taking
     * every inline row through {@link #resolveTies}.
     */
    private long decidedInline(MemorySegment views, int[] selection, int first, int n) {
        long decided = 0;
        for (int i = 0; i < n; i++) {
            long at = (long) (selection == null ? first + i : selection[first + i]) << 4;
            long inline = views.get(LAYOUT_LE_INT, at) <= INLINE_MAX ? 1 : 0;
            long differs = views.get(LAYOUT_BE_LONG, at + 4) != this.first ? 1 : 0;
            decided |= (inline & differs) << i;
        }
        return decided;
    }

    /**
     * Adds the outcome bits of the window's {@code tieCount} ties (valid rows the view words left undecided) to
     * {@code window.accepted}, in one loop over all of them: each tie's bytes 4..11 (written out here, not
     * called: see {@link TieWords#bytes4To11})
     * and its length clipped to 13 against the constant's, with no call and no branch on the outcome, so the
     * buffer loads of consecutive ties overlap. Clipping makes every long length equal, so that a long row agreeing
     * with a long constant through byte 11 is "same"; only such "deep" ties go on to the bytes from 12, one by one.
     * An inline row agreeing with a long constant through byte 11 is a proper prefix of it (its zero padding
     * matched the constant's bytes) and orders below by its shorter length.
     */
    private void resolveTies(ViewColumn column, int[] selection, int base, int count, int tieCount,
            Window window) {
        MemorySegment views = column.viewSegment();
        MemorySegment[] buffers = column.bufferArray();
        MemorySegment only = selection == null ? TieWords.onlyBuffer(buffers) : null;
        if (only != null) {
            if (only.byteSize() >= GATHER_MIN_BYTES && TieWords.sparse(tieCount, count)
                    && someFirstTieIsLong(views, base, count, window.ties)) {
                resolveTiesGathered(views, only, buffers, base, count, window);
            } else {
                resolveTiesOneBuffer(views, only, buffers, base, count, window);
            }
            return;
        }
        try {
            resolveTiesManyBuffers(views, buffers, selection, base, count, window);
        } catch (IndexOutOfBoundsException e) {
            throw TieWords.misplacedTie(views, buffers, selection, base, window.ties, count, e);
        }
    }

    /** {@link #resolveTies} over a selection or a column with several buffers (or none). */
    private void resolveTiesManyBuffers(MemorySegment views, MemorySegment[] buffers, int[] selection, int base,
            int count, Window window) {
        long[] accepted = window.accepted;
        long[] tieWords = window.ties;
        int likelyIndex = TieWords.likelyBufferIndex(views, buffers, selection, base, tieWords, count);
        MemorySegment likely = bufferOrEmpty(buffers, likelyIndex);
        for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
            int first = base + (w << 6);
            long add = 0;
            long deep = 0;
            for (long t = tieWords[w]; t != 0; t &= t - 1) {
                int i = Long.numberOfTrailingZeros(t);
                long at = (long) (selection == null ? first + i : selection[first + i]) << 4;
                int length = views.get(LAYOUT_LE_INT, at);
                long w1 = views.get(LAYOUT_LE_LONG, at + 8);
                long word = w1; // bytes 4..11: an inline row's second view word, else eight bytes from its buffer
                if (length > INLINE_MAX) {
                    int index = (int) w1;
                    word = (index == likelyIndex ? likely : buffers[index]).get(LAYOUT_LE_LONG,
                            (w1 >>> 32) + PREFIX_SIZE);
                }
                long bytes4To11 = Long.reverseBytes(word);
                long clipped = Math.min(length, INLINE_MAX + 1);
                long sameBytes = bytes4To11 == second ? 1 : 0;
                long below = (Long.compareUnsigned(bytes4To11, second) < 0 ? 1 : 0)
                        | (sameBytes & (clipped < constantClipped ? 1 : 0));
                long same = sameBytes & (clipped == constantClipped ? 1 : 0);
                long above = 1 ^ below ^ same; // below and same never both hold
                add |= ((below & acceptsLess) | (same & acceptsEqual) | (above & acceptsGreater)) << i;
                deep |= same << i;
            }
            if (constantIsLong && deep != 0) {
                // "same" meant agreeing through byte 11 only: the bytes from 12 decide.
                add &= ~deep;
                for (; deep != 0; deep &= deep - 1) {
                    int i = Long.numberOfTrailingZeros(deep);
                    long at = (long) (selection == null ? first + i : selection[first + i]) << 4;
                    add |= (long) ((acceptMask >>> deepOutcome(buffers, views.get(LAYOUT_LE_LONG, at),
                            views.get(LAYOUT_LE_LONG, at + 8))) & 1) << i;
                }
            }
            accepted[w] |= add;
        }
    }

    /**
     * A one-buffer column whose buffer holds at least this many bytes reads a window's ties in three loops when they
     * are sparse and long ({@link #resolveTiesGathered}): far larger than the L2 cache, each long tie's bytes are a
     * miss.
     */
    static final long GATHER_MIN_BYTES = TieWords.LARGE_BUFFER_BYTES;
    /**
     * How many of a word's ties {@link #resolveTiesGathered} extracts without a branch (written whether the word has
     * them or not); a word with more takes a loop for the rest. At Suite 1's 5% share a word has 3.2 ties on average
     * and more than six in about 4% of words.
     */
    private static final int EXTRACTED_TIES = 6;
    /** How many of a window's first ties {@link #someFirstTieIsLong} looks at. */
    private static final int SAMPLED_TIES = 4;
    /**
     * Whether one of the window's first {@value #SAMPLED_TIES} ties is a long row: a guess, from a few loads, at
     * whether its ties read the buffer. On 10M rows of 8-byte values (every tie inline, nothing to gather) the
     * gathered loops cost more than the single one; on mixed lengths (half the ties long) the first tie alone sent
     * half the windows to the single loop, and four made the cell faster (decision record 010).
     */
    private static boolean someFirstTieIsLong(MemorySegment views, int base, int count, long[] ties) {
        int looked = 0;
        for (int w = 0, words = (count + 63) >>> 6; w < words && looked < SAMPLED_TIES; w++) {
            long at0 = (long) (base + (w << 6)) << 4;
            for (long t = ties[w]; t != 0 && looked < SAMPLED_TIES; t &= t - 1, looked++) {
                if (views.get(LAYOUT_LE_INT, at0 + ((long) Long.numberOfTrailingZeros(t) << 4)) > INLINE_MAX) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * {@link #resolveTies} over rows (no selection) of a column whose only buffer is {@code buffer}
     * ({@link TieWords#onlyBuffer}): each 64-row word's ties go through {@link OrderTieBits} (the buffer a
     * loop-invariant local there), which gives their "below" bits by bytes 4..11 and the bits of those equal to
     * the constant's there; only the latter read their lengths, clipped to 13, here. The word's accepted bits are
     * computed from "below" and "same" afterwards ({@link #settleWord}). A word whose 64 rows all tie takes
     * {@link OrderTieBits#belowAll}, a counted loop. In a window the settling pass ran over, for a constant whose
     * bytes 4..7 are not all zero, the other words take {@link OrderTieBits#belowSettled}, which tells long ties
     * from the view's second word and reads no length for them. A long row naming a buffer other than 0 is
     * remembered by OR-ing its index and fails after the loop.
     *
     * <p>Windows of sparse long ties over a buffer of 8 MiB or more take {@link #resolveTiesGathered} instead.
     */
    private void resolveTiesOneBuffer(MemorySegment views, MemorySegment buffer, MemorySegment[] buffers, int base,
            int count, Window window) {
        long[] tieWords = window.ties;
        long[] equalAndOther = window.equalAndOther;
        equalAndOther[1] = 0;
        int words = (count + 63) >>> 6;
        // After the settling pass a tie's second view word tells a long tie from an inline one, when the
        // constant's bytes 4..7 are not all zero (OrderTieBits.belowSettled).
        boolean settledLong = window.passSettled && (second >>> 32) != 0;
        try {
            for (int w = 0; w < words; w++) {
                long t = tieWords[w];
                if (t == 0) {
                    continue;
                }
                long at0 = (long) (base + (w << 6)) << 4;
                long below = t == -1L ? OrderTieBits.belowAll(views, buffer, at0, second, equalAndOther)
                        : settledLong ? OrderTieBits.belowSettled(views, buffer, at0, t, second, equalAndOther)
                        : OrderTieBits.below(views, buffer, at0, t, second, equalAndOther);
                long same = 0;
                // Ties whose bytes 4..11 equal the constant's (rare but for values equal to it through byte 11):
                // their lengths clipped to 13 decide, or the bytes after for long ones (settleWord).
                for (long e = equalAndOther[0]; e != 0; e &= e - 1) {
                    int i = Long.numberOfTrailingZeros(e);
                    int clipped = Math.min(views.get(LAYOUT_LE_INT, at0 + ((long) i << 4)), INLINE_MAX + 1);
                    below |= (clipped < lengthClipped ? 1L : 0L) << i;
                    same |= (clipped == lengthClipped ? 1L : 0L) << i;
                }
                settleWord(views, buffers, base, w, below, same, window);
            }
        } catch (IndexOutOfBoundsException e) {
            throw TieWords.misplacedTie(views, buffers, null, base, tieWords, count, e);
        }
        if (equalAndOther[1] != 0) {
            throw TieWords.misplacedTie(views, buffers, null, base, tieWords, count, null);
        }
    }

    /**
     * {@link #resolveTiesOneBuffer} in three loops, for sparse ties over a buffer far larger than the cache: the
     * first reads the long ties' buffer offsets from their views (in L2 after the pass) into
     * {@code window.offsets}; the second only loads each one's bytes 4..11 into {@code window.loaded}, a few
     * instructions a tie with the address in L1, so that the reorder buffer holds many ties' DRAM misses at once
     * and none waits on a view load; the third compares from that array and the views. With the view load and the
     * buffer load in one loop (each miss waiting on its view) the cell took 1.33-1.47x as long (10M 25-byte rows,
     * decision record 010).
     *
     * <p>The first and third loops run over the window's tie positions, listed first with no branch for words of
     * up to {@value #EXTRACTED_TIES} ties, instead of walking each word's tie bits: a bit walk's exit is
     * mispredicted nearly every word at Suite 1's 3.2 ties a word, twice a word with two such loops. The third loop
     * ORs each tie's outcome bit into its word of {@code window.accepted} (in L1), so no loop over the words
     * settles them after and no below or same bits are kept per word; a long constant's ties that agree through
     * byte 11 are left out there, their positions listed with no branch (written for every tie, kept for those),
     * and decided from the bytes after. The listed positions beat the bit walks on 25-byte and mixed lengths; the
     * third loop picks a tie's word (loaded or inline) and steps the loaded index by the sign of
     * {@code 12 - length}, not by a compare, because the boolean form was a mispredicted branch where half the ties
     * are long (decision record 010).
     */
    private void resolveTiesGathered(MemorySegment views, MemorySegment buffer, MemorySegment[] buffers, int base,
            int count, Window window) {
        long[] tieWords = window.ties;
        long[] loaded = window.loaded;
        long[] offsets = window.offsets;
        int[] positions = window.positions;
        if (loaded == null) {
            loaded = window.loaded = new long[window.largest + 1];
            offsets = window.offsets = new long[window.largest + 1];
            positions = window.positions = new int[window.largest + EXTRACTED_TIES];
            window.deep = new int[window.largest];
        }
        int words = (count + 63) >>> 6;
        // The ties' positions in the window, in order, so that the loops below are counted loops over them: a walk
        // over each word's bits ends in a mispredicted exit nearly every word at a 5% share (3.2 ties a word). The
        // first EXTRACTED_TIES of a word are written whether the word has them or not (a missing one writes a
        // position past the word, which the count below leaves out), so only a word with more takes a branch.
        int n = 0;
        for (int w = 0; w < words; w++) {
            long t = tieWords[w];
            int p = w << 6;
            int c = Long.bitCount(t);
            positions[n] = p + Long.numberOfTrailingZeros(t);
            t &= t - 1;
            positions[n + 1] = p + Long.numberOfTrailingZeros(t);
            t &= t - 1;
            positions[n + 2] = p + Long.numberOfTrailingZeros(t);
            t &= t - 1;
            positions[n + 3] = p + Long.numberOfTrailingZeros(t);
            t &= t - 1;
            positions[n + 4] = p + Long.numberOfTrailingZeros(t);
            t &= t - 1;
            positions[n + 5] = p + Long.numberOfTrailingZeros(t);
            t &= t - 1;
            if (c > EXTRACTED_TIES) {
                for (int m = n + EXTRACTED_TIES; t != 0; t &= t - 1) {
                    positions[m++] = p + Long.numberOfTrailingZeros(t);
                }
            }
            n += c;
        }
        long at0 = (long) base << 4;
        int other = 0;
        int longTies = 0;
        // The long ties' buffer offsets first, from their views (in L2 after the pass): no buffer load here.
        for (int k = 0; k < n; k++) {
            long at = at0 + ((long) positions[k] << 4);
            long word = views.get(LAYOUT_LE_LONG, at + 8);
            // Written for every tie, kept (the count stepped) for long ones only: mixed lengths would
            // mispredict a branch on the kind.
            int isLong = views.get(LAYOUT_LE_INT, at) > INLINE_MAX ? 1 : 0;
            other |= (int) word & -isLong;
            offsets[longTies] = (word >>> 32) + PREFIX_SIZE;
            longTies += isLong;
        }
        if (other != 0) {
            throw TieWords.misplacedTie(views, buffers, null, base, tieWords, count, null);
        }
        // Then the buffer loads alone, each address from an array in L1, so no load waits on another.
        try {
            for (int k = 0; k < longTies; k++) {
                loaded[k] = buffer.get(LAYOUT_LE_LONG, offsets[k]);
            }
        } catch (IndexOutOfBoundsException e) {
            throw TieWords.misplacedTie(views, buffers, null, base, tieWords, count, e);
        }
        long second = this.second;
        int clippedConstant = lengthClipped;
        // Each tie's outcome bit goes straight into its word of accepted (in L1), with no per-word settling loop
        // after: (below | same & sameTerm) ^ flip, bit 0 only. With a long constant a "same" tie (agreeing through
        // byte 11) is left out there; its position is listed (written for every tie, kept only for those) and it is
        // decided from the bytes after, below.
        long[] accepted = window.accepted;
        int[] deep = window.deep;
        long sameTerm = this.sameTerm & 1;
        long flip = this.flip & 1;
        long longConstant = constantIsLong ? 1 : 0;
        int deepTies = 0;
        for (int k = 0, j = 0; k < n; k++) {
            int i = positions[k];
            long at = at0 + ((long) i << 4);
            int length = views.get(LAYOUT_LE_INT, at);
            long inline = views.get(LAYOUT_LE_LONG, at + 8);
            long gathered = loaded[j]; // one past the last long tie's word when none is left: never used
            long isLong = (INLINE_MAX - (long) length) >>> 63; // 1 for a long row, by arithmetic: no branch
            j += (int) isLong;
            long word = inline ^ ((inline ^ gathered) & -isLong);
            int clipped = Math.min(length, INLINE_MAX + 1);
            long x = Long.reverseBytes(word);
            long sameBytes = x == second ? 1 : 0;
            long sameBit = sameBytes & (clipped == clippedConstant ? 1 : 0);
            long belowBit = (Long.compareUnsigned(x, second) < 0 ? 1L : 0L)
                    | (sameBytes & (clipped < clippedConstant ? 1 : 0));
            long isDeep = sameBit & longConstant;
            accepted[i >>> 6] |= (((belowBit | (sameBit & sameTerm)) ^ flip) & (isDeep ^ 1)) << i;
            deep[deepTies] = i;
            deepTies += (int) isDeep;
        }
        for (int q = 0; q < deepTies; q++) {
            int i = deep[q];
            long at = at0 + ((long) i << 4);
            accepted[i >>> 6] |= (long) ((acceptMask >>> deepOutcome(buffers, views.get(LAYOUT_LE_LONG, at),
                    views.get(LAYOUT_LE_LONG, at + 8))) & 1) << i;
        }
    }

    /**
     * Adds word {@code w}'s outcome to {@code window.accepted} from its ties' {@code below} and {@code same} bits:
     * "<" takes below, "<=" below or same, ">" neither, ">=" not below. With a long constant "same" means agreeing
     * through byte 11 with a long row; those deep ties are decided from the bytes after, one by one.
     */
    private void settleWord(MemorySegment views, MemorySegment[] buffers, int base, int w, long below, long same,
            Window window) {
        long ties = window.ties[w];
        long add = ((below | (same & sameTerm)) ^ flip) & ties;
        if (constantIsLong && same != 0) {
            add &= ~same;
            long first = (long) (base + (w << 6)) << 4;
            for (long deep = same; deep != 0; deep &= deep - 1) {
                int i = Long.numberOfTrailingZeros(deep);
                long at = first + ((long) i << 4);
                add |= (long) ((acceptMask >>> deepOutcome(buffers, views.get(LAYOUT_LE_LONG, at),
                        views.get(LAYOUT_LE_LONG, at + 8))) & 1) << i;
            }
        }
        window.accepted[w] |= add;
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
