package dev.stringview.parquet.internal;

import dev.stringview.parquet.PageInfo.PageViews;
import java.lang.foreign.MemorySegment;

/**
 * PLAIN BYTE_ARRAY: {@code [int32 LE length][bytes]} repeated. Every view of a long value points straight at its
 * bytes in {@link #buffer} (the memory-mapped column chunk, or the decompressed page): nothing is copied but the
 * 16-byte view. UTF-8 is validated in runs broken only at lengths of 128 or more (see {@link Utf8Check}).
 */
final class PlainDecoder extends ValueDecoder {
    private final long bufferSize;
    private long position;
    private long watermark;
    private boolean watermarkAtPrefix = true;
    private int watermarkValue;

    PlainDecoder(MemorySegment buffer, long base, long start, long end, boolean validateUtf8) {
        super(buffer, base, start, end, validateUtf8);
        this.bufferSize = buffer.byteSize();
        this.position = start;
        this.watermark = start;
    }

    @Override
    void decode(ViewSink sink, int row, int count) {
        MemorySegment data = buffer;
        long p = position;
        long limit = end;
        int bufferIndex = -1;
        boolean validate = validateUtf8;
        for (int i = 0; i < count; i++) {
            if (limit - p < 4) {
                decoded += i;
                throw beyondPage("value length prefix beyond page", p, 4);
            }
            int length = data.get(ViewSink.LE_INT, p);
            long valueStart = p + 4;
            if (length < 0 || length > limit - valueStart) {
                decoded += i;
                throw beyondPage("value beyond page", p, length);
            }
            if (length <= 12) {
                sink.putInline(row + i, data, valueStart, length, bufferSize);
            } else {
                if (bufferIndex < 0) {
                    bufferIndex = sink.bufferIndex(data);
                }
                sink.putLong(row + i, length, data.get(ViewSink.LE_INT, valueStart), bufferIndex, valueStart);
            }
            if (validate && length >= 128) {
                Utf8Check.plainRun(data, watermark, p, watermarkAtPrefix, watermarkValue, base);
                watermark = valueStart;
                watermarkAtPrefix = false;
                watermarkValue = decoded + i;
            }
            p = valueStart + length;
        }
        decoded += count;
        position = p;
        if (validate) {
            Utf8Check.plainRun(data, watermark, p, watermarkAtPrefix, watermarkValue, base);
            watermark = p;
            watermarkAtPrefix = true;
            watermarkValue = decoded;
        }
    }

    @Override
    PageViews views(PageViews bufferViews) {
        return bufferViews;
    }
}
