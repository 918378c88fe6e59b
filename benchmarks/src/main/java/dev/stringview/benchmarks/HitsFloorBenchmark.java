package dev.stringview.benchmarks;

import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.ViewBatch;
import dev.stringview.parquet.internal.PageDecompressor;
import dev.stringview.parquet.internal.PageHeader;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The floors under Suite 3's queries, on the same files ({@link HitsQueryBenchmark}): what reading the {@code URL}
 * column costs before any filter. Subtracting these from the query scores splits a query into decompression,
 * building views, and filtering. Scores are ns/row.
 *
 * <ul>
 *   <li>{@link #decompressOnly()}: every page of the column decompressed into one reused off-heap buffer by the
 *   decoder the reader itself uses (aircompressor's native library when the JVM allows it), and nothing else. On
 *   the PLAIN layout there is nothing to decompress, so it measures only the walk over the page headers. This is
 *   the floor a compressed scan ({@code HitsQueryBenchmark.scanOneThread}) is read against: run both in one JMH
 *   invocation ({@code docs/benchmarks/runs/2026-11-29-floor/run.sh}) and divide.</li>
 *   <li>{@link #decompressJava()}: the same with aircompressor's pure-Java decoder of the codec.</li>
 *   <li>{@link #viewsWithoutFilter()}: the reader as the views' queries use it (batch-scoped memory), every batch
 *   read and no predicate.</li>
 *   <li>{@link #duckdbWithoutFilter()}: DuckDB (one thread) reading every URL string, {@code sum(strlen(URL))}.
 *   DuckDB stores a string's length beside it, so this is its scan with an almost free aggregate.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {Jvm.XMX, Jvm.NATIVE_ACCESS, Jvm.VECTOR})
@OperationsPerInvocation(HitsQueryBenchmark.ROWS)
public class HitsFloorBenchmark {
    /** The column Suite 3's queries filter. */
    static final String COLUMN = Query.Q20.column();

    /** Suite 3's layouts and the LZ4 twin of {@code snappy}; the suffix {@code Pa} gives a pyarrow-like twin. */
    @Param({"plain", "snappy", "dictZstd", "dictUrlsZstd", "lz4"})
    public String layout;

    /** Keep at {@value HitsQueryBenchmark#ROWS}: the score divides by that. Smaller values are for the smoke test. */
    @Param("2000000")
    public int rows;

    Path file;
    private Arena arena;
    private MemorySegment mapped;
    /** Per page: position of its data in the file, compressed size, uncompressed size. */
    private long[][] pages;
    private MemorySegment pageBuffer;
    private PageDecompressor decompressor;
    /** The same codec on aircompressor's pure-Java decoder (null for the PLAIN layout). */
    private PageDecompressor javaDecompressor;
    private Connection duckdb;

    @Setup
    public void setup(BenchmarkParams params) throws IOException, SQLException {
        open(params.getBenchmark().endsWith("duckdbWithoutFilter"));
    }

    /** Maps the file and lists the column's pages (and opens DuckDB if asked); also for {@link FloorSideBySide}. */
    void open(boolean withDuckDb) throws IOException, SQLException {
        file = Locations.hitsFile(Locations.benchData(), HitsQueryBenchmark.layout(layout), rows, null);
        WarmUpGates.viewWords(); // the vector loops, where the JVM has them (decision record 001)
        arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
        }
        CompressionCodecName codec = findPages();
        decompressor = PageDecompressor.forCodec(codec, true);
        javaDecompressor = PageDecompressor.forCodec(codec, false);
        long largest = 1;
        for (long[] page : pages) {
            largest = Math.max(largest, page[2]);
        }
        pageBuffer = arena.allocate(largest, 8);
        if (withDuckDb) {
            duckdb = HitsQueryBenchmark.openDuckDb();
        }
    }

    /** Lists the column's dictionary and data pages (v1; the hits files are written with v1 pages). */
    private CompressionCodecName findPages() throws IOException {
        List<long[]> found = new ArrayList<>();
        CompressionCodecName codec = null;
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file), ParquetFiles.readOptions())) {
            for (BlockMetaData block : reader.getFooter().getBlocks()) {
                for (ColumnChunkMetaData chunk : block.getColumns()) {
                    if (!chunk.getPath().toDotString().equals(COLUMN)) {
                        continue;
                    }
                    codec = chunk.getCodec();
                    long position = chunk.getStartingPos();
                    long end = position + chunk.getTotalSize();
                    while (position < end) {
                        PageHeader header = PageHeader.parse(mapped, position, end);
                        long data = position + header.headerSize();
                        if (header.type() == PageHeader.DATA_PAGE || header.type() == PageHeader.DICTIONARY_PAGE) {
                            found.add(new long[] {data, header.compressedSize(), header.uncompressedSize()});
                        } else if (header.type() != PageHeader.INDEX_PAGE) {
                            throw new IllegalStateException("unexpected page: type=" + header.typeName() + " file="
                                    + file + " column=" + COLUMN + " position=" + position);
                        }
                        position = data + header.compressedSize();
                    }
                }
            }
        }
        if (codec == null) {
            throw new IllegalStateException("no column chunk: column=" + COLUMN + " file=" + file);
        }
        pages = found.toArray(long[][]::new);
        return codec;
    }

    @TearDown
    public void tearDown() throws SQLException {
        if (decompressor != null) {
            decompressor.close();
            javaDecompressor.close();
        }
        if (duckdb != null) {
            duckdb.close();
        }
        arena.close();
    }

    /**
     * The decompression floor: decompresses every page of the column into one reused buffer, by the decoder the
     * reader uses; returns the bytes produced.
     */
    @Benchmark
    public long decompressOnly() {
        return decompressAll(decompressor);
    }

    /**
     * {@link #decompressOnly()} by aircompressor's pure-Java decoder of the same codec: which of the two the reader
     * should prefer on this CPU (decision record 023).
     */
    @Benchmark
    public long decompressJava() {
        return decompressAll(javaDecompressor);
    }

    private long decompressAll(PageDecompressor codec) {
        long produced = 0;
        for (long[] page : pages) {
            MemorySegment in = mapped.asSlice(page[0], page[1]);
            if (codec != null) {
                codec.decompress(in, pageBuffer.asSlice(0, page[2]));
            }
            produced += page[2];
        }
        return produced;
    }

    /** Reads the column into views (batch-scoped memory, as {@link Query#countViews}); returns the rows read. */
    @Benchmark
    public long viewsWithoutFilter() throws IOException {
        long read = 0;
        try (Arena scan = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(file, scan, Query.viewOptions(COLUMN))) {
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                read += batch.rowCount();
            }
        }
        return read;
    }

    /** DuckDB, one thread, reading every URL: {@code sum(strlen(URL))}. */
    @Benchmark
    public long duckdbWithoutFilter() throws SQLException {
        String sql = "SELECT sum(strlen(" + Query.quotedIdentifier(COLUMN) + ")) FROM " + Query.readParquet(file);
        try (Statement statement = duckdb.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
