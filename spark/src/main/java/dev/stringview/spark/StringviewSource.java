package dev.stringview.spark;

import dev.stringview.spark.internal.SourceOptions;
import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The Spark data source {@code spark.read.format("stringview").load(path)}: local Parquet files read with string
 * and binary columns as views, string predicates evaluated by stringview's kernels inside the scan. See
 * docs/spark.md.
 *
 * <p>Options: {@code path} (a file, or a directory read recursively), {@code batchSize} (rows per batch, default
 * 4096), {@code validateUtf8} (default true), {@code aggregatePushdown} (default false; true: {@code COUNT(*)}
 * and {@code COUNT(string column)} without GROUP BY, under filters that were all pushed, are counted inside the
 * scan). A user schema ({@code .schema(...)}) selects columns, and may give
 * string columns a collation.
 */
public final class StringviewSource implements TableProvider, DataSourceRegister {
    /** Spark instantiates the source by reflection. */
    public StringviewSource() {}

    @Override
    public String shortName() {
        return "stringview";
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return SourceOptions.inferSchema(options);
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        return SourceOptions.table(schema, properties, true);
    }

    @Override
    public boolean supportsExternalMetadata() {
        return true;
    }
}
