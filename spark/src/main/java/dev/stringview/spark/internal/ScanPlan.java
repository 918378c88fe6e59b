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
 * for, the string and other columns to read (the output's plus those only the filter needs), the filter, the
 * batch size and the reader options.
 */
record ScanPlan(StructType output, List<String> stringColumns, List<String> flatColumns, RowFilter filter,
        int batchSize, boolean validateUtf8) implements Serializable {
    private static final long serialVersionUID = 1L;

    ScanPlan {
        stringColumns = List.copyOf(stringColumns);
        flatColumns = List.copyOf(flatColumns);
    }

    /** The columns to read: the output's, then the filter's that the output lacks, split into strings and others. */
    static ScanPlan of(StructType table, StructType output, RowFilter filter, int batchSize, boolean validateUtf8) {
        List<String> strings = new ArrayList<>();
        List<String> flats = new ArrayList<>();
        for (StructField field : output.fields()) {
            (isView(field.dataType()) ? strings : flats).add(field.name());
        }
        if (filter != null) {
            for (String column : filter.columns()) {
                if (!strings.contains(column)) {
                    strings.add(column);
                }
            }
        }
        return new ScanPlan(output, strings, flats, filter, batchSize, validateUtf8);
    }

    /** Read as views: string and binary columns. */
    static boolean isView(DataType type) {
        return type instanceof org.apache.spark.sql.types.StringType
                || type instanceof org.apache.spark.sql.types.BinaryType;
    }
}
