package dev.stringview.spark.internal;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** The Parquet file(s) at one path, read-only. */
public final class ViewTable implements SupportsRead {
    private final String path;
    private final List<Path> files;
    private final StructType schema;

    ViewTable(String path, List<Path> files, StructType schema) {
        this.path = path;
        this.files = files;
        this.schema = schema;
    }

    @Override
    public String name() {
        return "stringview:" + path;
    }

    @Override
    public StructType schema() {
        return schema;
    }

    @Override
    public Set<TableCapability> capabilities() {
        return Set.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return SourceOptions.aggregatePushdown(options)
                ? new ViewScanBuilder.Counting(files, schema, SourceOptions.batchSize(options),
                        SourceOptions.validateUtf8(options))
                : new ViewScanBuilder(files, schema, SourceOptions.batchSize(options),
                        SourceOptions.validateUtf8(options), false);
    }
}
