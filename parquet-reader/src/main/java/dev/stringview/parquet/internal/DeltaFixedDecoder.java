package dev.stringview.parquet.internal;

import java.lang.foreign.MemorySegment;

/**
 * DELTA_BINARY_PACKED INT32 and INT64 values, decoded by {@link DeltaBinaryPackedDecoder} a step at a time into a
 * heap array, then written as PLAIN values (straight into the batch when no conversion is needed).
 */
final class DeltaFixedDecoder extends FixedDecoder {
    private final boolean int64;
    private final long[] longs;
    private final int[] ints;
    private final MemorySegment plain;
    private DeltaBinaryPackedDecoder values;

    DeltaFixedDecoder(MemorySegment buffer, long base, long start, long end, FixedLayout layout,
            FixedScratch scratch) {
        super(buffer, base, start, end, layout);
        this.int64 = layout.physicalWidth == 8;
        this.longs = int64 ? scratch.longs() : null;
        this.ints = int64 ? null : scratch.ints();
        this.plain = scratch.plain(8L * STEP);
    }

    @Override
    void decode(FixedSink sink, int row, int count) {
        if (values == null) {
            values = new DeltaBinaryPackedDecoder(buffer, start, end, "values", base, int64);
        }
        boolean direct = layout.conversion == FixedLayout.Conversion.COPY;
        int done = 0;
        while (done < count) {
            int n = Math.min(STEP, count - done);
            MemorySegment to = direct ? sink.values : plain;
            long at = direct ? (long) (row + done) * layout.width : 0;
            if (int64) {
                values.read(longs, 0, n);
                MemorySegment.copy(longs, 0, to, ViewSink.LE_LONG, at, n);
            } else {
                values.read(ints, 0, n);
                MemorySegment.copy(ints, 0, to, ViewSink.LE_INT, at, n);
            }
            if (!direct) {
                sink.putPhysical(plain, 0, row + done, n);
            }
            done += n;
        }
        decoded += count;
    }
}
