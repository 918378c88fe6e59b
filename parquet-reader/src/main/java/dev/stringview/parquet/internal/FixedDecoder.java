package dev.stringview.parquet.internal;

import dev.stringview.parquet.PageInfo.PageViews;
import java.lang.foreign.MemorySegment;

/**
 * Turns the values section of one data page of a fixed-width column into Arrow values in a {@link FixedSink}. One
 * subclass per encoding ({@link PlainFixedDecoder}, {@link DictionaryFixedDecoder}, {@link ByteStreamSplitDecoder},
 * {@link DeltaFixedDecoder}, {@link RleBooleanDecoder}), plus {@link ViewsToFixedDecoder}, which runs the
 * BYTE_ARRAY decoders for DECIMAL values and DELTA_BYTE_ARRAY fixed-length ones; {@link ColumnChunkReader} picks one with a single switch on the page's
 * encoding. Decoders initialise lazily on the first value, since a page of nulls may have an empty values section.
 */
abstract sealed class FixedDecoder permits PlainFixedDecoder, DictionaryFixedDecoder, ByteStreamSplitDecoder,
        DeltaFixedDecoder, RleBooleanDecoder, ViewsToFixedDecoder {
    /** Values decoded per step by decoders that go through a scratch array. */
    static final int STEP = 1024;

    final MemorySegment buffer;
    /** Start of the page's data in {@link #buffer}, for page-relative offsets in messages. */
    final long base;
    final long start;
    final long end;
    final FixedLayout layout;
    /** Values decoded from this page so far. */
    int decoded;

    FixedDecoder(MemorySegment buffer, long base, long start, long end, FixedLayout layout) {
        if (start < 0 || end < start || end > buffer.byteSize()) {
            throw new CorruptDataException("values section outside page: start=" + (start - base) + " end="
                    + (end - base) + " bufferSize=" + buffer.byteSize());
        }
        this.buffer = buffer;
        this.base = base;
        this.start = start;
        this.end = end;
        this.layout = layout;
    }

    /** Decodes the next {@code count} values into rows {@code row .. row + count - 1} of {@code sink}. */
    abstract void decode(FixedSink sink, int row, int count);

    /** How this page's values reached the batch: copied into it. */
    PageViews views() {
        return PageViews.MATERIALIZED;
    }

    /** The page's error when fewer bytes are left than {@code count} more values need. */
    final CorruptDataException beyondPage(long at, int count, long needed) {
        return new CorruptDataException("values beyond page: valueIndex=" + decoded + " values=" + count
                + " offset=" + (at - base) + " bytesNeeded=" + needed + " pageSize=" + (end - base) + " type="
                + layout.type());
    }
}
