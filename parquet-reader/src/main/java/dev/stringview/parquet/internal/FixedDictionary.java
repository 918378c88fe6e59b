package dev.stringview.parquet.internal;

import java.lang.foreign.MemorySegment;

/**
 * A fixed-width column chunk's dictionary, decoded once: its entries already in Arrow's layout
 * ({@link FixedLayout#convert}), {@code width} bytes each, on the heap. Every data page of the chunk copies from it.
 */
final class FixedDictionary {
    final MemorySegment values;
    final int size;
    final int width;

    private FixedDictionary(MemorySegment values, int size, int width) {
        this.values = values;
        this.size = size;
        this.width = width;
    }

    /** Decodes {@code count} PLAIN values from {@code [start, end)} of {@code buffer}. */
    static FixedDictionary decode(FixedLayout layout, MemorySegment buffer, long start, long end, int count) {
        if (layout.isBoolean()) {
            throw new UnsupportedDataException("dictionary page for a BOOLEAN column: entries=" + count);
        }
        long bytes = (long) count * layout.physicalWidth;
        if (count < 0 || bytes > end - start) {
            throw new CorruptDataException("dictionary claims more entries than its page holds: entries=" + count
                    + " pageSize=" + (end - start) + " bytesPerEntry=" + layout.physicalWidth);
        }
        long arrowBytes = (long) count * layout.width;
        if (arrowBytes > Integer.MAX_VALUE - 8) {
            throw new CorruptDataException("dictionary too large: entries=" + count + " bytes=" + arrowBytes);
        }
        MemorySegment values = MemorySegment.ofArray(new long[(int) ((arrowBytes + 7) / 8)]);
        layout.convert(buffer, start, values, 0, count);
        return new FixedDictionary(values, count, layout.width);
    }
}
