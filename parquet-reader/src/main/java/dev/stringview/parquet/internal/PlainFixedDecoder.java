package dev.stringview.parquet.internal;

import java.lang.foreign.MemorySegment;

/**
 * PLAIN fixed-width values: back to back, little-endian (FIXED_LEN_BYTE_ARRAY: as they are), so each run of
 * values becomes its rows with one {@link FixedSink#putPhysical} call: a single bulk copy when the page's bytes
 * are already Arrow's. BOOLEAN: bit-packed, least significant bit first, as Arrow's bitmaps are; copied 56 bits at
 * a time.
 */
final class PlainFixedDecoder extends FixedDecoder {
    private long position;
    private long bitPosition;

    PlainFixedDecoder(MemorySegment buffer, long base, long start, long end, FixedLayout layout) {
        super(buffer, base, start, end, layout);
        this.position = start;
        this.bitPosition = start * 8;
    }

    @Override
    void decode(FixedSink sink, int row, int count) {
        if (layout.isBoolean()) {
            if (count > end * 8 - bitPosition) {
                throw beyondPage(bitPosition >>> 3, count, (count + 7) / 8);
            }
            copyBits(buffer, bitPosition, sink.valueBits, row, count);
            bitPosition += count;
        } else {
            long bytes = (long) count * layout.physicalWidth;
            if (bytes > end - position) {
                throw beyondPage(position, count, bytes);
            }
            sink.putPhysical(buffer, position, row, count);
            position += bytes;
        }
        decoded += count;
    }

    /**
     * ORs the {@code count} bits of {@code src} from bit {@code srcBit} on into {@code dst} from bit {@code dstBit}
     * (both least significant bit first). The caller has checked that {@code src} holds them.
     */
    static void copyBits(MemorySegment src, long srcBit, long[] dst, int dstBit, int count) {
        long size = src.byteSize();
        while (count > 0) {
            int n = Math.min(count, 56);
            long word = (BitPacked.wordAt(src, srcBit >>> 3, size) >>> (srcBit & 7)) & ((1L << n) - 1);
            int w = dstBit >>> 6;
            int s = dstBit & 63;
            dst[w] |= word << s;
            if (s + n > 64) {
                dst[w + 1] |= word >>> (64 - s);
            }
            srcBit += n;
            dstBit += n;
            count -= n;
        }
    }
}
