package dev.stringview.benchmarks;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.arrow.ArrowCData;
import dev.stringview.arrow.ArrowIpc;
import dev.stringview.arrow.ArrowIpcWriter;
import dev.stringview.arrow.ViewTable;
import dev.stringview.arrow.ViewTableReader;
import dev.stringview.cli.ArrowCommands;
import dev.stringview.parquet.ParquetViewOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.duckdb.DuckDBConnection;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Arrow interop (docs/arrow.md) on the hits-like URL column ({@link HitsGenerator}), in batches of 8192 rows:
 * <ul>
 *   <li>C Data export + import of one column of {@code rows} rows (compacted into one data buffer), through our
 *       FFM bridge, with the import
 *       unchecked (O(buffers): the target is equal cost at 8192 and 1M rows) and validated (every view read),
 *       against one read pass over the bytes the validation reads;</li>
 *   <li>DuckDB counting {@code LIKE '%google%'} over our exported stream, against DuckDB reading the same rows
 *       from a Parquet file it wrote itself (zstd, its defaults);</li>
 *   <li>an IPC file of the batches read into validated views (all batches kept, or each batch freed before the
 *       next), against Arrow Java's {@code ArrowFileReader} loading the same {@code ViewVarCharVector}s
 *       unvalidated (each batch freed by the next load);</li>
 *   <li>Parquet to an Arrow IPC file, on Suite 3's PLAIN hits-like file ({@code rows} rows, all five columns, the
 *       URL column converted): {@code stringview convert}'s own code (pages to views to Utf8View batches, the
 *       string bytes written from the pages), against the Arrow Java way (parquet-java's {@code ColumnReader} into
 *       a {@code VarCharVector}, written by {@code ArrowFileWriter}), 8192 rows per batch in both.</li>
 * </ul>
 * Scores are microseconds per invocation (the whole column / all batches).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {Jvm.XMX, Jvm.NATIVE_ACCESS, Jvm.VECTOR, Jvm.ADD_OPENS_NIO, Jvm.NETTY_REFLECTION,
    Jvm.NETTY_UNSAFE})
public class ArrowInteropBenchmark {
    /** The row counts a real run uses (the smoke test passes a smaller one). */
    static final List<String> ROW_COUNTS = List.of("8192", "1048576");
    static final int BATCH_ROWS = 8192;

    @Param({"8192", "1048576"})
    public int rows;

    private Arena arena;
    private BufferAllocator allocator;
    private ViewColumn column;
    private List<ViewTable> batches;
    private MemorySegment schema;
    private MemorySegment array;
    private Connection duckdb;
    private Path dir;
    private Path parquet;
    private Path ipc;
    private Path hitsParquet;
    private Path convertedViews;
    private Path convertedArrowJava;
    private int streams;

    /** {@code stringview convert}'s read options (batch-scoped, UTF-8 validated, native codecs), 8192-row batches. */
    private static final ParquetViewOptions CONVERT_OPTIONS = ParquetViewOptions.defaults().withBatchScopedMemory(true)
            .withBatchSize(BATCH_ROWS);
    private static final PrintStream NO_PROGRESS = new PrintStream(OutputStream.nullOutputStream());

