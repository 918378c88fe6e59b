package dev.stringview.spark.internal;

import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
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
 * A Spark string or binary column vector over a {@link ViewColumn}, optionally through a selection of its rows.
 *
 * <p>{@link #getUTF8String} wraps the value where it lies, without copying: a value of at most 12 bytes inside its
 * 16-byte view (bytes 4..15, Arrow's inline layout), a longer one in the data buffer the view names (the Parquet
 * page, mapped or decompressed). Spark reads such a {@code UTF8String} through {@code sun.misc.Unsafe} with no
 * liveness check, so the memory must outlive every use: the {@link FileBatches} that made this vector frees it
 * only when Spark asks for the next batch (Spark copies what it keeps beyond that, as it must for its own reused
 * vectors) or closes the reader. Reading the vector itself after that throws {@link IllegalStateException}: the
 * view words are read through the (closed) memory segment, which checks.
 *
 * <p>The vector owns no memory, so {@link #close()} only marks it closed, and may be called any number of times
 * ({@code ColumnarToRowExec} calls {@code closeIfFreeable()} after every batch and {@code close()} at the end).
 */
final class ViewColumnVector extends ColumnVector {
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final ViewColumn column;
    private final MemorySegment views;
    private final long viewsAddress;
    private final long[] bufferAddresses;
    private final int[] selection; // null: all rows
    private final int size;
    private final int nulls;

    ViewColumnVector(DataType type, ViewColumn column, int[] selection, int size) {
        super(type);
        this.column = column;
        this.views = column.views();
        this.viewsAddress = views.address();
        this.bufferAddresses = new long[column.bufferCount()];
        for (int i = 0; i < bufferAddresses.length; i++) {
            bufferAddresses[i] = column.buffer(i).address();
        }
        this.selection = selection;
        this.size = size;
        this.nulls = countNulls();
    }

    private int countNulls() {
        if (column.nullCount() == 0) {
            return 0;
        }
        if (selection == null) {
            return column.nullCount();
        }
        int n = 0;
        for (int i = 0; i < size; i++) {
            n += column.isNull(selection[i]) ? 1 : 0;
        }
        return n;
    }

    private int row(int i) {
        return selection == null ? i : selection[i];
    }

    @Override
    public UTF8String getUTF8String(int i) {
        int row = row(i);
        if (nulls != 0 && column.isNull(row)) {
            return null;
        }
        long at = (long) row << 4;
        int length = views.get(LE_INT, at); // checks that the batch's memory is still alive
        if (length <= 12) {
            return UTF8String.fromAddress(null, viewsAddress + at + 4, length);
        }
        int buffer = views.get(LE_INT, at + 8);
        int offset = views.get(LE_INT, at + 12);
        return UTF8String.fromAddress(null, bufferAddresses[buffer] + Integer.toUnsignedLong(offset), length);
    }

    @Override
    public byte[] getBinary(int i) {
        int row = row(i);
        return column.isNull(row) ? null : column.bytes(row);
    }

    @Override
    public boolean isNullAt(int i) {
        return nulls != 0 && column.isNull(row(i));
    }

    @Override
    public boolean hasNull() {
        return nulls != 0;
    }

    @Override
    public int numNulls() {
        return nulls;
    }

    /** The values are views of this kind (UTF8 for Spark strings, BINARY for Spark binary). */
    ViewKind kind() {
        return column.kind();
    }

    @Override
    public void close() {
        // Nothing to free: the reader owns the batch's memory. Idempotent by construction.
    }

    @Override
    public void closeIfFreeable() {
        // Same: the reader frees the batch when Spark asks for the next one.
    }

    @Override
    public boolean getBoolean(int rowId) {
        throw unsupported("getBoolean");
    }

    @Override
    public byte getByte(int rowId) {
        throw unsupported("getByte");
    }

    @Override
    public short getShort(int rowId) {
        throw unsupported("getShort");
    }

    @Override
    public int getInt(int rowId) {
        throw unsupported("getInt");
    }

    @Override
    public long getLong(int rowId) {
        throw unsupported("getLong");
    }

    @Override
    public float getFloat(int rowId) {
        throw unsupported("getFloat");
    }

    @Override
    public double getDouble(int rowId) {
        throw unsupported("getDouble");
    }

    @Override
    public ColumnarArray getArray(int rowId) {
        throw unsupported("getArray");
    }

    @Override
    public ColumnarMap getMap(int ordinal) {
        throw unsupported("getMap");
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
        throw unsupported("getDecimal");
    }

    @Override
    public ColumnVector getChild(int ordinal) {
        throw unsupported("getChild");
    }

    private UnsupportedOperationException unsupported(String method) {
        return new UnsupportedOperationException("not a " + method + " column: type=" + dataType()
                + " kind=" + column.kind());
    }
}
