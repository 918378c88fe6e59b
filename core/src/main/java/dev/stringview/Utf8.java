package dev.stringview;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * UTF-8 well-formedness (RFC 3629 / Unicode Table 3-7): no overlong forms, no surrogates, nothing above
 * U+10FFFF, no truncated sequences. ASCII runs are skipped eight bytes at a time.
 */
public final class Utf8 {
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

    private Utf8() {}

    /** Whether {@code length} bytes at {@code offset} of {@code segment} are well-formed UTF-8. */
    public static boolean isValid(MemorySegment segment, long offset, long length) {
        return firstInvalid(segment, offset, length) < 0;
    }

    /**
     * The position, relative to {@code offset}, of the first byte that starts an ill-formed sequence, or -1
     * when all {@code length} bytes are well-formed.
     *
     * @throws IndexOutOfBoundsException if the range is outside the segment
     */
    public static long firstInvalid(MemorySegment segment, long offset, long length) {
        long end = offset + length;
        if (offset < 0 || length < 0 || end > segment.byteSize()) {
            throw new IndexOutOfBoundsException("utf8 range outside segment: offset=" + offset + " length="
                    + length + " segmentSize=" + segment.byteSize());
        }
        long i = offset;
        while (i < end) {
            // ASCII fast path: 32 bytes at a time, then 8, while no high bit is set.
            while (i + 32 <= end && ((segment.get(ViewLayout.LAYOUT_LE_LONG, i)
                    | segment.get(ViewLayout.LAYOUT_LE_LONG, i + 8) | segment.get(ViewLayout.LAYOUT_LE_LONG, i + 16)
                    | segment.get(ViewLayout.LAYOUT_LE_LONG, i + 24)) & HIGH_BITS) == 0) {
                i += 32;
            }
            while (i + 8 <= end && (segment.get(ViewLayout.LAYOUT_LE_LONG, i) & HIGH_BITS) == 0) {
                i += 8;
            }
            if (i >= end) {
                break;
            }
            int b0 = segment.get(ValueLayout.JAVA_BYTE, i) & 0xFF;
            if (b0 < 0x80) {
                i++;
                continue;
            }
            int need;
            int lo = 0x80;
            int hi = 0xBF;
            if (b0 >= 0xC2 && b0 <= 0xDF) {
                need = 1;
            } else if (b0 >= 0xE0 && b0 <= 0xEF) {
                need = 2;
                if (b0 == 0xE0) {
                    lo = 0xA0; // no overlong 3-byte forms
                } else if (b0 == 0xED) {
                    hi = 0x9F; // no UTF-16 surrogates
                }
            } else if (b0 >= 0xF0 && b0 <= 0xF4) {
                need = 3;
                if (b0 == 0xF0) {
                    lo = 0x90; // no overlong 4-byte forms
                } else if (b0 == 0xF4) {
                    hi = 0x8F; // nothing above U+10FFFF
                }
            } else {
                return i - offset; // continuation byte, C0/C1 or F5..FF as a lead byte
            }
            if (i + need >= end) {
                return i - offset; // truncated sequence
            }
            int b1 = segment.get(ValueLayout.JAVA_BYTE, i + 1) & 0xFF;
            if (b1 < lo || b1 > hi) {
                return i - offset;
            }
            for (int k = 2; k <= need; k++) {
                int b = segment.get(ValueLayout.JAVA_BYTE, i + k) & 0xFF;
                if (b < 0x80 || b > 0xBF) {
                    return i - offset;
                }
            }
            i += need + 1;
        }
        return -1;
    }

    /** Whether {@code bytes} are well-formed UTF-8. */
    public static boolean isValid(byte[] bytes) {
        return isValid(MemorySegment.ofArray(bytes), 0, bytes.length);
    }
}
