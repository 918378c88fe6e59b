package dev.stringview.cli;

import dev.stringview.Comparison;
import dev.stringview.internal.reader.InlineViews;
import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKernels;
import dev.stringview.ViewPredicate;
import dev.stringview.ViewPredicates;
import dev.stringview.arrow.ArrowCData;
import dev.stringview.format.ColumnFormat;
import dev.stringview.parquet.ParquetSource;
import dev.stringview.parquet.ParquetSources;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.RowFilter;
import dev.stringview.parquet.ParquetScan;
import dev.stringview.parquet.ParquetViewReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Run in a JVM of its own by {@link NoLibraryThreadsTest}: notes the live threads and the JVM's count of threads
 * ever started, then loads and initializes every class of core, parquet-reader, arrow and format, uses their
 * entry points (kernels before and after {@code ViewKernels.warmUp}, InlineViews, the Parquet reader and
 * {@code ParquetScan} on the calling thread, the Arrow C data interface, and through the CLI's commands the Arrow
 * IPC reader and writer and the serialized format), and prints one line: {@code started=N new=[names]}, the
 * threads started meanwhile and those of them still alive. With {@code --start-a-thread} it starts one itself
 * halfway, so that the test can check that it would see one.
 */
public final class NoThreadProbe {
    private NoThreadProbe() {}

