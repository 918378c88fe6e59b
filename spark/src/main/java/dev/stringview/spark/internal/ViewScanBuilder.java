package dev.stringview.spark.internal;

import dev.stringview.parquet.RowFilter;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.types.StructType;

/**
 * Takes the predicates our kernels evaluate exactly (see {@link PredicateTranslator}) and returns every other one
 * to Spark, which then evaluates it after the scan; keeps only the columns Spark needs.
 *
 * <p>With option {@code aggregatePushdown} (default false) the table hands out a {@link Counting} builder, which
 * takes {@code COUNT(*)} and {@code COUNT(column)} of a string or binary column without GROUP BY or DISTINCT when
 * every predicate was taken: the scan then returns one row of counts per partition ({@link CountScan}). Spark itself
 * offers aggregates only when no filter is left above the scan; the check here is the same rule. Off by default
 * because Spark 4.2 fails planning (an assertion in {@code V2ExpressionBuilder}'s translation of {@code NOT}) for
 * some aggregates over this module's V2 functions, e.g. {@code count_if(sv.fn.like_any(...))}, as soon as the
 * builder implements {@link SupportsPushDownAggregates}, before it is even asked.
 */
class ViewScanBuilder implements ScanBuilder, SupportsPushDownV2Filters, SupportsPushDownRequiredColumns {
    private final List<Path> files;
    private final StructType schema;
    private final int batchSize;
    private final boolean validateUtf8;
    private final boolean aggregatePushdown;
    private StructType required;
    private boolean predicatesLeft;
    private List<RowFilter> counts; // per pushed aggregate; null until one is pushed
    private final List<Predicate> pushed = new ArrayList<>();
    private RowFilter filter;

    ViewScanBuilder(List<Path> files, StructType schema, int batchSize, boolean validateUtf8,
            boolean aggregatePushdown) {
        this.files = files;
        this.schema = schema;
        this.required = schema;
        this.batchSize = batchSize;
        this.validateUtf8 = validateUtf8;
        this.aggregatePushdown = aggregatePushdown;
    }

    @Override
    public Predicate[] pushPredicates(Predicate[] predicates) {
        PredicateTranslator translator = new PredicateTranslator(schema);
        List<Predicate> rest = new ArrayList<>();
        for (Predicate p : predicates) {
            RowFilter f = translator.translate(p);
            if (f == null) {
                rest.add(p);
            } else {
                pushed.add(p);
                filter = filter == null ? f : RowFilter.and(filter, f);
            }
        }
        predicatesLeft |= !rest.isEmpty();
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

    /** The builder with aggregate pushdown: see the class comment. */
    static final class Counting extends ViewScanBuilder implements SupportsPushDownAggregates {
        Counting(List<Path> files, StructType schema, int batchSize, boolean validateUtf8) {
            super(files, schema, batchSize, validateUtf8, true);
        }
    }

    public boolean pushAggregation(Aggregation aggregation) {
        if (!aggregatePushdown || predicatesLeft || aggregation.groupByExpressions().length > 0) {
            return false;
        }
        List<RowFilter> wanted = new ArrayList<>();
        for (AggregateFunc f : aggregation.aggregateExpressions()) {
            if (f instanceof CountStar) {
                wanted.add(filter);
            } else if (f instanceof Count c && !c.isDistinct() && c.column() instanceof NamedReference r
                    && r.fieldNames().length == 1 && viewColumn(r.fieldNames()[0])) {
                RowFilter notNull = RowFilter.isNotNull(r.fieldNames()[0]);
                wanted.add(filter == null ? notNull : RowFilter.and(filter, notNull));
            } else {
                return false; // other aggregates, DISTINCT, expressions, non-string columns: Spark computes them
            }
        }
        counts = wanted;
        return true;
    }

    private boolean viewColumn(String name) {
        for (org.apache.spark.sql.types.StructField f : schema.fields()) {
            if (f.name().equals(name)) {
                return ScanPlan.isView(f.dataType());
            }
        }
        return false;
    }

    @Override
    public Scan build() {
        if (counts != null) {
            List<String> shown = new ArrayList<>();
            for (RowFilter f : counts) {
                shown.add(String.valueOf(f));
            }
            return new CountScan(files, new CountPlan(schema, counts, batchSize, validateUtf8), "counts=" + shown);
        }
        return new ViewScan(files, ScanPlan.of(schema, required, filter, batchSize, validateUtf8));
    }
}
