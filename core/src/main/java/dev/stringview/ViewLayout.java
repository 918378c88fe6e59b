package dev.stringview;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The 16-byte view record, byte-identical to Arrow's Utf8View / BinaryView
 * (Arrow columnar format, "Variable-size Binary View Layout"). All fields are little-endian.
 *
 * <pre>
 *  bytes  0..3     4..7        8..11          12..15
 *        +--------+-----------------------------------+
 *        | length | inline bytes, zero-padded (&lt;= 12) |   length &lt;= 12
 *        +--------+-----------+------------+----------+
 *        | length | prefix    | bufferIndex | offset  |   length &gt; 12
 *        +--------+-----------+------------+----------+
 * </pre>
 *
 * <p>Kernels read a view as two little-endian longs: {@code word0 = length | prefix << 32} and
 * {@code word1 = bufferIndex | offset << 32} (or inline bytes 4..11 for short values). Length and
 * prefix are therefore compared as one 64-bit word.
 *
 * <p>The static helpers read the caller's segments during the call only and keep no reference to them.
 */
public final class ViewLayout {
    /** Bytes per view. */
    public static final int VIEW_SIZE = 16;
    /** Longest value stored inside the view itself. */
    public static final int INLINE_MAX = 12;
    /** Bytes of a long value kept in the view as its prefix. */
    public static final int PREFIX_SIZE = 4;

    /** Offset of the int32 length. */
    public static final int OFFSET_LENGTH = 0;
    /** Offset of the inline bytes (short values) or the prefix (long values). */
    public static final int OFFSET_INLINE = 4;
    /** Offset of the prefix of a long value (same place as the first inline bytes). */
    public static final int OFFSET_PREFIX = 4;
    /** Offset of the int32 data buffer index of a long value. */
    public static final int OFFSET_BUFFER_INDEX = 8;
    /** Offset of the int32 byte offset within the data buffer of a long value. */
    public static final int OFFSET_BUFFER_OFFSET = 12;

    /** Little-endian int, no alignment assumed (views handed in by producers may sit anywhere). */
    public static final ValueLayout.OfInt LAYOUT_LE_INT =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Little-endian long, no alignment assumed. */
    public static final ValueLayout.OfLong LAYOUT_LE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Big-endian long, used to compare 8 bytes at once in unsigned lexicographic order. */
    public static final ValueLayout.OfLong LAYOUT_BE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private static final long[] LOW_MASKS = new long[INLINE_MAX + 1];
    private static final long[] HIGH_MASKS = new long[INLINE_MAX + 1];

    static {
        for (int n = 0; n <= INLINE_MAX; n++) {
            LOW_MASKS[n] = n >= Long.BYTES ? -1L : (1L << (8 * n)) - 1;
            HIGH_MASKS[n] = n <= Long.BYTES ? 0 : (1L << (8 * (n - Long.BYTES))) - 1;
        }
    }

    private ViewLayout() {}

    /** Whether a value of {@code length} bytes is stored inline. */
    public static boolean isInline(int length) {
        return length <= INLINE_MAX;
    }

    /**
     * Bytes 0..7 of the {@code length}-byte value at {@code offset} of {@code source} as a little-endian long,
     * zero past the value's end: the low half of an inline view's 12 bytes. One word load when 8 bytes of the
     * segment are there (bytes past the value are masked off), byte by byte only at the segment's very end.
     */
    public static long inlineLow(MemorySegment source, long offset, int length) {
        if (offset + Long.BYTES <= source.byteSize()) {
            return source.get(LAYOUT_LE_LONG, offset) & inlineLowMask(length);
        }
        return gather(source, offset, Math.min(length, Long.BYTES));
    }

    /**
     * Bytes 8..11 of the {@code length}-byte value at {@code offset} of {@code source} in the low 32 bits, zero
     * past the value's end (and zero for values of 8 bytes or fewer): the high part of an inline view's 12 bytes.
     */
    public static long inlineHigh(MemorySegment source, long offset, int length) {
        if (offset + INLINE_MAX <= source.byteSize()) {
            return source.get(LAYOUT_LE_INT, offset + Long.BYTES) & inlineHighMask(length);
        }
        return gather(source, offset + Long.BYTES, Math.max(length - Long.BYTES, 0));
    }

    /** View word 0 of an inline value: {@code length | bytes 0..3 << 32}, from {@link #inlineLow}. */
    public static long inlineWord0(int length, long low) {
        return (length & 0xFFFF_FFFFL) | (low << 32);
    }

    /** View word 1 of an inline value: bytes 4..11, from {@link #inlineLow} and {@link #inlineHigh}. */
    public static long inlineWord1(long low, long high) {
        return (low >>> 32) | (high << 32);
    }

    /**
     * The mask that keeps bytes 0..7 of a value of {@code length} (0 to 12) bytes in a little-endian word loaded
     * at its start (a table: a computed mask with a branch would mispredict on random lengths).
     */
    public static long inlineLowMask(int length) {
        return LOW_MASKS[length];
    }

    /** The mask that keeps bytes 8..11 of a value of {@code length} (0 to 12) bytes in an int loaded at byte 8. */
    public static long inlineHighMask(int length) {
        return HIGH_MASKS[length];
    }

    /** Up to 8 bytes at {@code offset}, little-endian, read one by one (the tail of a segment). */
    private static long gather(MemorySegment source, long offset, int count) {
        long word = 0;
        for (int i = 0; i < count; i++) {
            word |= (source.get(ValueLayout.JAVA_BYTE, offset + i) & 0xFFL) << (i << 3);
        }
        return word;
    }

    /** The length of the view at {@code row}. */
    public static int length(MemorySegment views, long row) {
        return views.get(LAYOUT_LE_INT, row * VIEW_SIZE + OFFSET_LENGTH);
    }
}
