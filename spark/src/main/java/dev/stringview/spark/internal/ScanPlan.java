package dev.stringview.spark.internal;

import dev.stringview.parquet.RowFilter;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * What every partition reads, decided on the driver and shipped to the executors: the output schema Spark asked
 * for, the columns to read (the output's plus those only the filter needs), the filter, the batch size and the
 * reader options.
 */
record ScanPlan(StructType output, List<String> columns, RowFilter filter, int batchSize, boolean validateUtf8)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    ScanPlan {
        columns = List.copyOf(columns);
    }

    /** The columns to read: the output's, then the filter's that the output lacks. */
    static ScanPlan of(StructType table, StructType output, RowFilter filter, int batchSize, boolean validateUtf8) {
        List<String> columns = new ArrayList<>();
        for (StructField field : output.fields()) {
            columns.add(field.name());
        }
        if (filter != null) {
            for (String column : filter.columns()) {
                if (!columns.contains(column)) {
                    columns.add(column);
                }
            }
        }
        return new ScanPlan(output, columns, filter, batchSize, validateUtf8);
    }

    /** Read as views: string and binary columns. */
    static boolean isView(DataType type) {
        return type instanceof org.apache.spark.sql.types.StringType
                || type instanceof org.apache.spark.sql.types.BinaryType;
    }
}
