package dev.stringview.spark.internal;

import dev.stringview.parquet.ParquetSources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** The files behind a path, their footers, the Spark schema of their columns and their row groups' statistics. */
final class ParquetLayout {
    private ParquetLayout() {}

    /**
     * The Parquet files at {@code path}: the file itself, or the files of a directory as Spark lists them
     * ({@link ParquetSources#files}: recursively, in name order, leaving out names starting with '_' or '.').
     */
    static List<Path> files(String path) {
        Path root = Path.of(stripFileScheme(path));
        if (!Files.exists(root)) {
            throw new IllegalArgumentException("no such file or directory: path=" + path);
        }
        List<Path> files;
        try {
            files = ParquetSources.files(root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list directory: path=" + path, e);
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no parquet files in directory: path=" + path);
        }
        return files;
    }

    /** Only the local file system is read (the file is memory-mapped): {@code file:} URIs become paths. */
    static String stripFileScheme(String path) {
        if (path.startsWith("file://")) {
            return path.substring("file://".length());
        }
        if (path.startsWith("file:")) {
            return path.substring("file:".length());
        }
        int colon = path.indexOf(':');
        int slash = path.indexOf('/');
        if (colon > 1 && (slash < 0 || colon < slash)) {
            throw new IllegalArgumentException("only local paths are supported (each executor memory-maps the"
                    + " file): path=" + path + " scheme=" + path.substring(0, colon));
        }
        return path;
    }

    static ParquetMetadata footer(Path file) {
        ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration()).build();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file), options)) {
            return reader.getFooter();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot read parquet footer: file=" + file + " detail=\"" + e + "\"",
                    e);
        }
    }

    /**
     * The Spark schema of a file's top-level columns.
     *
     * @throws UnsupportedColumnException for a column this source cannot read, naming it and its Parquet type
     */
    static StructType sparkSchema(MessageType schema) {
        List<StructField> fields = new ArrayList<>();
        for (Type field : schema.getFields()) {
            DataType type = sparkType(field);
            if (type == null) {
                throw new UnsupportedColumnException(field.getName(), describe(field));
            }
            fields.add(new StructField(field.getName(), type, !field.isRepetition(Type.Repetition.REQUIRED),
                    Metadata.empty()));
        }
        return new StructType(fields.toArray(StructField[]::new));
    }

    /** How the column's Parquet type reads in an error message, e.g. {@code group} or {@code INT32 (DECIMAL(9,2))}. */
    static String describe(Type field) {
        if (!field.isPrimitive()) {
            return "group (nested) " + field.getRepetition();
        }
        PrimitiveType p = field.asPrimitiveType();
        LogicalTypeAnnotation logical = p.getLogicalTypeAnnotation();
        return (field.isRepetition(Type.Repetition.REPEATED) ? "repeated " : "") + p.getPrimitiveTypeName()
                + (logical == null ? "" : " (" + logical + ")");
    }

    /** The Spark type a top-level field is read as, or null if this source does not read it. */
    static DataType sparkType(Type field) {
        if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
            return null;
        }
        PrimitiveType p = field.asPrimitiveType();
        LogicalTypeAnnotation logical = p.getLogicalTypeAnnotation();
        if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
            // On INT32, INT64, FIXED_LEN_BYTE_ARRAY and BINARY, as Spark's own reader; wider than Spark's 38
            // digits is left out.
            return p.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.INT96
                    && p.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.BOOLEAN
                    && p.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.FLOAT
                    && p.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.DOUBLE
                    && d.getPrecision() <= DecimalType.MAX_PRECISION()
                    ? DataTypes.createDecimalType(d.getPrecision(), d.getScale()) : null;
        }
        return switch (p.getPrimitiveTypeName()) {
            case BINARY -> logical == null || logical instanceof LogicalTypeAnnotation.BsonLogicalTypeAnnotation
                    ? DataTypes.BinaryType
                    : logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                            || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                            || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation
                            ? DataTypes.StringType : null;
            case BOOLEAN -> logical == null ? DataTypes.BooleanType : null;
            case FLOAT -> logical == null ? DataTypes.FloatType : null;
            case DOUBLE -> logical == null ? DataTypes.DoubleType : null;
            case INT32 -> logical == null ? DataTypes.IntegerType
                    : logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation ? DataTypes.DateType
                    : logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned()
                            ? (i.getBitWidth() == 8 ? DataTypes.ByteType
                                    : i.getBitWidth() == 16 ? DataTypes.ShortType : DataTypes.IntegerType)
                    : null;
            case INT64 -> logical == null ? DataTypes.LongType
                    : logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned()
                            ? DataTypes.LongType
                    : logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t
                            && t.getUnit() != TimeUnit.NANOS
                            ? (t.isAdjustedToUTC() ? DataTypes.TimestampType : DataTypes.TimestampNTZType)
                    : null;
            // Spark's own default timestamp encoding (spark.sql.parquet.outputTimestampType=INT96).
            case INT96 -> DataTypes.TimestampType;
            case FIXED_LEN_BYTE_ARRAY -> null;
        };
    }

    /** A column this source cannot read; turned into Spark's UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE error. */
    static final class UnsupportedColumnException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String column;
        final String parquetType;

        UnsupportedColumnException(String column, String parquetType) {
            super("unsupported column: column=" + column + " parquetType=" + parquetType);
            this.column = column;
            this.parquetType = parquetType;
        }
    }
}
