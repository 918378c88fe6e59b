package dev.stringview.parquet.internal;

import dev.stringview.parquet.ParquetType;
import dev.stringview.parquet.ParquetType.Logical;
import dev.stringview.parquet.ParquetType.Physical;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * How a fixed-width column's values go from their PLAIN physical form (what PLAIN pages, dictionary pages,
 * BYTE_STREAM_SPLIT and DELTA_BINARY_PACKED decode to) to Arrow's layout in a {@link FixedSink}: one bulk copy when
 * the two are the same bytes, else one conversion per value. Every fixed-width value passes through
 * {@link #convert}, so each conversion (INT96, big-endian decimals, narrowing) exists once.
 */
public final class FixedLayout {
    static final ValueLayout.OfInt LE_INT = ViewSink.LE_INT;
    static final ValueLayout.OfLong LE_LONG = ViewSink.LE_LONG;
    static final ValueLayout.OfShort LE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
    /** INT96's Julian day of 1970-01-01. */
    static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;
    static final long MICROS_PER_DAY = 86_400_000_000L;

    enum Conversion {
        /** The physical bytes are Arrow's bytes. */
        COPY,
        /** INT32 holding INTEGER(8) or INTEGER(16): its low byte(s). */
        NARROW,
        /** INT32 or INT64 DECIMAL: sign-extended to 16 or 32 bytes. */
        WIDEN_DECIMAL,
        /** FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY DECIMAL: big-endian two's complement to little-endian, sign-extended. */
        BIG_ENDIAN_DECIMAL,
        /**
         * INT96 (8 bytes nanos of day, 4 bytes Julian day) to microseconds since the epoch, as Spark reads it:
         * {@code (julianDay - 2440588) * 86400000000 + nanosOfDay / 1000}, in wrapping 64-bit arithmetic with a
         * signed day. Microseconds rather than nanoseconds because Spark writes INT96 from microseconds and its
         * range (years beyond 2262, parquet-testing's int96_from_spark.parquet) does not fit int64 nanoseconds.
         */
        INT96_MICROS,
        /** BOOLEAN: bits, handled by the decoders. */
        BITS
    }

    final ParquetType type;
    /** Bytes of one PLAIN value in a page (0: BOOLEAN, -1: BYTE_ARRAY DECIMAL, of variable length). */
    final int physicalWidth;
    /** Bytes of one value in Arrow's layout (0: BOOLEAN). */
    final int width;
    final Conversion conversion;

    public FixedLayout(ParquetType type) {
        this.type = type;
        this.width = type.byteWidth();
        this.physicalWidth = switch (type.physical()) {
            case BOOLEAN -> 0;
            case INT32, FLOAT -> 4;
            case INT64, DOUBLE -> 8;
            case INT96 -> 12;
            case FIXED_LEN_BYTE_ARRAY -> type.typeLength();
            case BYTE_ARRAY -> -1;
        };
        if (type.physical() == Physical.BOOLEAN) {
            conversion = Conversion.BITS;
        } else if (type.physical() == Physical.INT96) {
            conversion = Conversion.INT96_MICROS;
        } else if (type.logical() == Logical.DECIMAL) {
            conversion = type.physical() == Physical.INT32 || type.physical() == Physical.INT64
                    ? Conversion.WIDEN_DECIMAL : Conversion.BIG_ENDIAN_DECIMAL;
        } else if (physicalWidth != width) {
            conversion = Conversion.NARROW;
        } else {
            conversion = Conversion.COPY;
        }
    }

    public ParquetType type() {
        return type;
    }

    boolean isBoolean() {
        return conversion == Conversion.BITS;
    }

    /**
     * Converts {@code count} PLAIN values at {@code src[srcOffset..]} into Arrow values at {@code dst[dstOffset..]}.
     * The caller has checked that both hold them.
     */
    void convert(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, int count) {
        switch (conversion) {
            case COPY -> MemorySegment.copy(src, srcOffset, dst, dstOffset, (long) count * width);
            case NARROW -> {
                if (width == 1) {
                    for (int i = 0; i < count; i++) {
                        dst.set(ValueLayout.JAVA_BYTE, dstOffset + i, (byte) src.get(LE_INT, srcOffset + 4L * i));
                    }
                } else {
                    for (int i = 0; i < count; i++) {
                        dst.set(LE_SHORT, dstOffset + 2L * i, (short) src.get(LE_INT, srcOffset + 4L * i));
                    }
                }
            }
            case WIDEN_DECIMAL -> {
                boolean int32 = physicalWidth == 4;
                for (int i = 0; i < count; i++) {
                    long v = int32 ? src.get(LE_INT, srcOffset + 4L * i) : src.get(LE_LONG, srcOffset + 8L * i);
                    long at = dstOffset + (long) width * i;
                    dst.set(LE_LONG, at, v);
                    long sign = v >> 63;
                    for (int w = 8; w < width; w += 8) {
                        dst.set(LE_LONG, at + w, sign);
                    }
                }
            }
            case BIG_ENDIAN_DECIMAL -> {
                for (int i = 0; i < count; i++) {
                    bigEndianDecimal(src, srcOffset + (long) physicalWidth * i, physicalWidth, dst,
                            dstOffset + (long) width * i, i);
                }
            }
            case INT96_MICROS -> {
                for (int i = 0; i < count; i++) {
                    long at = srcOffset + 12L * i;
                    long nanosOfDay = src.get(LE_LONG, at);
                    long julianDay = src.get(LE_INT, at + 8); // signed, as Spark reads and writes it
                    dst.set(LE_LONG, dstOffset + 8L * i, (julianDay - JULIAN_DAY_OF_EPOCH) * MICROS_PER_DAY
                            + Math.floorDiv(nanosOfDay, 1000L));
                }
            }
            case BITS -> throw new IllegalStateException("BOOLEAN values are bits: type=" + type);
        }
    }

    /**
     * The {@code length}-byte big-endian two's complement integer at {@code src[at..]} as {@link #width} bytes
     * little-endian at {@code dst[to..]}, sign-extended. Leading bytes beyond the width must only repeat the sign.
     */
    void bigEndianDecimal(MemorySegment src, long at, int length, MemorySegment dst, long to, int valueIndex) {
        if (length == 0) {
            throw new CorruptDataException("empty decimal value: valueIndex=" + valueIndex + " type=" + type);
        }
        byte first = src.get(ValueLayout.JAVA_BYTE, at);
        byte sign = (byte) (first >> 7);
        int skip = Math.max(0, length - width);
        for (int k = 0; k < skip; k++) {
            if (src.get(ValueLayout.JAVA_BYTE, at + k) != sign) {
                throw new CorruptDataException("decimal value wider than its precision: valueIndex=" + valueIndex
                        + " length=" + length + " maxBytes=" + width + " type=" + type);
            }
        }
        int kept = length - skip;
        if (kept > 0 && skip > 0 && (src.get(ValueLayout.JAVA_BYTE, at + skip) >> 7) != sign) {
            throw new CorruptDataException("decimal value wider than its precision: valueIndex=" + valueIndex
                    + " length=" + length + " maxBytes=" + width + " type=" + type);
        }
        for (int j = 0; j < kept; j++) {
            dst.set(ValueLayout.JAVA_BYTE, to + j, src.get(ValueLayout.JAVA_BYTE, at + length - 1 - j));
        }
        for (int j = kept; j < width; j++) {
            dst.set(ValueLayout.JAVA_BYTE, to + j, sign);
        }
    }
}
