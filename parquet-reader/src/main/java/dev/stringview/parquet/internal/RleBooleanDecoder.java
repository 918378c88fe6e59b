package dev.stringview.parquet.internal;

import java.lang.foreign.MemorySegment;

/**
 * RLE BOOLEAN values: a 4-byte little-endian length, then the RLE / bit-packing hybrid of width 1, read straight
 * into the sink's bits by the same {@link HybridDecoder} that reads definition levels.
 */
final class RleBooleanDecoder extends FixedDecoder {
    private final int[] scratch;
    private HybridDecoder runs;

    RleBooleanDecoder(MemorySegment buffer, long base, long start, long end, FixedLayout layout, int[] scratch) {
        super(buffer, base, start, end, layout);
        this.scratch = scratch;
    }

    @Override
    void decode(FixedSink sink, int row, int count) {
        if (runs == null) {
            if (end - start < 4) {
                throw beyondPage(start, count, 4);
            }
            int length = buffer.get(ViewSink.LE_INT, start);
            if (length < 0 || length > end - start - 4) {
                throw new CorruptDataException("boolean runs beyond page: offset=" + (start - base) + " length="
                        + length + " pageSize=" + (end - base));
            }
            runs = new HybridDecoder(buffer, start + 4, start + 4 + length, 1, "boolean values", base);
        }
        runs.readValidity(sink.valueBits, row, count, scratch);
        decoded += count;
    }
}
