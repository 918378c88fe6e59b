package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_BE_LONG;

import dev.stringview.internal.ByteRanges;
import java.lang.foreign.MemorySegment;

/**
 * Unsigned bytewise order decided a word at a time, shared by the order predicates, column-versus-column
 * comparison and {@link ViewKernels#argsort}.
 *
 * <p>A value is read as a sequence of big-endian 64-bit "chunks" of its bytes, zero-padded past its end: the
 * 4-byte prefix (the view's own, zero-padded), then bytes 4..11 (the inline bytes of a short value, the first
 * eight bytes after the prefix in the buffer for a long one), then bytes 12..19 and so on. Two values whose
 * chunks agree up to one that holds the end of either are ordered by length: the shorter is then a prefix of the
 * other (the zero padding equals the other's bytes). This is arrow-rs's inline key ({@code bytes << 32 | length})
 * carried past the view into the buffer, so that equal prefixes (arrow-rs#7351) cost one more word, not a call.
 */
final class ViewOrder {
    private ViewOrder() {}

    /** -1, 0 or 1 as {@code x} is negative, zero or positive, in shifts only (no compare, no branch). */
    static long sign(long x) {
        return (x >> 63) | (-x >>> 63);
    }

    /**
     * 0, 1 or 2 as a value is less than, equal to or greater than another, from the difference of their
     * zero-extended prefixes, their bytes 4..11 (big-endian, zero-padded) and their lengths, in arithmetic only:
     * a compare compiled to a branch mispredicts on random data (and {@code Long.compare} is one on x86). The
     * 64-bit words are compared as two 32-bit halves so that no difference overflows; each term outweighs all
     * later ones. Exact when both values are inline, or the prefixes differ.
     */
    static int outcome(long prefixDifference, long secondA, long secondB, long lengthDifference) {
        long high = (secondA >>> 32) - (secondB >>> 32);
        long low = (secondA & 0xFFFF_FFFFL) - (secondB & 0xFFFF_FFFFL);
        long d = (sign(prefixDifference) << 3) + (sign(high) << 2) + (sign(low) << 1) + sign(lengthDifference);
        return (int) sign(d) + 1;
    }

    /** The zero-padded prefix of view word {@code w0}, big-endian, zero-extended: orders like the bytes. */
    static long prefix(long w0) {
        return Integer.toUnsignedLong(Integer.reverseBytes((int) (w0 >>> 32)));
    }

    /** The first sort key word ({@code internal.KeyRounds}) of an inline value: its prefix, then bytes 4..7. */
    static long inlineKeyHigh(long w0, long w1) {
        return (prefix(w0) << 32) | (Long.reverseBytes(w1) >>> 32);
    }

    /** The second sort key word of an inline value: bytes 8..11, then zero padding. */
    static long inlineKeyLow(long w1) {
        return Long.reverseBytes(w1) << 32;
    }

    /**
     * Bytes 4..11 of a non-null row, big-endian and zero-padded: the second view word of an inline value, else
     * the eight bytes after the prefix in its buffer (a long value has at least 13 bytes).
     */
    static long second(MemorySegment[] buffers, long w0, long w1) {
        if ((int) w0 <= INLINE_MAX) {
            return Long.reverseBytes(w1);
        }
        return buffers[(int) w1].get(LAYOUT_BE_LONG, (w1 >>> 32) + 4);
    }

    /**
     * Bytes {@code [depth, depth + 8)} of a non-null long value (length {@code > depth}), big-endian and
     * zero-padded past its end, reading only inside the value: a chunk that would pass the end is read as the
     * word ending at the last byte and shifted up.
     */
    static long chunk(MemorySegment buffer, long offset, int length, int depth) {
        if (depth + 8 <= length) {
            return buffer.get(LAYOUT_BE_LONG, offset + depth);
        }
        long last = buffer.get(LAYOUT_BE_LONG, offset + length - 8);
        return last << (8 * (depth + 8 - length));
    }

    /**
     * Three-way order (-1, 0, 1) of two non-null values whose prefixes are equal, from their second chunks,
     * lengths and, only when both are long and their first twelve bytes agree, the bytes from 12 on.
     */
    static int compareSamePrefix(MemorySegment dataA, long offsetA, int lengthA, long secondA,
            MemorySegment dataB, long offsetB, int lengthB, long secondB) {
        int s = Long.compareUnsigned(secondA, secondB);
        if (s != 0 || lengthA <= INLINE_MAX || lengthB <= INLINE_MAX) {
            return Integer.signum(2 * s + Integer.compare(lengthA, lengthB));
        }
        return Integer.signum(ByteRanges.compare(dataA, offsetA + INLINE_MAX, lengthA - INLINE_MAX, dataB,
                offsetB + INLINE_MAX, lengthB - INLINE_MAX));
    }
}
