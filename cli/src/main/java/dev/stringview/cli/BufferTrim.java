package dev.stringview.cli;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.ViewLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A batch's column with each data buffer cut down to the span its long values reference, copying no value byte:
 * the views are rewritten with offsets relative to the span, and the buffers become slices of the originals. A
 * batch read from Parquet points into pages that other batches share; writing the whole page with every batch
 * would write it about twice, and {@link ViewColumn#compact} would copy every value (a PLAIN page puts a 4-byte
 * length before each value, so the values are not adjacent and each is a copy of its own). The span of a batch
 * within a page holds its values and those length words only, so the IPC writer writes straight from the page.
 */
final class BufferTrim {
    private BufferTrim() {}

    /**
     * The trimmed column, in views from {@code allocator}, or null when trimming does not pay: the spans would
     * still hold at least twice the referenced bytes (values scattered over the buffer, or shared) or the validity
     * bitmap starts mid-byte (a slice; then {@link ViewColumn#compact} is the way).
     */
    static ViewColumn trimmed(ViewColumn column, SegmentAllocator allocator) {
        if (column.validityBitOffset() % 8 != 0) {
            return null;
        }
        int size = column.size();
        int buffers = column.bufferCount();
        MemorySegment views = column.views();
        long[] start = new long[buffers];
        long[] end = new long[buffers];
        Arrays.fill(start, Long.MAX_VALUE);
        for (int row = 0; row < size; row++) {
            long at = (long) row * ViewLayout.VIEW_SIZE;
            int length = views.get(ViewLayout.LAYOUT_LE_INT, at);
            if (length <= ViewLayout.INLINE_MAX || column.isNull(row)) {
                continue;
            }
            int buffer = views.get(ViewLayout.LAYOUT_LE_INT, at + ViewLayout.OFFSET_BUFFER_INDEX);
            long offset = Integer.toUnsignedLong(views.get(ViewLayout.LAYOUT_LE_INT, at + ViewLayout.OFFSET_BUFFER_OFFSET));
            start[buffer] = Math.min(start[buffer], offset);
            end[buffer] = Math.max(end[buffer], offset + length);
        }
        long spans = 0;
        int[] newIndex = new int[buffers];
        List<MemorySegment> kept = new ArrayList<>();
        for (int b = 0; b < buffers; b++) {
            if (start[b] == Long.MAX_VALUE) {
                newIndex[b] = -1; // no value left in this buffer: it is dropped
                continue;
            }
            newIndex[b] = kept.size();
            kept.add(column.buffer(b).asSlice(start[b], end[b] - start[b]));
            spans += end[b] - start[b];
        }
        if (spans >= 2 * column.referencedBytes() && spans > 0) {
            return null;
        }
        MemorySegment out = allocator.allocate((long) size * ViewLayout.VIEW_SIZE, ViewLayout.VIEW_SIZE);
        for (int row = 0; row < size; row++) {
            long at = (long) row * ViewLayout.VIEW_SIZE;
            if (column.isNull(row)) { // a null row gets the zero view, whatever the source held
                out.set(ViewLayout.LAYOUT_LE_LONG, at, 0);
                out.set(ViewLayout.LAYOUT_LE_LONG, at + 8, 0);
                continue;
            }
            long w0 = views.get(ViewLayout.LAYOUT_LE_LONG, at);
            long w1 = views.get(ViewLayout.LAYOUT_LE_LONG, at + 8);
            if ((int) w0 > ViewLayout.INLINE_MAX) {
                int buffer = (int) w1;
                long offset = (w1 >>> 32) - start[buffer];
                w1 = newIndex[buffer] | (offset << 32);
            }
            out.set(ViewLayout.LAYOUT_LE_LONG, at, w0);
            out.set(ViewLayout.LAYOUT_LE_LONG, at + 8, w1);
        }
        MemorySegment validity = column.nullCount() == 0 ? null : column.validity()
                .map(v -> v.asSlice(column.validityBitOffset() / 8, (size + 7) / 8)).orElse(null);
        return ViewColumns.fromViewsUnchecked(column.kind(), size, out, validity, kept);
    }
}
