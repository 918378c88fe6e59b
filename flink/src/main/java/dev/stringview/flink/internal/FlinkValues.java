package dev.stringview.flink.internal;

import dev.stringview.parquet.FixedWidthColumn;
import dev.stringview.parquet.ParquetType;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * One row of a {@link FixedWidthColumn} as Flink's internal value of the declared type: Boolean, Byte, Short,
 * Integer (INT, and DATE as days since the epoch), Long, Float, Double, {@link TimestampData} (TIMESTAMP in the
 * column's unit; INT96 as the microseconds since the epoch the reader gives, UTC) and {@link DecimalData}; null
 * for a null row. {@link TableLayout} checked at planning time that the declared type fits the column.
 */
final class FlinkValues {
    private FlinkValues() {}

    static Object value(FixedWidthColumn column, LogicalType type, int row) {
        if (column.isNull(row)) {
            return null;
        }
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> column.getBoolean(row);
            case TINYINT -> (byte) column.getInt(row);
            case SMALLINT -> (short) column.getInt(row);
            case INTEGER, DATE -> column.getInt(row);
            case BIGINT -> column.getLong(row);
            case FLOAT -> column.getFloat(row);
            case DOUBLE -> column.getDouble(row);
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                    timestamp(column.type().unit(), column.getLong(row));
            case DECIMAL -> {
                DecimalType decimal = (DecimalType) type;
                yield DecimalData.fromBigDecimal(column.getDecimal(row), decimal.getPrecision(), decimal.getScale());
            }
            default -> throw new IllegalStateException("type not read from a fixed-width column: column=" + column
                    + " flinkType=" + type.asSummaryString());
        };
    }

    private static TimestampData timestamp(ParquetType.TimeUnit unit, long value) {
        return switch (unit) {
            case MILLIS -> TimestampData.fromEpochMillis(value);
            case MICROS -> TimestampData.fromEpochMillis(Math.floorDiv(value, 1000L),
                    (int) Math.floorMod(value, 1000L) * 1000);
            case NANOS -> TimestampData.fromEpochMillis(Math.floorDiv(value, 1_000_000L),
                    (int) Math.floorMod(value, 1_000_000L));
        };
    }
}
