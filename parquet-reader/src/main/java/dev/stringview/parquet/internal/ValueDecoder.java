package dev.stringview.parquet.internal;

import dev.stringview.parquet.PageInfo.PageViews;
import java.lang.foreign.MemorySegment;

/**
 * Turns the values section of one data page into views. One subclass per encoding ({@link PlainDecoder},
 * {@link DictionaryDecoder}, {@link DeltaLengthDecoder}, {@link DeltaByteArrayDecoder}); {@link ColumnChunkReader}
 * picks one with a single switch on the page's encoding. Decoders initialise lazily on the first value, since a
 * page of nulls may have an empty values section.
 */
abstract sealed class ValueDecoder permits PlainDecoder, DictionaryDecoder, DeltaLengthDecoder, DeltaByteArrayDecoder {
    /** The segment holding the values section; long values' views point into it (except dictionary and delta). */
    final MemorySegment buffer;
    /** Start of the page's data in {@link #buffer}, for page-relative offsets in messages. */
    final long base;
    final long start;
    final long end;
    final boolean validateUtf8;
    /** Values decoded from this page so far. */
    int decoded;

    ValueDecoder(MemorySegment buffer, long base, long start, long end, boolean validateUtf8) {
        if (start < 0 || end < start || end > buffer.byteSize()) {
            throw new CorruptDataException("values section outside page: start=" + (start - base) + " end="
                    + (end - base) + " bufferSize=" + buffer.byteSize());
        }
        this.buffer = buffer;
        this.base = base;
        this.start = start;
        this.end = end;
        this.validateUtf8 = validateUtf8;
    }

    /** Decodes the next {@code count} values into rows {@code row .. row + count - 1} of {@code sink}. */
    abstract void decode(ViewSink sink, int row, int count);

    /** How this page's views are made, given where {@link #buffer} came from. */
    abstract PageViews views(PageViews bufferViews);

    /** Throws the page's error when fewer bytes are left than a value needs. */
    final CorruptDataException beyondPage(String what, long at, long length) {
        return new CorruptDataException(what + ": valueIndex=" + decoded + " offset=" + (at - base) + " length="
                + length + " pageSize=" + (end - base));
    }
}
