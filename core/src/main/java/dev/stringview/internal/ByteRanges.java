package dev.stringview.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Comparisons of byte ranges in unsigned lexicographic (UTF-8 code point) order, on {@link MemorySegment#mismatch}. */
public final class ByteRanges {
    private ByteRanges() {}

    /** Words compared one by one below this many bytes; {@link MemorySegment#mismatch} from here on. */
    private static final int WORD_LOOP_MAX = 128;

    /**
     * Whether the two ranges of {@code length} bytes hold the same bytes. Ranges of 8 to {@value #WORD_LOOP_MAX}
     * bytes (keys: URLs, identifiers) are compared as 8-byte words, the last one ending at the last byte:
     * {@link MemorySegment#mismatch} checks both ranges and picks a vector loop first, which costs more than the
     * comparison itself at these sizes (decision record 032).
     */
    public static boolean equal(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long length) {
        if (length < Long.BYTES || length > WORD_LOOP_MAX) {
            return MemorySegment.mismatch(a, aOffset, aOffset + length, b, bOffset, bOffset + length) < 0;
        }
        long last = length - Long.BYTES;
        for (long k = 0; k < last; k += Long.BYTES) {
            if (a.get(WORD, aOffset + k) != b.get(WORD, bOffset + k)) {
                return false;
            }
        }
        return a.get(WORD, aOffset + last) == b.get(WORD, bOffset + last);
    }

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    /** Negative, zero or positive as range a sorts before, equal to or after range b; a proper prefix sorts first. */
    public static int compare(MemorySegment a, long aOffset, long aLength, MemorySegment b, long bOffset, long bLength) {
        long m = MemorySegment.mismatch(a, aOffset, aOffset + aLength, b, bOffset, bOffset + bLength);
        if (m < 0) {
            return 0;
        }
        if (m == aLength || m == bLength) {
            return Long.compare(aLength, bLength);
        }
        return Integer.compare(a.get(ValueLayout.JAVA_BYTE, aOffset + m) & 0xFF, b.get(ValueLayout.JAVA_BYTE, bOffset + m) & 0xFF);
    }
}
