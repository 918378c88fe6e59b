package dev.stringview.spark.internal;

import dev.stringview.parquet.BatchFilter;

import dev.stringview.ViewColumn;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.ViewBatch;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads one row group into Spark batches: string and binary columns as views ({@link ParquetViewReader}, batch-scoped
 * memory), the other columns with parquet-java ({@link FlatColumnReader}); evaluates the pushed filter with our
 * kernels and hands Spark only the rows it keeps, through selections rather than copies.
 *
 * <p>Memory. The file is mapped into an arena this reader owns; the view reader frees a batch's views, bitmaps
 * and the pages it read past when {@link #next()} moves on, so memory stays at about one batch and a few pages
 * per column however large the row group. A batch returned by {@link #get()} therefore stays valid exactly until
 * the next {@code next()} or {@link #close()}: the same contract as Spark's own reused vectors. {@code close()}
 * unmaps the file; it is idempotent, as Spark may call it from the task's completion listener after the reader
 * was already exhausted. The arenas are confined to the task thread that opened the reader, which is where Spark
 * drives a partition reader; another thread touching a batch gets {@link WrongThreadException}, never freed memory.
 */
final class RowGroupReader implements PartitionReader<ColumnarBatch> {
    private final RowGroupPartition partition;
    private final ScanPlan plan;
    private final Arena arena;
    private final ParquetViewReader views;
    private final FlatColumnReader flats;
    private final BatchFilter filter;
    private final int[] selection;
    private final DataType[] outputTypes;
    private final int[] outputStringIndex; // index in plan.stringColumns(), or -1
    private final int[] outputFlatIndex; // index in plan.flatColumns(), or -1
    private long rowsLeft;
    private ColumnarBatch current;
    private boolean closed;

    RowGroupReader(RowGroupPartition partition, ScanPlan plan) throws IOException {
        this.partition = partition;
        this.plan = plan;
        this.rowsLeft = partition.rows();
        Path path = Path.of(partition.file());
        Arena opened = Arena.ofConfined();
        ParquetViewReader viewReader = null;
        FlatColumnReader flatReader = null;
        try {
            if (!plan.stringColumns().isEmpty()) {
                viewReader = ParquetViewReader.open(path, opened, ParquetViewOptions.defaults()
                        .withColumns(plan.stringColumns()).withBatchSize(plan.batchSize())
                        .withUtf8Validation(plan.validateUtf8()).withBatchScopedMemory(true));
                viewReader.seekRowGroup(partition.rowGroup());
            }
            if (!plan.flatColumns().isEmpty()) {
                List<DataType> types = new ArrayList<>();
                for (String name : plan.flatColumns()) {
                    types.add(plan.output().apply(name).dataType());
                }
                flatReader = new FlatColumnReader(path, partition.rowGroup(), plan.flatColumns(), types,
                        plan.batchSize());
            }
        } catch (IOException | RuntimeException e) {
            if (viewReader != null) {
                viewReader.close();
            }
            opened.close();
            throw e;
        }
        this.arena = opened;
        this.views = viewReader;
        this.flats = flatReader;
        this.filter = plan.filter() == null ? null : BatchFilter.of(plan.filter(), viewReader);
        this.selection = new int[plan.batchSize()];
        StructField[] fields = plan.output().fields();
        this.outputTypes = new DataType[fields.length];
        this.outputStringIndex = new int[fields.length];
        this.outputFlatIndex = new int[fields.length];
        for (int i = 0; i < fields.length; i++) {
            outputTypes[i] = fields[i].dataType();
            outputStringIndex[i] = plan.stringColumns().indexOf(fields[i].name());
            outputFlatIndex[i] = plan.flatColumns().indexOf(fields[i].name());
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
            List<ViewColumn> strings = List.of();
            ViewBatch batch = null;
            if (views != null) {
                batch = views.nextBatch(); // frees the previous batch
                if (batch == null || batch.rowGroup() != partition.rowGroup()) {
                    throw new IllegalStateException("row group ended early: file=" + partition.file()
                            + " rowGroup=" + partition.rowGroup() + " rowsLeft=" + rowsLeft);
                }
                rows = batch.rowCount();
                strings = batch.columns();
            } else {
                rows = (int) Math.min(plan.batchSize(), rowsLeft);
            }
            rowsLeft -= rows;
            if (flats != null) {
                flats.read(rows);
            }
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
                if (outputStringIndex[i] >= 0) {
                    vectors[i] = new ViewColumnVector(outputTypes[i], strings.get(outputStringIndex[i]), selected,
                            kept);
                } else {
                    ColumnVector flat = flats.vector(outputFlatIndex[i]);
                    vectors[i] = selected == null ? new SelectedColumnVector(flat, identity(kept), kept)
                            : new SelectedColumnVector(flat, selected, kept);
                }
            }
            current = new ColumnarBatch(vectors, kept);
            return true;
        }
        return false;
    }

    private int[] identityRows = new int[0];

    /** Rows 0..n-1: the flat vectors are reused across batches, so Spark gets a view that does not close them. */
    private int[] identity(int n) {
        if (identityRows.length < n) {
            identityRows = new int[Math.max(n, plan.batchSize())];
            for (int i = 0; i < identityRows.length; i++) {
                identityRows[i] = i;
            }
        }
        return identityRows;
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
            if (views != null) {
                views.close();
            }
        } finally {
            try {
                if (flats != null) {
                    flats.close();
                }
            } finally {
                arena.close();
            }
        }
    }
}
