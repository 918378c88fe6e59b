package dev.stringview.arrow.internal;

import dev.stringview.ViewColumn;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

/** Validity bitmaps moved to bit 0: Arrow buffers (IPC, C Data, Java vectors) have no bit offset of their own. */
public final class Validity {
    private Validity() {}

    /**
     * The bits {@code [bitOffset, bitOffset + rows)} of {@code bitmap} starting at bit 0: a byte slice when the
     * offset is a whole byte (no copy), else a shifted copy from {@code allocator} (the bitmap alone, never values).
     */
    public static MemorySegment fromBit(MemorySegment bitmap, long bitOffset, long rows, SegmentAllocator allocator) {
        long bytes = (rows + 7) >>> 3;
        if ((bitOffset & 7) == 0) {
            return bitmap.asSlice(bitOffset >>> 3, bytes);
        }
        MemorySegment out = allocator.allocate(Math.max(bytes, 1), 8);
        out.fill((byte) 0);
        for (long row = 0; row < rows; row++) {
            long bit = bitOffset + row;
            if ((bitmap.get(ValueLayout.JAVA_BYTE, bit >>> 3) & (1 << (bit & 7))) != 0) {
                long at = row >>> 3;
                out.set(ValueLayout.JAVA_BYTE, at, (byte) (out.get(ValueLayout.JAVA_BYTE, at) | (1 << (row & 7))));
            }
        }
        return out.asSlice(0, bytes);
    }

    /** The column's bitmap with row 0 at bit 0, or null when no row is null. */
    public static MemorySegment of(ViewColumn column, SegmentAllocator allocator) {
        if (column.nullCount() == 0) {
            return null;
        }
        MemorySegment bitmap = column.validity().orElseThrow();
        return fromBit(bitmap, column.validityBitOffset(), column.size(), allocator);
    }
}
