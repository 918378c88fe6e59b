package dev.stringview.flink.internal;

import dev.stringview.ViewColumn;
import dev.stringview.parquet.BatchFilter;
import dev.stringview.parquet.FixedWidthColumn;
import dev.stringview.parquet.ParquetScan;
import dev.stringview.parquet.RowFilter;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.ViewBatch;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.io.DefaultInputSplitAssigner;
import org.apache.flink.api.common.io.RichInputFormat;
import org.apache.flink.api.common.io.statistics.BaseStatistics;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.InputSplitAssigner;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Reads the splits (row groups) of a table through one {@link ParquetViewReader} with batch-scoped memory: string
 * and binary columns as views, the other columns as {@link FixedWidthColumn}s; runs the pushed filter on each batch
 * and emits only the rows where it is TRUE.
 *
 * <p>Memory. The file is mapped into an arena this format owns while a split is open, and the view reader frees
 * each batch's views, values, bitmaps and the pages it read past when it reads the next batch. The other columns'
 * values of an emitted row are read into Flink's own values (boxed, as {@link GenericRowData} holds them) when the
 * row is made, while its batch is alive. The strings of the emitted
 * rows are copied once, into one heap {@code byte[]} per batch and column set, which the emitted
 * {@link BinaryStringData}s point into (no {@code java.lang.String} is made). They are not wrapped by address:
 * Flink may hold an emitted row after the source has moved on (chained operators with object reuse, buffers) and
 * reads {@code BinaryStringData} through {@code Unsafe} without a liveness check, so a row pointing into a freed
 * batch could read unmapped memory. Rows the filter drops are never copied.
 *
 * <p>The reader is opened lazily by the first {@link #reachedEnd()}, in the thread that reads: the view reader's
 * batch memory is confined to that thread.
 */
final class ViewInputFormat extends RichInputFormat<RowData, RowGroupSplit> {
    private static final long serialVersionUID = 1L;

    private final TableLayout layout;
    private final int[] projection;
    private final RowFilter filter;
    private final int batchSize;
    private final boolean validateUtf8;

    private transient RowGroupSplit split;
    private transient Arena arena;
    private transient ParquetViewReader reader;
    private transient BatchFilter compiled;
    private transient ViewBatch viewBatch;
    private transient int[] outputColumn; // per output field: index in the reader's columns
    private transient boolean[] outputString;
    private transient boolean[] outputFixed;
    private transient long rowsLeft;
    private transient ViewColumn[] outputViews; // per output field of the current batch, or null
    private transient FixedWidthColumn[] outputFixedColumns; // per output field of the current batch, or null
    private transient int[] selection;
    private transient int kept;
    private transient int cursor;
    private transient org.apache.flink.core.memory.MemorySegment[] block;
    private transient int[] blockOffsets; // [output field * kept + i]

    ViewInputFormat(TableLayout layout, int[] projection, RowFilter filter, int batchSize, boolean validateUtf8) {
        this.layout = layout;
        this.projection = projection;
        this.filter = filter;
        this.batchSize = batchSize;
        this.validateUtf8 = validateUtf8;
    }

    @Override
    public void configure(Configuration parameters) {}

    @Override
    public BaseStatistics getStatistics(BaseStatistics cachedStatistics) {
        return cachedStatistics;
    }

    @Override
    public RowGroupSplit[] createInputSplits(int minNumSplits) {
        List<RowGroupSplit> splits = new ArrayList<>();
        for (String file : layout.files()) {
            org.apache.parquet.hadoop.metadata.ParquetMetadata footer = TableLayout.footer(file);
            // Row groups where parquet-reader's pruning proves the filter never TRUE get no split.
            List<Integer> read;
            try {
                read = filter == null ? null : ParquetScan.of(Path.of(file)).rowGroupsToRead(filter);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot plan splits: table=" + layout.table() + " file="
                        + file + ": " + e.getMessage(), e);
            }
            for (int g = 0; g < footer.getBlocks().size(); g++) {
                long rows = footer.getBlocks().get(g).getRowCount();
                if (rows > 0 && (read == null || read.contains(g))) {
                    splits.add(new RowGroupSplit(splits.size(), file, g, rows));
                }
            }
        }
        return splits.toArray(RowGroupSplit[]::new);
    }

    @Override
    public InputSplitAssigner getInputSplitAssigner(RowGroupSplit[] splits) {
        return new DefaultInputSplitAssigner(splits);
    }

    @Override
    public void open(RowGroupSplit split) {
        this.split = split;
        this.rowsLeft = split.rows();
        this.kept = 0;
        this.cursor = 0;
        this.reader = null;
        this.arena = null;
    }

    private void start() throws IOException {
        Set<String> columns = new LinkedHashSet<>();
        outputString = new boolean[projection.length];
        outputFixed = new boolean[projection.length];
        for (int i = 0; i < projection.length; i++) {
            int field = projection[i];
            LogicalTypeRoot root = layout.type(field).getTypeRoot();
            outputString[i] = root == LogicalTypeRoot.VARCHAR || root == LogicalTypeRoot.CHAR;
            outputFixed[i] = !layout.isView(field);
            columns.add(layout.name(field));
        }
        if (filter != null) {
            columns.addAll(filter.columns());
        }
        List<String> names = List.copyOf(columns);
        outputColumn = new int[projection.length];
        for (int i = 0; i < projection.length; i++) {
            outputColumn[i] = names.indexOf(layout.name(projection[i]));
        }
        outputViews = new ViewColumn[projection.length];
        outputFixedColumns = new FixedWidthColumn[projection.length];
        Arena opened = Arena.ofShared(); // Flink may close the format from a thread other than the reading one
        try {
            if (!names.isEmpty()) {
                reader = ParquetViewReader.open(Path.of(split.file()), opened, ParquetViewOptions.defaults()
                        .withColumns(names).withBatchSize(batchSize).withUtf8Validation(validateUtf8)
                        .withBatchScopedMemory(true));
                reader.seekRowGroup(split.rowGroup());
            }
        } catch (IOException | RuntimeException e) {
            closeReader(opened);
            throw e;
        }
        arena = opened;
        compiled = filter == null ? null : BatchFilter.of(filter, reader);
        selection = new int[batchSize];
    }

    @Override
    public boolean reachedEnd() throws IOException {
        if (split == null) {
            throw new IllegalStateException("no split open: table=" + layout.table());
        }
        if (arena == null && rowsLeft > 0) {
            start();
        }
        while (cursor >= kept) {
            if (rowsLeft == 0) {
                return true;
            }
            nextBatch();
        }
        return false;
    }

    private void nextBatch() throws IOException {
        int rows;
        if (reader != null) {
            ViewBatch b = reader.nextBatch(); // frees the previous batch
            if (b == null || b.rowGroup() != split.rowGroup()) {
                throw new IllegalStateException("row group ended early: table=" + layout.table() + " file="
                        + split.file() + " rowGroup=" + split.rowGroup() + " rowsLeft=" + rowsLeft);
            }
            rows = b.rowCount();
            viewBatch = b;
            for (int f = 0; f < projection.length; f++) {
                outputViews[f] = outputFixed[f] ? null : b.column(outputColumn[f]);
                outputFixedColumns[f] = outputFixed[f] ? b.fixedWidthColumn(outputColumn[f]) : null;
            }
        } else {
            rows = (int) Math.min(batchSize, rowsLeft);
        }
        rowsLeft -= rows;
        if (compiled != null) {
            kept = compiled.select(viewBatch, selection);
        } else {
            for (int i = 0; i < rows; i++) {
                selection[i] = i;
            }
            kept = rows;
        }
        cursor = 0;
        copyStrings();
    }

    /** Copies the emitted rows' STRING values into one heap block, so the rows outlive the batch's memory. */
    private void copyStrings() {
        long total = 0;
        for (int f = 0; f < projection.length; f++) {
            if (outputString[f]) {
                ViewColumn c = outputViews[f];
                for (int i = 0; i < kept; i++) {
                    total += c.length(selection[i]);
                }
            }
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("batch strings exceed 2 GiB: table=" + layout.table() + " file="
                    + split.file() + " rowGroup=" + split.rowGroup() + " bytes=" + total + " batchSize=" + batchSize);
        }
        byte[] bytes = new byte[(int) total];
        MemorySegment heap = MemorySegment.ofArray(bytes);
        block = new org.apache.flink.core.memory.MemorySegment[] {MemorySegmentFactory.wrap(bytes)};
        if (blockOffsets == null || blockOffsets.length < projection.length * kept) {
            blockOffsets = new int[Math.max(projection.length * batchSize, 1)];
        }
        int offset = 0;
        for (int f = 0; f < projection.length; f++) {
            if (!outputString[f]) {
                continue;
            }
            ViewColumn c = outputViews[f];
            for (int i = 0; i < kept; i++) {
                MemorySegment value = c.segment(selection[i]);
                blockOffsets[f * kept + i] = offset;
                if (value != null) {
                    MemorySegment.copy(value, 0, heap, offset, value.byteSize());
                    offset += (int) value.byteSize();
                }
            }
        }
    }

    @Override
    public RowData nextRecord(RowData reuse) {
        int row = selection[cursor];
        GenericRowData out = new GenericRowData(projection.length);
        for (int f = 0; f < projection.length; f++) {
            if (outputFixed[f]) {
                out.setField(f, FlinkValues.value(outputFixedColumns[f], layout.type(projection[f]), row));
            } else {
                ViewColumn c = outputViews[f];
                if (c.isNull(row)) {
                    out.setField(f, null);
                } else if (outputString[f]) {
                    out.setField(f, BinaryStringData.fromAddress(block, blockOffsets[f * kept + cursor],
                            c.length(row)));
                } else {
                    out.setField(f, c.segment(row).toArray(ValueLayout.JAVA_BYTE));
                }
            }
        }
        cursor++;
        return out;
    }

    @Override
    public void close() throws IOException {
        Arena a = arena;
        arena = null;
        outputViews = null;
        outputFixedColumns = null;
        viewBatch = null;
        block = null;
        closeReader(a);
        split = null;
    }

    private void closeReader(Arena a) throws IOException {
        try {
            if (reader != null) {
                reader.close();
            }
        } finally {
            reader = null;
            if (a != null) {
                a.close();
            }
        }
    }
}
