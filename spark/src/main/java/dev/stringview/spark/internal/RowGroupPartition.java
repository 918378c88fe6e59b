package dev.stringview.spark.internal;

import org.apache.spark.sql.connector.read.InputPartition;

/** One Spark input partition: one row group of one file. */
record RowGroupPartition(String file, int rowGroup, long rows) implements InputPartition {
    private static final long serialVersionUID = 1L;
}
