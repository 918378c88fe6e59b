package dev.stringview.cli;

import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
import dev.stringview.arrow.ArrowIpc;
import dev.stringview.arrow.ArrowIpcWriter;
import dev.stringview.arrow.ViewTable;
import dev.stringview.arrow.ViewTableReader;
import dev.stringview.parquet.ParquetColumn;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.ViewBatch;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The Arrow side of the command line: {@code cat} on Arrow IPC files and streams, and {@code convert}. Public only
 * so that {@code ArrowInteropBenchmark} times the very conversion {@code stringview convert} runs.
 */
public final class ArrowCommands {
    /** Inputs at least this large report progress on stderr (at most once a second). */
    static final long PROGRESS_MIN_BYTES = 64L << 20;

    private ArrowCommands() {}

    /** Whether {@code file} starts like an Arrow IPC file or stream. */
    static boolean isArrowIpc(Path file) throws IOException {
        return ArrowIpc.detect(file).isPresent();
    }

    /** Calls {@code print} with each batch's column {@code column}, until it returns false (limit reached). */
    static void cat(Path file, String column, ColumnPrinter print) throws IOException {
        try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined()) {
            try (ViewTableReader reader = ArrowIpc.open(file, List.of(column), allocator, arena)) {
                while (reader.hasNext()) {
                    if (!print.print(reader.next().column(0))) {
                        break;
                    }
                }
            }
        }
    }

    /** Prints a column's rows; false when no more rows are wanted. */
    interface ColumnPrinter {
        boolean print(ViewColumn column) throws IOException;
    }

    /**
     * Converts the readable (or the named) string and binary columns of a Parquet file to an Arrow IPC file or
     * stream of Utf8View / BinaryView columns. Views point into the decompressed pages, and the writer writes from
     * there; a batch whose buffers hold more than twice the bytes its views reference (a page shared with other
     * batches) has its buffers cut to the span it references ({@link BufferTrim}), or is compacted if its values
     * are scattered, so that no page is written into the output more than about twice.
     */
    public static String convert(Path in, Path out, List<String> columns, boolean stream,
            ParquetViewOptions options, PrintStream err) throws IOException {
        long inputBytes = Files.size(in);
        boolean progress = inputBytes >= PROGRESS_MIN_BYTES;
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(in, arena, options.withColumns(columns));
                BufferAllocator allocator = new RootAllocator()) {
            List<String> skipped = new ArrayList<>();
            if (columns.isEmpty()) {
                List<ParquetColumn> schema = reader.schemaColumns();
                for (int i = 0; i < schema.size(); i++) {
                    if (schema.get(i) == null) {
                        skipped.add(reader.fieldNames().get(i));
                    }
                }
                if (reader.columns().isEmpty()) {
                    throw new IllegalArgumentException("no string or binary column to convert: file="
                            + in.getFileName() + " unreadable=" + skipped);
                }
            }
            List<String> names = reader.columns().stream().map(ParquetColumn::name).toList();
            List<ViewKind> kinds = reader.columns().stream().map(ParquetColumn::kind).toList();
            long rows = 0;
            int batches = 0;
            long lastReport = System.nanoTime();
            try (FileChannel channel = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
                    ArrowIpcWriter writer = stream ? ArrowIpcWriter.stream(channel, names, kinds, allocator)
                            : ArrowIpcWriter.file(channel, names, kinds, allocator)) {
                ViewBatch batch;
                while ((batch = reader.nextBatch()) != null) {
                    try (Arena compacted = Arena.ofConfined()) {
                        List<ViewColumn> batchColumns = new ArrayList<>();
                        for (ViewColumn column : batch.columns()) {
                            batchColumns.add(forWriting(column, compacted));
                        }
                        writer.write(ViewTable.of(names, batchColumns));
                    }
                    rows += batch.rowCount();
                    batches++;
                    if (progress && System.nanoTime() - lastReport > 1_000_000_000L) {
                        lastReport = System.nanoTime();
                        err.printf(Locale.ROOT, "stringview: convert rows=%d/%d (%.0f%%) batches=%d written=%d%n",
                                rows, reader.rowCount(), 100.0 * rows / Math.max(1, reader.rowCount()), batches,
                                channel.position());
                    }
                }
            }
            String summary = String.format(Locale.ROOT, "wrote %s rows=%d batches=%d columns=%s bytes=%d%s",
                    out.getFileName(), rows, batches, names, Files.size(out),
                    skipped.isEmpty() ? "" : " skipped (not string or binary, or nested)=" + skipped);
            return summary;
        }
    }

    /**
     * {@code column} as it should be written: as it is, or with its buffers cut to the referenced spans (no value
     * copied), or compacted; the new views or buffers live in {@code arena}.
     */
    static ViewColumn forWriting(ViewColumn column, Arena arena) {
        if (!column.shouldCompact()) {
            return column;
        }
        ViewColumn trimmed = BufferTrim.trimmed(column, arena);
        return trimmed != null ? trimmed : column.compact(arena);
    }
}
