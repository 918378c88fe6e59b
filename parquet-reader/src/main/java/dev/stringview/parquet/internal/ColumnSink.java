package dev.stringview.parquet.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One column of one batch while {@link ColumnChunkReader} decodes its pages: views ({@link ViewSink}) or
 * fixed-width values ({@link FixedSink}). Definition levels, null runs and validity are handled the same for both.
 */
public sealed interface ColumnSink permits ViewSink, FixedSink {
    /** Rows in the batch. */
    int size();

    /** For an optional column, the validity bitmap the levels are read into (bit set = a value); else null. */
    long[] validBits();

    /** Rows {@code row .. row + count - 1} are null. */
    void putNulls(int row, int count);

    /** Rows with a value among the first {@code size} bits of {@code bits}. */
    static int validCount(long[] bits, int size) {
        int words = (size + 63) >>> 6;
        int set = 0;
        for (int i = 0; i < words; i++) {
            long w = bits[i];
            if (i == words - 1 && (size & 63) != 0) {
                w &= (1L << size) - 1;
            }
            set += Long.bitCount(w);
        }
        return set;
    }

    /** The first {@code size} bits of {@code bits} as Arrow's validity bitmap in {@code arena}, or null if all are set. */
    static MemorySegment validity(Arena arena, long[] bits, int size) {
        if (bits == null || validCount(bits, size) == size) {
            return null;
        }
        int words = (size + 63) >>> 6;
        MemorySegment validity = arena.allocate((long) words * 8, 8);
        MemorySegment.copy(bits, 0, validity, ViewSink.LE_LONG, 0, words);
        return validity;
    }
}
