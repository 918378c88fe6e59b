package dev.stringview.flink.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Reads one row group's non-string columns with parquet-java's column readers, batch by batch, as Flink's
 * internal values (Boolean, Byte, Short, Integer for INT and DATE, Long, Float, Double, {@link TimestampData}).
 * Not the point of the connector (the strings are), but the simplest correct path.
 */
final class FlatColumns implements AutoCloseable {
    private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private final ParquetFileReader file;
    private final ColumnReader[] readers;
    private final PrimitiveType[] types;
    private final LogicalType[] flinkTypes;
    private final int[] maxDefinition;
    private final Object[][] values;

    FlatColumns(String path, int rowGroup, List<String> columns, List<LogicalType> flinkTypes, int batchSize)
            throws IOException {
        ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration()).build();
        this.file = ParquetFileReader.open(new LocalInputFile(Path.of(path)), options);
        try {
            MessageType schema = file.getFooter().getFileMetaData().getSchema();
            MessageType requested = new MessageType(schema.getName(), columns.stream().map(schema::getType).toList());
            file.setRequestedSchema(requested);
            PageReadStore pages = file.readRowGroup(rowGroup);
            if (pages == null) {
                throw new IOException("row group missing: file=" + path + " rowGroup=" + rowGroup);
            }
            ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, new IgnoringConverter(), requested,
                    file.getFooter().getFileMetaData().getCreatedBy());
            int n = columns.size();
            this.readers = new ColumnReader[n];
            this.types = new PrimitiveType[n];
            this.flinkTypes = flinkTypes.toArray(LogicalType[]::new);
            this.maxDefinition = new int[n];
            this.values = new Object[n][batchSize];
            for (int c = 0; c < n; c++) {
                ColumnDescriptor descriptor = requested.getColumnDescription(new String[] {columns.get(c)});
                readers[c] = store.getColumnReader(descriptor);
                types[c] = descriptor.getPrimitiveType();
                maxDefinition[c] = descriptor.getMaxDefinitionLevel();
            }
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** The value of column {@code c} at row {@code row} of the last {@link #read} (null for a null). */
    Object value(int c, int row) {
        return values[c][row];
    }

    /** Reads the next {@code rows} rows of every column (at most the batch size). */
    void read(int rows) {
        for (int c = 0; c < readers.length; c++) {
            ColumnReader reader = readers[c];
            Object[] out = values[c];
            PrimitiveType type = types[c];
            LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
            for (int r = 0; r < rows; r++) {
                if (reader.getCurrentDefinitionLevel() < maxDefinition[c]) {
                    out[r] = null;
                } else {
                    out[r] = switch (type.getPrimitiveTypeName()) {
                        case BOOLEAN -> reader.getBoolean();
                        case INT32 -> switch (flinkTypes[c].getTypeRoot()) {
                            case TINYINT -> (byte) reader.getInteger();
                            case SMALLINT -> (short) reader.getInteger();
                            default -> reader.getInteger(); // INT, DATE (days since the epoch)
                        };
                        case INT64 -> logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t
                                ? timestamp(t.getUnit(), reader.getLong()) : (Object) reader.getLong();
                        case FLOAT -> reader.getFloat();
                        case DOUBLE -> reader.getDouble();
                        case INT96 -> int96(reader.getBinary().toByteBuffer());
                        default -> throw new IllegalStateException("unexpected column type: column="
                                + type.getName() + " type=" + type.getPrimitiveTypeName());
                    };
                }
                reader.consume();
            }
        }
    }

    private static TimestampData timestamp(LogicalTypeAnnotation.TimeUnit unit, long value) {
        return switch (unit) {
            case MILLIS -> TimestampData.fromEpochMillis(value);
            case MICROS -> TimestampData.fromEpochMillis(Math.floorDiv(value, 1000L),
                    (int) Math.floorMod(value, 1000L) * 1000);
            case NANOS -> TimestampData.fromEpochMillis(Math.floorDiv(value, 1_000_000L),
                    (int) Math.floorMod(value, 1_000_000L));
        };
    }

    /** INT96: 8 bytes nanos of the day, then 4 bytes Julian day, little-endian; as UTC. */
    private static TimestampData int96(ByteBuffer bytes) {
        ByteBuffer b = bytes.order(ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = b.getLong(b.position());
        long julianDay = Integer.toUnsignedLong(b.getInt(b.position() + 8));
        long nanos = (julianDay - JULIAN_DAY_OF_EPOCH) * NANOS_PER_DAY + nanosOfDay;
        return TimestampData.fromEpochMillis(Math.floorDiv(nanos, 1_000_000L), (int) Math.floorMod(nanos, 1_000_000L));
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    /** parquet-java's record-assembly converters, unused: the column readers are read directly. */
    private static final class IgnoringConverter extends GroupConverter {
        @Override
        public Converter getConverter(int fieldIndex) {
            return new PrimitiveConverter() {};
        }

        @Override
        public void start() {}

        @Override
        public void end() {}
    }
}
