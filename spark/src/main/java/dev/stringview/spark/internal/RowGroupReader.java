package dev.stringview.spark.internal;

import dev.stringview.parquet.BatchFilter;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.ViewBatch;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads one row group into Spark batches through one {@link ParquetViewReader}: string and binary columns as views
 * ({@link ViewColumnVector}), every other column in Arrow's fixed-width layout ({@link FixedWidthColumnVector});
 * evaluates the pushed filter with our kernels and hands Spark only the rows it keeps, through selections rather
 * than copies.
 *
 * <p>Memory. The file is mapped into an arena this reader owns; the view reader frees a batch's views, values,
 * bitmaps and the pages it read past when {@link #next()} moves on, so memory stays at about one batch and a few
 * pages per column however large the row group. A batch returned by {@link #get()} therefore stays valid exactly
 * until the next {@code next()} or {@link #close()}: the same contract as Spark's own reused vectors. {@code close()}
 * unmaps the file; it is idempotent, as Spark may call it from the task's completion listener after the reader
 * was already exhausted. The arenas are confined to the task thread that opened the reader, which is where Spark
 * drives a partition reader; another thread touching a batch gets {@link WrongThreadException}, never freed memory.
 */
final class RowGroupReader implements PartitionReader<ColumnarBatch> {
    private final RowGroupPartition partition;
    private final ScanPlan plan;
    private final Arena arena;
    private final ParquetViewReader reader; // null when no column is read (count-only scans)
    private final BatchFilter filter;
    private final int[] selection;
    private final DataType[] outputTypes;
    private final int[] outputIndex; // index in plan.columns()
    private long rowsLeft;
    private ColumnarBatch current;
    private boolean closed;

    RowGroupReader(RowGroupPartition partition, ScanPlan plan) throws IOException {
        this.partition = partition;
        this.plan = plan;
        this.rowsLeft = partition.rows();
        Path path = Path.of(partition.file());
        Arena opened = Arena.ofConfined();
        ParquetViewReader opening = null;
        try {
            if (!plan.columns().isEmpty()) {
                opening = ParquetViewReader.open(path, opened, ParquetViewOptions.defaults()
                        .withColumns(plan.columns()).withBatchSize(plan.batchSize())
                        .withUtf8Validation(plan.validateUtf8()).withBatchScopedMemory(true));
                opening.seekRowGroup(partition.rowGroup());
            }
        } catch (IOException | RuntimeException e) {
            if (opening != null) {
                opening.close();
            }
            opened.close();
            throw e;
        }
        this.arena = opened;
        this.reader = opening;
        this.filter = plan.filter() == null ? null : BatchFilter.of(plan.filter(), opening);
        this.selection = new int[plan.batchSize()];
        StructField[] fields = plan.output().fields();
        this.outputTypes = new DataType[fields.length];
        this.outputIndex = new int[fields.length];
        for (int i = 0; i < fields.length; i++) {
            outputTypes[i] = fields[i].dataType();
            outputIndex[i] = plan.columns().indexOf(fields[i].name());
        }
    }

    @Override
    public boolean next() throws IOException {
        if (closed) {
            throw new IllegalStateException("reader is closed: file=" + partition.file() + " rowGroup="
                    + partition.rowGroup());
        }
        current = null;
        while (rowsLeft > 0) {
            int rows;
            ViewBatch batch = null;
            if (reader != null) {
                batch = reader.nextBatch(); // frees the previous batch
                if (batch == null || batch.rowGroup() != partition.rowGroup()) {
                    throw new IllegalStateException("row group ended early: file=" + partition.file()
                            + " rowGroup=" + partition.rowGroup() + " rowsLeft=" + rowsLeft);
                }
                rows = batch.rowCount();
            } else {
                rows = (int) Math.min(plan.batchSize(), rowsLeft);
            }
            rowsLeft -= rows;
            int[] selected = null;
            int kept = rows;
            if (filter != null) {
                kept = filter.select(batch, selection);
                if (kept == 0) {
                    continue; // nothing for Spark in this batch
                }
                selected = kept == rows ? null : selection;
            }
            ColumnVector[] vectors = new ColumnVector[outputTypes.length];
            for (int i = 0; i < vectors.length; i++) {
                int c = outputIndex[i];
                vectors[i] = batch.isFixedWidth(c)
                        ? new FixedWidthColumnVector(outputTypes[i], batch.fixedWidthColumn(c), selected, kept)
                        : new ViewColumnVector(outputTypes[i], batch.column(c), selected, kept);
            }
            current = new ColumnarBatch(vectors, kept);
            return true;
        }
        return false;
    }

    @Override
    public ColumnarBatch get() {
        if (current == null) {
            throw new IllegalStateException("no current batch: file=" + partition.file() + " rowGroup="
                    + partition.rowGroup());
        }
        return current;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        current = null;
        try {
            if (reader != null) {
                reader.close();
            }
        } finally {
            arena.close();
        }
    }
}
