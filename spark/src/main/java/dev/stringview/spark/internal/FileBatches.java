package dev.stringview.spark.internal;

import dev.stringview.parquet.BatchFilter;
import dev.stringview.parquet.ParquetSource;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.ViewBatch;
import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.Arena;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.execution.vectorized.ColumnVectorUtils;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.collection.AbstractIterator;

/**
 * What one task reads of one file split: Spark batches from one {@link ParquetViewReader}, string and binary
 * columns as views ({@link ViewColumnVector}), every other column in Arrow's fixed-width layout
 * ({@link FixedWidthColumnVector}), the split's partition values as Spark's {@link ConstantColumnVector}s after
 * them (as Spark's own reader appends them). The pushed filter is evaluated on each batch by our kernels and the
 * batch handed to Spark holds only the rows where it is TRUE, through a selection rather than a copy (Spark
 * evaluates its filters again above the scan, so this is where the speed comes from, never the answer). In row
 * mode (when Spark does not take batches) the same batches are walked row by row.
 *
 * <p>Memory. The reader frees a batch's views, values, bitmaps and the pages it read past when the next batch is
 * read, so memory stays at about one batch and a few pages per column. A batch is therefore valid until the next
 * {@link #hasNext()} that moves on, or {@link #close()}: Spark's own contract for its reused vectors. The file's
 * mapping (local files) lives in an arena this iterator owns. {@code close()} frees everything; it is idempotent
 * (Spark's {@code FileScanRDD} closes a file's iterator when it moves to the next file and again when the task
 * ends), and the iterator closes itself once the split is exhausted. The memory is confined to the task thread
 * that opened the reader, the thread Spark drives a file scan on; another thread touching a batch gets
 * {@link WrongThreadException}, never freed memory.
 */
final class FileBatches extends AbstractIterator<Object> implements Closeable {
    private final String file;
    private final FileScan plan;
    private final Arena arena;
    private final ParquetSource source;
    private final ParquetViewReader reader;
    private final BatchFilter filter; // null: no pushed filter
    private final int[] selection;
    private final int[] outputIndex; // per data column of the output: its index in the reader's projection
    private final DataType[] outputTypes;
    private final FixedWidthColumnVector.Rebase[] rebase; // per data column of the output
    private final InternalRow partitionValues;
    private final DataType[] partitionTypes;
    private final UnsafeProjection projection; // row mode only, when Spark expects UnsafeRows
    private ColumnarBatch pending;
    private java.util.Iterator<InternalRow> rows; // row mode: the current batch's rows
    private boolean closed;

    FileBatches(String file, FileScan plan, Arena arena, ParquetSource source, ParquetViewReader reader,
            BatchFilter filter, FixedWidthColumnVector.Rebase[] rebase, InternalRow partitionValues) {
        this.file = file;
        this.plan = plan;
        this.arena = arena;
        this.source = source;
        this.reader = reader;
        this.filter = filter;
        this.rebase = rebase;
        this.partitionValues = partitionValues;
        var partitionFields = plan.partitionSchema().fields();
        this.partitionTypes = new DataType[partitionFields.length];
        for (int i = 0; i < partitionFields.length; i++) {
            partitionTypes[i] = partitionFields[i].dataType();
        }
        this.selection = new int[plan.batchSize()];
        var fields = plan.required().fields();
        this.outputTypes = new DataType[fields.length];
        this.outputIndex = new int[fields.length];
        for (int i = 0; i < fields.length; i++) {
            outputTypes[i] = fields[i].dataType();
            outputIndex[i] = plan.columns().indexOf(fields[i].name());
        }
        this.projection = !plan.returningBatch() && plan.unsafeRows()
                ? UnsafeProjection.create(plan.outputSchema()) : null;
    }

    @Override
    public boolean hasNext() {
        if (plan.returningBatch()) {
            return pending != null || advance();
        }
        while (rows == null || !rows.hasNext()) {
            if (pending == null && !advance()) {
                return false;
            }
            rows = pending.rowIterator();
            pending = null;
        }
        return true;
    }

    @Override
    public Object next() {
        if (!hasNext()) {
            throw new java.util.NoSuchElementException("no more batches: file=" + file);
        }
        if (plan.returningBatch()) {
            ColumnarBatch batch = pending;
            pending = null;
            return batch;
        }
        InternalRow row = rows.next();
        return projection == null ? row : projection.apply(row);
    }

    /** Reads the next batch with a row the filter keeps into {@link #pending}; false (and closed) at the end. */
    private boolean advance() {
        if (closed) {
            return false;
        }
        try {
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                int rowCount = batch.rowCount();
                int kept = rowCount;
                int[] selected = null;
                if (filter != null) {
                    kept = filter.select(batch, selection);
                    if (kept == 0) {
                        continue; // nothing for Spark in this batch
                    }
                    selected = kept == rowCount ? null : selection;
                }
                ColumnVector[] vectors = new ColumnVector[outputTypes.length + partitionTypes.length];
                for (int i = 0; i < outputTypes.length; i++) {
                    int c = outputIndex[i];
                    vectors[i] = batch.isFixedWidth(c)
                            ? new FixedWidthColumnVector(outputTypes[i], batch.fixedWidthColumn(c), selected, kept,
                                    rebase[i])
                            : new ViewColumnVector(outputTypes[i], batch.column(c), selected, kept);
                }
                for (int p = 0; p < partitionTypes.length; p++) {
                    // A new one per batch: Spark may close a batch's vectors once it has read them.
                    ConstantColumnVector constant = new ConstantColumnVector(kept, partitionTypes[p]);
                    ColumnVectorUtils.populate(constant, partitionValues, p);
                    vectors[outputTypes.length + p] = constant;
                }
                pending = new ColumnarBatch(vectors, kept);
                return true;
            }
        } catch (IOException e) {
            throw FileScan.<RuntimeException>sneakyThrow(e); // Spark's FileScanRDD handles IOExceptions itself
        }
        close();
        return false;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        pending = null;
        rows = null;
        try (Arena a = arena; ParquetSource s = source; ParquetViewReader r = reader) {
            // closes the reader, then the source, then unmaps the file
        } catch (IOException e) {
            throw FileScan.<RuntimeException>sneakyThrow(e);
        }
    }
}
