package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_BE_LONG;
import static dev.stringview.ViewLayout.LAYOUT_LE_INT;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.ByteRanges;
import dev.stringview.internal.Vectorization;
import java.lang.foreign.MemorySegment;

/**
 * {@code value < constant} and the other orderings, in unsigned bytewise order ({@link ViewOrder}), in the two
 * steps of {@link ViewWordPredicate}.
 *
 * <p><b>The view-word pass.</b> View bytes 4..11, loaded as one big-endian word, hold the prefix and then bytes 4..7
 * of an inline value (zero-padded) or the buffer index of a long one. Whenever a row's prefix differs from the
 * constant's, an unsigned compare of that word with the constant's first eight bytes orders it, and so it does
 * for an inline row whose first eight bytes (view bytes 4..11) differ from the constant's. The rest are ties: long
 * rows with the constant's prefix, and inline rows with its first eight bytes.
 *
 * <p><b>The ties</b> are settled by bytes 4..11 as one word (an inline row's second view word, else eight bytes
 * from its buffer), then by the lengths clipped to 13, with no branch on the outcome. Clipping makes every long
 * length equal, so that a long row agreeing with a long constant through byte 11 is "same"; only such "deep" ties go
 * on to the bytes from 12. An inline row agreeing with a long constant through byte 11 is a proper prefix of it
 * (its zero padding matched the constant's bytes) and orders below by its shorter length.
 */
final class OrderPredicate extends ViewWordPredicate {
    private final Constant constant;
    private final int acceptMask;
    private final long prefix;
    private final int prefixLittleEndian; // the prefix as the view holds it (bytes 4..7 read little-endian)
    private final long second; // bytes 4..11, big-endian, zero-padded, for long constants too
    private final long first; // bytes 0..7, big-endian, zero-padded
    private final long acceptsLess; // -1 when rows less than the constant match, else 0; likewise for greater
    private final long acceptsGreater;
    private final boolean constantIsLong;
    private final boolean acceptLess; // whether rows less than the constant match (< and <=), else greater ones
    private final long constantClipped; // the constant's length clipped to INLINE_MAX + 1

    OrderPredicate(Constant constant, Comparison comparison) {
        this.constant = constant;
        this.acceptMask = comparison.acceptMask;
        this.prefix = Integer.toUnsignedLong(constant.prefixBigEndian);
        this.prefixLittleEndian = Integer.reverseBytes(constant.prefixBigEndian);
        this.second = Long.reverseBytes(constant.word1);
        this.first = prefix << 32 | second >>> 32;
        this.acceptsLess = -(long) (acceptMask & 1);
        this.acceptsGreater = -(long) ((acceptMask >>> 2) & 1);
        this.constantIsLong = constant.length > INLINE_MAX;
        // Only the four order operators reach this class (ViewPredicates maps = and <> to EqualityPredicate), so
        // a row that is not a tie matches by its "less" bit alone: rows below match for < and <=, above for > and >=.
        this.acceptLess = (acceptMask & 1) != 0;
        this.constantClipped = Math.min(constant.length, INLINE_MAX + 1);
    }

