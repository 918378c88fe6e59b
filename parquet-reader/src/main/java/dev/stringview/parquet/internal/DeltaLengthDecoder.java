package dev.stringview.parquet.internal;

import dev.stringview.parquet.PageInfo.PageViews;
import java.lang.foreign.MemorySegment;

/**
 * DELTA_LENGTH_BYTE_ARRAY: all lengths (DELTA_BINARY_PACKED), then all values back to back. Views point into the
 * page where the values lie; only the lengths are decoded (a miniblock at a time).
 */
final class DeltaLengthDecoder extends ValueDecoder {
    private final int[] lengths;
    private final long bufferSize;
    private DeltaBinaryPackedDecoder lengthDecoder;
    private long position;

    DeltaLengthDecoder(MemorySegment buffer, long base, long start, long end, boolean validateUtf8, int[] scratch) {
        super(buffer, base, start, end, validateUtf8);
        this.lengths = scratch;
        this.bufferSize = buffer.byteSize();
    }

    @Override
    void decode(ViewSink sink, int row, int count) {
        if (lengthDecoder == null) {
            lengthDecoder = new DeltaBinaryPackedDecoder(buffer, start, end, "value lengths", base);
            position = DeltaBinaryPackedDecoder.endOf(buffer, start, end, "value lengths", base);
        }
        MemorySegment data = buffer;
        int bufferIndex = -1;
        int done = 0;
        while (done < count) {
            int n = Math.min(lengths.length, count - done);
            lengthDecoder.read(lengths, 0, n);
            long runStart = position;
            long p = position;
            for (int k = 0; k < n; k++) {
                int length = lengths[k];
                if (length < 0 || length > end - p) {
                    decoded += done + k;
                    throw beyondPage("value beyond page", p, length);
                }
                int r = row + done + k;
                if (length <= 12) {
                    sink.putInline(r, data, p, length, bufferSize);
                } else {
                    if (bufferIndex < 0) {
                        bufferIndex = sink.bufferIndex(data);
                    }
                    sink.putLong(r, length, data.get(ViewSink.LE_INT, p), bufferIndex, p);
                }
                p += length;
            }
            if (validateUtf8) {
                Utf8Check.contiguous(data, runStart, lengths, n, decoded + done, base);
            }
            position = p;
            done += n;
        }
        decoded += count;
    }

    @Override
    PageViews views(PageViews bufferViews) {
        return bufferViews;
    }
}
