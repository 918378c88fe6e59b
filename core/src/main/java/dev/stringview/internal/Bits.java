package dev.stringview.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Validity bitmaps in Arrow bit order: bit {@code i} is bit {@code i % 8} of byte {@code i / 8}, 1 = valid. */
public final class Bits {
    private Bits() {}

    public static boolean get(MemorySegment bitmap, long bit) {
        return ((bitmap.get(ValueLayout.JAVA_BYTE, bit >>> 3) >> (bit & 7)) & 1) != 0;
    }

    /** Number of set bits in {@code [fromBit, fromBit + count)}. */
    public static long countSet(MemorySegment bitmap, long fromBit, long count) {
        long set = 0;
        long bit = fromBit;
        long end = fromBit + count;
        while (bit < end && (bit & 7) != 0) {
            set += get(bitmap, bit) ? 1 : 0;
            bit++;
        }
        while (bit + 64 <= end) {
            set += Long.bitCount(bitmap.get(dev.stringview.ViewLayout.LAYOUT_LE_LONG, bit >>> 3));
            bit += 64;
        }
        while (bit < end) {
            set += get(bitmap, bit) ? 1 : 0;
            bit++;
        }
        return set;
    }

    /**
     * A cleared bitmap for {@code bits} bits. Allocators need not hand out zeroed memory (a slicing allocator
     * over reused memory does not), so it is cleared explicitly.
     */
    public static MemorySegment allocateCleared(java.lang.foreign.SegmentAllocator allocator, long bits) {
        MemorySegment bitmap = allocator.allocate(bytesFor(bits), 8);
        bitmap.fill((byte) 0);
        return bitmap;
    }

    /** Sets bit {@code bit} of a segment bitmap. */
    public static void set(MemorySegment bitmap, long bit) {
        long index = bit >>> 3;
        byte b = bitmap.get(ValueLayout.JAVA_BYTE, index);
        bitmap.set(ValueLayout.JAVA_BYTE, index, (byte) (b | (1 << (bit & 7))));
    }

    /** Bytes needed for a bitmap of {@code bits} bits, rounded up to whole 64-bit words (Arrow pads to 8 bytes). */
    public static long bytesFor(long bits) {
        return ((bits + 63) >>> 6) << 3;
    }

    /** Sets bit {@code bit} in a {@code long[]} bitmap (word {@code bit / 64}, Arrow order when written little-endian). */
    public static void set(long[] words, int bit) {
        words[bit >>> 6] |= 1L << bit;
    }

    public static boolean get(long[] words, int bit) {
        return (words[bit >>> 6] & (1L << bit)) != 0;
    }
}
