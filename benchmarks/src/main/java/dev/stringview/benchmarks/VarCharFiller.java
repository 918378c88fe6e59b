package dev.stringview.benchmarks;

import java.nio.ByteBuffer;
import org.apache.arrow.vector.VarCharVector;
import org.apache.parquet.io.api.Binary;

/**
 * parquet-java's values copied into an Arrow {@link VarCharVector}, as an Arrow Java user would fill one; every
 * {@code batchRows} values the subclass's {@link #flush()} hands the batch on and resets the vector.
 */
abstract class VarCharFiller implements ParquetFiles.BinaryVisitor {
    final VarCharVector vector;
    private final int batchRows;
    /** Values in the current batch. */
    int index;

    VarCharFiller(VarCharVector vector, int batchRows) {
        this.vector = vector;
        this.batchRows = batchRows;
    }

    @Override
    public final void value(Binary value) {
        if (value == null) {
            vector.setNull(index);
        } else {
            ByteBuffer bytes = value.toByteBuffer();
            vector.setSafe(index, bytes, bytes.position(), bytes.remaining());
        }
        if (++index == batchRows) {
            flush();
        }
    }

    /** Hands the {@link #index} values on, then resets the vector and {@link #index} for the next batch. */
    abstract void flush();
}
