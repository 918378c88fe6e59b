package dev.stringview.spark.internal;

import dev.stringview.parquet.BatchFilter;
import dev.stringview.parquet.ParquetColumn;
import dev.stringview.parquet.ParquetSource;
import dev.stringview.parquet.ParquetSources;
import dev.stringview.parquet.ParquetType;
import dev.stringview.parquet.ParquetType.Logical;
import dev.stringview.parquet.ParquetType.Physical;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.RowFilter;
import java.io.IOException;
import java.io.Serializable;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.DataSourceUtils;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.util.SerializableConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Function1;
import scala.collection.Iterator;
import scala.runtime.AbstractFunction1;

/**
 * The reader function a file scan runs on the executors for each file split ({@code FileFormat}'s
 * {@code PartitionedFile => Iterator[InternalRow]}), decided on the driver and shipped with the tasks: which
 * columns to read (the output's, then those only the filter needs), the one {@link RowFilter}, batch size, whether
 * Spark takes batches, the rebase modes, the Hadoop configuration, and Spark's own reader function for the files
 * this one cannot read.
 *
 * <p>Per split: the file is opened through {@link ParquetSources} (memory-mapped when it is local, else through the
 * Hadoop {@code FileSystem} of its scheme with the session's configuration), and the reader reads the row groups
 * whose midpoint lies in the split ({@link ParquetViewOptions#withSplit}, as Spark's reader decides), leaving out
 * those that the filter's statistics, bloom filters and dictionaries prove hold no TRUE row
 * ({@link ParquetViewOptions#withFilter}). A file that the reader refuses when it opens it (a column missing from
 * the file, a nested, encrypted or otherwise unsupported column, a column whose Parquet type is not the one Spark
 * asks for) goes to Spark's own reader instead, which reads it or fails the way Spark fails.
 */
