package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: read a column with the reader under test into plain byte arrays. */
final class Reading {
    private Reading() {}

    static List<byte[]> read(Path path, String column, ParquetViewOptions options) throws IOException {
        List<byte[]> values = new ArrayList<>();
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(path, arena, options.withColumns(column))) {
            long expectedFirst = 0;
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                assertEquals(expectedFirst, batch.firstRow(), "batches are consecutive");
                expectedFirst += batch.rowCount();
                ViewColumn col = batch.column(column);
                assertEquals(batch.rowCount(), col.size());
                checkWellFormed(col);
                for (int row = 0; row < col.size(); row++) {
                    values.add(col.bytes(row));
                }
            }
            assertEquals(reader.rowCount(), expectedFirst, "all rows read");
        }
        return values;
    }

    static List<byte[]> read(Path path, String column) throws IOException {
        return read(path, column, ParquetViewOptions.defaults());
    }

    /**
     * Re-validates the column with core's checked constructor: every view's length, padding, buffer index,
     * offset, prefix and (for UTF-8 columns) bytes.
     */
    static void checkWellFormed(ViewColumn column) {
        List<MemorySegment> buffers = new ArrayList<>();
        for (int i = 0; i < column.bufferCount(); i++) {
            buffers.add(column.buffer(i));
        }
        assertEquals(0, column.validityBitOffset());
        ViewColumn checked = ViewColumns.fromViews(column.kind(), column.size(), column.views(),
                column.validity().orElse(null), buffers);
        assertEquals(column.nullCount(), checked.nullCount());
    }
}
