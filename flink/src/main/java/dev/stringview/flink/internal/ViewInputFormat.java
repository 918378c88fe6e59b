package dev.stringview.flink.internal;

import dev.stringview.ViewColumn;
import dev.stringview.parquet.BatchFilter;
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
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Reads the splits (row groups) of a table: string and binary columns as views through {@link ParquetViewReader}
 * with batch-scoped memory, the other columns through parquet-java ({@link FlatColumns}); runs the pushed filter on
 * each batch's views and emits only the rows where it is TRUE.
 *
 * <p>Memory. The file is mapped into an arena this format owns while a split is open, and the view reader frees
 * each batch's views, bitmaps and the pages it read past when it reads the next batch. The strings of the emitted
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
    private transient ParquetViewReader views;
    private transient FlatColumns flats;
    private transient BatchFilter compiled;
    private transient ViewBatch viewBatch;
    private transient List<String> viewNames;
    private transient int[] outputView; // per output field: index in viewNames, or -1
    private transient int[] outputFlat; // per output field: index in the flat columns, or -1
    private transient boolean[] outputString;
    private transient long rowsLeft;
    private transient List<ViewColumn> batch;
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
        this.views = null;
        this.flats = null;
        this.arena = null;
    }

    private void start() throws IOException {
        Set<String> viewColumns = new LinkedHashSet<>();
        List<String> flatColumns = new ArrayList<>();
        List<LogicalType> flatTypes = new ArrayList<>();
        outputView = new int[projection.length];
        outputFlat = new int[projection.length];
        outputString = new boolean[projection.length];
        for (int i = 0; i < projection.length; i++) {
            int field = projection[i];
            LogicalTypeRoot root = layout.type(field).getTypeRoot();
            outputString[i] = root == LogicalTypeRoot.VARCHAR || root == LogicalTypeRoot.CHAR;
            if (layout.isView(field)) {
                viewColumns.add(layout.name(field));
            } else if (!flatColumns.contains(layout.name(field))) {
                flatColumns.add(layout.name(field));
                flatTypes.add(layout.type(field));
            }
        }
        if (filter != null) {
            viewColumns.addAll(filter.columns());
        }
        viewNames = List.copyOf(viewColumns);
        for (int i = 0; i < projection.length; i++) {
            outputView[i] = viewNames.indexOf(layout.name(projection[i]));
            outputFlat[i] = layout.isView(projection[i]) ? -1 : flatColumns.indexOf(layout.name(projection[i]));
        }
        Arena opened = Arena.ofShared(); // Flink may close the format from a thread other than the reading one
        try {
            if (!viewNames.isEmpty()) {
                views = ParquetViewReader.open(Path.of(split.file()), opened, ParquetViewOptions.defaults()
                        .withColumns(viewNames).withBatchSize(batchSize).withUtf8Validation(validateUtf8)
                        .withBatchScopedMemory(true));
                views.seekRowGroup(split.rowGroup());
            }
            if (!flatColumns.isEmpty()) {
                flats = new FlatColumns(split.file(), split.rowGroup(), flatColumns, flatTypes, batchSize);
            }
        } catch (IOException | RuntimeException e) {
            closeReaders(opened);
            throw e;
        }
        arena = opened;
        compiled = filter == null ? null : BatchFilter.of(filter, views);
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
        batch = List.of();
        if (views != null) {
            ViewBatch b = views.nextBatch(); // frees the previous batch
            if (b == null || b.rowGroup() != split.rowGroup()) {
                throw new IllegalStateException("row group ended early: table=" + layout.table() + " file="
                        + split.file() + " rowGroup=" + split.rowGroup() + " rowsLeft=" + rowsLeft);
            }
            rows = b.rowCount();
            batch = b.columns();
            viewBatch = b;
        } else {
            rows = (int) Math.min(batchSize, rowsLeft);
        }
        rowsLeft -= rows;
        if (flats != null) {
            flats.read(rows);
        }
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
                ViewColumn c = batch.get(outputView[f]);
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
            ViewColumn c = batch.get(outputView[f]);
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
            if (outputView[f] >= 0) {
                ViewColumn c = batch.get(outputView[f]);
                if (c.isNull(row)) {
                    out.setField(f, null);
                } else if (outputString[f]) {
                    out.setField(f, BinaryStringData.fromAddress(block, blockOffsets[f * kept + cursor],
                            c.length(row)));
                } else {
                    out.setField(f, c.segment(row).toArray(ValueLayout.JAVA_BYTE));
                }
            } else {
                out.setField(f, flats.value(outputFlat[f], row));
            }
        }
        cursor++;
        return out;
    }

    @Override
    public void close() throws IOException {
        Arena a = arena;
        arena = null;
        batch = null;
        block = null;
        closeReaders(a);
        split = null;
    }

    private void closeReaders(Arena a) throws IOException {
        try {
            if (views != null) {
                views.close();
            }
        } finally {
            views = null;
            try {
                if (flats != null) {
                    flats.close();
                }
            } finally {
                flats = null;
                if (a != null) {
                    a.close();
                }
            }
        }
    }
}