public final class FileScan extends AbstractFunction1<PartitionedFile, Iterator<InternalRow>> implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(FileScan.class);

    private final StructType required;
    private final StructType partitionSchema;
    private final List<String> columns;
    private final RowFilter filter;
    private final int batchSize;
    private final boolean validateUtf8;
    private final boolean verifyChecksums;
    private final boolean returningBatch;
    private final boolean unsafeRows;
    private final String datetimeRebaseMode;
    private final String int96RebaseMode;
    private final Broadcast<SerializableConfiguration> hadoopConf;
    private final Function1<PartitionedFile, Iterator<InternalRow>> fallback;

    /**
     * @param required the data columns Spark wants, in its order
     * @param filter the pushed filters' translation, or null
     * @param returningBatch whether Spark takes {@code ColumnarBatch}es (else rows)
     * @param unsafeRows in row mode, whether Spark expects {@code UnsafeRow}s (it converts other rows itself only
     *     while its vectorized Parquet reader is on)
     * @param fallback Spark's own reader function for the same scan
     */
    public FileScan(StructType required, StructType partitionSchema, RowFilter filter, int batchSize,
            boolean validateUtf8, boolean verifyChecksums, boolean returningBatch, boolean unsafeRows, String datetimeRebaseMode,
            String int96RebaseMode, Broadcast<SerializableConfiguration> hadoopConf,
            Function1<PartitionedFile, Iterator<InternalRow>> fallback) {
        this.required = required;
        this.partitionSchema = partitionSchema;
        List<String> names = new ArrayList<>(List.of(required.fieldNames()));
        if (filter != null) {
            for (String c : filter.columns()) {
                if (!names.contains(c)) {
                    names.add(c);
                }
            }
        }
        this.columns = List.copyOf(names);
        this.filter = filter;
        this.batchSize = batchSize;
        this.validateUtf8 = validateUtf8;
        this.verifyChecksums = verifyChecksums;
        this.returningBatch = returningBatch;
        this.unsafeRows = unsafeRows;
        this.datetimeRebaseMode = datetimeRebaseMode;
        this.int96RebaseMode = int96RebaseMode;
        this.hadoopConf = hadoopConf;
        this.fallback = fallback;
    }

    StructType required() {
        return required;
    }

    StructType partitionSchema() {
        return partitionSchema;
    }

    /** What Spark receives: the data columns, then the partition columns. */
    StructType outputSchema() {
        List<StructField> fields = new ArrayList<>(List.of(required.fields()));
        fields.addAll(List.of(partitionSchema.fields()));
        return new StructType(fields.toArray(StructField[]::new));
    }

    List<String> columns() {
        return columns;
    }

    int batchSize() {
        return batchSize;
    }

    boolean returningBatch() {
        return returningBatch;
    }

    boolean unsafeRows() {
        return unsafeRows;
    }

    RowFilter filter() {
        return filter;
    }

    /** Spark types this reader hands over: flat types of Spark's own Parquet reader. */
    public static boolean readable(DataType type) {
        return type instanceof StringType || type instanceof BinaryType || type instanceof BooleanType
                || type instanceof ByteType || type instanceof ShortType || type instanceof IntegerType
                || type instanceof LongType || type instanceof FloatType || type instanceof DoubleType
                || type instanceof DateType || type instanceof TimestampType || type instanceof TimestampNTZType
                || type instanceof DecimalType;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Iterator<InternalRow> apply(PartitionedFile file) {
        FileBatches ours = open(file);
        return ours != null ? (Iterator<InternalRow>) (Iterator<?>) ours : fallback.apply(file);
    }

    /** This reader over the split, or null when the file goes to Spark's reader. */
    private FileBatches open(PartitionedFile file) {
        org.apache.hadoop.fs.Path path = file.toPath();
        Arena arena = Arena.ofConfined();
        ParquetSource source = null;
        ParquetViewReader reader = null;
        String refused;
        try {
            java.net.URI uri = path.toUri();
            source = "file".equals(uri.getScheme()) ? ParquetSources.map(java.nio.file.Path.of(uri), arena)
                    : ParquetSources.hadoop(path, hadoopConf.value().value());
            ParquetViewOptions options = ParquetViewOptions.defaults().withColumns(columns).withBatchSize(batchSize)
                    .withUtf8Validation(validateUtf8).withChecksumVerification(verifyChecksums)
                    .withBatchScopedMemory(true)
                    .withSplit(file.start(), file.length()).withFilter(filter);
            reader = ParquetViewReader.open(source, arena, options);
            refused = unfit(reader);
            if (refused == null) {
                BatchFilter rows = filter == null ? null : BatchFilter.of(filter, reader);
                return new FileBatches(path.toString(), this, arena, source, reader, rows, rebase(reader),
                        file.partitionValues());
            }
        } catch (IOException | RuntimeException e) { // what Spark's reader then does is Spark's answer
            refused = e.toString();
        }
        LOG.info("stringview: file read by Spark's Parquet reader: file={} reason={}", path, refused);
        try (Arena a = arena; ParquetSource s = source; ParquetViewReader r = reader) {
            // closes what was opened, in reverse order
        } catch (IOException | RuntimeException e) {
            LOG.debug("stringview: closing a refused file: file={}", path, e);
        }
        return null;
    }

    /** Why a projected column cannot be handed to Spark as the type Spark asks for, or null if all can. */
    private String unfit(ParquetViewReader reader) {
        List<ParquetColumn> read = reader.columns();
        for (int i = 0; i < required.fields().length; i++) {
            StructField field = required.fields()[i];
            ParquetColumn column = read.get(i);
            if (!fits(column, field.dataType())) {
                return "column type differs: column=" + field.name() + " parquetType=" + column.type()
                        + " sparkType=" + field.dataType().sql();
            }
        }
        return null;
    }

    /** Whether a Parquet column reads as Spark type {@code t} the way Spark's own reader reads it. */
    static boolean fits(ParquetColumn column, DataType t) {
        ParquetType p = column.type();
        boolean signedInt = p.logical() == Logical.NONE || (p.logical() == Logical.INTEGER && p.signed());
        return switch (t) {
            case StringType s -> column.kind() != null;
            case BinaryType b -> column.kind() != null;
            case BooleanType b -> p.physical() == Physical.BOOLEAN;
            case ByteType b -> p.physical() == Physical.INT32 && p.logical() == Logical.INTEGER && p.signed()
                    && p.bitWidth() == 8;
            case ShortType s -> p.physical() == Physical.INT32 && p.logical() == Logical.INTEGER
                    && (p.signed() ? p.bitWidth() <= 16 : p.bitWidth() == 8);
            case IntegerType i -> p.physical() == Physical.INT32
                    && (signedInt || (p.logical() == Logical.INTEGER && p.bitWidth() <= 16));
            case LongType l -> (p.physical() == Physical.INT64 && signedInt)
                    || (p.physical() == Physical.INT32 && (signedInt || p.logical() == Logical.INTEGER));
            case FloatType f -> p.physical() == Physical.FLOAT && p.logical() == Logical.NONE;
            case DoubleType d -> (p.physical() == Physical.DOUBLE || p.physical() == Physical.FLOAT)
                    && p.logical() == Logical.NONE;
            case DateType d -> p.physical() == Physical.INT32 && p.logical() == Logical.DATE;
            case TimestampType ts -> p.physical() == Physical.INT96 || (p.physical() == Physical.INT64
                    && p.logical() == Logical.TIMESTAMP && p.adjustedToUtc() && p.unit() != ParquetType.TimeUnit.NANOS);
            case TimestampNTZType ts -> p.physical() == Physical.INT64 && p.logical() == Logical.TIMESTAMP
                    && !p.adjustedToUtc() && p.unit() != ParquetType.TimeUnit.NANOS;
            case DecimalType d -> (p.logical() == Logical.DECIMAL && p.scale() == d.scale()
                    && p.precision() <= d.precision())
                    || (p.physical() == Physical.INT64 && p.logical() == Logical.INTEGER && !p.signed()
                            && d.precision() == 20 && d.scale() == 0);
            default -> false;
        };
    }

    /** Per output column, Spark's rebase of dates and timestamps before the Gregorian switch for this file. */
    private FixedWidthColumnVector.Rebase[] rebase(ParquetViewReader reader) {
        Map<String, String> meta = reader.keyValueMetadata();
        FixedWidthColumnVector.Rebase datetime = rebase(DataSourceUtils.datetimeRebaseSpec(lookup(meta),
                datetimeRebaseMode));
        FixedWidthColumnVector.Rebase int96 = rebase(DataSourceUtils.int96RebaseSpec(lookup(meta), int96RebaseMode));
        List<ParquetColumn> read = reader.columns();
        FixedWidthColumnVector.Rebase[] out = new FixedWidthColumnVector.Rebase[required.fields().length];
        for (int i = 0; i < out.length; i++) {
            out[i] = read.get(i).type().physical() == Physical.INT96 ? int96 : datetime;
        }
        return out;
    }

    private static FixedWidthColumnVector.Rebase rebase(org.apache.spark.sql.catalyst.util.RebaseDateTime.RebaseSpec spec) {
        String mode = spec.mode().toString();
        return switch (mode) {
            case "CORRECTED" -> null;
            case "LEGACY" -> new FixedWidthColumnVector.Rebase(true, spec.timeZone());
            default -> new FixedWidthColumnVector.Rebase(false, null);
        };
    }

    private static Function1<String, String> lookup(Map<String, String> meta) {
        return new AbstractFunction1<>() {
            @Override
            public String apply(String key) {
                return meta.get(key);
            }
        };
    }

    /** Throws {@code e} unchecked: Spark (Scala) catches IOExceptions from a file iterator that Java cannot declare. */
    @SuppressWarnings("unchecked")
    static <E extends Throwable> RuntimeException sneakyThrow(Throwable e) throws E {
        throw (E) e;
    }
}
