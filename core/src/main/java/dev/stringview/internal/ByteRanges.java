package dev.stringview.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Comparisons of byte ranges in unsigned lexicographic (UTF-8 code point) order, on {@link MemorySegment#mismatch}. */
public final class ByteRanges {
    private ByteRanges() {}

    public static boolean equal(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long length) {
        return MemorySegment.mismatch(a, aOffset, aOffset + length, b, bOffset, bOffset + length) < 0;
    }

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