    @Override
    void decide(ViewColumn column, int[] selection, int base, int count, Window window) {
        MemorySegment views = column.viewSegment();
        long[] accepted = window.accepted;
        long[] less = window.pass;
        long[] ties = window.ties;
        Vectorization.ViewWordScan vector = selection == null ? Vectorization.viewWords() : null;
        if (vector != null) {
            vector.orderWords(views, base, count, first, prefixLittleEndian, less, ties);
        } else {
            orderWords(views, selection, base, count, less, ties);
        }
        long anyTie = 0;
        for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
            long keep = keep(column, selection, base + (w << 6), Math.min(Long.SIZE, count - (w << 6)));
            long t = ties[w] & keep;
            ties[w] = t;
            anyTie |= t;
            accepted[w] = (acceptLess ? less[w] : ~less[w]) & keep & ~t;
        }
        if (anyTie != 0) {
            MemorySegment[] buffers = column.bufferArray();
            try {
                resolveTies(views, buffers, selection, base, count, window);
            } catch (IndexOutOfBoundsException e) {
                throw misplacedTie(views, buffers, selection, base, ties, count, e);
            }
        }
    }

    /**
     * The scalar view-word pass, twin of {@link Vectorization.ViewWordScan#orderWords}: bit {@code i} of
     * {@code less} when entry {@code base + i}'s view bytes 4..11, big-endian, are unsigned below the constant's
     * first eight bytes, of {@code ties} when its prefix is the constant's and it is long or its first eight bytes
     * (an inline row's view bytes 4..11) are the constant's too.
     */
    private void orderWords(MemorySegment views, int[] selection, int base, int count, long[] less, long[] ties) {
        for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
            int start = base + (w << 6);
            int n = Math.min(Long.SIZE, count - (w << 6));
            long lessBits = 0;
            long tieBits = 0;
            for (int i = 0; i < n; i++) {
                long at = (long) (selection == null ? start + i : selection[start + i]) << 4;
                long key = views.get(LAYOUT_BE_LONG, at + 4);
                boolean settled = views.get(LAYOUT_LE_INT, at) <= INLINE_MAX & key != first;
                lessBits |= (Long.compareUnsigned(key, first) < 0 ? 1L : 0L) << i;
                tieBits |= ((key >>> 32) == prefix & !settled ? 1L : 0L) << i;
            }
            less[w] = lessBits;
            ties[w] = tieBits;
        }
    }

    /**
     * Adds the outcome bits of the window's ties to {@code window.accepted}: per 64-entry word, their bytes 4..11
     * ({@link #tieWords}) order every tie that differs there; the few that agree are ordered by their lengths
     * clipped to 13, and a long constant's "deep" ties (both long, equal through byte 11) by the bytes from 12.
     */
    private void resolveTies(MemorySegment views, MemorySegment[] buffers, int[] selection, int base, int count,
            Window window) {
        long[] accepted = window.accepted;
        long[] ties = window.ties;
        long[] words = window.words;
        int likelyIndex = likelyBufferIndex(views, buffers, selection, base, ties, count);
        MemorySegment likely = likelyBuffer(buffers, likelyIndex);
        for (int w = 0, n = (count + 63) >>> 6; w < n; w++) {
            long t = ties[w];
            if (t == 0) {
                continue;
            }
            int start = base + (w << 6);
            tieWords(views, buffers, likelyIndex, likely, selection, start, t, words);
            long below = 0;
            long same = 0;
            for (long m = t; m != 0; m &= m - 1) {
                int i = Long.numberOfTrailingZeros(m);
                long bytes4To11 = Long.reverseBytes(words[i]);
                below |= (Long.compareUnsigned(bytes4To11, second) < 0 ? 1L : 0L) << i;
                same |= (bytes4To11 == second ? 1L : 0L) << i;
            }
            long add = (below & acceptsLess) | (t & ~below & ~same & acceptsGreater);
            for (long m = same; m != 0; m &= m - 1) {
                int i = Long.numberOfTrailingZeros(m);
                long at = (long) (selection == null ? start + i : selection[start + i]) << 4;
                long w0 = views.get(LAYOUT_LE_LONG, at);
                long clipped = Math.min((int) w0, INLINE_MAX + 1);
                int outcome; // 0, 1, 2: less, equal, greater
                if (clipped != constantClipped) {
                    // The shorter agrees with the longer through its last byte (its padding matched): it is less.
                    outcome = clipped < constantClipped ? 0 : 2;
                } else {
                    outcome = constantIsLong ? deepOutcome(buffers, w0, views.get(LAYOUT_LE_LONG, at + 8)) : 1;
                }
                add |= (long) ((acceptMask >>> outcome) & 1) << i;
            }
            accepted[w] |= add;
        }
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
