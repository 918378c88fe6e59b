package dev.stringview.flink;

import dev.stringview.flink.internal.ViewTableSource;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * The {@code 'connector' = 'stringview'} table source: reads local Parquet files (a file or a directory) with their
 * string columns as 16-byte views, runs pushed string filters ({@code =}, {@code <>}, {@code <}, {@code <=},
 * {@code >}, {@code >=}, {@code LIKE}, {@code IN}, {@code IS [NOT] NULL} and their {@code AND}/{@code OR}) with
 * stringview's kernels, and emits only the rows that pass. Registered through
 * {@code META-INF/services/org.apache.flink.table.factories.Factory}.
 *
 * <pre>{@code
 * CREATE TABLE hits (URL STRING, id BIGINT) WITH ('connector' = 'stringview', 'path' = '/data/hits.parquet')
 * }</pre>
 *
 * <p>Memory: each split (one Parquet row group) maps its file and reads it batch by batch into memory the reader
 * owns and frees when it moves to the next batch; the strings of the rows that pass the filter are copied once
 * into a heap block per batch that Flink's {@code StringData} point into (see docs/flink.md for why).
 */
public final class StringviewTableFactory implements DynamicTableSourceFactory {
    /** The factory identifier, the value of the {@code connector} option. */
    public static final String IDENTIFIER = "stringview";

    /** A Parquet file, or a directory whose {@code *.parquet} files are read (in name order, recursively). */
    public static final ConfigOption<String> PATH = ConfigOptions.key("path").stringType().noDefaultValue()
            .withDescription("A local Parquet file or a directory of them (file: URIs accepted).");

    /** Rows per batch read from a row group; the filter runs on a batch at a time. */
    public static final ConfigOption<Integer> BATCH_SIZE = ConfigOptions.key("batch-size").intType()
            .defaultValue(4096).withDescription("Rows per batch the views are read and filtered in.");

    /** Whether STRING columns are validated as UTF-8 while reading (a bad value fails the read). */
    public static final ConfigOption<Boolean> VALIDATE_UTF8 = ConfigOptions.key("validate-utf8").booleanType()
            .defaultValue(true).withDescription("Validate STRING values as UTF-8 while reading.");

    /** For Flink's service loader. */
    public StringviewTableFactory() {}

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(PATH);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(BATCH_SIZE, VALIDATE_UTF8);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        int batchSize = helper.getOptions().get(BATCH_SIZE);
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch-size must be positive: table=" + context.getObjectIdentifier()
                    + " batch-size=" + batchSize);
        }
        return ViewTableSource.create(context.getObjectIdentifier().asSummaryString(),
                helper.getOptions().get(PATH), context.getPhysicalRowDataType(), batchSize,
                helper.getOptions().get(VALIDATE_UTF8));
    }
}
