package dev.stringview.parquet.internal;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.parquet.format.ColumnIndex;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.PageLocation;
import org.apache.parquet.format.Util;

/**
 * One column chunk's page index (format spec PageIndex.md): per data page, where it starts and its first row (the
 * offset index), whether it holds only nulls and its min/max bounds (the column index). Read straight from the
 * memory-mapped file. Used only to prove that a page holds no match, so anything unexpected (an index missing, cut
 * off, unreadable, or whose lists disagree in length) gives no index at all and every page is read.
 *
 * <p>Bounds are as the writer stored them: possibly truncated (parquet-java cuts min down to a prefix and max up
 * to a greater short value, so both stay bounds). {@code boundary_order} is not used: every page is checked on its
 * own, so a file that claims a wrong order cannot change an answer.
 *
 * @param offsets each data page's header offset in the file
 * @param firstRows each data page's first row within the row group
 * @param nullPages whether the page holds only nulls (its bounds are then meaningless)
 * @param mins each page's lower bound (empty for null pages)
 * @param maxs each page's upper bound (empty for null pages)
 * @param nullCounts each page's null count, or null when the column index has none (an optional field)
 */
public record PageIndex(long[] offsets, long[] firstRows, boolean[] nullPages, byte[][] mins, byte[][] maxs,
        long[] nullCounts) {

    public int pageCount() {
        return offsets.length;
    }

    /**
     * The page index whose column index lies at {@code [columnIndexOffset, + columnIndexLength)} and offset index at
     * {@code [offsetIndexOffset, + offsetIndexLength)} of {@code file} (the bytes the caller read or sliced from the
     * file's data, which checked the range against the file), or null if either is missing (negative offset) or
     * cannot be read from the bytes before {@code dataEnd}.
     */
    public static PageIndex read(MemorySegment file, long dataEnd, long columnIndexOffset, long columnIndexLength,
            long offsetIndexOffset, long offsetIndexLength) {
        if (!inside(columnIndexOffset, columnIndexLength, dataEnd)
                || !inside(offsetIndexOffset, offsetIndexLength, dataEnd)) {
            return null;
        }
        try {
            ColumnIndex columns = Util.readColumnIndex(
                    new SegmentInputStream(file, columnIndexOffset, columnIndexOffset + columnIndexLength));
            OffsetIndex offsets = Util.readOffsetIndex(
                    new SegmentInputStream(file, offsetIndexOffset, offsetIndexOffset + offsetIndexLength));
            List<PageLocation> locations = offsets.getPage_locations();
            List<Boolean> nulls = columns.getNull_pages();
            List<ByteBuffer> mins = columns.getMin_values();
            List<ByteBuffer> maxs = columns.getMax_values();
            if (locations == null || nulls == null || mins == null || maxs == null) {
                return null;
            }
            int pages = locations.size();
            if (nulls.size() != pages || mins.size() != pages || maxs.size() != pages) {
                return null;
            }
            List<Long> nullCounts = columns.getNull_counts();
            boolean counted = nullCounts != null && nullCounts.size() == pages;
            PageIndex index = new PageIndex(new long[pages], new long[pages], new boolean[pages], new byte[pages][],
                    new byte[pages][], counted ? new long[pages] : null);
            for (int i = 0; i < pages; i++) {
                PageLocation location = locations.get(i);
                index.offsets[i] = location.getOffset();
                index.firstRows[i] = location.getFirst_row_index();
                index.nullPages[i] = nulls.get(i);
                index.mins[i] = bytes(mins.get(i));
                index.maxs[i] = bytes(maxs.get(i));
                if (counted) {
                    index.nullCounts[i] = nullCounts.get(i);
                }
            }
            return index;
        } catch (IOException | RuntimeException e) {
            return null; // an unreadable index proves nothing
        }
    }

    private static boolean inside(long offset, long length, long dataEnd) {
        return offset >= 0 && length > 0 && length <= dataEnd - offset;
    }

    private static byte[] bytes(ByteBuffer buffer) {
        ByteBuffer b = buffer.duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    /** This index with every page offset moved by {@code delta} (into a chunk's own coordinates). */
    public PageIndex shifted(long delta) {
        if (delta == 0) {
            return this;
        }
        long[] moved = offsets.clone();
        for (int i = 0; i < moved.length; i++) {
            moved[i] += delta;
        }
        return new PageIndex(moved, firstRows, nullPages, mins, maxs, nullCounts);
    }
}
