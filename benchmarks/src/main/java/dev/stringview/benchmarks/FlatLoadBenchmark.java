package dev.stringview.benchmarks;

import dev.stringview.parquet.FixedWidthColumn;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.ViewBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Whole-table decoding of fixed-width columns (issue 31's target): five columns of a 1M-row file (int64 id,
 * optional int32, double, optional DECIMAL(18,2) on INT64, TIMESTAMP(MICROS) on INT64) from disk (the OS page cache)
 * to values in memory, batch by batch of 8192 rows. {@link #fixedWidth}: this library's {@code FixedWidthColumn}s
 * (off-heap, Arrow layout); {@link #parquetJavaArrays}: parquet-java's {@code ColumnReader} into primitive arrays
 * of 8192 values (the way engines without vectorized readers fill their column vectors). Datasets: {@code plain}
 * (v1 PLAIN), {@code dictionary} (v1 dictionary), {@code delta} (v2: DELTA_BINARY_PACKED integers), all
 * uncompressed so that decoding is what is measured. Scores are ns per value (rows x 5); run with {@code -prof gc}
 * for bytes allocated per value.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {Jvm.XMX, Jvm.NATIVE_ACCESS, Jvm.VECTOR})
@OperationsPerInvocation(FlatLoadBenchmark.VALUES)
public class FlatLoadBenchmark {
    static final int ROWS = 1_000_000;
    static final int COLUMNS = 5;
    static final int VALUES = ROWS * COLUMNS;
    static final int BATCH = 8192;
    private static final int VERSION = 1;
    static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message flat { required int64 id;"
            + " optional int32 n; required double x; optional int64 price (DECIMAL(18,2));"
            + " required int64 ts (TIMESTAMP(MICROS,true)); }");

    @Param({"plain", "dictionary", "delta"})
    public String dataset;

    /** Keep at {@value #ROWS}: the score divides by rows x 5. Smaller values are for the smoke test only. */
    @Param("1000000")
    public int rows;

    Path file;
    final long[] longs = new long[BATCH];
    final int[] ints = new int[BATCH];
    final double[] doubles = new double[BATCH];
    final boolean[] nulls = new boolean[BATCH];

    @Setup
    public void setup() {
        file = write(Locations.benchData().resolve("flat-v" + VERSION + "-" + dataset + "-" + rows + ".parquet"),
                dataset, rows);
    }

    /** This library: a FixedWidthColumn per column and batch, in the reader's arena. */
    @Benchmark
    public long fixedWidth(Blackhole bh) throws IOException {
        long n = 0;
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(file, arena,
                        ParquetViewOptions.defaults().withBatchSize(BATCH).withBatchScopedMemory(true))) {
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                for (int c = 0; c < COLUMNS; c++) {
                    FixedWidthColumn column = batch.fixedWidthColumn(c);
                    bh.consume(column.values());
                    bh.consume(column.validity());
                }
                n += batch.rowCount();
            }
        }
        return n;
    }

    /** Baseline: parquet-java's ColumnReader, each column's values copied into primitive arrays of 8192. */
    @Benchmark
    public long parquetJavaArrays(Blackhole bh) throws IOException {
        long n = 0;
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file), ParquetFiles.readOptions())) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
            PageReadStore rowGroup;
            while ((rowGroup = reader.readNextRowGroup()) != null) {
                try {
                    ColumnReadStoreImpl store = new ColumnReadStoreImpl(rowGroup,
                            new GroupRecordConverter(schema).getRootConverter(), schema, createdBy);
                    long groupRows = rowGroup.getRowCount();
                    for (ColumnDescriptor descriptor : schema.getColumns()) {
                        ColumnReader values = store.getColumnReader(descriptor);
                        int maxDefinition = descriptor.getMaxDefinitionLevel();
                        for (long done = 0; done < groupRows; ) {
                            int k = (int) Math.min(BATCH, groupRows - done);
                            switch (descriptor.getPrimitiveType().getPrimitiveTypeName()) {
                                case INT32 -> {
                                    for (int i = 0; i < k; i++) {
                                        boolean isNull = values.getCurrentDefinitionLevel() != maxDefinition;
                                        nulls[i] = isNull;
                                        ints[i] = isNull ? 0 : values.getInteger();
                                        values.consume();
                                    }
                                    bh.consume(ints);
                                }
                                case DOUBLE -> {
                                    for (int i = 0; i < k; i++) {
                                        boolean isNull = values.getCurrentDefinitionLevel() != maxDefinition;
                                        nulls[i] = isNull;
                                        doubles[i] = isNull ? 0 : values.getDouble();
                                        values.consume();
                                    }
                                    bh.consume(doubles);
                                }
                                default -> {
                                    for (int i = 0; i < k; i++) {
                                        boolean isNull = values.getCurrentDefinitionLevel() != maxDefinition;
                                        nulls[i] = isNull;
                                        longs[i] = isNull ? 0 : values.getLong();
                                        values.consume();
                                    }
                                    bh.consume(longs);
                                }
                            }
                            bh.consume(nulls);
                            done += k;
                        }
                    }
                    n += groupRows;
                } finally {
                    rowGroup.close();
                }
            }
        }
        return n;
    }

    /** Writes the dataset unless the file exists (a cache keyed by the file name), through a temporary file. */
    static Path write(Path file, String dataset, long rows) {
        if (Files.isRegularFile(file)) {
            return file;
        }
        try {
            Files.createDirectories(file.getParent());
            Path temp = file.resolveSibling(file.getFileName() + ".tmp-" + ProcessHandle.current().pid());
            Files.deleteIfExists(temp);
            SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
            SplittableRandom random = new SplittableRandom(0xF1A7_0031L);
            try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(temp))
                    .withConf(new PlainParquetConfiguration())
                    .withType(SCHEMA)
                    .withCodecFactory(new JniCodecs())
                    .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
                    .withDictionaryEncoding(dataset.equals("dictionary"))
                    .withWriterVersion(dataset.equals("delta") ? ParquetProperties.WriterVersion.PARQUET_2_0
                            : ParquetProperties.WriterVersion.PARQUET_1_0)
                    .withPageWriteChecksumEnabled(false)
                    .build()) {
                for (long row = 0; row < rows; row++) {
                    Group g = groups.newGroup();
                    g.add("id", row);
                    if (random.nextInt(10) != 0) {
                        g.add("n", random.nextInt(10_000));
                    }
                    g.add("x", random.nextInt(100_000) / 100.0);
                    if (random.nextInt(20) != 0) {
                        g.add("price", (long) random.nextInt(1_000_000));
                    }
                    g.add("ts", 1_700_000_000_000_000L + row * 1_000_000L + random.nextInt(1_000_000));
                    writer.write(g);
                }
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write parquet file: file=" + file, e);
        }
    }
}
