package dev.stringview.spark.internal;

import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The rows {@code selection[0..size)} of another vector, without copying: how a batch's non-string columns follow
 * the rows the pushed string filter kept. Closing it does nothing: the reader owns the underlying vector.
 */
final class SelectedColumnVector extends ColumnVector {
    private final ColumnVector base;
    private final int[] selection;
    private final int size;
    private final int nulls;

    SelectedColumnVector(ColumnVector base, int[] selection, int size) {
        super(base.dataType());
        this.base = base;
        this.selection = selection;
        this.size = size;
        int n = 0;
        if (base.hasNull()) {
            for (int i = 0; i < size; i++) {
                n += base.isNullAt(selection[i]) ? 1 : 0;
            }
        }
        this.nulls = n;
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
        return base.isNullAt(selection[i]);
    }

    @Override
    public boolean getBoolean(int i) {
        return base.getBoolean(selection[i]);
    }

    @Override
    public byte getByte(int i) {
        return base.getByte(selection[i]);
    }

    @Override
    public short getShort(int i) {
        return base.getShort(selection[i]);
    }

    @Override
    public int getInt(int i) {
        return base.getInt(selection[i]);
    }

    @Override
    public long getLong(int i) {
        return base.getLong(selection[i]);
    }

    @Override
    public float getFloat(int i) {
        return base.getFloat(selection[i]);
    }

    @Override
    public double getDouble(int i) {
        return base.getDouble(selection[i]);
    }

    @Override
    public ColumnarArray getArray(int i) {
        return base.getArray(selection[i]);
    }

    @Override
    public ColumnarMap getMap(int i) {
        return base.getMap(selection[i]);
    }

    @Override
    public Decimal getDecimal(int i, int precision, int scale) {
        return base.getDecimal(selection[i], precision, scale);
    }

    @Override
    public UTF8String getUTF8String(int i) {
        return base.getUTF8String(selection[i]);
    }

    @Override
    public byte[] getBinary(int i) {
        return base.getBinary(selection[i]);
    }

    @Override
    public ColumnVector getChild(int ordinal) {
        throw new UnsupportedOperationException("flat columns only: ordinal=" + ordinal);
    }
}