    public static void main(String[] args) throws Exception {
        Path parquet = Path.of(args[0]);
        Path work = Path.of(args[1]);
        boolean startAThread = args.length > 2 && args[2].equals("--start-a-thread");
        var threads = ManagementFactory.getThreadMXBean();
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        long startedBefore = threads.getTotalStartedThreadCount();

        int classes = 0;
        for (Class<?> module : List.of(ViewColumn.class, ParquetScan.class, ArrowCData.class, ColumnFormat.class)) {
            classes += initializeAll(module);
        }
        useCore(false);
        if (startAThread) {
            Thread thread = new Thread(() -> { }, "probe-started-thread");
            thread.start();
            thread.join();
        }
        useCore(ViewKernels.warmUp());
        useParquet(parquet);
        useCli(parquet, work);

        long started = threads.getTotalStartedThreadCount() - startedBefore;
        Set<String> alive = new TreeSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (!before.contains(t)) {
                alive.add(t.getName());
            }
        }
        System.out.println("classes=" + classes + " started=" + started + " new=" + alive);
    }

    /** Loads and initializes every class in the jar or folder {@code anchor} came from; returns how many. */
    private static int initializeAll(Class<?> anchor) throws IOException, URISyntaxException, ClassNotFoundException {
        Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(location)) {
            try (Stream<Path> files = Files.walk(location)) {
                files.filter(f -> f.toString().endsWith(".class"))
                        .forEach(f -> names.add(location.relativize(f).toString()));
            }
        } else {
            try (JarFile jar = new JarFile(location.toFile())) {
                jar.stream().filter(e -> e.getName().endsWith(".class")).forEach(e -> names.add(e.getName()));
            }
        }
        names.sort(Comparator.naturalOrder());
        int loaded = 0;
        for (String name : names) {
            if (name.endsWith("module-info.class")) {
                continue;
            }
            String className = name.substring(0, name.length() - ".class".length()).replace('/', '.')
                    .replace('\\', '.');
            Class.forName(className, true, NoThreadProbe.class.getClassLoader());
            loaded++;
        }
        return loaded;
    }

    /** Every predicate kind and whole-column kernel over a column of edge lengths, nulls and many buffers. */
    private static void useCore(boolean vector) {
        try (Arena arena = Arena.ofConfined()) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < 5000; i++) {
                values.add(i % 97 == 0 ? null
                        : "row" + i % 50 + "-google-" + "x".repeat(i % 17) + (i % 3 == 0 ? "é" : ""));
            }
            ViewColumn column = ViewColumns.ofStrings(arena, values.toArray(String[]::new));
            List<ViewPredicate> predicates = List.of(ViewPredicates.equalTo("row7-google-"),
                    ViewPredicates.notEqualTo("row7-google-xxxxxxx"), ViewPredicates.lessThan("row3"),
                    ViewPredicates.greaterThanOrEqual("row4-google-xx"), ViewPredicates.startsWith("row1"),
                    ViewPredicates.endsWith("xx"), ViewPredicates.contains("google"), ViewPredicates.like("%gle-x%"),
                    ViewPredicates.in("row1-google-", "row2-google-x"));
            int[] out = new int[column.size()];
            long[] bits = new long[(column.size() + 63) / 64];
            for (ViewPredicate p : predicates) {
                int n = p.select(column, out);
                if (p.count(column) != n || p.count(column, out, n) != n) {
                    throw new IllegalStateException("count and select disagree: predicate=" + p + " vector=" + vector);
                }
                p.mask(column, bits);
            }
            ViewKernels.compare(Comparison.LESS_THAN, column, column, out);
            ViewKernels.hash(column, new long[column.size()]);
            ViewKernels.argsort(column);
            ViewKernels.argsortTopK(column, 10);
            ViewKernels.distinctCount(column);
            int rows = 300;
            int[] sizes = new int[rows];
            long chars = 0;
            for (int i = 0; i < rows; i++) {
                sizes[i] = i % 13;
                chars += sizes[i];
            }
            MemorySegment bytes = arena.allocate(chars + 64);
            MemorySegment views = arena.allocate(16L * rows, 16);
            InlineViews.build(sizes, 0, rows, bytes, 0, views, 0);
            MemorySegment schema = ArrowCData.allocateSchema(arena);
            MemorySegment array = ArrowCData.allocateArray(arena);
            ArrowCData.exportColumn(column, "s", schema, array, () -> { });
            ViewColumn imported = ArrowCData.importColumn(schema, array, arena);
            if (imported.size() != column.size()) {
                throw new IllegalStateException("rows=" + imported.size() + " expected=" + column.size());
            }
        }
    }

    /** The reader and {@code ParquetScan}'s calls, on the calling thread (its default). */
    private static void useParquet(Path file) throws IOException {
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(file, arena)) {
            while (reader.nextBatch() != null) {
                // every batch of every column
            }
        }
        ParquetScan scan = ParquetScan.of(file);
        RowFilter filter = RowFilter.contains("s", "google");
        scan.count(filter);
        scan.select(filter);
        scan.plan(filter);
        scan.forEachBatch(List.of("s"), RowFilter.equalTo("s", "row7"), (batch, passing) -> { });
        // A source that is not memory-mapped: chunks read per row group, without a prefetch executor.
        try (Arena arena = Arena.ofConfined();
                ParquetSource source = ParquetSources.channel(java.nio.channels.FileChannel.open(file), "probe");
                ParquetViewReader reader = ParquetViewReader.open(source, arena,
                        ParquetViewOptions.defaults().withBatchScopedMemory(true))) {
            while (reader.nextBatch() != null) {
                // every row group read from the channel
            }
            ParquetScan.of(source).count(filter);
        }
    }

    /** The CLI's commands on one thread: cat, scan, pages, convert and cat of the Arrow file, serialize and cat. */
    private static void useCli(Path parquet, Path work) {
        String file = parquet.toString();
        String arrow = work.resolve("probe.arrow").toString();
        String serialized = work.resolve("probe.views").toString();
        String[][] commands = {
            {"cat", file, "--column", "s", "--limit", "50"},
            {"scan", file, "--column", "s", "--contains", "google", "--threads", "1", "--repeat", "2"},
            {"scan", file, "--column", "s", "--less-than", "row3", "--threads", "1"},
            {"pages", file},
            {"convert", file, arrow},
            {"cat", arrow, "--column", "s", "--limit", "50"},
            {"serialize", file, "--column", "s", "--codec", "lz4", serialized},
            {"cat", serialized, "--limit", "50"},
        };
        for (String[] command : commands) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = new StringviewCli(new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8)).run(command);
            if (status != StringviewCli.EXIT_OK) {
                throw new IllegalStateException("command failed: command=" + String.join(" ", command) + " status="
                        + status + " err=" + err.toString(StandardCharsets.UTF_8).strip());
            }
        }
    }
}
