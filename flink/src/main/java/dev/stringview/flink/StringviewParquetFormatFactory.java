package dev.stringview.flink;

import dev.stringview.flink.internal.ReadSettings;
import dev.stringview.flink.internal.ViewDecodingFormat;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.file.table.factories.BulkReaderFormatFactory;
import org.apache.flink.connector.file.table.format.BulkDecodingFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableFactory;

/**
 * The {@code 'format' = 'stringview-parquet'} format of Flink's filesystem connector: Parquet files read with their
 * string columns as 16-byte views, the pushed filters run on the views before any row is made, and only the rows
 * that pass handed to Flink, their strings as UTF-8 bytes ({@code BinaryStringData}). The connector supplies the
 * file system (local, HDFS, S3 and Flink's other file system plugins), file enumeration and splits, partition
 * directories with partition pruning, and continuous monitoring ({@code source.monitor-interval}). Registered
 * through {@code META-INF/services/org.apache.flink.table.factories.Factory}; a reading format only.
 *
 * <pre>{@code
 * CREATE TABLE hits (URL STRING, UserID BIGINT, dt STRING) PARTITIONED BY (dt)
 * WITH ('connector' = 'filesystem', 'path' = 'hdfs:///warehouse/hits', 'format' = 'stringview-parquet')
 * }</pre>
 *
 * <p>Memory: each split is read by one view reader whose memory is freed batch by batch; the strings of the rows
 * that pass are copied once into a heap block per batch that Flink's {@code StringData} point into (docs/flink.md,
 * "What is copied, and why").
 */
public final class StringviewParquetFormatFactory implements BulkReaderFormatFactory {
    /** The format identifier, the value of the connector's {@code format} option. */
    public static final String IDENTIFIER = "stringview-parquet";

    /** Rows per batch read from a row group; the filter runs on a batch at a time. */
    public static final ConfigOption<Integer> BATCH_SIZE = ConfigOptions.key("batch-size").intType()
            .defaultValue(4096).withDescription("Rows per batch the views are read and filtered in.");

    /** Whether STRING columns are validated as UTF-8 while reading (a bad value fails the read). */
    public static final ConfigOption<Boolean> VALIDATE_UTF8 = ConfigOptions.key("validate-utf8").booleanType()
            .defaultValue(true).withDescription("Validate STRING values as UTF-8 while reading.");

    /** Flink's own Parquet format's option of the same name, with the same meaning and default. */
    public static final ConfigOption<Boolean> UTC_TIMEZONE = ConfigOptions.key("utc-timezone").booleanType()
            .defaultValue(false).withDescription("TIMESTAMP values are the stored instants' UTC wall clock (else the"
                    + " JVM time zone's), as in Flink's own Parquet format.");

    /** For Flink's service loader. */
    public StringviewParquetFormatFactory() {}

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(BATCH_SIZE, VALIDATE_UTF8, UTC_TIMEZONE);
    }

    @Override
    public BulkDecodingFormat<RowData> createDecodingFormat(DynamicTableFactory.Context context,
            ReadableConfig formatOptions) {
        String table = context.getObjectIdentifier().asSummaryString();
        int batchSize = formatOptions.get(BATCH_SIZE);
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch-size must be positive: table=" + table + " batch-size="
                    + batchSize);
        }
        return new ViewDecodingFormat(table, context.getCatalogTable().getPartitionKeys(),
                new ReadSettings(batchSize, formatOptions.get(VALIDATE_UTF8), formatOptions.get(UTC_TIMEZONE)));
    }
}
