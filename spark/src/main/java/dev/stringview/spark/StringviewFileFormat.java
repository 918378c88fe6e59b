package dev.stringview.spark;

import dev.stringview.parquet.RowFilter;
import dev.stringview.spark.internal.FileScan;
import dev.stringview.spark.internal.FilterTranslator;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.execution.datasources.parquet.ParquetOptions;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.util.SerializableConfiguration;
import scala.Function1;
import scala.Option;
import scala.collection.Iterator;
import scala.collection.immutable.Map;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark's Parquet file source with this library's reader: the {@code FileFormat} that {@code format("stringview")}
 * names (registered through {@code DataSourceRegister}) and that {@link StringviewExtensions} puts in place of
 * Spark's {@link ParquetFileFormat} in the plans of {@code spark.read.parquet}, {@code USING parquet} tables and
 * converted metastore tables. See docs/spark.md.
 *
 * <p>It is Spark's own {@code ParquetFileFormat} but for the reading of flat columns: listing, globs, partition
 * discovery and pruning, dynamic partition pruning, splits by {@code spark.sql.files.maxPartitionBytes}, schema
 * inference and merging, {@code _metadata} columns and writing all stay Spark's. Spark's scan node names the
 * format by {@link #shortName()}, so {@code EXPLAIN} shows {@code FileScan stringview}.
 *
 * <p>For each scan, when every column Spark asks for is a flat type this reader hands over, Spark receives
 * {@code ColumnarBatch}es (or, where Spark wants rows, their rows) read by parquet-reader's
 * {@code ParquetViewReader}: strings and binaries as {@code UTF8String}s by address, every other type from the
 * reader's off-heap values, partition values as Spark's constant vectors, and only the rows where the pushed
 * filters are TRUE. Otherwise, and for each file the reader refuses when it opens it, Spark's own reader reads;
 * in place of Spark's reader, also every scan that gives views no work (no string or binary column returned or
 * filtered).
 *
 * <p>Options (besides Spark's Parquet options): {@code batchSize} (rows per batch, default
 * {@code spark.sql.parquet.columnarReaderBatchSize}), {@code validateUtf8} (default true for
 * {@code format("stringview")}; false in place of Spark's reader, which does not check either) and
 * {@code verifyChecksums} (page CRCs; default true for {@code format("stringview")}; in place of Spark's reader,
 * what {@code parquet.page.verify-checksum.enabled} tells Spark's reader, false unless set).
 */
public final class StringviewFileFormat extends ParquetFileFormat {
    private static final long serialVersionUID = 1L;

    /** The option of {@code FileFormat} that tells a reader whether Spark takes batches. */
    private static final String RETURNING_BATCH = "returning_batch";
    /** parquet-java's setting ({@code ParquetInputFormat.PAGE_VERIFY_CHECKSUM_ENABLED}) for Spark's reader. */
    private static final String PAGE_VERIFY_CHECKSUM = "parquet.page.verify-checksum.enabled";

    private final boolean inPlaceOfParquet;
    /** Filters on this module's functions found above the scan ({@link FunctionPushdown}), or null. */
    private final RowFilter functions;

    /** The explicit form, {@code format("stringview")}: Spark instantiates it by reflection. */
    public StringviewFileFormat() {
        this(false, null);
    }

    /**
     * @param inPlaceOfParquet whether it stands in for Spark's reader (then UTF-8 is not checked by default)
     * @param functions filters on this module's functions that Spark evaluates above the scan, or null
     */
    StringviewFileFormat(boolean inPlaceOfParquet, RowFilter functions) {
        this.inPlaceOfParquet = inPlaceOfParquet;
        this.functions = functions;
    }

    /** The same format, also reading {@code filter} (a filter Spark evaluates above the scan as well). */
    StringviewFileFormat withFunctions(RowFilter filter) {
        return new StringviewFileFormat(inPlaceOfParquet, filter);
    }

    RowFilter functions() {
        return functions;
    }

    @Override
    public String shortName() {
        return "stringview";
    }

    /** The {@code Format} of the scan in {@code EXPLAIN}, with the function filters it was handed, if any. */
    @Override
    public String toString() {
        return functions == null ? "Stringview" : "Stringview[functions=" + functions + "]";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StringviewFileFormat s && s.inPlaceOfParquet == inPlaceOfParquet
                && java.util.Objects.equals(s.functions, functions);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(StringviewFileFormat.class, inPlaceOfParquet, functions);
    }

    /**
     * Spark's declared vector classes, which its generated code casts to: any {@code ColumnVector} for the data
     * columns (ours, or Spark's own for the files its reader reads), Spark's constant vectors for partition columns.
     */
    @Override
    public Option<Seq<String>> vectorTypes(StructType requiredSchema, StructType partitionSchema, SQLConf sqlConf) {
        java.util.List<String> types = new java.util.ArrayList<>();
        for (int i = 0; i < requiredSchema.fields().length; i++) {
            types.add(ColumnVector.class.getName());
        }
        for (int i = 0; i < partitionSchema.fields().length; i++) {
            types.add(ConstantColumnVector.class.getName());
        }
        return Option.<Seq<String>>apply(CollectionConverters.asScala(types).toList());
    }

    @Override
    public Function1<PartitionedFile, Iterator<InternalRow>> buildReaderWithPartitionValues(
            org.apache.spark.sql.SparkSession sparkSession, StructType dataSchema, StructType partitionSchema,
            StructType requiredSchema, Seq<Filter> filters, Map<String, String> options, Configuration hadoopConf) {
        // Spark's reader for this scan, for the files ours refuses (and all of them when ours cannot read it).
        Function1<PartitionedFile, Iterator<InternalRow>> spark = super.buildReaderWithPartitionValues(sparkSession,
                dataSchema, partitionSchema, requiredSchema, filters, options, hadoopConf);
        SQLConf conf = getSqlConf(sparkSession);
        if (!readable(dataSchema, requiredSchema, partitionSchema)
                || (conf.isParquetINT96TimestampConversion() && hasTimestamp(requiredSchema))) {
            return spark;
        }
        if (requiredSchema.fields().length == 0) {
            return spark; // no column to read: Spark counts rows from the footers
        }
        RowFilter filter = new FilterTranslator(dataSchema).translateAll(CollectionConverters.asJava(filters));
        if (functions != null) {
            filter = filter == null ? functions : RowFilter.and(filter, functions);
        }
        if (inPlaceOfParquet && !stringWork(dataSchema, requiredSchema, filter)) {
            // Nothing for views to do: no string column to hand over, no string filter to run. Spark's vectorized
            // reader decodes fixed-width columns into its own arrays faster than its generated code reads them
            // through our vectors (docs/spark.md, "What falls back"), so it reads such scans.
            return spark;
        }
        java.util.Map<String, String> opts = CollectionConverters.asJava(options);
        boolean returningBatch = conf.parquetVectorizedReaderEnabled()
                && "true".equals(opts.get(RETURNING_BATCH));
        int batchSize = Integer.parseInt(option(opts, "batchSize",
                String.valueOf(conf.parquetVectorizedReaderBatchSize())));
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive: batchSize=" + batchSize);
        }
        boolean validateUtf8 = Boolean.parseBoolean(option(opts, "validateUtf8", String.valueOf(!inPlaceOfParquet)));
        // In place of Spark's reader, page CRCs are checked when parquet-java's setting asks Spark's reader to check
        // them (off by default there): checking what Spark does not check only costs time.
        boolean verifyChecksums = Boolean.parseBoolean(option(opts, "verifyChecksums", String.valueOf(
                !inPlaceOfParquet || hadoopConf.getBoolean(PAGE_VERIFY_CHECKSUM, false))));
        ParquetOptions parquetOptions = new ParquetOptions(options, conf);
        Broadcast<SerializableConfiguration> broadcastConf =
                SerializableConfiguration.broadcast(sparkSession.sparkContext(), hadoopConf);
        return new FileScan(requiredSchema, partitionSchema, filter, batchSize, validateUtf8, verifyChecksums,
                returningBatch,
                !conf.parquetVectorizedReaderEnabled(), parquetOptions.datetimeRebaseModeInRead(),
                parquetOptions.int96RebaseModeInRead(), broadcastConf, spark);
    }

    private static String option(java.util.Map<String, String> options, String name, String otherwise) {
        for (java.util.Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return otherwise;
    }

    /** Whether ours reads the scan: every column it returns is a data column of a flat type it hands over. */
    static boolean readable(StructType dataSchema, StructType requiredSchema, StructType partitionSchema) {
        for (StructField field : requiredSchema.fields()) {
            if (!FileScan.readable(field.dataType()) || !hasColumn(dataSchema, field.name())) {
                return false; // e.g. nested, or the row index of _metadata that Spark's reader computes
            }
        }
        for (StructField field : partitionSchema.fields()) {
            if (!FileScan.readable(field.dataType())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a scan gives views work: it returns a string or binary column, or its filter (pushed filters and
     * this module's functions) tests one.
     */
    static boolean stringWork(StructType dataSchema, StructType requiredSchema, RowFilter filter) {
        for (StructField field : requiredSchema.fields()) {
            if (isStringOrBinary(field.dataType())) {
                return true;
            }
        }
        if (filter != null) {
            for (String column : filter.columns()) {
                for (StructField field : dataSchema.fields()) {
                    if (field.name().equalsIgnoreCase(column) && isStringOrBinary(field.dataType())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean isStringOrBinary(org.apache.spark.sql.types.DataType type) {
        return type instanceof org.apache.spark.sql.types.StringType
                || type instanceof org.apache.spark.sql.types.BinaryType;
    }

    private static boolean hasColumn(StructType schema, String name) {
        for (StructField f : schema.fields()) {
            if (f.name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasTimestamp(StructType schema) {
        for (StructField f : schema.fields()) {
            if (f.dataType() instanceof TimestampType) {
                return true;
            }
        }
        return false;
    }
}
