package dev.stringview.parquet;

import java.util.Objects;

/**
 * What a flat Parquet column holds: its physical type and what its logical type annotation (or legacy converted
 * type) makes of it, and so how {@link ParquetViewReader} reads it. BYTE_ARRAY columns other than DECIMAL are read
 * as {@link dev.stringview.ViewColumn}s; every other column is read as a {@link FixedWidthColumn} in Arrow's
 * layout, {@link #byteWidth} bytes per value (docs/parquet.md, "Flat types").
 *
 * @param physical the physical type
 * @param logical what the annotation makes of it ({@link Logical#NONE} without one)
 * @param typeLength FIXED_LEN_BYTE_ARRAY's length in bytes, else 0
 * @param bitWidth for integer-like columns (INT32, INT64, INTEGER, DATE, TIME, TIMESTAMP, INT96) the width in bits
 *     of the value {@link FixedWidthColumn#getLong} returns (8, 16, 32 or 64), else 0
 * @param signed for integer-like columns, whether the value is signed (false only for unsigned INTEGER)
 * @param precision DECIMAL's precision, else 0
 * @param scale DECIMAL's scale, else 0
 * @param unit TIME's and TIMESTAMP's unit; {@link TimeUnit#MICROS} for INT96, which is read as microseconds since
 *     the epoch; else null
 * @param adjustedToUtc TIME's and TIMESTAMP's {@code isAdjustedToUTC}; false for INT96; else false
 */
public record ParquetType(Physical physical, Logical logical, int typeLength, int bitWidth, boolean signed,
        int precision, int scale, TimeUnit unit, boolean adjustedToUtc) {

    /** Parquet's physical types. */
    public enum Physical { BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY }

    /** The logical types this reader tells apart; any other annotation is {@link #OTHER}. */
    public enum Logical {
        /** No annotation: the physical type as it is. */
        NONE,
        /** INT(8/16/32/64, signed or unsigned) on INT32 or INT64. */
        INTEGER,
        /** Days since the epoch, on INT32. */
        DATE,
        /** Time of day in {@link ParquetType#unit}, on INT32 (MILLIS) or INT64. */
        TIME,
        /** Time since the epoch in {@link ParquetType#unit}, on INT64. */
        TIMESTAMP,
        /** Unscaled integer with {@link ParquetType#precision} and {@link ParquetType#scale}. */
        DECIMAL,
        /** IEEE 754 half precision, on FIXED_LEN_BYTE_ARRAY(2). */
        FLOAT16,
        /** 16 bytes, on FIXED_LEN_BYTE_ARRAY(16). */
        UUID,
        /** STRING, ENUM or JSON on BYTE_ARRAY: read as UTF-8 views. */
        STRING,
        /** Any other annotation (BSON, INTERVAL, ...): read as its physical type. */
        OTHER
    }

    /** The unit of TIME and TIMESTAMP values. */
    public enum TimeUnit { MILLIS, MICROS, NANOS }

    /** Widest DECIMAL precision read: Arrow's Decimal256. */
    public static final int MAX_DECIMAL_PRECISION = 76;

    public ParquetType {
        Objects.requireNonNull(physical, "physical");
        Objects.requireNonNull(logical, "logical");
    }

    /** Whether the column is read as a {@link FixedWidthColumn} (all but non-DECIMAL BYTE_ARRAY). */
    public boolean isFixedWidth() {
        return physical != Physical.BYTE_ARRAY || logical == Logical.DECIMAL;
    }

    /**
     * Bytes per value in {@link FixedWidthColumn#values()}: 1 or 2 for INTEGER(8/16), 4 for INT32 otherwise, FLOAT
     * and DATE, 8 for INT64, DOUBLE and INT96, 16 for DECIMAL of precision up to 38 (Arrow's Decimal128) and 32
     * above (Decimal256), 2 for FLOAT16, {@link #typeLength} for other FIXED_LEN_BYTE_ARRAY; 0 for BOOLEAN (one
     * bit per value) and for columns read as views.
     */
    public int byteWidth() {
        if (logical == Logical.DECIMAL) {
            return precision <= 38 ? 16 : 32;
        }
        return switch (physical) {
            case BOOLEAN, BYTE_ARRAY -> 0;
            case INT32 -> logical == Logical.INTEGER && bitWidth < 32 ? bitWidth / 8 : 4;
            case FLOAT -> 4;
            case INT64, INT96, DOUBLE -> 8;
            case FIXED_LEN_BYTE_ARRAY -> typeLength;
        };
    }

    /**
     * E.g. {@code INT32 INTEGER(8,unsigned)}, {@code INT64 TIMESTAMP(MICROS,utc)},
     * {@code FIXED_LEN_BYTE_ARRAY(16) DECIMAL(38,2)}.
     */
    @Override
    public String toString() {
        String p = physical == Physical.FIXED_LEN_BYTE_ARRAY ? physical + "(" + typeLength + ")" : physical.name();
        return switch (logical) {
            case NONE -> p;
            case INTEGER -> p + " INTEGER(" + bitWidth + "," + (signed ? "signed" : "unsigned") + ")";
            case TIME, TIMESTAMP -> p + " " + logical + "(" + unit + "," + (adjustedToUtc ? "utc" : "local") + ")";
            case DECIMAL -> p + " DECIMAL(" + precision + "," + scale + ")";
            default -> p + " " + logical;
        };
    }
}
