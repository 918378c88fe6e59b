package dev.stringview.parquet.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/** Reading Parquet's bit-packed runs (RLE/bit-packed hybrid, DELTA_BINARY_PACKED miniblocks) a word at a time. */
final class BitPacked {
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private BitPacked() {}

    /**
     * The 8 bytes at {@code byteIndex} as a little-endian word; near the end of the data ({@code size} bytes) the
     * bytes past it read as zeros, so a run's last values can be extracted without reading out of bounds.
     */
    static long wordAt(MemorySegment data, long byteIndex, long size) {
        if (byteIndex + 8 <= size) {
            return data.get(LE_LONG, byteIndex);
        }
        long word = 0;
        for (long b = byteIndex, s = 0; b < size && s < 64; b++, s += 8) {
            word |= (long) (data.get(ValueLayout.JAVA_BYTE, b) & 0xFF) << s;
        }
        return word;
    }

    /** The byte at {@code byteIndex} (0 past the end of the data, {@code size} bytes). */
    static int byteAt(MemorySegment data, long byteIndex, long size) {
        return byteIndex < size ? data.get(ValueLayout.JAVA_BYTE, byteIndex) & 0xFF : 0;
    }
}
