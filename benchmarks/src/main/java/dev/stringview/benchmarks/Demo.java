package dev.stringview.benchmarks;

import dev.stringview.ViewColumn;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.ViewBatch;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code stringview demo}: the same filters over a Parquet file through this library's views (on one thread and
 * on all cores), parquet-java's standard reading path and DuckDB (JDBC, same JVM, its default threads), with
 * medians and speedups.
 *
 * <pre>
 * Demo                                  a hits-like file of 2M rows (generated once into the build folder)
 * Demo --rows N                         the same with N rows
 * Demo --file F --column C              your file: contains 'google', and an equality and a prefix filter whose
 *                                       constants come from the column's first values
 *      [--contains S] [--equals S] [--prefix S] [--runs K]
 * </pre>
 */
public final class Demo {
    static final long DEFAULT_ROWS = 2_000_000;

    private Demo() {}

    public static void main(String[] args) {
        try {
            System.exit(run(args, System.out, System.err));
        } catch (IOException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(1);
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
        long rows = DEFAULT_ROWS;
        Path file = null;
        String column = null;
        String contains = null;
        String equals = null;
        String prefix = null;
        int runs = 5;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-h") || arg.equals("--help")) {
                out.println(usage());
                return 0;
            }
            if (i + 1 >= args.length) {
                err.println("error: option needs a value: option=" + arg + "\n" + usage());
                return 2;
            }
            String value = args[++i];
            try {
                switch (arg) {
                    case "--rows" -> rows = Long.parseLong(value.replace("_", "").replace(",", ""));
                    case "--file" -> file = Path.of(value);
                    case "--column" -> column = value;
                    case "--contains" -> contains = value;
                    case "--equals" -> equals = value;
                    case "--prefix" -> prefix = value;
                    case "--runs" -> runs = Integer.parseInt(value);
                    default -> {
                        err.println("error: unknown option: option=" + arg + "\n" + usage());
                        return 2;
                    }
                }
            } catch (NumberFormatException e) {
                err.println("error: not a number: option=" + arg + " value=" + value);
                return 2;
            }
        }
        if (rows <= 0 || runs <= 0) {
            err.println("error: must be positive: rows=" + rows + " runs=" + runs);
            return 2;
        }
        if ((file == null) != (column == null)) {
            err.println("error: --file and --column go together: file=" + file + " column=" + column);
            return 2;
        }
        List<Query> queries;
        List<Path> files = new ArrayList<>();
        List<String> layouts = new ArrayList<>();
        String title;
        if (file == null) {
            for (ParquetFiles.Layout layout : List.of(ParquetFiles.PLAIN, ParquetFiles.SNAPPY)) {
                files.add(Locations.hitsFile(Locations.demoData(), layout, rows, new ProgressBar(err, rows,
                        layout.name())));
                layouts.add(layout.name());
            }
            title = String.format(Locale.ROOT, "hits-like data, %,d rows, PLAIN uncompressed and PLAIN + snappy", rows);
            queries = List.of(contains == null ? Query.Q20 : new Query("contains", "URL", Query.Kind.CONTAINS, contains),
                    equals == null ? Query.EQUALITY : new Query("equality", "URL", Query.Kind.EQUAL, equals),
                    prefix == null ? Query.PREFIX : new Query("prefix", "URL", Query.Kind.PREFIX, prefix));
        } else {
            if (!Files.isRegularFile(file)) {
                err.println("error: no such file: file=" + file);
                return 2;
            }
            String sample;
            try {
                sample = sample(file, column);
            } catch (IllegalArgumentException e) {
                err.println("error: " + e.getMessage());
                return 2;
            }
            files.add(file);
            layouts.add(file.getFileName().toString());
            title = "column " + column + " of " + file.getFileName();
            String p = prefix != null ? prefix : sample.substring(0, sample.offsetByCodePoints(0,
                    Math.min(sample.codePointCount(0, sample.length()), 8)));
            queries = List.of(new Query("contains", column, Query.Kind.CONTAINS, contains == null ? "google" : contains),
                    new Query("equality", column, Query.Kind.EQUAL, equals == null ? sample : equals),
                    new Query("prefix", column, Query.Kind.PREFIX, p));
        }
        out.printf(Locale.ROOT, "stringview demo: %s%n", title);
        for (Path f : files) {
            out.printf(Locale.ROOT, "  file %s (%,.1f MB)%n", f, Files.size(f) / 1e6);
        }
        out.printf(Locale.ROOT, "  %s%n", machine());
        // Also makes the library log its one line about the Vector API here, not in the middle of the progress line.
        out.printf(Locale.ROOT, "  substring search: %s%n%n", dev.stringview.internal.Vectorization.describe());
        int cores = Runtime.getRuntime().availableProcessors();
        String[] header = {"file", "query", "matches", "views ms, 1 thread", "views ms, " + cores + " threads",
            "parquet-java ms", "DuckDB ms, " + cores + " threads", "speedup vs parquet-java", "vs DuckDB"};
        List<String[]> table = new ArrayList<>();
        int warmups = 2;
        int step = 0;
        try (java.sql.Connection duckdb = HitsQueryBenchmark.openDuckDbDefaultThreads()) {
            for (int f = 0; f < files.size(); f++) {
                Path data = files.get(f);
                for (Query query : queries) {
                    err.printf(Locale.ROOT, "\rrunning %d/%d: %s, %s ...          ", ++step,
                            files.size() * queries.size(), layouts.get(f), describe(query));
                    Timing views = time(() -> query.countScan(data, 1), warmups, runs);
                    Timing viewsAll = time(() -> query.countScan(data, cores), warmups, runs);
                    Timing java = time(() -> query.countParquetJavaString(data), warmups, runs);
                    Timing duck = time(() -> {
                        try {
                            return query.countDuckDb(duckdb, data);
                        } catch (java.sql.SQLException e) {
                            throw new IOException("DuckDB failed: " + e.getMessage(), e);
                        }
                    }, warmups, runs);
                    if (views.count != java.count || views.count != viewsAll.count || views.count != duck.count) {
                        err.println();
                        err.println("error: engines disagree: file=" + data + " query=" + query.name() + " views="
                                + views.count + " viewsAllCores=" + viewsAll.count + " parquetJava=" + java.count
                                + " duckdb=" + duck.count);
                        return 1;
                    }
                    table.add(new String[] {layouts.get(f), describe(query),
                        String.format(Locale.ROOT, "%,d", views.count),
                        String.format(Locale.ROOT, "%.1f", views.medianMillis),
                        String.format(Locale.ROOT, "%.1f", viewsAll.medianMillis),
                        String.format(Locale.ROOT, "%.1f", java.medianMillis),
                        String.format(Locale.ROOT, "%.1f", duck.medianMillis),
                        String.format(Locale.ROOT, "%.1fx", java.medianMillis / views.medianMillis),
                        String.format(Locale.ROOT, "%.2fx", duck.medianMillis / viewsAll.medianMillis)});
                }
            }
        } catch (java.sql.SQLException e) {
            throw new IOException("cannot open DuckDB: " + e.getMessage(), e);
        }
        err.print("\r" + " ".repeat(100) + "\r");
        printTable(out, header, table);
        out.printf(Locale.ROOT, "%nmedians of %d runs after %d warm-up runs, each from the file (OS page cache) to the "
                + "count.%nviews: stringview-parquet's ParquetScan, batches of 16-byte views + compiled predicates (UTF-8"
                + " validated), row groups skipped by statistics and bloom filters, on 1 thread and on all cores."
                + "%nparquet-java: ParquetFileReader + ColumnReader, Binary.toStringUsingUTF8, then String.contains / "
                + "equals / startsWith (1 thread).%nDuckDB: JDBC in the same JVM, read_parquet, default threads."
                + "%nspeedup vs parquet-java: 1 thread each; vs DuckDB: DuckDB's time over the views' on all cores."
                + "%nFull suites: java -jar benchmarks/target/benchmarks.jar (see docs/benchmarks.md).%n", runs, warmups);
        return 0;
    }

    static String usage() {
        return "usage: stringview demo [--rows N] | [--file F --column C] [--contains S] [--equals S] [--prefix S] "
                + "[--runs K]";
    }

    private static String describe(Query query) {
        String c = query.constant().length() > 40 ? query.constant().substring(0, 37) + "..." : query.constant();
        return switch (query.kind()) {
            case CONTAINS -> query.column() + " LIKE '%" + c + "%'";
            case EQUAL -> query.column() + " = '" + c + "'";
            case PREFIX -> query.column() + " LIKE '" + c + "%'";
        };
    }

    static String machine() {
        return "JDK " + System.getProperty("java.runtime.version") + ", " + RunContext.cpuModel() + ", "
                + Runtime.getRuntime().availableProcessors() + " cores";
    }

    /** The first non-null, non-empty value in the first batch's middle-most rows, to build constants from. */
    private static String sample(Path file, String column) throws IOException {
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(file, arena,
                        ParquetViewOptions.defaults().withColumns(column))) {
            ViewBatch batch = reader.nextBatch();
            if (batch == null) {
                throw new IllegalArgumentException("file has no rows: file=" + file);
            }
            ViewColumn values = batch.column(0);
            int n = values.size();
            for (int k = 0; k < n; k++) {
                int row = (n / 2 + k) % n;
                String v = values.string(row);
                if (v != null && !v.isEmpty()) {
                    return v;
                }
            }
            throw new IllegalArgumentException("no non-empty value in the first batch: file=" + file + " column="
                    + column);
        }
    }

    private interface Counted {
        long run() throws IOException;
    }

    private record Timing(long count, double medianMillis) {}

    private static Timing time(Counted work, int warmups, int runs) throws IOException {
        long count = -1;
        long first = System.nanoTime();
        for (int i = 0; i < warmups; i++) {
            count = work.run();
            if (i == 0 && System.nanoTime() - first > 10_000_000_000L) {
                break; // a slow file: one warm-up is enough
            }
        }
        double[] millis = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            long c = work.run();
            millis[i] = (System.nanoTime() - start) / 1e6;
            if (count >= 0 && c != count) {
                throw new IllegalStateException("count changed between runs: before=" + count + " after=" + c);
            }
            count = c;
        }
        Arrays.sort(millis);
        double median = runs % 2 == 1 ? millis[runs / 2] : (millis[runs / 2 - 1] + millis[runs / 2]) / 2;
        return new Timing(count, median);
    }

    private static void printTable(PrintStream out, String[] header, List<String[]> rows) {
        int[] width = new int[header.length];
        for (int c = 0; c < header.length; c++) {
            width[c] = header[c].length();
            for (String[] row : rows) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < header.length; c++) {
            line.append((c == 0 ? "" : "  ") + pad(header[c], width[c], c > 1));
        }
        out.println(line);
        out.println("-".repeat(line.length()));
        for (String[] row : rows) {
            line.setLength(0);
            for (int c = 0; c < row.length; c++) {
                line.append((c == 0 ? "" : "  ") + pad(row[c], width[c], c > 1));
            }
            out.println(line);
        }
    }

    private static String pad(String s, int width, boolean right) {
        String fill = " ".repeat(Math.max(0, width - s.length()));
        return right ? fill + s : s + fill;
    }

    /** A progress bar on stderr while the demo data is written. */
    static final class ProgressBar implements java.util.function.LongConsumer {
        private final PrintStream err;
        private final long total;
        private final long start = System.nanoTime();

        private final String what;

        ProgressBar(PrintStream err, long total, String what) {
            this.err = err;
            this.total = total;
            this.what = what;
        }

        @Override
        public void accept(long done) {
            int width = 40;
            int filled = (int) (width * done / total);
            double seconds = (System.nanoTime() - start) / 1e9;
            err.printf(Locale.ROOT, "\rgenerating demo data (%s) [%s%s] %3d%% %,d/%,d rows %.0fs", what, "#".repeat(filled),
                    ".".repeat(width - filled), 100 * done / total, done, total, seconds);
            if (done >= total) {
                err.println();
            }
        }
    }
}
