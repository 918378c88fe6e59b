package dev.stringview.parquet.internal;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.ViewLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One column of one batch while its pages are decoded: the 16-byte views are written straight into an
 * off-heap segment from the batch's arena (no per-value heap allocation), the data buffers they point into are
 * collected in order, and null rows set no validity bit. {@link #build} wraps the result as a {@link ViewColumn}
 * without copying or re-checking it: the decoders have bounds-checked every view they wrote.
 */
public final class ViewSink implements ColumnSink {
    static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final int VIEW = ViewLayout.VIEW_SIZE;
    private static final int INLINE_MAX = ViewLayout.INLINE_MAX;
    /** {@code MASKS[k]} keeps the low {@code k} bytes of a long. */
    private static final long[] MASKS = new long[9];

    static {
        for (int k = 0; k < 8; k++) {
            MASKS[k] = (1L << (8 * k)) - 1;
        }
        MASKS[8] = -1L;
    }

    private final Arena arena;
    private final ViewKind kind;
    private final int size;
    private final MemorySegment views;
    private final long[] validBits; // null for a required column
    private final List<MemorySegment> buffers = new ArrayList<>(4);
    private MemorySegment lastBuffer;
    private int lastIndex = -1;

    /**
     * @param validBits for an optional column, a bitmap of at least {@code size} bits that this sink clears and
     *     owns until {@link #build}; null for a required column
     */
    public ViewSink(Arena arena, ViewKind kind, int size, long[] validBits) {
        this(arena, arena.allocate((long) size * VIEW, VIEW), kind, size, validBits);
    }

    /** A sink writing its views into {@code views} (room for {@code size}), e.g. scratch memory reused by a decoder. */
    ViewSink(Arena arena, MemorySegment views, ViewKind kind, int size, long[] validBits) {
        this.arena = arena;
        this.kind = kind;
        this.size = size;
        this.views = views;
        this.validBits = validBits;
        if (validBits != null) {
            Arrays.fill(validBits, 0, (size + 63) >>> 6, 0L);
        }
    }

    @Override
    public int size() {
        return size;
    }

    /** The views written so far, 16 bytes per row. */
    MemorySegment views() {
        return views;
    }

    /** Data buffer {@code index}, as registered by {@link #bufferIndex}. */
    MemorySegment buffer(int index) {
        return buffers.get(index);
    }

    @Override
    public long[] validBits() {
        return validBits;
    }

    /** The index of {@code buffer} among this column's data buffers, registering it on first use. */
    int bufferIndex(MemorySegment buffer) {
        if (buffer == lastBuffer) {
            return lastIndex;
        }
        int index = -1;
        for (int i = 0; i < buffers.size(); i++) {
            if (buffers.get(i) == buffer) {
                index = i;
                break;
            }
        }
        if (index < 0) {
            index = buffers.size();
            buffers.add(buffer);
        }
        lastBuffer = buffer;
        lastIndex = index;
        return index;
    }

    void put(int row, long word0, long word1) {
        long at = (long) row * VIEW;
        views.set(LE_LONG, at, word0);
        views.set(LE_LONG, at + 8, word1);
    }

    @Override
    public void putNulls(int row, int count) {
        // a loop of stores rather than asSlice(..).fill(..): no slice object per run of nulls
        long at = (long) row * VIEW;
        long end = at + (long) count * VIEW;
        for (; at < end; at += 8) {
            views.set(LE_LONG, at, 0L);
        }
    }

    /** A view of a value longer than 12 bytes at {@code offset} of data buffer {@code bufferIndex}. */
    void putLong(int row, int length, int prefix, int bufferIndex, long offset) {
        long at = (long) row * VIEW;
        views.set(LE_LONG, at, (length & 0xFFFF_FFFFL) | ((long) prefix << 32));
        views.set(LE_LONG, at + 8, (bufferIndex & 0xFFFF_FFFFL) | (offset << 32));
    }

    /**
     * A view holding {@code length <= 12} bytes at {@code offset} of {@code source}. Reads a 12-byte window when
     * the source has room (masking off bytes past the value), else byte by byte.
     */
    void putInline(int row, MemorySegment source, long offset, int length, long sourceSize) {
        long w0;
        long w1;
        if (offset + 12 <= sourceSize) {
            long a = source.get(LE_LONG, offset);
            if (length <= 4) {
                w0 = length | ((a & MASKS[length]) << 32);
                w1 = 0;
            } else {
                long b = source.get(LE_INT, offset + 8) & 0xFFFF_FFFFL;
                w0 = length | (a << 32);
                w1 = ((a >>> 32) | (b << 32)) & MASKS[length - 4];
            }
        } else {
            w0 = length;
            w1 = 0;
            for (int i = 0; i < length; i++) {
                long b = source.get(ValueLayout.JAVA_BYTE, offset + i) & 0xFFL;
                if (i < 4) {
                    w0 |= b << (32 + 8 * i);
                } else {
                    w1 |= b << (8 * (i - 4));
                }
            }
        }
        put(row, w0, w1);
    }

    /** The words of a view of {@code length} bytes at {@code offset} of {@code source} (dictionary entries). */
    static long[] inlineWords(MemorySegment source, long offset, int length, long[] out) {
        long w0 = length;
        long w1 = 0;
        for (int i = 0; i < length; i++) {
            long b = source.get(ValueLayout.JAVA_BYTE, offset + i) & 0xFFL;
            if (i < 4) {
                w0 |= b << (32 + 8 * i);
            } else {
                w1 |= b << (8 * (i - 4));
            }
        }
        out[0] = w0;
        out[1] = w1;
        return out;
    }

    static boolean isInline(int length) {
        return length <= INLINE_MAX;
    }

    /** The column: views, buffers and (if any row is null) a validity bitmap in Arrow bit order. */
    public ViewColumn build() {
        MemorySegment validity = ColumnSink.validity(arena, validBits, size);
        return ViewColumns.fromViewsUnchecked(kind, size, views, validity, buffers);
    }
}
