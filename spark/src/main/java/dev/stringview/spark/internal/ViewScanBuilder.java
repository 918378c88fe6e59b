package dev.stringview.spark.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.types.StructType;

/**
 * Takes the predicates our kernels evaluate exactly (see {@link PredicateTranslator}) and returns every other one
 * to Spark, which then evaluates it after the scan; keeps only the columns Spark needs.
 */
final class ViewScanBuilder implements ScanBuilder, SupportsPushDownV2Filters, SupportsPushDownRequiredColumns {
    private final List<Path> files;
    private final StructType schema;
    private final int batchSize;
    private final boolean validateUtf8;
    private StructType required;
    private final List<Predicate> pushed = new ArrayList<>();
    private StringFilter filter;

    ViewScanBuilder(List<Path> files, StructType schema, int batchSize, boolean validateUtf8) {
        this.files = files;
        this.schema = schema;
        this.required = schema;
        this.batchSize = batchSize;
        this.validateUtf8 = validateUtf8;
    }

    @Override
    public Predicate[] pushPredicates(Predicate[] predicates) {
        PredicateTranslator translator = new PredicateTranslator(schema);
        List<Predicate> rest = new ArrayList<>();
        for (Predicate p : predicates) {
            StringFilter f = translator.translate(p);
            if (f == null) {
                rest.add(p);
            } else {
                pushed.add(p);
                filter = filter == null ? f : new StringFilter.And(filter, f);
            }
        }
        return rest.toArray(Predicate[]::new);
    }

    @Override
    public Predicate[] pushedPredicates() {
        return pushed.toArray(Predicate[]::new);
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        this.required = requiredSchema;
    }

    @Override
    public Scan build() {
        return new ViewScan(files, ScanPlan.of(schema, required, filter, batchSize, validateUtf8));
    }
}
