package dev.stringview.flink.internal;

import dev.stringview.parquet.FixedWidthColumn;
import dev.stringview.parquet.ParquetColumn;
import dev.stringview.parquet.ParquetType;
import dev.stringview.parquet.ParquetType.Logical;
import dev.stringview.parquet.ParquetType.Physical;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.sql.Timestamp;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * How a declared Flink column is read from a file's Parquet column, and how one row of a {@link FixedWidthColumn}
 * becomes Flink's internal value: Boolean, Byte, Short, Integer (INT, DATE as days since the epoch, TIME as
 * milliseconds of the day), Long, Float, Double, {@link TimestampData}, {@link DecimalData}, {@code byte[]}
 * (BINARY(n) from FIXED_LEN_BYTE_ARRAY); null for a null row. The pairs are those Flink's own Parquet format reads
 * ({@code ParquetSplitReaderUtil.createColumnReader} in flink-parquet), checked per file when a split opens.
 */
enum FlinkValues {
    /** STRING / VARCHAR / CHAR from BYTE_ARRAY, as views. */
    STRING,
    /** BYTES / VARBINARY / BINARY from BYTE_ARRAY, as views. */
    BYTES_VIEW,
    /** BYTES / VARBINARY / BINARY from FIXED_LEN_BYTE_ARRAY: the stored bytes. */
    BYTES_FIXED,
    BOOLEAN,
    TINYINT,
    SMALLINT,
    INT,
    BIGINT,
    FLOAT,
    DOUBLE,
    /** DECIMAL of precision up to 18: the unscaled value as a long (no BigDecimal per row). */
    DECIMAL_LONG,
    DECIMAL,
    TIME,
    TIMESTAMP;

    private static final ValueLayout.OfLong LE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Whether the column is read as views (else as a {@link FixedWidthColumn}). */
    boolean isView() {
        return this == STRING || this == BYTES_VIEW;
    }

    /**
     * The conversion for declared column {@code name} of type {@code type} read from {@code column} of {@code file}.
     *
     * @throws IllegalArgumentException naming the file, column and both types if the pair is not read
     */
    static FlinkValues of(String file, String name, LogicalType type, ParquetColumn column) {
        ParquetType p = column.type();
        Physical physical = p.physical();
        Logical logical = p.logical();
        boolean plainInteger = logical == Logical.NONE || (logical == Logical.INTEGER && p.signed());
        FlinkValues v = switch (type.getTypeRoot()) {
            case CHAR, VARCHAR -> !p.isFixedWidth() ? STRING : null;
            case BINARY, VARBINARY -> !p.isFixedWidth() ? BYTES_VIEW
                    : physical == Physical.FIXED_LEN_BYTE_ARRAY && logical != Logical.DECIMAL ? BYTES_FIXED : null;
            case BOOLEAN -> physical == Physical.BOOLEAN ? BOOLEAN : null;
            case TINYINT -> physical == Physical.INT32 && plainInteger ? TINYINT : null;
            case SMALLINT -> physical == Physical.INT32 && plainInteger ? SMALLINT : null;
            case INTEGER -> physical == Physical.INT32 && plainInteger ? INT : null;
            case BIGINT -> physical == Physical.INT64 && plainInteger ? BIGINT : null;
            case FLOAT -> physical == Physical.FLOAT && logical == Logical.NONE ? FLOAT : null;
            case DOUBLE -> physical == Physical.DOUBLE && logical == Logical.NONE ? DOUBLE : null;
            case DATE -> logical == Logical.DATE ? INT : null;
            case TIME_WITHOUT_TIME_ZONE -> logical == Logical.TIME ? TIME : null;
            case DECIMAL -> {
                DecimalType d = (DecimalType) type;
                yield logical == Logical.DECIMAL && p.precision() == d.getPrecision() && p.scale() == d.getScale()
                        ? (d.getPrecision() <= 18 ? DECIMAL_LONG : DECIMAL) : null;
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                    physical == Physical.INT96 || logical == Logical.TIMESTAMP ? TIMESTAMP : null;
            default -> null;
        };
        if (v == null) {
            throw new IllegalArgumentException("column type not supported: file=" + file + " column=" + name
                    + " flinkType=" + type.asSummaryString() + " parquetType=" + p);
        }
        return v;
    }

    /**
     * Row {@code row} of a fixed-width column as Flink's internal value, or null. {@code utc}: Flink's
     * {@code utc-timezone} option, whether a TIMESTAMP is the UTC wall clock of the stored instant (else the JVM's
     * time zone's, as Flink's own reader does through {@code java.sql.Timestamp}).
     */
    Object value(FixedWidthColumn column, LogicalType type, int row, boolean utc) {
        if (column.isNull(row)) {
            return null;
        }
        return switch (this) {
            case BOOLEAN -> column.getBoolean(row);
            case TINYINT -> (byte) column.getInt(row);
            case SMALLINT -> (short) column.getInt(row);
            case INT -> column.getInt(row);
            case BIGINT -> column.getLong(row);
            case FLOAT -> column.getFloat(row);
            case DOUBLE -> column.getDouble(row);
            case BYTES_FIXED -> column.getBytes(row);
            case DECIMAL_LONG -> {
                DecimalType d = (DecimalType) type;
                // Decimal128, little-endian: a precision of at most 18 fits the low 8 bytes.
                yield DecimalData.fromUnscaledLong(column.values().get(LE_LONG, 16L * row), d.getPrecision(),
                        d.getScale());
            }
            case DECIMAL -> {
                DecimalType d = (DecimalType) type;
                yield DecimalData.fromBigDecimal(column.getDecimal(row), d.getPrecision(), d.getScale());
            }
            case TIME -> switch (column.type().unit()) {
                case MILLIS -> (int) column.getLong(row);
                case MICROS -> (int) Math.floorDiv(column.getLong(row), 1000L);
                case NANOS -> (int) Math.floorDiv(column.getLong(row), 1_000_000L);
            };
            case TIMESTAMP -> timestamp(column.type().unit(), column.getLong(row), utc);
            case STRING, BYTES_VIEW -> throw new IllegalStateException("a view column, not fixed-width: column="
                    + column + " flinkType=" + type.asSummaryString());
        };
    }

    private static TimestampData timestamp(ParquetType.TimeUnit unit, long value, boolean utc) {
        long millis;
        int nanosOfMilli;
        switch (unit) {
            case MILLIS -> {
                millis = value;
                nanosOfMilli = 0;
            }
            case MICROS -> {
                millis = Math.floorDiv(value, 1000L);
                nanosOfMilli = (int) Math.floorMod(value, 1000L) * 1000;
            }
            default -> {
                millis = Math.floorDiv(value, 1_000_000L);
                nanosOfMilli = (int) Math.floorMod(value, 1_000_000L);
            }
        }
        if (utc) {
            return TimestampData.fromEpochMillis(millis, nanosOfMilli);
        }
        Timestamp local = new Timestamp(millis);
        local.setNanos((int) Math.floorMod(millis, 1000L) * 1_000_000 + nanosOfMilli);
        return TimestampData.fromTimestamp(local);
    }
}
