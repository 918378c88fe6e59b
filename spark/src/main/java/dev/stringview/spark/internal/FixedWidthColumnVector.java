package dev.stringview.spark.internal;

import dev.stringview.parquet.FixedWidthColumn;
import dev.stringview.parquet.ParquetType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A Spark column vector over a {@link FixedWidthColumn} (every flat column but strings and binaries), optionally
 * through a selection of its rows: each value is read from the column's off-heap values buffer when Spark asks
 * for it, no value is copied onto the heap first.
 *
 * <p>How the reader's values become Spark's: INTEGER(8/16) as Spark's byte and short, DATE as days since the
 * epoch, TIMESTAMP(MILLIS) scaled to Spark's microseconds (MICROS as stored), INT96 as the microseconds since the
 * epoch the reader gives (Julian day and nanoseconds of day, UTC, as Spark's own reader without its rebase of
 * dates before 1582), DECIMAL of precision up to 18 as its unscaled long (the low 8 bytes of the reader's
 * Decimal128, which hold the whole value), wider ones through {@link FixedWidthColumn#getDecimal}.
 *
 * <p>The vector owns no memory: the {@link RowGroupReader} that made it frees the batch when Spark asks for the
 * next one; reading the vector after that throws {@link IllegalStateException} (the memory segment checks).
 * {@link #close()} does nothing and may be called any number of times.
 */
final class FixedWidthColumnVector extends ColumnVector {
    private static final ValueLayout.OfLong LE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final FixedWidthColumn column;
    private final MemorySegment values;
    private final int[] selection; // null: all rows
    private final int nulls;
    private final boolean millis;

    FixedWidthColumnVector(DataType type, FixedWidthColumn column, int[] selection, int size) {
        super(type);
        this.column = column;
        this.values = column.values();
        this.selection = selection;
        ParquetType parquet = column.type();
        this.millis = parquet.logical() == ParquetType.Logical.TIMESTAMP
                && parquet.unit() == ParquetType.TimeUnit.MILLIS;
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
        return column.isNull(row(i));
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
        return column.getInt(row(i));
    }

    @Override
    public long getLong(int i) {
        long value = column.getLong(row(i));
        return millis ? Math.multiplyExact(value, 1000L) : value;
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
