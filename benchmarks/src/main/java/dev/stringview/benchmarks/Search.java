package dev.stringview.benchmarks;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;

/**
 * Substring search for the peers, the same algorithm the library's contains kernel uses, so that Suite 1's
 * contains kernel compares data layouts rather than search algorithms: 8 candidate positions at a time are
 * screened by XOR-ing two overlapping 64-bit loads against the needle's first and last bytes (SWAR zero-byte
 * test), and only candidates that pass both are compared in full.
 */
final class Search {
    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long HIGHS = 0x8080_8080_8080_8080L;
    private static final VarHandle BYTES_LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final boolean NATIVE_LE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private Search() {}

    /** First position of {@code needle} in {@code [offset, offset + length)} of a segment, relative to offset, or -1. */
    static long indexOf(MemorySegment haystack, long offset, long length, MemorySegment needle, int needleLength) {
        if (needleLength == 0) {
            return 0;
        }
        long lastStart = length - needleLength;
        if (lastStart < 0) {
            return -1;
        }
        long firstPattern = (needle.get(ValueLayout.JAVA_BYTE, 0) & 0xFFL) * ONES;
        long lastPattern = (needle.get(ValueLayout.JAVA_BYTE, needleLength - 1) & 0xFFL) * ONES;
        long i = 0;
        while (i + 7 <= lastStart) {
            long a = haystack.get(PointerLengthColumn.LE_LONG, offset + i) ^ firstPattern;
            long b = haystack.get(PointerLengthColumn.LE_LONG, offset + i + needleLength - 1) ^ lastPattern;
            long x = a | b;
            long candidates = (x - ONES) & ~x & HIGHS;
            while (candidates != 0) {
                long at = i + (Long.numberOfTrailingZeros(candidates) >>> 3);
                if (MemorySegment.mismatch(haystack, offset + at, offset + at + needleLength, needle, 0,
                        needleLength) < 0) {
                    return at;
                }
                candidates &= candidates - 1;
            }
            i += 8;
        }
        for (; i <= lastStart; i++) {
            if (MemorySegment.mismatch(haystack, offset + i, offset + i + needleLength, needle, 0, needleLength) < 0) {
                return i;
            }
        }
        return -1;
    }

    /** First position of {@code needle} in {@code haystack}, or -1. */
    static int indexOf(byte[] haystack, byte[] needle) {
        int needleLength = needle.length;
        if (needleLength == 0) {
            return 0;
        }
        int lastStart = haystack.length - needleLength;
        if (lastStart < 0) {
            return -1;
        }
        long firstPattern = (needle[0] & 0xFFL) * ONES;
        long lastPattern = (needle[needleLength - 1] & 0xFFL) * ONES;
        int i = 0;
        while (i + 7 <= lastStart) {
            long a = (long) BYTES_LE_LONG.get(haystack, i) ^ firstPattern;
            long b = (long) BYTES_LE_LONG.get(haystack, i + needleLength - 1) ^ lastPattern;
            long x = a | b;
            long candidates = (x - ONES) & ~x & HIGHS;
            while (candidates != 0) {
                int at = i + (Long.numberOfTrailingZeros(candidates) >>> 3);
                if (Arrays.equals(haystack, at, at + needleLength, needle, 0, needleLength)) {
                    return at;
                }
                candidates &= candidates - 1;
            }
            i += 8;
        }
        for (; i <= lastStart; i++) {
            if (Arrays.equals(haystack, i, i + needleLength, needle, 0, needleLength)) {
                return i;
            }
        }
        return -1;
    }

    /** First position of {@code needle} in bytes {@code [start, end)} of an Arrow buffer, relative to start, or -1. */
    static long indexOf(ArrowBuf haystack, long start, long end, ArrowBuf needle, int needleLength) {
        if (needleLength == 0) {
            return 0;
        }
        long lastStart = end - start - needleLength;
        if (lastStart < 0) {
            return -1;
        }
        long firstPattern = (needle.getByte(0) & 0xFFL) * ONES;
        long lastPattern = (needle.getByte(needleLength - 1) & 0xFFL) * ONES;
        long i = 0;
        while (i + 7 <= lastStart) {
            long a = littleEndian(haystack.getLong(start + i)) ^ firstPattern;
            long b = littleEndian(haystack.getLong(start + i + needleLength - 1)) ^ lastPattern;
            long x = a | b;
            long candidates = (x - ONES) & ~x & HIGHS;
            while (candidates != 0) {
                long at = i + (Long.numberOfTrailingZeros(candidates) >>> 3);
                if (org.apache.arrow.memory.util.ByteFunctionHelpers.equal(haystack, start + at,
                        start + at + needleLength, needle, 0, needleLength) == 1) {
                    return at;
                }
                candidates &= candidates - 1;
            }
            i += 8;
        }
        for (; i <= lastStart; i++) {
            if (org.apache.arrow.memory.util.ByteFunctionHelpers.equal(haystack, start + i, start + i + needleLength,
                    needle, 0, needleLength) == 1) {
                return i;
            }
        }
        return -1;
    }

    private static long littleEndian(long nativeWord) {
        return NATIVE_LE ? nativeWord : Long.reverseBytes(nativeWord);
    }
}
