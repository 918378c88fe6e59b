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

    Constant(byte[] bytes) {
        this.bytes = bytes.clone();
        this.segment = MemorySegment.ofArray(this.bytes);
        this.length = bytes.length;
        MemorySegment view = MemorySegment.ofArray(new long[2]);
        MemorySegment.copy(segment, 0, view, ViewLayout.OFFSET_INLINE, Math.min(length, INLINE_MAX));
        this.word0 = view.get(LAYOUT_LE_LONG, 0) | length;
        this.word1 = view.get(LAYOUT_LE_LONG, 8);
        this.prefixBigEndian = Integer.reverseBytes((int) (word0 >>> 32));
    }

    boolean isInline() {
        return length <= INLINE_MAX;
    }

    /** Mask of the low {@code n} bytes of a little-endian word ({@code n} in 0..8). */
    static long lowBytesMask(int n) {
        return n >= 8 ? -1L : (1L << (8 * n)) - 1;
    }
}
