package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;
import static dev.stringview.ViewLayout.VIEW_SIZE;

import dev.stringview.internal.Bits;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Factories for {@link ViewColumn}: builders, columns over existing views and buffers, and concatenation.
 *
 * <p><b>Memory.</b> {@link #builder}, {@link #ofStrings}, {@link #ofBytes} and {@link #concat} put what they
 * create in memory from the caller's allocator (concat copies only views and validity bits; the result shares the
 * inputs' data buffers). {@link #fromViews} and {@link #fromViewsUnchecked} allocate nothing: the column wraps the
 * caller's segments, which must stay alive while it is used. Nothing here frees memory; the allocator's owner does
 * (closing the arena).
 */
public final class ViewColumns {
    private ViewColumns() {}

    /** A builder whose views, bitmap and data blocks come from {@code allocator} (typically an {@code Arena}). */
    public static ViewColumnBuilder builder(SegmentAllocator allocator, ViewKind kind) {
        return new ViewColumnBuilder(allocator, kind);
    }

    /** A UTF-8 column of {@code values} (null elements become null rows). */
    public static ViewColumn ofStrings(SegmentAllocator allocator, String... values) {
        ViewColumnBuilder builder = builder(allocator, ViewKind.UTF8).withExpectedRows(values.length);
        for (String value : values) {
            builder.append(value);
        }
        return builder.build();
    }

    /** A binary column of {@code values} (null elements become null rows). */
    public static ViewColumn ofBytes(SegmentAllocator allocator, byte[]... values) {
        ViewColumnBuilder builder = builder(allocator, ViewKind.BINARY).withExpectedRows(values.length);
        for (byte[] value : values) {
            builder.append(value);
        }
        return builder.build();
    }

    /**
     * A column over existing views and buffers, validated row by row: for every non-null row the length is not
     * negative; an inline value's padding is zero; a long value's buffer index, offset and offset + length are
     * in range and its prefix equals its first four bytes; and for {@link ViewKind#UTF8} the bytes are UTF-8.
     * Nothing is copied. The views of null rows are not inspected (Arrow leaves them undefined).
     *
     * @param validity the validity bitmap (Arrow bit order, bit 0 = row 0), or null if no row is null
     * @throws ViewFormatException naming the first bad row and field
     */
    public static ViewColumn fromViews(ViewKind kind, int size, MemorySegment views, MemorySegment validity,
            List<MemorySegment> buffers) {
        ViewColumn column = fromViewsUnchecked(kind, size, views, validity, buffers);
        if (!ViewValidation.allValid(column)) {
            ViewValidation.throwFirstInvalid(column);
        }
        return column;
    }

    /**
     * A column over existing views and buffers without the per-row checks of {@link #fromViews}, for trusted
     * producers (this library, or a reader that already validated). Memory safety does not depend on it:
     * every access is still bounds-checked by {@link MemorySegment}, so bad views raise exceptions, never
     * crashes; but they may raise them late, or yield wrong values.
     */
    public static ViewColumn fromViewsUnchecked(ViewKind kind, int size, MemorySegment views,
            MemorySegment validity, List<MemorySegment> buffers) {
        Objects.requireNonNull(views, "views");
        MemorySegment[] data = buffers.toArray(MemorySegment[]::new);
        for (int i = 0; i < data.length; i++) {
            Objects.requireNonNull(data[i], () -> "buffers contains null");
        }
        return new ViewColumn(kind, size, views, data, validity, 0);
    }

    /**
     * The rows of {@code columns} one after the other. Views are copied with their buffer indices shifted;
     * no value byte is copied, and a buffer shared by several inputs appears once in the result.
     */
    public static ViewColumn concat(SegmentAllocator allocator, List<ViewColumn> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("concat needs at least one column: columns=0");
        }
        ViewKind kind = columns.get(0).kind();
        long rows = 0;
        boolean anyNulls = false;
        for (int c = 0; c < columns.size(); c++) {
            ViewColumn column = columns.get(c);
            if (column.kind() != kind) {
                throw new IllegalArgumentException("concat of different kinds: column=" + c + " kind="
                        + column.kind() + " expected=" + kind);
            }
            rows += column.size();
            anyNulls |= column.nullCount() > 0;
        }
        if (rows > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("concat too large: rows=" + rows + " max=" + Integer.MAX_VALUE);
        }
        int size = (int) rows;
        MemorySegment views = allocator.allocate((long) size * VIEW_SIZE, VIEW_SIZE);
        MemorySegment validity = anyNulls ? Bits.allocateCleared(allocator, size) : null;
        List<MemorySegment> buffers = new ArrayList<>();
        Map<MemorySegment, Integer> bufferIndex = new HashMap<>();
        int out = 0;
        for (ViewColumn column : columns) {
            MemorySegment[] sourceBuffers = column.bufferArray();
            int[] remap = new int[sourceBuffers.length];
            for (int b = 0; b < sourceBuffers.length; b++) {
                MemorySegment buffer = sourceBuffers[b];
                Integer index = bufferIndex.get(buffer);
                if (index == null) {
                    index = buffers.size();
                    buffers.add(buffer);
                    bufferIndex.put(buffer, index);
                }
                remap[b] = index;
            }
            for (int row = 0; row < column.size(); row++, out++) {
                boolean valid = column.isValid(row);
                long w0 = valid ? column.word0(row) : 0; // a null row gets the zero view
                long w1 = valid ? column.word1(row) : 0;
                if ((int) w0 > INLINE_MAX) {
                    w1 = (w1 & 0xFFFF_FFFF_0000_0000L) | remap[(int) w1];
                }
                views.set(LAYOUT_LE_LONG, (long) out * VIEW_SIZE, w0);
                views.set(LAYOUT_LE_LONG, (long) out * VIEW_SIZE + 8, w1);
                if (valid && validity != null) {
                    Bits.set(validity, out);
                }
            }
        }
        return new ViewColumn(kind, size, views, buffers.toArray(MemorySegment[]::new), validity, 0);
    }

    /** {@link #concat(SegmentAllocator, List)} for an array of columns. */
    public static ViewColumn concat(SegmentAllocator allocator, ViewColumn... columns) {
        return concat(allocator, List.of(columns));
    }
}
