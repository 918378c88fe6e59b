package dev.stringview.parquet;

import dev.stringview.parquet.ParquetType.Logical;
import dev.stringview.parquet.ParquetType.Physical;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;

/**
 * One batch of a flat column that is not read as views (every physical type but BYTE_ARRAY, and DECIMAL on any),
 * off-heap in Arrow's layout: a values buffer of {@link ParquetType#byteWidth} little-endian bytes per row (BOOLEAN:
 * one bit per row, least significant bit first) and a validity bitmap in Arrow bit order, or null when no row is
 * null. Null rows hold zeros in the values buffer. The buffers belong to the memory the batch was read into, which
 * decides how long they stay valid and from which threads they may be read (see {@link ViewBatch}); access after it
 * is freed throws {@link IllegalStateException}.
 *
 * <p>The typed accessors read one row each; which one fits which {@link ParquetType} is listed in docs/parquet.md
 * ("Flat types"). Each checks the row ({@link IndexOutOfBoundsException}) and the type
 * ({@link UnsupportedOperationException} naming the column's type).
 */
public final class FixedWidthColumn {
    private static final ValueLayout.OfShort LE_SHORT =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat LE_FLOAT =
            ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble LE_DOUBLE =
            ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final String name;
    private final ParquetType type;
    private final int rowCount;
    private final MemorySegment values;
    private final MemorySegment validity;
    private final int nullCount;
    private final int width;

    FixedWidthColumn(String name, ParquetType type, int rowCount, MemorySegment values, MemorySegment validity,
            int nullCount) {
        this.name = name;
        this.type = type;
        this.rowCount = rowCount;
        this.values = values;
        this.validity = validity;
        this.nullCount = nullCount;
        this.width = type.byteWidth();
    }

    public int rowCount() {
        return rowCount;
    }

    /** The column's type: which accessors fit and how wide a value is. */
    public ParquetType type() {
        return type;
    }

    public int nullCount() {
        return nullCount;
    }

    /** The values buffer: {@code rowCount * type().byteWidth()} bytes, or {@code ceil(rowCount / 8)} for BOOLEAN. */
    public MemorySegment values() {
        return values;
    }

    /** Arrow's validity bitmap (bit {@code row} set = a value), or null when no row is null. */
    public MemorySegment validity() {
        return validity;
    }

    public boolean isNull(int row) {
        checkRow(row);
        return validity != null && (validity.get(ValueLayout.JAVA_BYTE, row >>> 3) & (1 << (row & 7))) == 0;
    }

    /** BOOLEAN. A null row reads as false. */
    public boolean getBoolean(int row) {
        checkRow(row);
        if (type.physical() != Physical.BOOLEAN) {
            throw wrongType("getBoolean");
        }
        return (values.get(ValueLayout.JAVA_BYTE, row >>> 3) & (1 << (row & 7))) != 0;
    }

    /**
     * INT32 columns but DECIMAL: plain INT32, INTEGER up to 32 bits (8 and 16 bits sign- or zero-extended; an
     * unsigned 32-bit value as its 32 bits, {@link Integer#toUnsignedLong} gives its value), DATE, TIME(MILLIS). A
     * null row reads as 0.
     */
    public int getInt(int row) {
        checkRow(row);
        if (type.physical() != Physical.INT32 || type.logical() == Logical.DECIMAL) {
            throw wrongType("getInt");
        }
        return switch (width) {
            case 1 -> type.signed() ? values.get(ValueLayout.JAVA_BYTE, row)
                    : values.get(ValueLayout.JAVA_BYTE, row) & 0xFF;
            case 2 -> type.signed() ? values.get(LE_SHORT, 2L * row) : values.get(LE_SHORT, 2L * row) & 0xFFFF;
            default -> values.get(LE_INT, 4L * row);
        };
    }

    /**
     * Every integer-like column but DECIMAL: what {@link #getInt} reads, widened (an unsigned 32-bit value
     * zero-extended), and INT64 columns (an unsigned 64-bit value as its 64 bits), TIME and TIMESTAMP in their unit,
     * INT96 as microseconds since the epoch. A null row reads as 0.
     */
    public long getLong(int row) {
        checkRow(row);
        if (type.physical() == Physical.INT32 && type.logical() != Logical.DECIMAL) {
            int v = getInt(row);
            return type.signed() ? v : Integer.toUnsignedLong(v);
        }
        if ((type.physical() != Physical.INT64 && type.physical() != Physical.INT96)
                || type.logical() == Logical.DECIMAL) {
            throw wrongType("getLong");
        }
        return values.get(LE_LONG, 8L * row);
    }

    /** FLOAT, and FLOAT16 widened. A null row reads as 0. */
    public float getFloat(int row) {
        checkRow(row);
        if (type.logical() == Logical.FLOAT16) {
            return Float.float16ToFloat(values.get(LE_SHORT, 2L * row));
        }
        if (type.physical() != Physical.FLOAT) {
            throw wrongType("getFloat");
        }
        return values.get(LE_FLOAT, 4L * row);
    }

    /** DOUBLE, and FLOAT and FLOAT16 widened. A null row reads as 0. */
    public double getDouble(int row) {
        checkRow(row);
        if (type.physical() == Physical.DOUBLE) {
            return values.get(LE_DOUBLE, 8L * row);
        }
        if (type.physical() != Physical.FLOAT && type.logical() != Logical.FLOAT16) {
            throw wrongType("getDouble");
        }
        return getFloat(row);
    }

    /** DECIMAL on any physical type, with the column's scale; null for a null row. */
    public BigDecimal getDecimal(int row) {
        checkRow(row);
        if (type.logical() != Logical.DECIMAL) {
            throw wrongType("getDecimal");
        }
        if (isNull(row)) {
            return null;
        }
        long at = (long) width * row;
        if (width == 16) {
            long low = values.get(LE_LONG, at);
            long high = values.get(LE_LONG, at + 8);
            if (high == (low >> 63)) {
                return BigDecimal.valueOf(low, type.scale());
            }
        }
        byte[] bigEndian = new byte[width];
        for (int i = 0; i < width; i++) {
            bigEndian[width - 1 - i] = values.get(ValueLayout.JAVA_BYTE, at + i);
        }
        return new BigDecimal(new BigInteger(bigEndian), type.scale());
    }

    /**
     * The row's {@link ParquetType#byteWidth} bytes as they lie in the values buffer: FIXED_LEN_BYTE_ARRAY values
     * (fixed binary, UUID, FLOAT16) exactly as stored in the file; for other types their little-endian Arrow value
     * (DECIMAL: two's complement unscaled value). Null for a null row. Not for BOOLEAN.
     */
    public byte[] getBytes(int row) {
        checkRow(row);
        if (type.physical() == Physical.BOOLEAN) {
            throw wrongType("getBytes");
        }
        if (isNull(row)) {
            return null;
        }
        byte[] out = new byte[width];
        MemorySegment.copy(values, ValueLayout.JAVA_BYTE, (long) width * row, out, 0, width);
        return out;
    }

    private void checkRow(int row) {
        if (row < 0 || row >= rowCount) {
            throw new IndexOutOfBoundsException("row out of range: column=" + name + " row=" + row + " rowCount="
                    + rowCount);
        }
    }

    private UnsupportedOperationException wrongType(String accessor) {
        return new UnsupportedOperationException("accessor does not fit the column's type: column=" + name
                + " accessor=" + accessor + " type=" + type);
    }

    @Override
    public String toString() {
        return "FixedWidthColumn[column=" + name + " type=" + type + " rows=" + rowCount + " nulls=" + nullCount + "]";
    }
}
