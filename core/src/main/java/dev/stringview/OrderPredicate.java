package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_BE_LONG;
import static dev.stringview.ViewLayout.LAYOUT_LE_INT;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;
import static dev.stringview.ViewLayout.PREFIX_SIZE;

import dev.stringview.internal.ByteRanges;
import dev.stringview.internal.Vectorization;
import java.lang.foreign.MemorySegment;

/**
 * {@code value < constant} and the other orderings, in unsigned bytewise order ({@link ViewOrder}), in the two
 * steps of {@link ViewWordPredicate}.
 *
 * <p><b>The view-word pass.</b> View bytes 4..11, loaded as one big-endian word, hold the prefix and then bytes 4..7
 * of an inline value (zero-padded) or the buffer index of a long one. Whenever a row's prefix differs from the
 * constant's, an unsigned compare of that word with the constant's first eight bytes orders it. Rows with the
 * constant's prefix, inline ones too, are ties.
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
    private final long acceptsLess; // -1 when rows less than the constant match, else 0; likewise for equal, greater
    private final long acceptsEqual;
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
        this.acceptsEqual = -(long) ((acceptMask >>> 1) & 1);
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
     * first eight bytes, of {@code ties} when its prefix is the constant's.
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
                lessBits |= (Long.compareUnsigned(key, first) < 0 ? 1L : 0L) << i;
                tieBits |= ((key >>> 32) == prefix ? 1L : 0L) << i;
            }
            less[w] = lessBits;
            ties[w] = tieBits;
        }
    }

    /** Adds the outcome bits of the window's ties to {@code window.accepted}, in one loop over all of them. */
    private void resolveTies(MemorySegment views, MemorySegment[] buffers, int[] selection, int base, int count,
            Window window) {
        long[] accepted = window.accepted;
        long[] ties = window.ties;
        int likelyIndex = likelyBufferIndex(views, buffers, selection, base, ties, count);
        MemorySegment likely = likelyBuffer(buffers, likelyIndex);
        for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
            int start = base + (w << 6);
            long add = 0;
            long deep = 0;
            for (long t = ties[w]; t != 0; t &= t - 1) {
                int i = Long.numberOfTrailingZeros(t);
                long at = (long) (selection == null ? start + i : selection[start + i]) << 4;
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
                    long at = (long) (selection == null ? start + i : selection[start + i]) << 4;
                    add |= (long) ((acceptMask >>> deepOutcome(buffers, views.get(LAYOUT_LE_LONG, at),
                            views.get(LAYOUT_LE_LONG, at + 8))) & 1) << i;
                }
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
