package dev.stringview.parquet.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Parquet's unsigned LEB128 varints (delta headers, RLE/bit-packed run headers), bounded by their section's end. */
final class Uleb128 {
    private Uleb128() {}

    /**
     * Reads the varint at {@code cursor[0]} and advances {@code cursor[0]} past it.
     *
     * @param maxBytes the most bytes the value may take (5 for 32-bit values, 10 for 64-bit ones)
     * @param label what is being read, for the error message
     * @throws CorruptDataException if the varint runs past {@code limit} or past {@code maxBytes}
     */
    static long read(MemorySegment data, long[] cursor, long limit, int maxBytes, String label, String what,
            long base) {
        long result = 0;
        long p = cursor[0];
        for (int i = 0; i < maxBytes; i++) {
            if (p >= limit) {
                throw new CorruptDataException(label + " beyond section in " + what + ": sectionEnd=" + (limit - base));
            }
            int b = data.get(ValueLayout.JAVA_BYTE, p++) & 0xFF;
            result |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                cursor[0] = p;
                return result;
            }
        }
        throw new CorruptDataException(label + " too long in " + what + ": offset=" + (p - base));
    }
}
