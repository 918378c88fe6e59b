package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.ByteRanges;
import java.lang.foreign.MemorySegment;

/** A predicate's constant with the view words it would have, precomputed once. */
final class Constant {
    /** Longer tails are compared with {@link MemorySegment#mismatch}; shorter ones word by word. */
    private static final int WORDWISE_TAIL_MAX = 64;

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
     * A long constant of at most {@link #SHORT_TAIL_MAX} bytes compares its bytes after the prefix with two to
     * four 8-byte loads in straight-line code: at 4, 12 and 20 while they end before the constant does, and one
     * ending at its last byte. The method stays small enough for C2 to inline into the kernels' loops, which a
     * loop over a word array was not, and measured slower on seed 001's scattered heap (25-byte equality; decision
     * record 010).
     */
    private static final int SHORT_TAIL_MAX = 36;
    /**
     * For a longer constant of at most {@link #WORDWISE_TAIL_MAX} bytes: its little-endian words at 4, 12, 20, ...
     * and a last word ending at its final byte (overlapping the one before), compared in a loop instead of a
     * {@code mismatch} call. Null otherwise.
     */
    private final long[] tailWords;
    private final boolean shortTail;
    private final long tail4;
    private final long tail12;
    private final long tail20;
    private final long tailLast;

    Constant(byte[] bytes) {
        this.bytes = bytes.clone();
        this.segment = MemorySegment.ofArray(this.bytes);
        this.length = bytes.length;
        MemorySegment view = MemorySegment.ofArray(new long[2]);
        MemorySegment.copy(segment, 0, view, ViewLayout.OFFSET_INLINE, Math.min(length, INLINE_MAX));
        this.word0 = view.get(LAYOUT_LE_LONG, 0) | length;
        this.word1 = view.get(LAYOUT_LE_LONG, 8);
        this.prefixBigEndian = Integer.reverseBytes((int) (word0 >>> 32));
        if (length > SHORT_TAIL_MAX && length <= WORDWISE_TAIL_MAX) {
            int full = (length - 4) / 8;
            tailWords = new long[full + 1];
            for (int k = 0; k < full; k++) {
                tailWords[k] = segment.get(LAYOUT_LE_LONG, 4 + 8L * k);
            }
            tailWords[full] = segment.get(LAYOUT_LE_LONG, length - 8L);
        } else {
            tailWords = null;
        }
        shortTail = length > INLINE_MAX && length <= SHORT_TAIL_MAX;
        tail4 = shortTail ? segment.get(LAYOUT_LE_LONG, 4) : 0;
        tail12 = shortTail && length > 20 ? segment.get(LAYOUT_LE_LONG, 12) : 0;
        tail20 = shortTail && length > 28 ? segment.get(LAYOUT_LE_LONG, 20) : 0;
        tailLast = shortTail ? segment.get(LAYOUT_LE_LONG, length - 8) : 0;
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
        if (!shortTail) {
            return differenceAfterLongPrefix(data, offset);
        }
        long difference = data.get(LAYOUT_LE_LONG, offset + 4) ^ tail4
                | data.get(LAYOUT_LE_LONG, offset + length - 8) ^ tailLast;
        if (length > 20) {
            difference |= data.get(LAYOUT_LE_LONG, offset + 12) ^ tail12;
        }
        if (length > 28) {
            difference |= data.get(LAYOUT_LE_LONG, offset + 20) ^ tail20;
        }
        return difference;
    }

    private long differenceAfterLongPrefix(MemorySegment data, long offset) {
        long[] words = tailWords;
        if (words == null) {
            return ByteRanges.equal(data, offset + 4, segment, 4, length - 4) ? 0 : 1;
        }
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
