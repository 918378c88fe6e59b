package dev.stringview.cli;

import dev.stringview.ViewColumn;
import dev.stringview.ViewKernels;
import dev.stringview.ViewKind;
import dev.stringview.format.ColumnFormat;
import dev.stringview.parquet.FixedWidthColumn;
import dev.stringview.parquet.PageInfo;
import dev.stringview.parquet.ParquetColumn;
import dev.stringview.parquet.ParquetType;
import dev.stringview.parquet.ParquetScan;
import dev.stringview.parquet.ParquetSource;
import dev.stringview.parquet.ParquetSources;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.RowFilter;
import dev.stringview.parquet.ViewBatch;
import dev.stringview.parquet.internal.ScanSwitches;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

/**
 * {@code stringview}: a small command line over the Parquet view reader, in the spirit of parquet-cli.
 *
 * <pre>
 * stringview cat FILE --column C [--limit N]
 * stringview scan FILE --column C (--equals S | --not-equals S | --starts-with S | --ends-with S | --contains S
 *                                  | --like P | --less-than S | --at-most S | --greater-than S | --at-least S)...
 *                                  [--repeat N] [--threads N] [--no-skipping] [--no-page-search] [--warm-up]
 * stringview pages FILE [--column C]
 * stringview convert IN.parquet OUT.arrow [--columns a,b] [--stream]
 * stringview serialize IN.parquet --column C [--format separated|size-prefix] [--codec none|lz4|lightweight] OUT
 * common: [--skip-utf8-validation] [--skip-checksums] [--java-codecs] [--batch-size N] [--verbose]
 * </pre>
 *
 * Exit status: 0 on success, 1 when the file cannot be read, 2 for bad arguments. Errors are one line on
 * stderr; {@code --verbose} adds the stack trace.
 */
public final class StringviewCli {
    static final int EXIT_OK = 0;
    static final int EXIT_BAD_INPUT = 1;
    static final int EXIT_USAGE = 2;

    private static final String USAGE = """
            usage: stringview cat FILE --column C [--limit N]   (FILE: Parquet, or Arrow IPC file or stream;
                                    a Parquet FILE may be a Hadoop URI: hdfs://, s3a://, viewfs://, ...)
                   stringview scan FILE --column C (--equals S | --not-equals S | --starts-with S | --ends-with S
                                    | --contains S | --like P | --less-than S | --at-most S | --greater-than S
                                    | --at-least S)...   (several: all must hold) [--repeat N]
                                    [--threads N (default: all cores)] [--no-skipping (read every row group and page)]
                                    [--no-page-search (decide substring filters on PLAIN pages through views)]
                                    [--warm-up (run ViewKernels.warmUp() first: the Vector API loops, if any)]
                   stringview pages FILE [--column C]
                   stringview convert IN.parquet OUT.arrow [--columns a,b] [--stream]   (Utf8View/BinaryView IPC)
                   stringview serialize IN.parquet --column C [--format separated|size-prefix]
                                    [--codec none|lz4|lightweight] OUT   (docs/serialization.md)
                   (cat also reads Arrow IPC files/streams and what serialize wrote, recognized by their magic
                    bytes; --column is optional for a serialized column)
                   stringview demo [--rows N | --file F --column C]   (views vs parquet-java and DuckDB)
            options: --skip-utf8-validation  --skip-checksums  --java-codecs  --batch-size N  --verbose  --help""";

    private static final List<String> PREDICATES = List.of("--equals", "--not-equals", "--starts-with", "--ends-with",
            "--contains", "--like", "--less-than", "--at-most", "--greater-than", "--at-least");

    private final PrintStream out;
    private final PrintStream err;

