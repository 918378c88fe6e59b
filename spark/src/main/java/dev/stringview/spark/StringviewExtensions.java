package dev.stringview.spark;

import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.ColumnarRule;
import org.apache.spark.sql.execution.SparkPlan;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * The drop-in: {@code --conf spark.sql.extensions=dev.stringview.spark.StringviewExtensions} makes Spark read
 * Parquet through this library wherever it would use its own Parquet file source ({@code spark.read.parquet},
 * {@code CREATE TABLE ... USING parquet}, metastore Parquet tables Spark converts to its file source), with no
 * change to the job.
 *
 * <p>It adds an optimizer rule, which puts a {@link StringviewFileFormat} in place of Spark's
 * {@code ParquetFileFormat} in each file relation whose columns and partition columns are all flat types this
 * library reads (other relations, and subclasses of Spark's format such as Delta's or Hudi's, keep Spark's reader),
 * and a rule on the physical plan that hands the scan the filters on this module's functions
 * ({@code like_any}, {@code starts_with_any}) found right above it, which Spark itself never pushes into a file scan.
 * {@code EXPLAIN} names {@code stringview} in the scans it took. {@code spark.stringview.enabled=false} turns it
 * off for a session (it is read each time a query is planned). See docs/spark.md.
 */
public final class StringviewExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
    /** The session setting that turns the drop-in off ({@code false}); on by default. */
    public static final String ENABLED = "spark.stringview.enabled";

    /** Spark instantiates extensions by reflection. */
    public StringviewExtensions() {}

    @Override
    public BoxedUnit apply(SparkSessionExtensions extensions) {
        extensions.injectOptimizerRule(new AbstractFunction1<>() {
            @Override
            public ParquetSwap apply(org.apache.spark.sql.SparkSession session) {
                return new ParquetSwap(new StringviewFileFormat(true, null));
            }
        });
        // Before Spark inserts its row/columnar transitions: the only hook on the physical plan that runs with and
        // without adaptive execution.
        extensions.injectColumnar(new AbstractFunction1<>() {
            @Override
            public ColumnarRule apply(org.apache.spark.sql.SparkSession session) {
                return new ColumnarRule() {
                    @Override
                    public Rule<SparkPlan> preColumnarTransitions() {
                        return new FunctionPushdown();
                    }
                };
            }
        });
        return BoxedUnit.UNIT;
    }
}
