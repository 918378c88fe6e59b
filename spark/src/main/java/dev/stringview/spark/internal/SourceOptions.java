package dev.stringview.spark.internal;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The source's options ({@code path}, {@code batchSize}, {@code validateUtf8}, {@code aggregatePushdown}) and how a table is opened from
 * them: the schema inferred from the first file, or the user's schema checked against it.
 */
public final class SourceOptions {
    /** Spark's own columnar batch size ({@code spark.sql.parquet.columnarReaderBatchSize}). */
    static final int DEFAULT_BATCH_SIZE = 4096;

    private SourceOptions() {}

    static int batchSize(CaseInsensitiveStringMap options) {
        int size = options.getInt("batchSize", DEFAULT_BATCH_SIZE);
        if (size < 1) {
            throw new IllegalArgumentException("batchSize must be positive: batchSize=" + size);
        }
        return size;
    }

    /**
     * Whether {@code COUNT(*)} / {@code COUNT(column)} may be answered by the scan (see {@link CountScan}); off by
     * default, see {@link ViewScanBuilder} for the Spark bug that makes it opt-in.
     */
    static boolean aggregatePushdown(CaseInsensitiveStringMap options) {
        return options.getBoolean("aggregatePushdown", false);
    }

    static boolean validateUtf8(CaseInsensitiveStringMap options) {
        return options.getBoolean("validateUtf8", true);
    }

    static String path(Map<String, String> options) {
        String path = new CaseInsensitiveStringMap(options).get("path");
        if (path == null) {
            throw new IllegalArgumentException("option path is required: spark.read.format(\"stringview\")"
                    + ".load(path)" + (options.containsKey("paths") ? " (one path only: paths="
                    + options.get("paths") + ")" : ""));
        }
        return path;
    }

    /** The schema of the file(s) at the table's path: every top-level column must be readable. */
    public static StructType inferSchema(CaseInsensitiveStringMap options) {
        List<Path> files = ParquetLayout.files(path(options));
        try {
            return ParquetLayout.sparkSchema(ParquetLayout.footer(files.get(0)).getFileMetaData().getSchema());
        } catch (ParquetLayout.UnsupportedColumnException e) {
            throw SourceOptions.<RuntimeException>rethrow(unsupported(e.column, e.parquetType));
        }
    }

    /**
     * The table at the path. With a user schema, each of its columns must exist in every file with a type this
     * source reads as the user's type (a string column may carry any collation; predicates on collations other
     * than UTF8_BINARY are then left to Spark); the file's other columns, readable or not, are ignored.
     */
    public static ViewTable table(StructType schema, Map<String, String> properties, boolean userSchema) {
        String path = path(properties);
        List<Path> files = ParquetLayout.files(path);
        for (Path file : files) {
            MessageType fileSchema = ParquetLayout.footer(file).getFileMetaData().getSchema();
            Map<String, Type> byName = new HashMap<>();
            for (Type t : fileSchema.getFields()) {
                byName.put(t.getName(), t);
            }
            for (StructField field : schema.fields()) {
                Type t = byName.get(field.name());
                if (t == null) {
                    throw new IllegalArgumentException("column missing from file: file=" + file + " column="
                            + field.name() + " fileColumns=" + byName.keySet().stream().sorted().toList());
                }
                DataType readAs = ParquetLayout.sparkType(t);
                if (readAs == null) {
                    throw SourceOptions.<RuntimeException>rethrow(unsupported(field.name(), ParquetLayout.describe(t)));
                }
                if (!sameIgnoringCollation(readAs, field.dataType())) {
                    throw new IllegalArgumentException("column type differs: file=" + file + " column="
                            + field.name() + " fileType=" + readAs.sql() + " schemaType=" + field.dataType().sql()
                            + (userSchema ? "" : " (files of one table must share their columns' types)"));
                }
            }
        }
        return new ViewTable(path, files, schema);
    }

    private static boolean sameIgnoringCollation(DataType file, DataType wanted) {
        return file.equals(wanted) || (file instanceof StringType && wanted instanceof StringType);
    }

    /**
     * Throws {@code e} unchecked: Spark's {@link AnalysisException} is a checked exception in Java's eyes, but
     * Spark (Scala) throws it from these very methods without declaring it, and so must we.
     */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> RuntimeException rethrow(Throwable e) throws E {
        throw (E) e;
    }

    /** Spark's own error for a column type a data source cannot read. */
    static AnalysisException unsupported(String column, String parquetType) {
        Map<String, String> parameters = Map.of("format", "stringview", "columnName", "`" + column + "`",
                "columnType", "\"" + parquetType + "\"");
        return new AnalysisException("UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
                scala.collection.immutable.Map.from(scala.jdk.javaapi.CollectionConverters.asScala(parameters)));
    }
}
