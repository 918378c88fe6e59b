package dev.stringview.spark.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
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
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataType;

/**
 * Reads one row group's non-string columns (INT32/INT64/FLOAT/DOUBLE/BOOLEAN, DATE, TIMESTAMP, INT96) with
 * parquet-java's column readers into Spark's on-heap vectors, batch by batch. Not the point of this module (the
 * strings are), but the simplest correct path: parquet-java decodes and decompresses (with the codecs Spark ships:
 * snappy-java, zstd-jni, Hadoop's), and Spark's vectors are what its own reader fills.
 */
final class FlatColumnReader implements AutoCloseable {
    private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private final ParquetFileReader file;
    private final PageReadStore pages;
    private final ColumnReader[] readers;
    private final PrimitiveType[] types;
    private final int[] maxDefinition;
    private final OnHeapColumnVector[] vectors;

    FlatColumnReader(Path path, int rowGroup, List<String> columns, List<DataType> sparkTypes, int batchSize)
            throws IOException {
        ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration()).build();
        this.file = ParquetFileReader.open(new LocalInputFile(path), options);
        try {
            MessageType schema = file.getFooter().getFileMetaData().getSchema();
            MessageType requested = new MessageType(schema.getName(),
                    columns.stream().map(schema::getType).toList());
            file.setRequestedSchema(requested);
            this.pages = file.readRowGroup(rowGroup);
            if (pages == null) {
                throw new IOException("row group missing: file=" + path + " rowGroup=" + rowGroup);
            }
            ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, new IgnoringConverter(columns.size()),
                    requested, file.getFooter().getFileMetaData().getCreatedBy());
            int n = columns.size();
            this.readers = new ColumnReader[n];
            this.types = new PrimitiveType[n];
            this.maxDefinition = new int[n];
            this.vectors = new OnHeapColumnVector[n];
            for (int c = 0; c < n; c++) {
                ColumnDescriptor descriptor = requested.getColumnDescription(new String[] {columns.get(c)});
                readers[c] = store.getColumnReader(descriptor);
                types[c] = descriptor.getPrimitiveType();
                maxDefinition[c] = descriptor.getMaxDefinitionLevel();
                vectors[c] = new OnHeapColumnVector(batchSize, sparkTypes.get(c));
            }
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** The vector of column {@code c}, holding the rows of the last {@link #read}. */
    OnHeapColumnVector vector(int c) {
        return vectors[c];
    }

    /** Reads the next {@code rows} rows of every column into its vector (replacing what it held). */
    void read(int rows) {
        for (int c = 0; c < readers.length; c++) {
            ColumnReader reader = readers[c];
            OnHeapColumnVector out = vectors[c];
            out.reset();
            out.reserve(rows); // a no-op while the batch fits (rows never exceed the batch size)
            int maxDef = maxDefinition[c];
            PrimitiveType type = types[c];
            LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
            for (int r = 0; r < rows; r++) {
                if (reader.getCurrentDefinitionLevel() < maxDef) {
                    out.putNull(r);
                } else {
                    switch (type.getPrimitiveTypeName()) {
                        case BOOLEAN -> out.putBoolean(r, reader.getBoolean());
                        case INT32 -> {
                            int v = reader.getInteger();
                            if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i
                                    && i.getBitWidth() == 8) {
                                out.putByte(r, (byte) v);
                            } else if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i
                                    && i.getBitWidth() == 16) {
                                out.putShort(r, (short) v);
                            } else {
                                out.putInt(r, v); // INT32, INT(32), DATE (days since the epoch)
                            }
                        }
                        case INT64 -> out.putLong(r, timestampMicros(logical, reader.getLong()));
                        case FLOAT -> out.putFloat(r, reader.getFloat());
                        case DOUBLE -> out.putDouble(r, reader.getDouble());
                        case INT96 -> out.putLong(r, int96Micros(reader.getBinary().toByteBuffer()));
                        default -> throw new IllegalStateException("unexpected column type: column="
                                + type.getName() + " type=" + type.getPrimitiveTypeName());
                    }
                }
                reader.consume();
            }
        }
    }

    /** INT64 as Spark's long: TIMESTAMP(MILLIS) scaled to micros, everything else as stored. */
    private static long timestampMicros(LogicalTypeAnnotation logical, long value) {
        if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t
                && t.getUnit() == LogicalTypeAnnotation.TimeUnit.MILLIS) {
            return Math.multiplyExact(value, 1000L);
        }
        return value;
    }

    /** INT96 (8 bytes nanos of day, then 4 bytes Julian day, little-endian) as micros since the epoch, UTC. */
    static long int96Micros(ByteBuffer bytes) {
        ByteBuffer b = bytes.order(ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = b.getLong(b.position());
        long julianDay = Integer.toUnsignedLong(b.getInt(b.position() + 8));
        return (julianDay - JULIAN_DAY_OF_EPOCH) * MICROS_PER_DAY + Math.floorDiv(nanosOfDay, 1000L);
    }

    @Override
    public void close() throws IOException {
        for (OnHeapColumnVector v : vectors) {
            if (v != null) {
                v.close();
            }
        }
        file.close();
    }

    /** parquet-java's column readers need a converter tree; values are read through the readers instead. */
    private static final class IgnoringConverter extends GroupConverter {
        private final PrimitiveConverter[] children;

        IgnoringConverter(int fields) {
            children = new PrimitiveConverter[fields];
            for (int i = 0; i < fields; i++) {
                children[i] = new PrimitiveConverter() {};
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return children[fieldIndex];
        }

        @Override
        public void start() {}

        @Override
        public void end() {}
    }

    static boolean isFlat(Type field) {
        return field.isPrimitive() && field.asPrimitiveType().getPrimitiveTypeName()
                != PrimitiveType.PrimitiveTypeName.BINARY;
    }
}
