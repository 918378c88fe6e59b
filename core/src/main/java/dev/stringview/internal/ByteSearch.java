package dev.stringview.internal;

import dev.stringview.ViewLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Substring search in a segment range. Eight candidate positions are screened at once by comparing the
 * needle's first and last bytes against two overlapping 64-bit loads (SWAR), and only candidates that pass
 * both are compared in full with {@link MemorySegment#mismatch}.
 */
public final class ByteSearch {
    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long HIGHS = 0x8080_8080_8080_8080L;

    private ByteSearch() {}

    /** Position of the first occurrence of {@code needle} within {@code [offset, offset + length)}, relative to offset, or -1. */
    public static long indexOf(MemorySegment haystack, long offset, long length, MemorySegment needle, int needleLength) {
        if (needleLength == 0) {
            return 0;
        }
        long lastStart = length - needleLength;
        if (lastStart < 0) {
            return -1;
        }
        byte first = needle.get(ValueLayout.JAVA_BYTE, 0);
        byte last = needle.get(ValueLayout.JAVA_BYTE, needleLength - 1);
        long firstPattern = (first & 0xFFL) * ONES;
        long lastPattern = (last & 0xFFL) * ONES;
        long i = 0;
        // Both 8-byte loads stay inside the range while i + 7 <= lastStart.
        while (i + 7 <= lastStart) {
            long a = haystack.get(ViewLayout.LAYOUT_LE_LONG, offset + i) ^ firstPattern;
            long b = haystack.get(ViewLayout.LAYOUT_LE_LONG, offset + i + needleLength - 1) ^ lastPattern;
            long x = a | b;
            // High bit of byte k set if byte k of x is zero (may also flag a byte above a true zero: verified below).
            long candidates = (x - ONES) & ~x & HIGHS;
            while (candidates != 0) {
                long at = i + (Long.numberOfTrailingZeros(candidates) >>> 3);
                if (ByteRanges.equal(haystack, offset + at, needle, 0, needleLength)) {
                    return at;
                }
                candidates &= candidates - 1;
            }
            i += 8;
        }
        for (; i <= lastStart; i++) {
            if (haystack.get(ValueLayout.JAVA_BYTE, offset + i) == first
                    && haystack.get(ValueLayout.JAVA_BYTE, offset + i + needleLength - 1) == last
                    && ByteRanges.equal(haystack, offset + i, needle, 0, needleLength)) {
                return i;
            }
        }
        return -1;
    }
}
