package dev.stringview.spark;

import dev.stringview.spark.internal.FileScan;

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.FileFormat;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The drop-in's optimizer rule: in every {@code LogicalRelation} over a {@code HadoopFsRelation} read by Spark's own
 * {@link ParquetFileFormat} (that very class: subclasses such as Delta's or Hudi's keep theirs), puts the
 * replacement format in its place, when every data and partition column is a flat type it reads; the relation's
 * files, partitions, schema, options and output attributes stay as they are. Off when the session's
 * {@code spark.stringview.enabled} is {@code false}.
 */
final class ParquetSwap extends Rule<LogicalPlan> {
    private final FileFormat replacement;

    ParquetSwap(FileFormat replacement) {
        this.replacement = replacement;
    }

    @Override
    public String ruleName() {
        return "StringviewParquetSwap";
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        if (!Boolean.parseBoolean(SQLConf.get().getConfString(StringviewExtensions.ENABLED, "true").trim())) {
            return plan;
        }
        return swap(plan);
    }

    private LogicalPlan swap(LogicalPlan plan) {
        LogicalPlan mapped = plan.mapChildren(this::swap);
        if (mapped instanceof LogicalRelation relation && !relation.isStreaming()
                && relation.relation() instanceof HadoopFsRelation files
                && files.fileFormat().getClass() == ParquetFileFormat.class
                && flat(files.dataSchema()) && flat(files.partitionSchema())) {
            HadoopFsRelation ours = files.copy(files.location(), files.partitionSchema(), files.dataSchema(),
                    files.bucketSpec(), replacement, files.options(), files.sparkSession());
            Object[] args = new Object[relation.productArity()];
            for (int i = 0; i < args.length; i++) {
                args[i] = relation.productElement(i);
            }
            args[0] = ours;
            return relation.makeCopy(args);
        }
        return mapped;
    }

    private static boolean flat(StructType schema) {
        for (StructField f : schema.fields()) {
            if (!FileScan.readable(f.dataType())) {
                return false;
            }
        }
        return true;
    }
}
