package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import java.lang.foreign.MemorySegment;

/** A predicate's constant with the view words it would have, precomputed once. */
final class Constant {
    final byte[] bytes;
    final MemorySegment segment;
    final int length;
    /** {@code length | first four bytes << 32}: what a row's first view word must equal for the row to be equal. */
    final long word0;
    /** Bytes 4..11 zero-padded: an inline row's second view word (meaningless for long constants). */
    final long word1;
    /** The first four bytes, zero-padded, as a big-endian int: compared unsigned, it orders like the bytes. */
    final int prefixBigEndian;
    /**
     * For a long constant: its little-endian words at 4, 12, 20, ... and a last word ending at its final byte
     * (overlapping the one before), compared with a row's in one loop with no early exit, so that one row's loads
     * are issued together. Null for an inline constant.
     */
    private final long[] tailWords;

    Constant(byte[] bytes) {
        this.bytes = bytes.clone();
        this.segment = MemorySegment.ofArray(this.bytes);
        this.length = bytes.length;
        MemorySegment view = MemorySegment.ofArray(new long[2]);
        MemorySegment.copy(segment, 0, view, ViewLayout.OFFSET_INLINE, Math.min(length, INLINE_MAX));
        this.word0 = view.get(LAYOUT_LE_LONG, 0) | length;
        this.word1 = view.get(LAYOUT_LE_LONG, 8);
        this.prefixBigEndian = Integer.reverseBytes((int) (word0 >>> 32));
        if (length > INLINE_MAX) {
            int full = (length - 4) / 8;
            tailWords = new long[full + 1];
            for (int k = 0; k < full; k++) {
                tailWords[k] = segment.get(LAYOUT_LE_LONG, 4 + 8L * k);
            }
            tailWords[full] = segment.get(LAYOUT_LE_LONG, length - 8L);
        } else {
            tailWords = null;
        }
    }

    boolean isInline() {
        return length <= INLINE_MAX;
    }

    /**
     * Whether the {@code length}-byte value at {@code offset} of {@code data}, already known to start with this
     * constant's four prefix bytes, equals this (long) constant: bytes 4.. are compared.
     */
    boolean equalsAfterPrefix(MemorySegment data, long offset) {
        return differenceAfterPrefix(data, offset) == 0;
    }

    /**
     * Zero if the value at {@code offset} (known to share this long constant's prefix and length) equals it,
     * else non-zero. All words are loaded and combined without an early exit, so one candidate's loads are
     * issued together.
     */
    long differenceAfterPrefix(MemorySegment data, long offset) {
        long[] words = tailWords;
        int full = words.length - 1;
        long difference = data.get(LAYOUT_LE_LONG, offset + length - 8L) ^ words[full];
        for (int k = 0; k < full; k++) {
            difference |= data.get(LAYOUT_LE_LONG, offset + 4 + 8L * k) ^ words[k];
        }
        return difference;
    }

    /** Mask of the low {@code n} bytes of a little-endian word ({@code n} in 0..8). */
    static long lowBytesMask(int n) {
        return n >= 8 ? -1L : (1L << (8 * n)) - 1;
    }
}
