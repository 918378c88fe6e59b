package dev.stringview.cli;

import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
import dev.stringview.arrow.ArrowIpc;
import dev.stringview.arrow.ArrowIpcWriter;
import dev.stringview.arrow.ViewTableReader;
import dev.stringview.parquet.FixedWidthColumn;
import dev.stringview.parquet.ParquetColumn;
import dev.stringview.parquet.ParquetType;
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
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

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
     * Converts the flat (or the named) columns of a Parquet file to an Arrow IPC file or stream: string and binary
     * columns as Utf8View / BinaryView, every other flat type as its Arrow fixed-width type ({@link #arrowType}),
     * written from the reader's buffers. Views point into the decompressed pages, and the writer writes from
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
                    throw new IllegalArgumentException("no flat column to convert: file="
                            + in.getFileName() + " unreadable=" + skipped);
                }
            }
            List<String> names = reader.columns().stream().map(ParquetColumn::name).toList();
            List<Field> fields = new ArrayList<>();
            for (ParquetColumn column : reader.columns()) {
                ArrowType type = column.isFixedWidth() ? arrowType(column.type())
                        : column.kind() == ViewKind.UTF8 ? ArrowType.Utf8View.INSTANCE : ArrowType.BinaryView.INSTANCE;
                fields.add(Field.nullable(column.name(), type));
            }
            Schema schema = new Schema(fields);
            long rows = 0;
            int batches = 0;
            long lastReport = System.nanoTime();
            try (FileChannel channel = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
                    ArrowIpcWriter writer = stream ? ArrowIpcWriter.stream(channel, schema, allocator)
                            : ArrowIpcWriter.file(channel, schema, allocator)) {
                ViewBatch batch;
                while ((batch = reader.nextBatch()) != null) {
                    try (Arena compacted = Arena.ofConfined()) {
                        List<Object> batchColumns = new ArrayList<>();
                        for (int c = 0; c < names.size(); c++) {
                            if (batch.isFixedWidth(c)) {
                                FixedWidthColumn fixed = batch.fixedWidthColumn(c);
                                batchColumns.add(new ArrowIpcWriter.FixedWidth(fixed.values(), fixed.validity(),
                                        fixed.nullCount()));
                            } else {
                                batchColumns.add(forWriting(batch.column(c), compacted));
                            }
                        }
                        writer.write(batch.rowCount(), batchColumns);
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
                    skipped.isEmpty() ? "" : " skipped (nested or repeated)=" + skipped);
            return summary;
        }
    }

    /**
     * The Arrow type a fixed-width Parquet column is written as: the layout {@code FixedWidthColumn} holds it in
     * (docs/parquet.md, "Flat types"). INT96 is Timestamp(MICROSECOND) without a time zone, as the reader reads it.
     */
    static ArrowType arrowType(ParquetType type) {
        return switch (type.logical()) {
            case DECIMAL -> new ArrowType.Decimal(type.precision(), type.scale(), type.byteWidth() * 8);
            case DATE -> new ArrowType.Date(DateUnit.DAY);
            case TIME -> new ArrowType.Time(timeUnit(type.unit()), type.bitWidth());
            case TIMESTAMP -> new ArrowType.Timestamp(timeUnit(type.unit()), type.adjustedToUtc() ? "UTC" : null);
            case FLOAT16 -> new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
            default -> switch (type.physical()) {
                case BOOLEAN -> ArrowType.Bool.INSTANCE;
                case INT32, INT64 -> new ArrowType.Int(type.bitWidth(), type.signed());
                case INT96 -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
                case FLOAT -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
                case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
                case FIXED_LEN_BYTE_ARRAY -> new ArrowType.FixedSizeBinary(type.typeLength());
                case BYTE_ARRAY -> throw new IllegalArgumentException("BYTE_ARRAY is written as views: type=" + type);
            };
        };
    }

    private static TimeUnit timeUnit(ParquetType.TimeUnit unit) {
        return switch (unit) {
            case MILLIS -> TimeUnit.MILLISECOND;
            case MICROS -> TimeUnit.MICROSECOND;
            case NANOS -> TimeUnit.NANOSECOND;
        };
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
