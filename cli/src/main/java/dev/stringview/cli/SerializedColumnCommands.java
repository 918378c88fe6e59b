package dev.stringview.cli;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.cli.StringviewCli.Args;
import dev.stringview.cli.StringviewCli.JsonWriter;
import dev.stringview.cli.StringviewCli.UsageException;
import dev.stringview.format.ColumnCodec;
import dev.stringview.format.ColumnDeserializer;
import dev.stringview.format.ColumnFormat;
import dev.stringview.format.ColumnSerializer;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.ViewBatch;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code stringview serialize} (one Parquet column into the stringview-format file of docs/serialization.md) and
 * {@code stringview cat} of such a file, which {@link StringviewCli} hands over when the file starts with the
 * format's magic bytes.
 */
final class SerializedColumnCommands {
    private SerializedColumnCommands() {}

    /** {@code serialize IN.parquet --column C [--format separated|size-prefix] [--codec none|lz4|lightweight] OUT}. */
    static int serialize(Args args, PrintStream err) throws UsageException, IOException {
        args.allowOnly(List.of("--column", "--format", "--codec", "--batch-size"));
        List<Path> inAndOut = args.inputAndOutput("serialize needs IN.parquet and OUT");
        Path in = inAndOut.get(0);
        Path out = inAndOut.get(1);
        String column = args.column(true);
        ColumnFormat format = switch (args.options.getOrDefault("--format", "separated")) {
            case "separated" -> ColumnFormat.SEPARATED;
            case "size-prefix" -> ColumnFormat.SIZE_PREFIX;
            default -> throw new UsageException("--format needs separated or size-prefix: "
                    + args.options.get("--format"));
        };
        ColumnCodec codec = switch (args.options.getOrDefault("--codec", "none")) {
            case "none" -> ColumnCodec.NONE;
            case "lz4" -> ColumnCodec.LZ4;
            case "lightweight" -> ColumnCodec.LIGHTWEIGHT;
            default -> throw new UsageException("--codec needs none, lz4 or lightweight: " + args.options.get("--codec"));
        };
        if (format == ColumnFormat.SIZE_PREFIX && codec == ColumnCodec.LIGHTWEIGHT) {
            throw new UsageException("--codec lightweight codes the sizes stream of --format separated only");
        }
        // The whole column is kept until it is written: the header gives its row and null counts up front.
        ParquetViewOptions options = ParquetViewOptions.defaults().withColumns(column)
                .withUtf8Validation(!args.flags.contains("--skip-utf8-validation"))
                .withChecksumVerification(!args.flags.contains("--skip-checksums"))
                .withBatchSize((int) Math.min(Integer.MAX_VALUE, args.positive("--batch-size",
                        ParquetViewOptions.DEFAULT_BATCH_SIZE)));
        long start = System.nanoTime();
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(in, arena, options)) {
            List<ViewColumn> batches = new ArrayList<>();
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                batches.add(batch.column(0));
            }
            ViewKind kind = reader.columns().get(0).kind();
            ViewColumn whole = batches.isEmpty() ? ViewColumns.builder(arena, kind).build()
                    : batches.size() == 1 ? batches.get(0) : ViewColumns.concat(arena, batches);
            long bytes;
            try (FileChannel channel = FileChannel.open(out, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                bytes = ColumnSerializer.of(format, codec).write(whole, channel);
            }
            err.println(String.format(Locale.ROOT, "serialize: column=%s rows=%d nulls=%d format=%s typeName=%s "
                    + "codec=%s bytes=%d ms=%.1f", column, whole.size(), whole.nullCount(),
                    format.name().toLowerCase(Locale.ROOT).replace('_', '-'), format.typeName(),
                    codec.name().toLowerCase(Locale.ROOT), bytes, (System.nanoTime() - start) / 1e6));
        }
        return StringviewCli.EXIT_OK;
    }

    /** {@code cat} of a serialized column: one JSON value per line, like {@code cat} of a Parquet column. */
    static int cat(Path file, long limit, PrintStream out) throws IOException {
        JsonWriter json = new JsonWriter(out);
        try (Arena arena = Arena.ofConfined();
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ViewColumn values = ColumnDeserializer.create().read(channel, arena);
            if (channel.position() != channel.size()) {
                throw new IOException("trailing bytes after the column: file=" + file + " position="
                        + channel.position() + " size=" + channel.size());
            }
            StringviewCli.print(json, values, limit);
        }
        json.flush();
        return StringviewCli.EXIT_OK;
    }
}
