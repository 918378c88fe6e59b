package dev.stringview.spark.internal;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One input partition of a pushed-down count: slice {@code slice} of {@code slices} of one row group (see
 * {@code ParquetScan.countRowGroup}); {@code rows} is the row group's row count from the footer.
 */
record CountPartition(String file, int rowGroup, long rows, int slice, int slices) implements InputPartition {
    private static final long serialVersionUID = 1L;
}
