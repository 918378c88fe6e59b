package dev.stringview.arrow.internal;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewFormatException;
import dev.stringview.ViewKind;
import dev.stringview.arrow.ArrowDataException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

/**
 * Views over an Arrow offsets layout (Utf8 / Binary with int32 offsets, LargeUtf8 / LargeBinary with int64): only
 * the 16-byte views are built; long values point into the existing data buffer, which is adopted, not copied.
 */
public final class OffsetViews {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    private OffsetViews() {}

    /**
     * @param offsets the offsets buffer; row {@code r} spans {@code offsets[first + r] .. offsets[first + r + 1]}
     * @param large whether offsets are int64
     * @param validity bitmap with row 0 at bit 0, or null
     * @param validate check offsets are ordered and (for UTF-8) the bytes are UTF-8; bounds are checked always
     * @param where prefix for error messages, e.g. {@code "column=s"}
     */
    public static ViewColumn build(ViewKind kind, int rows, MemorySegment offsets, boolean large, long first,
            MemorySegment data, MemorySegment validity, SegmentAllocator allocator, boolean validate, String where) {
        long width = large ? 8 : 4;
        long needed = (first + rows + 1) * width;
        if (rows > 0 && offsets.byteSize() < needed) {
            throw new ArrowDataException(where + " field=offsets offsetsBytes=" + offsets.byteSize()
                    + " needBytes=" + needed + " rows=" + rows + " arrayOffset=" + first);
        }
        ViewColumnBuilder builder = ViewColumns.builder(allocator, kind).withExpectedRows(rows)
                .withUtf8Validation(validate && kind == ViewKind.UTF8);
        int buffer = builder.adoptBuffer(data);
        for (int row = 0; row < rows; row++) {
            long start = offset(offsets, large, first + row);
            long end = offset(offsets, large, first + row + 1);
            if (validate && end < start) {
                throw new ArrowDataException(where + " row=" + row + " field=offsets start=" + start + " end=" + end
                        + " reason=offsets decrease");
            }
            boolean valid = validity == null || (validity.get(ValueLayout.JAVA_BYTE, row >>> 3) & (1 << (row & 7))) != 0;
            if (!valid) {
                builder.appendNull();
                continue;
            }
            if (start < 0 || end < start || end > data.byteSize()) {
                throw new ArrowDataException(where + " row=" + row + " field=offsets start=" + start + " end=" + end
                        + " dataBytes=" + data.byteSize());
            }
            if (end - start > Integer.MAX_VALUE || (end - start > 12 && start > Integer.MAX_VALUE)) {
                throw new ArrowDataException(where + " row=" + row + " field=offsets start=" + start + " end=" + end
                        + " reason=beyond the int32 range of a view");
            }
            try {
                builder.appendView(buffer, start, (int) (end - start));
            } catch (ViewFormatException e) {
                throw new ArrowDataException(where + " row=" + row + " field=" + e.field() + " start=" + start
                        + " end=" + end + ": " + e.getMessage(), e);
            }
        }
        return builder.build();
    }

    private static long offset(MemorySegment offsets, boolean large, long index) {
        return large ? offsets.get(LONG, index * 8) : offsets.get(INT, index * 4);
    }

    /** A validated column over views, rethrowing a bad view with {@code where} in front. */
    public static ViewColumn views(ViewKind kind, int rows, MemorySegment views, MemorySegment validity,
            java.util.List<MemorySegment> buffers, boolean validate, String where) {
        if (!validate) {
            return ViewColumns.fromViewsUnchecked(kind, rows, views, validity, buffers);
        }
        try {
            return ViewColumns.fromViews(kind, rows, views, validity, buffers);
        } catch (ViewFormatException e) {
            throw new ArrowDataException(where + " row=" + e.row() + " field=" + e.field() + ": " + e.getMessage(), e);
        }
    }
}