    @Setup
    public void setup() throws IOException, SQLException {
        arena = Arena.ofShared();
        allocator = new RootAllocator();
        HitsGenerator hits = new HitsGenerator();
        batches = new ArrayList<>();
        List<ViewColumn> parts = new ArrayList<>();
        for (int from = 0; from < rows; from += BATCH_ROWS) {
            int n = Math.min(BATCH_ROWS, rows - from);
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8).withExpectedRows(n);
            for (int row = from; row < from + n; row++) {
                builder.append(hits.row(row)[0]);
            }
            ViewColumn part = builder.build();
            parts.add(part);
            batches.add(ViewTable.of("URL", part));
        }
        // One data buffer at either size, so that the two C Data figures differ by rows alone, not by buffer count.
        column = ViewColumns.concat(arena, parts).compact(arena);
        schema = ArrowCData.allocateSchema(arena);
        array = ArrowCData.allocateArray(arena);
        dir = Files.createTempDirectory("arrow-interop");
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        parquet = dir.resolve("urls.parquet");
        String source = register("source");
        try (Statement statement = duckdb.createStatement()) {
            statement.execute("COPY (SELECT URL FROM " + source + ") TO '" + parquet + "' (FORMAT parquet, COMPRESSION zstd)");
        }
        ipc = dir.resolve("urls.arrow");
        try (FileChannel out = FileChannel.open(ipc, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                ArrowIpcWriter writer = ArrowIpcWriter.file(out, List.of("URL"), List.of(ViewKind.UTF8), allocator)) {
            for (ViewTable batch : batches) {
                writer.write(batch);
            }
        }
        hitsParquet = Locations.hitsFile(Locations.benchData(), ParquetFiles.PLAIN, rows, null);
        convertedViews = dir.resolve("converted-views.arrow");
        convertedArrowJava = dir.resolve("converted-arrow-java.arrow");
        if (parquetToIpcViews() != rows || parquetToIpcArrowJava() != rows) {
            throw new IllegalStateException("conversions lost rows: rows=" + rows);
        }
        assertSameValues(convertedViews, convertedArrowJava);
        long expected = 0;
        for (ViewTable batch : batches) {
            expected += dev.stringview.ViewPredicates.like("%google%").count(batch.column(0));
        }
        long overStream = duckdbLikeOverOurStream();
        long overParquet = duckdbLikeOverParquet();
        if (overStream != expected || overParquet != expected) {
            throw new IllegalStateException("counts differ: views=" + expected + " duckdbStream=" + overStream
                    + " duckdbParquet=" + overParquet);
        }
    }

