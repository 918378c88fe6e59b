package dev.stringview.flink.internal;

import dev.stringview.ViewColumn;
import dev.stringview.parquet.BatchFilter;
import dev.stringview.parquet.FixedWidthColumn;
import dev.stringview.parquet.ParquetColumn;
import dev.stringview.parquet.ParquetSource;
import dev.stringview.parquet.ParquetSources;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.ViewBatch;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.MutableRecordAndPosition;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.columnar.ColumnarRowData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;
import org.apache.flink.table.data.columnar.vector.heap.HeapBytesVector;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Reads one {@link FileSourceSplit}: the row groups whose midpoint lies in {@code [offset, offset + length)}
 * ({@code ParquetViewOptions.withSplit}, parquet-java's rule, so the splits of a file read each row group once),
 * less those the filter's statistics, bloom filters or dictionaries prove hold no TRUE row
 * ({@code withFilter}). Each batch is filtered on its views by {@link BatchFilter}, and only the rows where the
 * filter is TRUE reach Flink, as rows of a heap {@link VectorizedColumnBatch}.
 *
 * <p><b>Memory.</b> The file is memory-mapped when Flink's file system for it is the local one, else read through
 * {@link FlinkFileSource} into segments the view reader allocates. The view reader uses batch-scoped memory: each
 * batch, with the decompressed pages and dictionaries its views point into, is freed when the next is read, so live
 * off-heap memory is about one batch and one row group of column chunks. That memory is confined to the thread that
 * opened the reader, which is Flink's split fetcher thread: it also calls {@link #readBatch()} and {@link #close()}.
 * The rows handed to Flink live on the heap, because the task thread iterates them while the fetcher thread reads
 * on: the STRING and BYTES values of the rows that pass are copied once into one heap {@code byte[]} per column and
 * batch (Flink's {@code HeapBytesVector}; no {@code java.lang.String}, no per-value array), the other values into
 * Flink's primitive heap vectors. The row handed out is one {@link ColumnarRowData} moved along the batch, as
 * Flink's own Parquet reader hands out its rows; Flink copies a row it keeps.
 *
 * <p><b>Positions.</b> A checkpoint stores, for the last row handed out, the row group and file row at which its
 * batch starts ({@link #offset}) and how many passing rows from there were handed out. Restoring seeks to that row
 * group, reads from the batch holding that row and skips as many passing rows: the filter is deterministic, so they
 * are the same rows.
 */
final class ViewSplitReader implements BulkFormat.Reader<RowData> {
    /** File rows fit in 40 bits of a position's offset; the row group takes the bits above. */
    private static final int ROW_BITS = 40;
    private static final long ROW_MASK = (1L << ROW_BITS) - 1;

    private final ViewBulkFormat format;
    private final String file;
    private final Arena arena;
    private final ParquetSource source;
    private final ParquetViewReader reader;
    private final BatchFilter filter;
    /** Per produced field: the batch column it reads, and how. */
    private final int[] batchColumn;
    private final FlinkValues[] conversion;
    private final LogicalType[] types;
    /** Whether the row carries no column at all (count(*)): the reader reads one column only for the row count. */
    private final boolean noColumns;
    private final int[] selection;

    /** While restoring: the file row to start from, and the passing rows from there to skip. */
    private long restoreRow = -1;
    private long restoreSkip;

    private ViewSplitReader(ViewBulkFormat format, String file, Arena arena, ParquetSource source,
            ParquetViewReader reader, BatchFilter filter, int[] batchColumn, FlinkValues[] conversion,
            LogicalType[] types, boolean noColumns) {
        this.format = format;
        this.file = file;
        this.arena = arena;
        this.source = source;
        this.reader = reader;
        this.filter = filter;
        this.batchColumn = batchColumn;
        this.conversion = conversion;
        this.types = types;
        this.noColumns = noColumns;
        this.selection = new int[format.settings().batchSize()];
    }

    /** Opens {@code split}, at {@code position} (a restore) or at its start (null). */
    static ViewSplitReader open(ViewBulkFormat format, FileSourceSplit split, CheckpointedPosition position)
            throws IOException {
        Path path = split.path();
        String file = path.toString();
        RowType produced = format.produced();
        List<String> columns = format.columnsRead();
        boolean noColumns = columns.isEmpty();
        if (noColumns) {
            columns = List.of(countColumn(format.fileRow(), format.table()));
        }
        ReadSettings settings = format.settings();
        ParquetViewOptions options = ParquetViewOptions.defaults().withColumns(columns)
                .withBatchSize(settings.batchSize()).withUtf8Validation(settings.validateUtf8())
                .withBatchScopedMemory(true).withSplit(split.offset(), split.length());
        if (format.filter() != null) {
            options = options.withFilter(format.filter());
        }
        // Shared: the mapping and the source are closed by close(), which Flink may call from another thread.
        Arena arena = Arena.ofShared();
        ParquetSource source = null;
        ParquetViewReader reader = null;
        try {
            source = isLocal(path) ? ParquetSources.map(java.nio.file.Path.of(path.toUri()), arena)
                    : FlinkFileSource.open(path, split.fileSize());
            reader = ParquetViewReader.open(source, arena, options);
            List<ParquetColumn> read = reader.columns();
            int[] batchColumn = new int[produced.getFieldCount()];
            FlinkValues[] conversion = new FlinkValues[batchColumn.length];
            LogicalType[] types = new LogicalType[batchColumn.length];
            for (int i = 0; i < batchColumn.length; i++) {
                String name = produced.getFieldNames().get(i);
                batchColumn[i] = columns.indexOf(name);
                types[i] = produced.getTypeAt(i);
                conversion[i] = FlinkValues.of(file, name, types[i], read.get(batchColumn[i]));
            }
            BatchFilter filter = format.filter() == null ? null : BatchFilter.of(format.filter(), reader);
            ViewSplitReader opened = new ViewSplitReader(format, file, arena, source, reader, filter, batchColumn,
                    conversion, types, noColumns);
            if (position != null) {
                opened.seek(position);
            }
            return opened;
        } catch (IOException | RuntimeException e) {
            try {
                if (reader != null) {
                    reader.close();
                }
                if (source != null) {
                    source.close();
                }
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            } finally {
                arena.close();
            }
            if (e instanceof IllegalArgumentException bad) {
                throw new IllegalArgumentException(bad.getMessage() + " table=" + format.table(), bad);
            }
            throw e;
        }
    }

    /** Whether Flink reads {@code path} from the local file system (then it is memory-mapped). */
    private static boolean isLocal(Path path) throws IOException {
        return "file".equals(path.getFileSystem().getUri().getScheme()) && "file".equals(path.toUri().getScheme());
    }

    /**
     * The column read when a query needs none (count(*)): the first fixed-width one declared, else the first. The
     * reader needs a column to count rows by; a fixed-width one is the cheapest to decode.
     */
    private static String countColumn(RowType fileRow, String table) {
        if (fileRow.getFieldCount() == 0) {
            throw new IllegalArgumentException("table has no columns stored in its files: table=" + table);
        }
        for (int i = 0; i < fileRow.getFieldCount(); i++) {
            switch (fileRow.getTypeAt(i).getTypeRoot()) {
                case CHAR, VARCHAR, BINARY, VARBINARY -> { }
                default -> {
                    return fileRow.getFieldNames().get(i);
                }
            }
        }
        return fileRow.getFieldNames().get(0);
    }

    private void seek(CheckpointedPosition position) {
        long offset = position.getOffset();
        restoreSkip = position.getRecordsAfterOffset();
        if (offset == CheckpointedPosition.NO_OFFSET) {
            restoreRow = 0;
            return;
        }
        restoreRow = offset & ROW_MASK;
        reader.seekRowGroup((int) (offset >>> ROW_BITS));
    }

    /** A position offset: the row group and the file row the counted rows start at. */
    private static long offset(int rowGroup, long row) {
        return ((long) rowGroup << ROW_BITS) | row;
    }

    @Override
    public BulkFormat.RecordIterator<RowData> readBatch() throws IOException {
        for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
            int rows = batch.rowCount();
            long first = batch.firstRow();
            int from = 0;
            long base = first;
            long skip = 0;
            if (restoreRow >= 0) {
                if (first + rows <= restoreRow) {
                    continue; // wholly before the restored position
                }
                from = (int) Math.max(0, restoreRow - first);
                base = Math.max(first, restoreRow);
                skip = restoreSkip;
                restoreRow = -1;
            }
            int kept = select(batch, from);
            if (skip > kept) { // only when the batch size changed since the checkpoint
                restoreRow = first + rows;
                restoreSkip = skip - kept;
                continue;
            }
            if (kept == skip) {
                continue;
            }
            int count = kept - (int) skip;
            VectorizedColumnBatch passing = noColumns ? null : materialize(batch, (int) skip, kept);
            return new Rows(passing, count, offset(batch.rowGroup(), base), skip);
        }
        return null;
    }

    /** Writes the rows at or after {@code from} where the filter is TRUE to {@link #selection}; returns how many. */
    private int select(ViewBatch batch, int from) {
        int rows = batch.rowCount();
        int kept;
        if (filter != null) {
            kept = filter.select(batch, selection);
        } else {
            for (int i = 0; i < rows; i++) {
                selection[i] = i;
            }
            kept = rows;
        }
        if (from == 0) {
            return kept;
        }
        int n = 0;
        for (int i = 0; i < kept; i++) {
            if (selection[i] >= from) {
                selection[n++] = selection[i];
            }
        }
        return n;
    }

    /** Rows {@code selection[start..end)} as a heap batch (see the class comment for what is copied). */
    private VectorizedColumnBatch materialize(ViewBatch batch, int start, int end) {
        int count = end - start;
        int fields = conversion.length;
        ColumnVector[] vectors = new ColumnVector[fields];
        boolean utc = format.settings().utcTimestamp();
        for (int f = 0; f < fields; f++) {
            FlinkValues v = conversion[f];
            vectors[f] = v.isView() ? strings(batch, batchColumn[f], start, count)
                    : v.vector(batch.fixedWidthColumn(batchColumn[f]), types[f], selection, start, count, utc);
        }
        VectorizedColumnBatch out = new VectorizedColumnBatch(vectors);
        out.setNumRows(count);
        return out;
    }

    /** The values of rows {@code selection[start..start + count)} of a view column, copied into one heap block. */
    private HeapBytesVector strings(ViewBatch batch, int column, int start, int count) {
        ViewColumn c = batch.column(column);
        long bytes = 0;
        for (int i = 0; i < count; i++) {
            bytes += c.length(selection[start + i]);
        }
        if (bytes > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("batch strings exceed 2 GiB: table=" + format.table() + " file=" + file
                    + " firstRow=" + batch.firstRow() + " column=" + c + " bytes=" + bytes + " rows=" + count
                    + " batchSize=" + format.settings().batchSize());
        }
        HeapBytesVector out = new HeapBytesVector(count);
        byte[] block = new byte[(int) bytes];
        MemorySegment heap = MemorySegment.ofArray(block);
        int at = 0;
        for (int i = 0; i < count; i++) {
            int row = selection[start + i];
            if (c.isNull(row)) {
                out.setNullAt(i);
                continue;
            }
            MemorySegment value = c.segment(row);
            int length = (int) value.byteSize();
            MemorySegment.copy(value, 0, heap, at, length);
            out.start[i] = at;
            out.length[i] = length;
            at += length;
        }
        out.buffer = block;
        return out;
    }

    @Override
    public void close() throws IOException {
        try {
            reader.close();
        } finally {
            try {
                source.close();
            } finally {
                arena.close();
            }
        }
    }

    /**
     * One batch's passing rows, all at one offset, the {@code k}th counted {@code skipped + k} from it. As Flink's
     * own Parquet reader does, the row handed out is one {@link ColumnarRowData} moved along the batch; with no
     * column (count(*)), one empty row.
     */
    private static final class Rows implements BulkFormat.RecordIterator<RowData> {
        private static final RowData EMPTY = new GenericRowData(0);

        private final ColumnarRowData row;
        private final int count;
        private final MutableRecordAndPosition<RowData> position = new MutableRecordAndPosition<>();
        private int next;

        Rows(VectorizedColumnBatch rows, int count, long offset, long skipped) {
            this.row = rows == null ? null : new ColumnarRowData(rows);
            this.count = count;
            position.set(null, offset, skipped);
        }

        @Override
        public RecordAndPosition<RowData> next() {
            if (next == count) {
                return null;
            }
            if (row == null) {
                position.setNext(EMPTY);
            } else {
                row.setRowId(next);
                position.setNext(row);
            }
            next++;
            return position;
        }

        @Override
        public void releaseBatch() {
            // Heap vectors only: nothing to give back.
        }
    }
}
