package dev.stringview.spark.internal;

import dev.stringview.parquet.FixedWidthColumn;
import dev.stringview.parquet.ParquetType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import org.apache.spark.sql.catalyst.util.RebaseDateTime;
import org.apache.spark.sql.execution.datasources.DataSourceUtils;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A Spark column vector over a {@link FixedWidthColumn} (every flat column but strings and binaries), optionally
 * through a selection of its rows: each value is read from the column's off-heap values buffer when Spark asks
 * for it, no value is copied onto the heap first.
 *
 * <p>How the reader's values become Spark's: INTEGER(8/16/32, signed or unsigned) as Spark's byte, short, int
 * or long as Spark's own reader types them (an unsigned value zero-extended), unsigned INTEGER(64) as
 * DECIMAL(20,0), DATE as days since the epoch, TIMESTAMP(MILLIS) scaled to Spark's microseconds (MICROS as stored),
 * INT96 as the microseconds since the epoch the reader gives (Julian day and nanoseconds of day, UTC), DECIMAL of
 * precision up to 18 as its unscaled long (the low 8 bytes of the reader's Decimal128, which hold the whole
 * value), wider ones through {@link FixedWidthColumn#getDecimal}. Dates and timestamps before the Gregorian
 * switch go through Spark's rebase mode for the file ({@link Rebase}), as in Spark's own reader.
 *
 * <p>The vector owns no memory: the {@link FileBatches} that made it frees the batch when Spark asks for the
 * next one; reading the vector after that throws {@link IllegalStateException} (the memory segment checks).
 * {@link #close()} does nothing and may be called any number of times.
 */
final class FixedWidthColumnVector extends ColumnVector {
    private static final ValueLayout.OfLong LE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE_INT =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final FixedWidthColumn column;
    private final MemorySegment values;
    private final int[] selection; // null: all rows
    private final int nulls;
    private final boolean millis;
    private final boolean unsigned64;
    /**
     * Whether {@link #getInt} / {@link #getLong} may read the values buffer directly: 4-byte INT32 values (what
     * {@code FixedWidthColumn.getInt} returns for them) and 8-byte INT64 / INT96 values ({@code getLong}'s). Spark's
     * generated code calls these once per row and column, so the column's type checks stay out of that loop.
     */
    private final boolean int32;
    private final boolean int64;
    /** For DATE and TIMESTAMP columns: what to do with values before the switch; null for none. */
    private final Rebase rebase;

    /**
     * Spark's rebase mode for one file's dates or timestamps ({@code DataSourceUtils.datetimeRebaseSpec} and
     * {@code int96RebaseSpec}): values before the last switch from the Julian to the Gregorian calendar are
     * rebased (LEGACY, with the writer's time zone for timestamps) or refused with Spark's own error
     * (EXCEPTION); CORRECTED files have no {@code Rebase}.
     */
    record Rebase(boolean legacy, String timeZone) {
        private static final int SWITCH_DAY = RebaseDateTime.lastSwitchJulianDay();
        private static final long SWITCH_MICROS = RebaseDateTime.lastSwitchJulianTs();

        int days(int days) {
            if (days >= SWITCH_DAY) {
                return days;
            }
            if (!legacy) {
                throw DataSourceUtils.newRebaseExceptionInRead("Parquet");
            }
            return RebaseDateTime.rebaseJulianToGregorianDays(days);
        }

        long micros(long micros) {
            if (micros >= SWITCH_MICROS) {
                return micros;
            }
            if (!legacy) {
                throw DataSourceUtils.newRebaseExceptionInRead("Parquet");
            }
            return RebaseDateTime.rebaseJulianToGregorianMicros(timeZone, micros);
        }
    }

    FixedWidthColumnVector(DataType type, FixedWidthColumn column, int[] selection, int size, Rebase rebase) {
        super(type);
        this.rebase = type instanceof DateType || type instanceof TimestampType ? rebase : null;
        this.column = column;
        this.values = column.values();
        this.selection = selection;
        ParquetType parquet = column.type();
        this.millis = parquet.logical() == ParquetType.Logical.TIMESTAMP
                && parquet.unit() == ParquetType.TimeUnit.MILLIS;
        this.unsigned64 = parquet.logical() == ParquetType.Logical.INTEGER && !parquet.signed()
                && parquet.physical() == ParquetType.Physical.INT64;
        boolean integer = parquet.logical() != ParquetType.Logical.DECIMAL;
        this.int32 = integer && parquet.physical() == ParquetType.Physical.INT32 && parquet.byteWidth() == 4
                && values.byteSize() >= 4L * column.rowCount();
        this.int64 = integer && (parquet.physical() == ParquetType.Physical.INT64
                || parquet.physical() == ParquetType.Physical.INT96) && parquet.byteWidth() == 8
                && values.byteSize() >= 8L * column.rowCount();
        int n = 0;
        if (column.nullCount() != 0) {
            if (selection == null) {
                n = column.nullCount();
            } else {
                for (int i = 0; i < size; i++) {
                    n += column.isNull(selection[i]) ? 1 : 0;
                }
            }
        }
        this.nulls = n;
    }

    private int row(int i) {
        return selection == null ? i : selection[i];
    }

    @Override
    public void close() {}

    @Override
    public void closeIfFreeable() {}

    @Override
    public boolean hasNull() {
        return nulls != 0;
    }

    @Override
    public int numNulls() {
        return nulls;
    }

    @Override
    public boolean isNullAt(int i) {
        return nulls != 0 && column.isNull(row(i));
    }

    @Override
    public boolean getBoolean(int i) {
        return column.getBoolean(row(i));
    }

    @Override
    public byte getByte(int i) {
        return (byte) column.getInt(row(i));
    }

    @Override
    public short getShort(int i) {
        return (short) column.getInt(row(i));
    }

    @Override
    public int getInt(int i) {
        int r = row(i);
        int value = int32 ? values.get(LE_INT, 4L * r) : column.getInt(r);
        return rebase == null ? value : rebase.days(value);
    }

    @Override
    public long getLong(int i) {
        int r = row(i);
        long value = int64 ? values.get(LE_LONG, 8L * r) : column.getLong(r);
        if (millis) {
            value = Math.multiplyExact(value, 1000L);
        }
        return rebase == null ? value : rebase.micros(value);
    }

    @Override
    public float getFloat(int i) {
        return column.getFloat(row(i));
    }

    @Override
    public double getDouble(int i) {
        return column.getDouble(row(i));
    }

    @Override
    public Decimal getDecimal(int i, int precision, int scale) {
        int r = row(i);
        if (column.isNull(r)) {
            return null;
        }
        if (unsigned64) {
            long bits = column.getLong(r);
            return Decimal.apply(new BigDecimal(new BigInteger(Long.toUnsignedString(bits))), precision, scale);
        }
        if (precision <= Decimal.MAX_LONG_DIGITS() && column.type().byteWidth() == 16) {
            // Decimal128, little-endian: a value of at most 18 digits lies whole in the low 8 bytes.
            return Decimal.createUnsafe(values.get(LE_LONG, 16L * r), precision, scale);
        }
        return Decimal.apply(column.getDecimal(r), precision, scale);
    }

    @Override
    public UTF8String getUTF8String(int i) {
        throw unsupported("getUTF8String");
    }

    @Override
    public byte[] getBinary(int i) {
        throw unsupported("getBinary");
    }

    @Override
    public ColumnarArray getArray(int i) {
        throw unsupported("getArray");
    }

    @Override
    public ColumnarMap getMap(int i) {
        throw unsupported("getMap");
    }

    @Override
    public ColumnVector getChild(int ordinal) {
        throw unsupported("getChild");
    }

    private UnsupportedOperationException unsupported(String accessor) {
        return new UnsupportedOperationException("not a " + accessor + " column: column=" + column
                + " sparkType=" + dataType().simpleString());
    }
}
