package dev.stringview.parquet.internal;

import dev.stringview.ViewKind;
import java.lang.foreign.MemorySegment;

/**
 * Fixed-width values whose page is encoded as byte arrays: DECIMAL on BYTE_ARRAY (any of its encodings), and
 * FIXED_LEN_BYTE_ARRAY in DELTA_BYTE_ARRAY pages (parquet-java's v2 writer). The page's {@link ValueDecoder}
 * decodes a step of values into views in heap scratch, and each value then becomes its Arrow value: a big-endian
 * decimal converted ({@link FixedLayout#bigEndianDecimal}), a fixed-length value checked for its length and
 * converted as a PLAIN one.
 */
final class ViewsToFixedDecoder extends FixedDecoder {
    private final ValueDecoder bytes;
    private final MemorySegment views;

    ViewsToFixedDecoder(ValueDecoder bytes, FixedLayout layout, FixedScratch scratch) {
        super(bytes.buffer, bytes.base, bytes.start, bytes.end, layout);
        this.bytes = bytes;
        this.views = scratch.plain(16L * STEP);
    }

    @Override
    void decode(FixedSink sink, int row, int count) {
        int width = layout.width;
        int fixedLength = layout.physicalWidth; // -1: BYTE_ARRAY, any length
        int done = 0;
        while (done < count) {
            int n = Math.min(STEP, count - done);
            ViewSink scratch = new ViewSink(null, views, ViewKind.BINARY, n, null);
            bytes.decode(scratch, 0, n);
            for (int i = 0; i < n; i++) {
                long view = 16L * i;
                int length = views.get(ViewSink.LE_INT, view);
                MemorySegment source = views;
                long at = view + 4;
                if (length > 12) {
                    source = scratch.buffer(views.get(ViewSink.LE_INT, view + 8));
                    at = Integer.toUnsignedLong(views.get(ViewSink.LE_INT, view + 12));
                }
                int valueIndex = decoded + done + i;
                long to = (long) (row + done + i) * width;
                if (fixedLength < 0) {
                    layout.bigEndianDecimal(source, at, length, sink.values, to, valueIndex);
                } else if (length != fixedLength) {
                    throw new CorruptDataException("value length differs from the column's fixed length: valueIndex="
                            + valueIndex + " length=" + length + " typeLength=" + fixedLength);
                } else {
                    layout.convert(source, at, sink.values, to, 1);
                }
            }
            done += n;
        }
        decoded += count;
    }
}
