package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * parquet-java's column readers as the reference for fixed-width columns: each row's value as parquet-java returns
 * it (Boolean, Integer, Long, Float, Double, or byte[] for INT96 and FIXED_LEN_BYTE_ARRAY / BYTE_ARRAY), null for
 * nulls; and the check of one {@link FixedWidthColumn} row against it, through every accessor that fits.
 */
final class FlatOracle {
    private FlatOracle() {}

    /** Top-level, non-repeated columns read as {@link FixedWidthColumn}s. */
    static List<String> fixedWidthColumns(MessageType schema) {
        List<String> names = new ArrayList<>();
        for (Type field : schema.getFields()) {
            if (field.isPrimitive() && !field.isRepetition(Type.Repetition.REPEATED)) {
                PrimitiveType p = field.asPrimitiveType();
                if (p.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.BINARY
                        || p.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) {
                    names.add(field.getName());
                }
            }
        }
        return names;
    }

    static List<Object> read(Path path, String column) throws IOException {
        List<Object> values = new ArrayList<>();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(path), Oracle.options())) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            MessageType projection = new MessageType(schema.getName(), schema.getType(column));
            reader.setRequestedSchema(projection);
            ColumnDescriptor descriptor = projection.getColumnDescription(new String[] {column});
            String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
            PageReadStore rowGroup;
            while ((rowGroup = reader.readNextRowGroup()) != null) {
                try {
                    ColumnReadStoreImpl store = new ColumnReadStoreImpl(rowGroup,
                            new GroupRecordConverter(projection).getRootConverter(), projection, createdBy);
                    ColumnReader r = store.getColumnReader(descriptor);
                    long n = rowGroup.getRowCount();
                    for (long i = 0; i < n; i++) {
                        if (r.getCurrentDefinitionLevel() == descriptor.getMaxDefinitionLevel()) {
                            values.add(switch (descriptor.getPrimitiveType().getPrimitiveTypeName()) {
                                case BOOLEAN -> r.getBoolean();
                                case INT32 -> r.getInteger();
                                case INT64 -> r.getLong();
                                case FLOAT -> r.getFloat();
                                case DOUBLE -> r.getDouble();
                                case INT96, FIXED_LEN_BYTE_ARRAY, BINARY -> r.getBinary().getBytes();
                            });
                        } else {
                            values.add(null);
                        }
                        r.consume();
                    }
                } finally {
                    rowGroup.close();
                }
            }
        }
        return values;
    }

    /** Reads {@code column} with the reader under test and checks every row against {@code expected}. */
    static void check(Path path, String column, ParquetViewOptions options, List<Object> expected, String where)
            throws IOException {
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(path, arena, options.withColumns(column))) {
            int row = 0;
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                assertTrue(batch.isFixedWidth(0), where);
                FixedWidthColumn c = batch.fixedWidthColumn(column);
                assertEquals(batch.rowCount(), c.rowCount(), where);
                int nulls = 0;
                for (int i = 0; i < c.rowCount(); i++, row++) {
                    Object e = expected.get(row);
                    nulls += e == null ? 1 : 0;
                    checkRow(c, i, e, where + " row=" + row);
                }
                assertEquals(nulls, c.nullCount(), where + " nulls");
                assertEquals(nulls == 0, c.validity() == null, where + " validity null iff no nulls");
                long bytes = c.type().physical() == ParquetType.Physical.BOOLEAN ? (c.rowCount() + 7) / 8
                        : (long) c.rowCount() * c.type().byteWidth();
                assertTrue(c.values().byteSize() >= bytes, where + " values buffer size");
            }
            assertEquals(expected.size(), row, where + " rows");
        }
    }

    static void checkRow(FixedWidthColumn c, int i, Object e, String where) {
        ParquetType t = c.type();
        assertEquals(e == null, c.isNull(i), where + " isNull");
        if (t.logical() == ParquetType.Logical.DECIMAL) {
            BigDecimal expected = e == null ? null : switch (e) {
                case Integer v -> BigDecimal.valueOf(v, t.scale());
                case Long v -> BigDecimal.valueOf(v, t.scale());
                case byte[] b -> new BigDecimal(new BigInteger(b), t.scale());
                default -> throw new AssertionError(e);
            };
            assertEquals(expected, c.getDecimal(i), where);
            if (e != null) {
                byte[] raw = c.getBytes(i);
                assertEquals(t.byteWidth(), raw.length, where);
                byte[] bigEndian = new byte[raw.length];
                for (int k = 0; k < raw.length; k++) {
                    bigEndian[raw.length - 1 - k] = raw[k];
                }
                assertEquals(expected.unscaledValue(), new BigInteger(bigEndian), where + " raw two's complement");
            }
            return;
        }
        if (e == null) {
            // null rows read as zeros
            if (t.physical() == ParquetType.Physical.BOOLEAN) {
                assertEquals(false, c.getBoolean(i), where);
            } else {
                assertNull(c.getBytes(i), where);
            }
            return;
        }
        switch (t.physical()) {
            case BOOLEAN -> assertEquals(e, c.getBoolean(i), where);
            case INT32 -> {
                int v = (Integer) e;
                long expected = switch (t.bitWidth()) {
                    case 8 -> t.signed() ? (byte) v : v & 0xFF;
                    case 16 -> t.signed() ? (short) v : v & 0xFFFF;
                    default -> t.signed() ? v : Integer.toUnsignedLong(v);
                };
                assertEquals(expected, c.getLong(i), where);
                assertEquals((int) expected, c.getInt(i), where);
            }
            case INT64 -> assertEquals((long) (Long) e, c.getLong(i), where);
            case INT96 -> {
                ByteBuffer b = ByteBuffer.wrap((byte[]) e).order(ByteOrder.LITTLE_ENDIAN);
                long nanosOfDay = b.getLong(0);
                long julianDay = b.getInt(8);
                assertEquals((julianDay - 2_440_588L) * 86_400_000_000L + Math.floorDiv(nanosOfDay, 1000L),
                        c.getLong(i), where);
            }
            case FLOAT -> {
                assertEquals(Float.floatToRawIntBits((Float) e), Float.floatToRawIntBits(c.getFloat(i)), where);
                assertEquals((double) (Float) e, c.getDouble(i), where);
            }
            case DOUBLE -> assertEquals(Double.doubleToRawLongBits((Double) e),
                    Double.doubleToRawLongBits(c.getDouble(i)), where);
            case FIXED_LEN_BYTE_ARRAY -> {
                byte[] b = (byte[]) e;
                assertArrayEquals(b, c.getBytes(i), where);
                if (t.logical() == ParquetType.Logical.FLOAT16) {
                    float f = Float.float16ToFloat((short) ((b[0] & 0xFF) | (b[1] << 8)));
                    assertEquals(Float.floatToRawIntBits(f), Float.floatToRawIntBits(c.getFloat(i)), where);
                }
            }
            case BYTE_ARRAY -> throw new AssertionError("BYTE_ARRAY without DECIMAL is read as views: " + where);
        }
    }
}
