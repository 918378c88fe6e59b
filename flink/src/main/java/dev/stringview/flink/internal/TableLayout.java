package dev.stringview.flink.internal;

import dev.stringview.parquet.ParquetSources;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * The files of a table and how its declared columns map onto them: which are read as views (STRING, BYTES) and
 * which as fixed-width columns (the other flat types), both through {@code ParquetViewReader}. Built once when the
 * table source is created, so a declared column the files cannot give fails the query at planning time with the
 * column, its Flink type and its Parquet type in the message.
 */
record TableLayout(String table, List<String> files, RowType rowType) implements Serializable {
    TableLayout {
        files = List.copyOf(files);
    }

    /** Whether column {@code index} of the declared row is read as views. */
    boolean isView(int index) {
        LogicalTypeRoot root = rowType.getTypeAt(index).getTypeRoot();
        return root == LogicalTypeRoot.VARCHAR || root == LogicalTypeRoot.CHAR || root == LogicalTypeRoot.VARBINARY
                || root == LogicalTypeRoot.BINARY;
    }

    String name(int index) {
        return rowType.getFieldNames().get(index);
    }

    LogicalType type(int index) {
        return rowType.getTypeAt(index);
    }

    static TableLayout resolve(String table, String path, RowType rowType) {
        List<String> files = listFiles(table, path);
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no Parquet files: table=" + table + " path=" + path);
        }
        MessageType schema = footer(files.get(0)).getFileMetaData().getSchema();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            check(table, files.get(0), schema, rowType.getFieldNames().get(i), rowType.getTypeAt(i));
        }
        return new TableLayout(table, files, rowType);
    }

    /** The footer of one file, read with parquet-java (without Hadoop's file system). */
    static ParquetMetadata footer(String file) {
        ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration()).build();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(Path.of(file)), options)) {
            return reader.getFooter();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Parquet footer: file=" + file + " error=" + e.getMessage(),
                    e);
        }
    }

    /** The files as Spark and Hive list a table ({@link ParquetSources#files}), as paths. */
    private static List<String> listFiles(String table, String path) {
        Path root = path.startsWith("file:") ? Path.of(URI.create(path)) : Path.of(path);
        try {
            return ParquetSources.files(root).stream().map(Path::toString).toList();
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("path is neither a file nor a directory: table=" + table + " path="
                    + path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the directory: table=" + table + " path=" + path, e);
        }
    }

    private static void check(String table, String file, MessageType schema, String column, LogicalType type) {
        if (!schema.containsField(column)) {
            throw new IllegalArgumentException("column not in the Parquet file: table=" + table + " column=" + column
                    + " file=" + file + " fileColumns=" + schema.getFields().stream().map(Type::getName).toList());
        }
        Type field = schema.getType(column);
        if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
            throw unsupported(table, column, type, field);
        }
        PrimitiveType p = field.asPrimitiveType();
        LogicalTypeAnnotation logical = p.getLogicalTypeAnnotation();
        boolean ok = switch (type.getTypeRoot()) {
            // A DECIMAL on BINARY is read as a fixed-width column, not as views.
            case VARCHAR, CHAR, VARBINARY, BINARY -> p.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BINARY
                    && !(logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation);
            case BOOLEAN -> p.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BOOLEAN;
            case TINYINT, SMALLINT, INTEGER -> p.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT32
                    && (logical == null || logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation);
            case DATE -> p.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT32
                    && logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation;
            case BIGINT -> p.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT64
                    && (logical == null || logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation);
            case DECIMAL -> logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d
                    && d.getPrecision() == ((DecimalType) type).getPrecision()
                    && d.getScale() == ((DecimalType) type).getScale();
            case FLOAT -> p.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FLOAT;
            case DOUBLE -> p.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.DOUBLE;
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                    p.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT96
                            || (p.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT64
                                    && logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation);
            default -> false;
        };
        if (!ok) {
            throw unsupported(table, column, type, field);
        }
    }

    private static IllegalArgumentException unsupported(String table, String column, LogicalType type, Type field) {
        return new IllegalArgumentException("column type not supported: table=" + table + " column=" + column
                + " flinkType=" + type.asSummaryString() + " parquetType=" + field.toString().trim());
    }
}