    /** Registers a fresh export of the batches with DuckDB (a registered stream is single-use). */
    private String register(String prefix) throws SQLException {
        String name = prefix + streams++;
        try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            ArrowCData.exportStream(List.of("URL"), List.of(ViewKind.UTF8), batches.iterator(),
                    MemorySegment.ofAddress(stream.memoryAddress()), null);
            duckdb.unwrap(DuckDBConnection.class).registerArrowStream(name, stream);
        }
        return name;
    }

    @TearDown
    public void tearDown() throws SQLException, IOException {
        duckdb.close();
        Files.deleteIfExists(parquet);
        Files.deleteIfExists(ipc);
        Files.deleteIfExists(convertedViews);
        Files.deleteIfExists(convertedArrowJava);
        Files.deleteIfExists(dir);
        allocator.close();
        arena.close();
    }

    @Benchmark
    public int cDataExportImportUnchecked() {
        ArrowCData.exportColumn(column, "URL", schema, array, null);
        try (Arena imported = Arena.ofConfined()) {
            return ArrowCData.importColumnUnchecked(schema, array, imported).size();
        } // closing the arena calls our release
    }

    @Benchmark
    public int cDataExportImportValidated() {
        ArrowCData.exportColumn(column, "URL", schema, array, null);
        try (Arena imported = Arena.ofConfined()) {
            return ArrowCData.importColumn(schema, array, imported).size();
        }
    }

    /**
     * The baseline of {@link #cDataExportImportValidated}: the same export and (unchecked) import, then one read
     * pass over every byte the validation reads, the views and the data buffer (an OR of their 8-byte words).
     */
    @Benchmark
    public long cDataExportImportReadPass() {
        ArrowCData.exportColumn(column, "URL", schema, array, null);
        try (Arena imported = Arena.ofConfined()) {
            ViewColumn read = ArrowCData.importColumnUnchecked(schema, array, imported);
            long any = readPass(read.views());
            for (int i = 0; i < read.bufferCount(); i++) {
                any |= readPass(read.buffer(i));
            }
            return any;
        }
    }

    /** An OR of every 8-byte word of {@code segment} (and its last bytes), in blocks the JIT unrolls. */
    static long readPass(MemorySegment segment) {
        long size = segment.byteSize();
        long any = 0;
        long at = 0;
        for (; size - at >= 1024; at += 1024) {
            for (int k = 0; k < 1024; k += 8) {
                any |= segment.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, at + k);
            }
        }
        for (; at < size; at++) {
            any |= segment.get(java.lang.foreign.ValueLayout.JAVA_BYTE, at);
        }
        return any;
    }

    @Benchmark
    public long duckdbLikeOverOurStream() throws SQLException {
        String name = register("s");
        return count("SELECT count(*) FROM " + name + " WHERE URL LIKE '%google%'");
    }

    @Benchmark
    public long duckdbLikeOverParquet() throws SQLException {
        return count("SELECT count(*) FROM read_parquet('" + parquet + "') WHERE URL LIKE '%google%'");
    }

    private long count(String sql) throws SQLException {
        try (Statement statement = duckdb.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        }
    }

    @Benchmark
    public long ipcReadValidatedViews() throws IOException {
        long total = 0;
        try (Arena read = Arena.ofConfined(); ViewTableReader reader = ArrowIpc.open(ipc, allocator, read)) {
            while (reader.hasNext()) {
                total += reader.next().column(0).size();
            }
        }
        return total;
    }

    /** As {@link #ipcReadValidatedViews}, each batch in an arena closed before the next (Arrow reuses the body). */
    @Benchmark
    public long ipcReadValidatedViewsBatchScoped() throws IOException {
        long total = 0;
        try (Arena read = Arena.ofConfined(); ViewTableReader reader = ArrowIpc.open(ipc, allocator, read)) {
            while (true) {
                try (Arena batch = Arena.ofConfined()) {
                    ViewTable table = reader.nextInto(batch);
                    if (table == null) {
                        break;
                    }
                    total += table.column(0).size();
                }
            }
        }
        return total;
    }

    @Benchmark
    public long ipcReadArrowJavaUnvalidated() throws IOException {
        long total = 0;
        try (FileChannel channel = FileChannel.open(ipc);
                ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
            while (reader.loadNextBatch()) {
                total += reader.getVectorSchemaRoot().getRowCount();
            }
        }
        return total;
    }

    /** {@code stringview convert IN.parquet OUT.arrow --columns URL}: returns the rows written. */
    @Benchmark
    public long parquetToIpcViews() throws IOException {
        String summary = ArrowCommands.convert(hitsParquet, convertedViews, List.of("URL"), false, CONVERT_OPTIONS,
                NO_PROGRESS);
        return Long.parseLong(summary.replaceAll(".* rows=(\\d+) .*", "$1"));
    }

    /** parquet-java's ColumnReader into a VarCharVector, 8192 rows a batch, written by ArrowFileWriter. */
    @Benchmark
    public long parquetToIpcArrowJava() throws IOException {
        try (FileChannel out = FileChannel.open(convertedArrowJava, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
                VectorSchemaRoot root = VectorSchemaRoot.of(new VarCharVector("URL", allocator));
                ArrowFileWriter writer = new ArrowFileWriter(root, null, out)) {
            writer.start();
            VarCharBatches batches = new VarCharBatches(root, writer);
            long n;
            try {
                n = ParquetFiles.scan(hitsParquet, "URL", batches);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            batches.flush();
            writer.end();
            return n;
        }
    }

    /** Fills the root's VarCharVector from parquet-java's values and writes a batch every {@link #BATCH_ROWS}. */
    private static final class VarCharBatches extends VarCharFiller {
        private final VectorSchemaRoot root;
        private final ArrowFileWriter writer;

        VarCharBatches(VectorSchemaRoot root, ArrowFileWriter writer) {
            super((VarCharVector) root.getVector(0), BATCH_ROWS);
            this.root = root;
            this.writer = writer;
            vector.allocateNew(BATCH_ROWS * 64L, BATCH_ROWS);
        }

        @Override
        void flush() {
            if (index == 0) {
                return;
            }
            vector.setValueCount(index);
            root.setRowCount(index);
            try {
                writer.writeBatch();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            vector.reset();
            index = 0;
        }
    }

    /** Both conversions must hold the same values: each file read back through the validating IPC reader. */
    private void assertSameValues(Path a, Path b) throws IOException {
        try (Arena read = Arena.ofConfined(); ViewTableReader left = ArrowIpc.open(a, allocator, read);
                ViewTableReader right = ArrowIpc.open(b, allocator, read)) {
            List<ViewColumn> leftColumns = new ArrayList<>();
            List<ViewColumn> rightColumns = new ArrayList<>();
            left.forEachRemaining(t -> leftColumns.add(t.column(0)));
            right.forEachRemaining(t -> rightColumns.add(t.column(0)));
            ViewColumn l = ViewColumns.concat(read, leftColumns);
            ViewColumn r = ViewColumns.concat(read, rightColumns);
            if (l.size() != r.size()) {
                throw new IllegalStateException("conversions differ: rows=" + l.size() + " arrowJavaRows=" + r.size());
            }
            for (int row = 0; row < l.size(); row++) {
                if (!java.util.Arrays.equals(l.bytes(row), r.bytes(row))) {
                    throw new IllegalStateException("conversions differ: row=" + row);
                }
            }
        }
    }
}
