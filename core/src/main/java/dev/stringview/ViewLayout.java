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

    private ViewLayout() {}

    /** Whether a value of {@code length} bytes is stored inline. */
    public static boolean isInline(int length) {
        return length <= INLINE_MAX;
    }

    /** The length of the view at {@code row}. */
    public static int length(MemorySegment views, long row) {
        return views.get(LAYOUT_LE_INT, row * VIEW_SIZE + OFFSET_LENGTH);
    }
}
