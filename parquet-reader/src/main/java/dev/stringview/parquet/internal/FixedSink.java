package dev.stringview.parquet.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One fixed-width column of one batch while its pages are decoded: the values are written into one off-heap buffer
 * from the batch's arena, {@link FixedLayout#width} bytes per row in Arrow's layout (BOOLEAN: bits, gathered in a
 * heap bitmap and copied out by {@link #finish}). Null rows are left as the arena allocated them: zeros.
 */
public final class FixedSink implements ColumnSink {
    private final Arena arena;
    final FixedLayout layout;
    private final int size;
    final MemorySegment values;
    /** BOOLEAN values, copied to {@link #values} by {@link #finish}; else null. */
    final long[] valueBits;
    private final long[] validBits;
    private MemorySegment validity;
    private int nullCount;

    /**
     * @param validBits for an optional column, a bitmap of at least {@code size} bits that this sink clears and
     *     owns until {@link #finish}; null for a required column
     */
    public FixedSink(Arena arena, FixedLayout layout, int size, long[] validBits) {
        this.arena = arena;
        this.layout = layout;
        this.size = size;
        this.validBits = validBits;
        if (layout.isBoolean()) {
            int words = (size + 63) >>> 6;
            this.valueBits = new long[words];
            this.values = arena.allocate((long) words * 8, 8);
        } else {
            this.valueBits = null;
            this.values = arena.allocate((long) size * layout.width, 8);
        }
        if (validBits != null) {
            Arrays.fill(validBits, 0, (size + 63) >>> 6, 0L);
        }
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public long[] validBits() {
        return validBits;
    }

    @Override
    public void putNulls(int row, int count) {
        // the values buffer is zero-filled by the arena, and null rows keep it so
    }

    /** {@code count} PLAIN physical values at {@code src[offset..]} become rows {@code row ..}. */
    void putPhysical(MemorySegment src, long offset, int row, int count) {
        layout.convert(src, offset, values, (long) row * layout.width, count);
    }

    /** Copies the BOOLEAN bits out and builds the validity bitmap; call once, when every row is decoded. */
    public void finish() {
        if (valueBits != null) {
            MemorySegment.copy(valueBits, 0, values, ViewSink.LE_LONG, 0, valueBits.length);
        }
        if (validBits != null) {
            nullCount = size - ColumnSink.validCount(validBits, size);
            validity = nullCount == 0 ? null : ColumnSink.validity(arena, validBits, size);
        }
    }

    public MemorySegment values() {
        return values;
    }

    /** After {@link #finish}: Arrow's validity bitmap, or null when no row is null. */
    public MemorySegment validity() {
        return validity;
    }

    /** After {@link #finish}: the null rows. */
    public int nullCount() {
        return nullCount;
    }
}
