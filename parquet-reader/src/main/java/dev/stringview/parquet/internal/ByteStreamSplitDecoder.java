package dev.stringview.parquet.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY): byte {@code k} of value {@code i} of the
 * page's {@code N} values lies at {@code k * N + i}. Each step copies the steps's slice of every stream out in bulk,
 * interleaves them into PLAIN values in a scratch array, and hands those to {@link FixedSink#putPhysical}.
 */
final class ByteStreamSplitDecoder extends FixedDecoder {
    private final int width;
    private final long streamLength;
    private final byte[] stream;
    private final byte[] plain;
    private final MemorySegment plainSegment;

    ByteStreamSplitDecoder(MemorySegment buffer, long base, long start, long end, FixedLayout layout,
            FixedScratch scratch) {
        super(buffer, base, start, end, layout);
        this.width = layout.physicalWidth;
        if (width <= 0 || (end - start) % width != 0) {
            throw new CorruptDataException("BYTE_STREAM_SPLIT section not a whole number of values: bytes="
                    + (end - start) + " valueBytes=" + width + " type=" + layout.type());
        }
        this.streamLength = (end - start) / width;
        this.stream = scratch.stream();
        this.plain = scratch.interleaved(STEP * width);
        this.plainSegment = scratch.interleavedSegment();
    }

    @Override
    void decode(FixedSink sink, int row, int count) {
        if (count > streamLength - decoded) {
            throw beyondPage(start + decoded, count, (long) count * width);
        }
        int done = 0;
        while (done < count) {
            int n = Math.min(STEP, count - done);
            long at = start + decoded + done;
            for (int k = 0; k < width; k++) {
                MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, at + k * streamLength, stream, 0, n);
                for (int i = 0, j = k; i < n; i++, j += width) {
                    plain[j] = stream[i];
                }
            }
            sink.putPhysical(plainSegment, 0, row + done, n);
            done += n;
        }
        decoded += count;
    }
}