    StringviewCli(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out, 1 << 16), false, StandardCharsets.UTF_8);
        int status = new StringviewCli(out, System.err).run(args);
        out.flush();
        System.exit(status);
    }

    /** Bad command-line arguments. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    int run(String[] args) {
        boolean verbose = Arrays.asList(args).contains("--verbose");
        try {
            return dispatch(args);
        } catch (UsageException e) {
            err.println("stringview: " + e.getMessage() + " (see stringview --help)");
            if (verbose) {
                e.printStackTrace(err);
            }
            return EXIT_USAGE;
        } catch (IOException | RuntimeException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            err.println("stringview: " + oneLine(message));
            if (verbose) {
                e.printStackTrace(err);
            }
            return e instanceof IllegalArgumentException ? EXIT_USAGE : EXIT_BAD_INPUT;
        } catch (OutOfMemoryError | StackOverflowError e) {
            err.println("stringview: " + e);
            if (verbose) {
                e.printStackTrace(err);
            }
            return EXIT_BAD_INPUT;
        }
    }

    private static String oneLine(String message) {
        return message.replaceAll("\\s*\\R\\s*", " ");
    }

    private int dispatch(String[] args) throws UsageException, IOException {
        if (args.length == 0) {
            throw new UsageException("missing command (cat, scan, pages, convert or serialize)");
        }
        if (args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            out.println(USAGE);
            return EXIT_OK;
        }
        String command = args[0];
        Args parsed = Args.parse(Arrays.copyOfRange(args, 1, args.length));
        if (parsed.flags.contains("--help")) {
            out.println(USAGE);
            return EXIT_OK;
        }
        return switch (command) {
            case "cat" -> cat(parsed);
            case "scan" -> scan(parsed);
            case "pages" -> pages(parsed);
            case "convert" -> convert(parsed);
            case "serialize" -> SerializedColumnCommands.serialize(parsed, err);
            default -> throw new UsageException("unknown command: " + command
                    + " (expected cat, scan, pages, convert or serialize)");
        };
    }

    /** Parsed arguments: one positional FILE, options with values, and flags. */
    static final class Args {
        final List<String> positional = new ArrayList<>();
        final Map<String, String> options = new LinkedHashMap<>();
        final List<String> flags = new ArrayList<>();

        private static final List<String> WITH_VALUE = Stream.concat(Stream.of("--column",
                "--columns", "--limit", "--repeat", "--batch-size", "--threads", "--format", "--codec"),
                PREDICATES.stream()).toList();
        private static final List<String> FLAGS = List.of("--skip-utf8-validation", "--skip-checksums",
                "--java-codecs", "--no-skipping", "--no-page-search", "--verbose", "--help", "--stream", "--warm-up");

        static Args parse(String[] args) throws UsageException {
            Args a = new Args();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (WITH_VALUE.contains(arg)) {
                    if (i + 1 >= args.length) {
                        throw new UsageException("option " + arg + " needs a value");
                    }
                    if (a.options.put(arg, args[++i]) != null) {
                        throw new UsageException("option " + arg + " given twice");
                    }
                } else if (FLAGS.contains(arg)) {
                    a.flags.add(arg);
                } else if (arg.startsWith("--")) {
                    throw new UsageException("unknown option: " + arg);
                } else {
                    a.positional.add(arg);
                }
            }
            return a;
        }

        /**
         * The one FILE operand: a local path, or a URI that Hadoop's file systems serve ({@code hdfs://...},
         * {@code s3a://...}, ...; {@link #isRemote}).
         */
        String location() throws UsageException {
            if (positional.size() == 1 && isRemote(positional.get(0))) {
                return positional.get(0);
            }
            return file().toString();
        }

        Path file() throws UsageException {
            if (positional.isEmpty()) {
                throw new UsageException("missing FILE");
            }
            if (positional.size() > 1) {
                throw new UsageException("expected one FILE, got: " + String.join(" ", positional));
            }
            Path path = Path.of(positional.get(0));
            if (!Files.isRegularFile(path)) {
                throw new UsageException("no such file: " + path);
            }
            return path;
        }

        /**
         * The two positionals IN OUT of a conversion, IN an existing file; {@code needs} opens the usage error
         * ("convert needs IN.parquet and OUT.arrow").
         */
        List<Path> inputAndOutput(String needs) throws UsageException {
            if (positional.size() != 2) {
                throw new UsageException(needs + ", got: " + String.join(" ", positional));
            }
            Path in = Path.of(positional.get(0));
            Path out = Path.of(positional.get(1));
            if (!Files.isRegularFile(in)) {
                throw new UsageException("no such file: " + in);
            }
            return List.of(in, out);
        }

        String column(boolean required) throws UsageException {
            String column = options.get("--column");
            if (required && column == null) {
                throw new UsageException("missing --column C");
            }
            return column;
        }

        long positive(String option, long defaultValue) throws UsageException {
            String value = options.get(option);
            if (value == null) {
                return defaultValue;
            }
            try {
                long n = Long.parseLong(value);
                if (n <= 0) {
                    throw new NumberFormatException();
                }
                return n;
            } catch (NumberFormatException e) {
                throw new UsageException(option + " needs a positive integer: " + value);
            }
        }

        void allowOnly(List<String> allowed) throws UsageException {
            for (String option : options.keySet()) {
                if (!allowed.contains(option)) {
                    throw new UsageException("option " + option + " does not apply to this command");
                }
            }
        }

        /** Every command consumes a batch before reading the next, so memory is batch-scoped: bounded on any file. */
        ParquetViewOptions readOptions() throws UsageException {
            return ParquetViewOptions.defaults().withBatchScopedMemory(true)
                    .withUtf8Validation(!flags.contains("--skip-utf8-validation"))
                    .withChecksumVerification(!flags.contains("--skip-checksums"))
                    .withNativeDecompression(!flags.contains("--java-codecs"))
                    .withBatchSize((int) Math.min(Integer.MAX_VALUE, positive("--batch-size",
                            ParquetViewOptions.DEFAULT_BATCH_SIZE)));
        }
    }

    /** Whether {@code location} is a URI with a scheme of two or more letters, other than {@code file:}. */
    static boolean isRemote(String location) {
        return location.matches("[A-Za-z][A-Za-z0-9+.-]+:/.*") && !location.startsWith("file:");
    }

    /**
     * The Parquet file at {@code location}: a local file memory-mapped into {@code arena}, or a remote one read
     * through Hadoop's {@code FileSystem} with the configuration found on the class path ({@code core-site.xml},
     * {@code hdfs-site.xml}: the launcher adds {@code $HADOOP_CONF_DIR}). Without the Hadoop client on the class
     * path ({@code $HADOOP_CLASSPATH}), says so in one line.
     */
    static ParquetSource parquetSource(String location, Arena arena) throws IOException {
        if (!isRemote(location)) {
            return ParquetSources.map(Path.of(location), arena);
        }
        try {
            return ParquetSources.hadoop(new org.apache.hadoop.fs.Path(location),
                    new org.apache.hadoop.conf.Configuration());
        } catch (LinkageError e) {
            throw new IllegalStateException("reading " + location + " needs the Hadoop client on the class path: "
                    + "set HADOOP_CLASSPATH (for example to the output of `hadoop classpath`, or to "
                    + "hadoop-client-runtime 3.5's jar) and HADOOP_CONF_DIR; missing=" + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------------------------------------- cat

    private int cat(Args args) throws UsageException, IOException {
        args.allowOnly(List.of("--column", "--limit", "--batch-size"));
        String location = args.location();
        Path file = isRemote(location) ? null : Path.of(location);
        long limit = args.positive("--limit", Long.MAX_VALUE);
        if (file != null && ColumnFormat.probe(file).isPresent()) {
            // A file written by `serialize` holds one column: --column may name it but is not needed.
            return SerializedColumnCommands.cat(file, limit, out);
        }
        String column = args.column(true);
        JsonWriter json = new JsonWriter(out);
        long[] printed = {0};
        ArrowCommands.ColumnPrinter printer = values -> {
            printed[0] += print(json, values, limit - printed[0]);
            return printed[0] < limit;
        };
        if (file != null && ArrowCommands.isArrowIpc(file)) {
            ArrowCommands.cat(file, column, printer);
        } else {
            try (Arena arena = Arena.ofConfined();
                    ParquetSource source = parquetSource(location, arena);
                    ParquetViewReader reader = ParquetViewReader.open(source, arena,
                            args.readOptions().withColumns(column))) {
                ViewBatch batch;
                while (printed[0] < limit && (batch = reader.nextBatch()) != null) {
                    if (batch.isFixedWidth(0)) {
                        printed[0] += print(json, batch.fixedWidthColumn(0), limit - printed[0]);
                    } else {
                        printer.print(batch.column(0));
                    }
                }
            }
        }
        json.flush();
        return EXIT_OK;
    }

    /** Prints up to {@code max} rows of {@code values}, one JSON value per line; returns how many. */
    /** Prints up to {@code max} rows of {@code values}, one JSON value a line, as {@code cat} does; returns how many. */
    static long print(JsonWriter json, ViewColumn values, long max) throws IOException {
        boolean utf8 = values.kind() == ViewKind.UTF8;
        long printed = 0;
        for (int row = 0; row < values.size() && printed < max; row++, printed++) {
            MemorySegment value = values.segment(row);
            if (value == null) {
                json.raw("null\n");
            } else if (utf8) {
                json.string(value);
                json.raw("\n");
            } else {
                json.base64(value);
                json.raw("\n");
            }
        }
        return printed;
    }

    /**
     * Prints up to {@code max} rows of a fixed-width column, one JSON value a line; returns how many. Integers,
     * dates, times and timestamps as the integer they hold (unsigned 64-bit values unsigned), floats as numbers
     * (NaN and infinities as strings, which JSON has no number for), decimals as exact numbers, booleans as
     * {@code true}/{@code false}, other fixed-length values (UUID, FIXED_LEN_BYTE_ARRAY) as base64 strings.
     */
    static long print(JsonWriter json, FixedWidthColumn values, long max) throws IOException {
        ParquetType type = values.type();
        long printed = 0;
        for (int row = 0; row < values.rowCount() && printed < max; row++, printed++) {
            if (values.isNull(row)) {
                json.raw("null\n");
                continue;
            }
            String text;
            if (type.logical() == ParquetType.Logical.DECIMAL) {
                text = values.getDecimal(row).toPlainString();
            } else if (type.logical() == ParquetType.Logical.FLOAT16
                    || type.physical() == ParquetType.Physical.FLOAT
                    || type.physical() == ParquetType.Physical.DOUBLE) {
                double d = type.physical() == ParquetType.Physical.DOUBLE ? values.getDouble(row)
                        : values.getFloat(row);
                String number = type.physical() == ParquetType.Physical.DOUBLE ? Double.toString(d)
                        : Float.toString((float) d);
                text = Double.isFinite(d) ? number : "\"" + number + "\"";
            } else {
                text = switch (type.physical()) {
                    case BOOLEAN -> Boolean.toString(values.getBoolean(row));
                    case INT64 -> type.signed() ? Long.toString(values.getLong(row))
                            : Long.toUnsignedString(values.getLong(row));
                    case INT32, INT96 -> Long.toString(values.getLong(row));
                    default -> null;
                };
            }
            if (text == null) {
                json.base64(MemorySegment.ofArray(values.getBytes(row)));
                json.raw("\n");
            } else {
                json.raw(text + "\n");
            }
        }
        return printed;
    }

    // ------------------------------------------------------------------------------------------ convert

    private int convert(Args args) throws UsageException, IOException {
        args.allowOnly(List.of("--columns", "--batch-size"));
        List<Path> inAndOut = args.inputAndOutput("convert needs IN.parquet and OUT.arrow");
        Path in = inAndOut.get(0);
        Path target = inAndOut.get(1);
        if (Files.isDirectory(target)) {
            throw new UsageException("output is a directory: " + target);
        }
        List<String> columns = List.of();
        String list = args.options.get("--columns");
        if (list != null) {
            columns = Arrays.stream(list.split(",")).map(String::trim).toList();
            if (columns.stream().anyMatch(String::isEmpty)) {
                throw new UsageException("--columns needs comma-separated names: " + list);
            }
        }
        String summary = ArrowCommands.convert(in, target, columns, args.flags.contains("--stream"),
                args.readOptions(), err);
        err.println("stringview: " + summary);
        return EXIT_OK;
    }

    /** Writes JSON straight from UTF-8 bytes: RFC 8259 escapes for quote, backslash and control characters. */
    static final class JsonWriter {
        private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
        private final OutputStream out;
        private final byte[] buffer = new byte[1 << 16];
        private int used;

        JsonWriter(OutputStream out) {
            this.out = out;
        }

        void raw(String ascii) throws IOException {
            for (int i = 0; i < ascii.length(); i++) {
                put((byte) ascii.charAt(i));
            }
        }

        /** A JSON string of well-formed UTF-8 bytes: non-ASCII characters pass through as UTF-8. */
        void string(MemorySegment value) throws IOException {
            put((byte) '"');
            long n = value.byteSize();
            for (long i = 0; i < n; i++) {
                byte b = value.get(ValueLayout.JAVA_BYTE, i);
                int c = b & 0xFF;
                if (c == '"' || c == '\\') {
                    put((byte) '\\');
                    put(b);
                } else if (c < 0x20) {
                    put((byte) '\\');
                    switch (c) {
                        case '\b' -> put((byte) 'b');
                        case '\f' -> put((byte) 'f');
                        case '\n' -> put((byte) 'n');
                        case '\r' -> put((byte) 'r');
                        case '\t' -> put((byte) 't');
                        default -> {
                            put((byte) 'u');
                            put((byte) '0');
                            put((byte) '0');
                            put(HEX[c >>> 4]);
                            put(HEX[c & 15]);
                        }
                    }
                } else {
                    put(b);
                }
            }
            put((byte) '"');
        }

        void base64(MemorySegment value) throws IOException {
            put((byte) '"');
            byte[] encoded = Base64.getEncoder().encode(value.toArray(ValueLayout.JAVA_BYTE));
            for (byte b : encoded) {
                put(b);
            }
            put((byte) '"');
        }

        private void put(byte b) throws IOException {
            if (used == buffer.length) {
                flushBuffer();
            }
            buffer[used++] = b;
        }

        private void flushBuffer() throws IOException {
            out.write(buffer, 0, used);
            used = 0;
        }

        void flush() throws IOException {
            flushBuffer();
            out.flush();
        }
    }

    // --------------------------------------------------------------------------------------------- scan

    private int scan(Args args) throws UsageException, IOException {
        List<String> allowed = new ArrayList<>(PREDICATES);
        allowed.addAll(List.of("--column", "--repeat", "--batch-size", "--threads"));
        args.allowOnly(allowed);
        String location = args.location();
        String column = args.column(true);
        List<RowFilter> leaves = new ArrayList<>();
        for (String option : PREDICATES) {
            String operand = args.options.get(option);
            if (operand == null) {
                continue;
            }
            leaves.add(switch (option) {
                case "--equals" -> RowFilter.equalTo(column, operand);
                case "--not-equals" -> RowFilter.notEqualTo(column, operand);
                case "--starts-with" -> RowFilter.startsWith(column, operand);
                case "--ends-with" -> RowFilter.endsWith(column, operand);
                case "--contains" -> RowFilter.contains(column, operand);
                case "--like" -> RowFilter.like(column, operand);
                case "--less-than" -> RowFilter.lessThan(column, operand);
                case "--at-most" -> RowFilter.lessThanOrEqual(column, operand);
                case "--greater-than" -> RowFilter.greaterThan(column, operand);
                case "--at-least" -> RowFilter.greaterThanOrEqual(column, operand);
                default -> throw new UsageException("unknown predicate: " + option);
            });
        }
        if (leaves.isEmpty()) {
            throw new UsageException("missing predicate: one or more of " + String.join(", ", PREDICATES));
        }
        RowFilter filter = leaves.size() == 1 ? leaves.get(0) : RowFilter.and(leaves.toArray(RowFilter[]::new));
        long repeat = args.positive("--repeat", 1);
        int threads = (int) Math.min(1024, args.positive("--threads", Runtime.getRuntime().availableProcessors()));
        if (args.flags.contains("--warm-up")) {
            long start = System.nanoTime();
            boolean vector = ViewKernels.warmUp();
            err.println(String.format(Locale.ROOT, "scan: warm_up_ms=%.3f vector=%s", (System.nanoTime() - start)
                    / 1e6, vector));
        }
        // The command's one pool, made here and shut down when the command ends: the library makes none.
        ExecutorService pool = threads == 1 ? null : Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "stringview-scan");
            t.setDaemon(true);
            return t;
        });
        try (Arena arena = Arena.ofShared(); ParquetSource source = isRemote(location)
                ? parquetSource(location, arena) : null) {
            ParquetScan scan = (source == null ? ParquetScan.of(Path.of(location)) : ParquetScan.of(source))
                    .withOptions(args.readOptions()).withExecutor(pool, threads);
            // The two measuring switches are not API: the module keeps them internal (ScanSwitches).
            scan = ScanSwitches.withPruning(scan, !args.flags.contains("--no-skipping"));
            scan = ScanSwitches.withPageSearch(scan, !args.flags.contains("--no-page-search"));
            int status = runScan(scan, filter, repeat);
            if (args.flags.contains("--verbose")) {
                // What the scans asked of the file's source (zeros for a local file: it is memory-mapped).
                err.println("scan: " + scan.readCounters());
            }
            return status;
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    private int runScan(ParquetScan scan, RowFilter filter, long repeat) throws IOException {
        long[] nanos = new long[(int) Math.min(repeat, 1_000_000)];
        long count = -1;
        for (int run = 0; run < nanos.length; run++) {
            long start = System.nanoTime();
            long matches = scan.count(filter);
            nanos[run] = System.nanoTime() - start;
            if (count >= 0 && count != matches) {
                throw new IllegalStateException("scan gave different counts on repeat: first=" + count + " run="
                        + run + " count=" + matches);
            }
            count = matches;
        }
        out.println(count);
        long[] measured = nanos.length > 1 ? Arrays.copyOfRange(nanos, 1, nanos.length) : nanos;
        Arrays.sort(measured);
        double median = measured.length % 2 == 1 ? measured[measured.length / 2]
                : (measured[measured.length / 2 - 1] + measured[measured.length / 2]) / 2.0;
        err.println(String.format(Locale.ROOT, "scan: runs=%d first_ms=%.3f median_ms=%.3f min_ms=%.3f",
                nanos.length, nanos[0] / 1e6, median / 1e6, measured[0] / 1e6));
        err.println("scan: " + scan.plan(filter)); // not timed: parses the page headers to count pages
        return EXIT_OK;
    }

    // -------------------------------------------------------------------------------------------- pages

    private int pages(Args args) throws UsageException, IOException {
        args.allowOnly(List.of("--column", "--batch-size"));
        String location = args.location();
        String column = args.column(false);
        ParquetViewOptions options = args.readOptions();
        if (column != null) {
            options = options.withColumns(column);
        }
        try (Arena arena = Arena.ofConfined();
                ParquetSource source = parquetSource(location, arena);
                ParquetViewReader reader = ParquetViewReader.open(source, arena, options)) {
            if (reader.columns().isEmpty()) {
                throw new IllegalArgumentException("no readable flat column: file=" + reader.fileName()
                        + " fields=" + reader.fieldNames());
            }
            for (ParquetColumn c : reader.columns()) {
                for (PageInfo page : reader.pages(c.name())) {
                    out.println("column=" + page.column() + " rowGroup=" + page.rowGroup() + " page=" + page.page()
                            + " kind=" + page.kind() + " encoding=" + page.encoding() + " codec=" + page.codec()
                            + " values=" + page.values() + " nulls=" + page.nulls() + " compressedBytes="
                            + page.compressedBytes() + " uncompressedBytes=" + page.uncompressedBytes() + " views="
                            + describe(page.views()));
                }
            }
        }
        return EXIT_OK;
    }

    static String describe(PageInfo.PageViews views) {
        return switch (views) {
            case IN_PLACE_FILE -> "in-place(file)";
            case IN_PLACE_DECOMPRESSED -> "in-place(decompressed)";
            case DICTIONARY -> "dictionary";
            case MATERIALIZED -> "materialized";
            case NONE -> "none";
        };
    }
}
