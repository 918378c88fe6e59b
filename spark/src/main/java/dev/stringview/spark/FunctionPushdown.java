package dev.stringview.spark;

import dev.stringview.parquet.RowFilter;
import dev.stringview.spark.internal.FilterTranslator;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.FilterExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;

/**
 * The drop-in's rule on the physical plan: a {@code Filter} right above a stringview file scan whose condition has
 * conjuncts calling this module's {@code like_any} / {@code starts_with_any} on the scan's string columns hands their
 * translation ({@link FilterTranslator#translateFunction}) to the scan's format, which then evaluates them with the
 * pushed filters. Spark's {@code Filter} stays and evaluates the whole condition again, so the scan only needs to
 * be exact on the rows where they are TRUE. Spark itself pushes no function call into a V1 file scan. It runs as
 * the pre-transition step of a {@code ColumnarRule}: on the whole plan without adaptive execution, on each query
 * stage with it.
 */
final class FunctionPushdown extends Rule<SparkPlan> {
    @Override
    public String ruleName() {
        return "StringviewFunctionPushdown";
    }

    @Override
    public SparkPlan apply(SparkPlan plan) {
        return push(plan);
    }

    private SparkPlan push(SparkPlan plan) {
        SparkPlan mapped = (SparkPlan) plan.mapChildren(this::push);
        if (mapped instanceof FilterExec filter && filter.child() instanceof FileSourceScanExec scan
                && scan.relation().fileFormat() instanceof StringviewFileFormat format && format.functions() == null) {
            HadoopFsRelation files = scan.relation();
            FilterTranslator translator = new FilterTranslator(files.dataSchema());
            List<RowFilter> taken = new ArrayList<>();
            for (Expression conjunct : conjuncts(filter.condition())) {
                RowFilter f = translator.translateFunction(conjunct);
                if (f != null) {
                    taken.add(f);
                }
            }
            if (taken.isEmpty()) {
                return mapped;
            }
            RowFilter functions = taken.size() == 1 ? taken.get(0) : new RowFilter.And(taken);
            HadoopFsRelation ours = files.copy(files.location(), files.partitionSchema(), files.dataSchema(),
                    files.bucketSpec(), format.withFunctions(functions), files.options(), files.sparkSession());
            Object[] args = new Object[scan.productArity()];
            for (int i = 0; i < args.length; i++) {
                args[i] = scan.productElement(i);
            }
            args[0] = ours;
            return (SparkPlan) filter.withNewChildren(
                    scala.jdk.javaapi.CollectionConverters.asScala(List.of((SparkPlan) scan.makeCopy(args))).toSeq());
        }
        return mapped;
    }

    private static List<Expression> conjuncts(Expression e) {
        List<Expression> out = new ArrayList<>();
        if (e instanceof And and) {
            out.addAll(conjuncts(and.left()));
            out.addAll(conjuncts(and.right()));
        } else {
            out.add(e);
        }
        return out;
    }
}
