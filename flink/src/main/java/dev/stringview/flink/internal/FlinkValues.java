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
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.DecimalColumnVector;
import org.apache.flink.table.data.columnar.vector.heap.AbstractHeapVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapBooleanVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapByteVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapBytesVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapDoubleVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapFloatVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapLongVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapShortVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapTimestampVector;
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

    /**
     * Rows {@code rows[from..from + count)} of a fixed-width column as a heap column vector of {@code count} values
     * (Flink's own heap vectors; DECIMAL in {@link DecimalValues}): what {@link #value} gives, without a boxed
     * object per value.
     */
    ColumnVector vector(FixedWidthColumn column, LogicalType type, int[] rows, int from, int count, boolean utc) {
        AbstractHeapVector out = switch (this) {
            case BOOLEAN -> {
                HeapBooleanVector v = new HeapBooleanVector(count);
                for (int i = 0; i < count; i++) {
                    v.vector[i] = column.getBoolean(rows[from + i]);
                }
                yield v;
            }
            case TINYINT -> {
                HeapByteVector v = new HeapByteVector(count);
                for (int i = 0; i < count; i++) {
                    v.vector[i] = (byte) column.getInt(rows[from + i]);
                }
                yield v;
            }
            case SMALLINT -> {
                HeapShortVector v = new HeapShortVector(count);
                for (int i = 0; i < count; i++) {
                    v.vector[i] = (short) column.getInt(rows[from + i]);
                }
                yield v;
            }
            case INT -> {
                HeapIntVector v = new HeapIntVector(count);
                for (int i = 0; i < count; i++) {
                    v.vector[i] = column.getInt(rows[from + i]);
                }
                yield v;
            }
            case BIGINT -> {
                HeapLongVector v = new HeapLongVector(count);
                for (int i = 0; i < count; i++) {
                    v.vector[i] = column.getLong(rows[from + i]);
                }
                yield v;
            }
            case FLOAT -> {
                HeapFloatVector v = new HeapFloatVector(count);
                for (int i = 0; i < count; i++) {
                    v.vector[i] = column.getFloat(rows[from + i]);
                }
                yield v;
            }
            case DOUBLE -> {
                HeapDoubleVector v = new HeapDoubleVector(count);
                for (int i = 0; i < count; i++) {
                    v.vector[i] = column.getDouble(rows[from + i]);
                }
                yield v;
            }
            case TIME -> {
                HeapIntVector v = new HeapIntVector(count);
                for (int i = 0; i < count; i++) {
                    int row = rows[from + i];
                    if (!column.isNull(row)) {
                        v.vector[i] = (Integer) value(column, type, row, utc);
                    }
                }
                yield v;
            }
            case TIMESTAMP -> {
                HeapTimestampVector v = new HeapTimestampVector(count);
                for (int i = 0; i < count; i++) {
                    int row = rows[from + i];
                    if (!column.isNull(row)) {
                        v.setTimestamp(i, (TimestampData) value(column, type, row, utc));
                    }
                }
                yield v;
            }
            case BYTES_FIXED -> {
                HeapBytesVector v = new HeapBytesVector(count);
                for (int i = 0; i < count; i++) {
                    int row = rows[from + i];
                    byte[] bytes = column.isNull(row) ? new byte[0] : column.getBytes(row);
                    v.appendBytes(i, bytes, 0, bytes.length);
                }
                yield v;
            }
            case DECIMAL_LONG, DECIMAL -> {
                DecimalData[] values = new DecimalData[count];
                for (int i = 0; i < count; i++) {
                    values[i] = (DecimalData) value(column, type, rows[from + i], utc);
                }
                yield new DecimalValues(values);
            }
            case STRING, BYTES_VIEW -> throw new IllegalStateException("a view column, not fixed-width: column="
                    + column + " flinkType=" + type.asSummaryString());
        };
        if (column.nullCount() > 0) {
            for (int i = 0; i < count; i++) {
                if (column.isNull(rows[from + i])) {
                    out.setNullAt(i);
                }
            }
        }
        return out;
    }

    /** A batch's DECIMAL values (Flink has no heap decimal vector; its Parquet reader wraps its own too). */
    static final class DecimalValues extends AbstractHeapVector implements DecimalColumnVector {
        private final DecimalData[] values;

        DecimalValues(DecimalData[] values) {
            super(values.length);
            this.values = values;
        }

        @Override
        public DecimalData getDecimal(int i, int precision, int scale) {
            return values[i];
        }
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
