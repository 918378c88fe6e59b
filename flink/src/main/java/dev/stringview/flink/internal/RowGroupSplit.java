package dev.stringview.flink.internal;

import org.apache.flink.core.io.InputSplit;

/** One row group of one file: the unit of parallelism. */
record RowGroupSplit(int splitNumber, String file, int rowGroup, long rows) implements InputSplit {
    @Override
    public int getSplitNumber() {
        return splitNumber;
    }
}
