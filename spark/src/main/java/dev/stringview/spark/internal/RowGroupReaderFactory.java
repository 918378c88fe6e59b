package dev.stringview.spark.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Creates the executors' readers: columnar always; rows (when Spark asks) by walking the batches' rows. */
final class RowGroupReaderFactory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;
    private final ScanPlan plan;

    RowGroupReaderFactory(ScanPlan plan) {
        this.plan = plan;
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return true;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        try {
            return new RowGroupReader((RowGroupPartition) partition, plan);
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /** Rows of the columnar batches; each row is valid until the next call to {@code next()}, as Spark expects. */
    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        PartitionReader<ColumnarBatch> batches = createColumnarReader(partition);
        return new PartitionReader<>() {
            private java.util.Iterator<InternalRow> rows = java.util.Collections.emptyIterator();
            private InternalRow row;

            @Override
            public boolean next() throws IOException {
                while (!rows.hasNext()) {
                    if (!batches.next()) {
                        return false;
                    }
                    rows = batches.get().rowIterator();
                }
                row = rows.next();
                return true;
            }

            @Override
            public InternalRow get() {
                return row;
            }

            @Override
            public void close() throws IOException {
                batches.close();
            }
        };
    }
}
