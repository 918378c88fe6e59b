package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_INT;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;
import static dev.stringview.ViewLayout.OFFSET_INLINE;
import static dev.stringview.ViewLayout.VIEW_SIZE;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The checks of {@link ViewColumns#fromViews}, in two passes that must agree: {@link #allValid} decides whether
 * a whole column is well-formed in one tight loop over the view words (no allocation, no slicing, UTF-8 checked
 * per run of adjacent values), and {@link #throwFirstInvalid} runs only when it is not, row by row, to name the
 * first bad row and field.
 *
 * <p>The rules (Arrow columnar format, "Variable-size Binary View Layout"): the length is not negative; an inline
 * value (length &lt;= 12) has zero padding after its bytes; a long value's buffer index is below the number of
 * buffers, its offset is not negative and offset + length is within that buffer, and its 4-byte prefix equals
 * the value's first 4 bytes; for UTF-8 columns every value is well-formed UTF-8.
 */
final class ViewValidation {
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

    private ViewValidation() {}

    /**
     * Whether every non-null row of {@code column} follows the rules. The loop over the views makes no calls, so
     * the JIT keeps the views segment's liveness and bounds checks out of it; UTF-8 is checked afterwards, over the
     * runs and inline values the loop wrote down.
     *
     * <p>The loop exists twice, chosen once per call: one copy for columns whose views and buffers are all native
     * and one for the rest (heap, or mixed). HotSpot profiles the receiver type of each {@code get} call site; a
     * single loop that has seen heap and native segments cannot be specialized for either, so the segments'
     * liveness and bounds checks stay in it (issue 13: validation was 84% of a validated Arrow IPC read). Two
     * copies keep two profiles. Keep them identical.
     */
    static boolean allValid(ViewColumn column) {
        MemorySegment views = column.viewSegment();
        MemorySegment[] buffers = column.bufferArray();
        boolean allNative = views.isNative();
        for (MemorySegment buffer : buffers) {
            allNative &= buffer.isNative();
        }
        return allNative ? allValidNative(column, views, buffers) : allValidMixed(column, views, buffers);
    }

    /** {@link #allValid} when the views and every buffer are native; the same code as {@link #allValidMixed}. */
    private static boolean allValidNative(ViewColumn column, MemorySegment views, MemorySegment[] buffers) {
        int bufferCount = buffers.length;
        long[] sizes = new long[bufferCount];
        for (int b = 0; b < bufferCount; b++) {
            sizes[b] = buffers[b].byteSize();
        }
        MemorySegment buffer0 = bufferCount == 0 ? views : buffers[0];
        boolean utf8 = column.kind() == ViewKind.UTF8;
        int size = column.size();
        /*
         * UTF-8 of long values is checked per run: values that follow each other in a buffer (the next offset is
         * where the last value ended) are validated as one range. That is exactly equivalent to validating each
         * value on its own provided no value in the run starts with a continuation byte (80..BF): in well-formed
         * UTF-8 the positions whose byte is not a continuation byte are exactly the character boundaries, so each
         * value then spans whole characters; conversely well-formed values never start with one. A value that does
         * starts a run of its own, which then fails as that value would.
         */
        Runs runs = utf8 ? new Runs(Math.min(size, CHUNK_ROWS) + 1) : null;
        int runBuffer = -1;
        long runStart = 0;
        long runEnd = 0;
        for (int base = 0; base < size; base += 64) {
            if (utf8 && (base & (CHUNK_ROWS - 1)) == 0) {
                if (runBuffer >= 0 && runEnd > runStart) {
                    // The open run is checked up to here and goes on from here: while the chunk's bytes are still
                    // in cache, rather than once the whole buffer its values tile has been read. The cut is where
                    // the next value of the run starts, a character boundary (it does not start with 80..BF).
                    runs.add(runBuffer, runStart, runEnd);
                    runStart = runEnd;
                }
                if (!runs.checkAndClear(views, buffers)) {
                    return false; // at most CHUNK_ROWS ranges are written down before they are checked
                }
            }
            int count = Math.min(64, size - base);
            long valid = column.validBits(base, count);
            for (int i = 0; i < count; i++) {
                if ((valid >>> i & 1) == 0) {
                    continue; // the views of null rows are undefined (Arrow), never read
                }
                long at = (long) (base + i) * VIEW_SIZE;
                long w0 = views.get(LAYOUT_LE_LONG, at);
                long w1 = views.get(LAYOUT_LE_LONG, at + 8);
                int length = (int) w0;
                if (length <= INLINE_MAX) {
                    if (length < 0 || !paddingIsZero(length, w0, w1)) {
                        return false; // negative length, or padding that is not zero
                    }
                    if (utf8 && (((w0 >>> 32) | w1) & HIGH_BITS) != 0) {
                        runs.add(-1, at + OFFSET_INLINE, at + OFFSET_INLINE + length);
                    }
                    continue;
                }
                int bufferIndex = (int) w1;
                long offset = w1 >> 32;
                if (Integer.compareUnsigned(bufferIndex, bufferCount) >= 0 || offset < 0
                        || offset + length > sizes[bufferIndex]) {
                    return false;
                }
                // Buffer 0 (often the only one) is a local, so the JIT checks its liveness once, not per row.
                int first4 = (bufferIndex == 0 ? buffer0 : buffers[bufferIndex]).get(LAYOUT_LE_INT, offset);
                if (first4 != (int) (w0 >>> 32)) {
                    return false;
                }
                if (utf8) {
                    if (bufferIndex == runBuffer && offset == runEnd && (first4 & 0xC0) != 0x80) {
                        runEnd += length;
                    } else {
                        if (runBuffer >= 0) {
                            runs.add(runBuffer, runStart, runEnd);
                        }
                        runBuffer = bufferIndex;
                        runStart = offset;
                        runEnd = offset + length;
                    }
                }
            }
        }
        if (!utf8) {
            return true;
        }
        if (runBuffer >= 0) {
            runs.add(runBuffer, runStart, runEnd);
        }
        return runs.checkAndClear(views, buffers);
    }

    /** {@link #allValid} for heap or mixed segments; the same code as {@link #allValidNative}. */
    private static boolean allValidMixed(ViewColumn column, MemorySegment views, MemorySegment[] buffers) {
        int bufferCount = buffers.length;
        long[] sizes = new long[bufferCount];
        for (int b = 0; b < bufferCount; b++) {
            sizes[b] = buffers[b].byteSize();
        }
        MemorySegment buffer0 = bufferCount == 0 ? views : buffers[0];
        boolean utf8 = column.kind() == ViewKind.UTF8;
        int size = column.size();
        /*
         * UTF-8 of long values is checked per run: values that follow each other in a buffer (the next offset is
         * where the last value ended) are validated as one range. That is exactly equivalent to validating each
         * value on its own provided no value in the run starts with a continuation byte (80..BF): in well-formed
         * UTF-8 the positions whose byte is not a continuation byte are exactly the character boundaries, so each
         * value then spans whole characters; conversely well-formed values never start with one. A value that does
         * starts a run of its own, which then fails as that value would.
         */
        Runs runs = utf8 ? new Runs(Math.min(size, CHUNK_ROWS) + 1) : null;
        int runBuffer = -1;
        long runStart = 0;
        long runEnd = 0;
        for (int base = 0; base < size; base += 64) {
            if (utf8 && (base & (CHUNK_ROWS - 1)) == 0) {
                if (runBuffer >= 0 && runEnd > runStart) {
                    // The open run is checked up to here and goes on from here: while the chunk's bytes are still
                    // in cache, rather than once the whole buffer its values tile has been read. The cut is where
                    // the next value of the run starts, a character boundary (it does not start with 80..BF).
                    runs.add(runBuffer, runStart, runEnd);
                    runStart = runEnd;
                }
                if (!runs.checkAndClear(views, buffers)) {
                    return false; // at most CHUNK_ROWS ranges are written down before they are checked
                }
            }
            int count = Math.min(64, size - base);
            long valid = column.validBits(base, count);
            for (int i = 0; i < count; i++) {
                if ((valid >>> i & 1) == 0) {
                    continue; // the views of null rows are undefined (Arrow), never read
                }
                long at = (long) (base + i) * VIEW_SIZE;
                long w0 = views.get(LAYOUT_LE_LONG, at);
                long w1 = views.get(LAYOUT_LE_LONG, at + 8);
                int length = (int) w0;
                if (length <= INLINE_MAX) {
                    if (length < 0 || !paddingIsZero(length, w0, w1)) {
                        return false; // negative length, or padding that is not zero
                    }
                    if (utf8 && (((w0 >>> 32) | w1) & HIGH_BITS) != 0) {
                        runs.add(-1, at + OFFSET_INLINE, at + OFFSET_INLINE + length);
                    }
                    continue;
                }
                int bufferIndex = (int) w1;
                long offset = w1 >> 32;
                if (Integer.compareUnsigned(bufferIndex, bufferCount) >= 0 || offset < 0
                        || offset + length > sizes[bufferIndex]) {
                    return false;
                }
                // Buffer 0 (often the only one) is a local, so the JIT checks its liveness once, not per row.
                int first4 = (bufferIndex == 0 ? buffer0 : buffers[bufferIndex]).get(LAYOUT_LE_INT, offset);
                if (first4 != (int) (w0 >>> 32)) {
                    return false;
                }
                if (utf8) {
                    if (bufferIndex == runBuffer && offset == runEnd && (first4 & 0xC0) != 0x80) {
                        runEnd += length;
                    } else {
                        if (runBuffer >= 0) {
                            runs.add(runBuffer, runStart, runEnd);
                        }
                        runBuffer = bufferIndex;
                        runStart = offset;
                        runEnd = offset + length;
                    }
                }
            }
        }
        if (!utf8) {
            return true;
        }
        if (runBuffer >= 0) {
            runs.add(runBuffer, runStart, runEnd);
        }
        return runs.checkAndClear(views, buffers);
    }

    /**
     * Rows between two UTF-8 checks of the ranges written down (a power of two, a multiple of 64); the ranges of a
     * chunk of URL-like values fit in L2, and smaller chunks measured slower.
     */
    private static final int CHUNK_ROWS = 1024;

    /**
     * Byte ranges still to be checked for UTF-8, each a buffer index (-1: the views) with a start and end; at most
     * one per row of a chunk, plus the run left open from the chunk before.
     */
    private static final class Runs {
        final int[] buffers;
        final long[] starts;
        final long[] ends;
        int count;

        Runs(int capacity) {
            buffers = new int[capacity];
            starts = new long[capacity];
            ends = new long[capacity];
        }

        void add(int buffer, long start, long end) {
            buffers[count] = buffer;
            starts[count] = start;
            ends[count] = end;
            count++;
        }

        boolean checkAndClear(MemorySegment views, MemorySegment[] data) {
            for (int r = 0; r < count; r++) {
                int buffer = buffers[r];
                // A run of values that tile a buffer is long: the block-wise check of the whole range.
                if (!Utf8.wellFormedWhole(buffer < 0 ? views : data[buffer], starts[r], ends[r])) {
                    return false;
                }
            }
            count = 0;
            return true;
        }
    }

    /** Whether the view bytes after an inline value of {@code length} (0..12) bytes are zero. */
    private static boolean paddingIsZero(int length, long w0, long w1) {
        if (length >= 4) { // the value fills word 0's upper half; word 1 holds value bytes 4.. then padding
            return length == INLINE_MAX || w1 >>> (8 * (length - 4)) == 0;
        }
        return w1 == 0 && w0 >>> (32 + 8 * length) == 0;
    }

    /**
     * Throws the {@link ViewFormatException} of the first row that breaks a rule; called when {@link #allValid}
     * said some row does.
     */
    static void throwFirstInvalid(ViewColumn column) {
        MemorySegment[] buffers = column.bufferArray();
        for (int row = 0; row < column.size(); row++) {
            if (column.isValid(row)) {
                validateRow(column.kind(), column.viewSegment(), buffers, row);
            }
        }
        throw new IllegalStateException("view validation passes disagree: the column was rejected but no row is"
                + " invalid: rows=" + column.size() + " buffers=" + buffers.length);
    }

    private static void validateRow(ViewKind kind, MemorySegment views, MemorySegment[] buffers, int row) {
        long at = (long) row * VIEW_SIZE;
        int length = views.get(LAYOUT_LE_INT, at);
        if (length < 0) {
            throw new ViewFormatException(row, "length", "length=" + length);
        }
        if (length <= INLINE_MAX) {
            for (int i = OFFSET_INLINE + length; i < VIEW_SIZE; i++) {
                byte b = views.get(ValueLayout.JAVA_BYTE, at + i);
                if (b != 0) {
                    throw new ViewFormatException(row, "padding", "length=" + length + " viewByte=" + i
                            + " value=" + (b & 0xFF));
                }
            }
            checkUtf8(kind, views, at + OFFSET_INLINE, length, row);
            return;
        }
        int bufferIndex = views.get(LAYOUT_LE_INT, at + ViewLayout.OFFSET_BUFFER_INDEX);
        int offset = views.get(LAYOUT_LE_INT, at + ViewLayout.OFFSET_BUFFER_OFFSET);
        if (bufferIndex < 0 || bufferIndex >= buffers.length) {
            throw new ViewFormatException(row, "bufferIndex", "bufferIndex=" + bufferIndex + " buffers="
                    + buffers.length);
        }
        MemorySegment buffer = buffers[bufferIndex];
        if (offset < 0 || (long) offset + length > buffer.byteSize()) {
            throw new ViewFormatException(row, "offset", "bufferIndex=" + bufferIndex + " offset=" + offset
                    + " length=" + length + " bufferSize=" + buffer.byteSize());
        }
        int prefix = views.get(LAYOUT_LE_INT, at + ViewLayout.OFFSET_PREFIX);
        int actual = buffer.get(LAYOUT_LE_INT, offset);
        if (prefix != actual) {
            throw new ViewFormatException(row, "prefix", String.format(
                    "prefix=0x%08x dataPrefix=0x%08x bufferIndex=%d offset=%d", Integer.reverseBytes(prefix),
                    Integer.reverseBytes(actual), bufferIndex, offset));
        }
        checkUtf8(kind, buffer, offset, length, row);
    }

    private static void checkUtf8(ViewKind kind, MemorySegment data, long offset, int length, int row) {
        if (kind == ViewKind.UTF8) {
            long bad = Utf8.firstInvalid(data, offset, length);
            if (bad >= 0) {
                throw new ViewFormatException(row, "utf8", "byteOffset=" + bad + " length=" + length);
            }
        }
    }
}
