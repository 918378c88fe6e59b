package dev.stringview.format;

/** How a serialized column's streams are compressed (docs/serialization.md, "Codecs"). */
public enum ColumnCodec {
    /** Sizes as raw little-endian int32, bytes as they are. */
    NONE,
    /** LZ4 block compression of the sizes stream and of the chars (or values) stream. */
    LZ4,
    /**
     * Seed 003's choice for storage: the sizes stream in the smallest lightweight integer coding for each block
     * (constant, constant delta, run-length, frame-of-reference bit-packing or delta + frame-of-reference, LZ4
     * when none of them is small), the chars stream in LZ4. {@link ColumnFormat#SEPARATED} only.
     */
    LIGHTWEIGHT
}
