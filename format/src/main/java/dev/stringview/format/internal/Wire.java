package dev.stringview.format.internal;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/** Constants of the byte layout shared by writer and reader (docs/serialization.md). */
public final class Wire {
    public static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfShort LE_SHORT =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Header bytes after the type name: kind, sizes codec, chars codec, rows per block, rows, null count. */
    public static final int HEADER_TAIL = 1 + 1 + 1 + 4 + 8 + 8;

    public static final int KIND_UTF8 = 0;
    public static final int KIND_BINARY = 1;

    /** Header codec bytes. */
    public static final int CODEC_NONE = 0;
    public static final int CODEC_LZ4 = 1;
    public static final int CODEC_LIGHTWEIGHT = 2;

    /** Most rows a block may hold; bounds the views a reader allocates for one block (16 MiB). */
    public static final int MAX_BLOCK_ROWS = 1 << 20;
    /** Most bytes a block's chars (or values) stream may hold: views address it with int32 offsets. */
    public static final int MAX_BLOCK_BYTES = Integer.MAX_VALUE - 64;

    private Wire() {}
}
