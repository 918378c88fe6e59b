package dev.stringview.parquet;

import static org.apache.parquet.schema.LogicalTypeAnnotation.dateType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.decimalType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.float16Type;
import static org.apache.parquet.schema.LogicalTypeAnnotation.intType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.timeType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.timestampType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.uuidType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.reflect.Field;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForInteger;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.apache.parquet.column.values.deltastrings.DeltaByteArrayWriter;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.plain.BooleanPlainValuesWriter;
import org.apache.parquet.column.values.plain.FixedLenByteArrayPlainValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridValuesWriter;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every flat fixed-width type (BOOLEAN, INT32/INT64 with every logical type, INT96, FLOAT, DOUBLE, FLOAT16,
 * FIXED_LEN_BYTE_ARRAY as DECIMAL, UUID and plain, DECIMAL on BYTE_ARRAY), written by parquet-java in every encoding
 * it has for them (PLAIN, dictionary, BYTE_STREAM_SPLIT, DELTA_BINARY_PACKED and RLE booleans, DELTA_BYTE_ARRAY for
 * byte arrays) x page version x codec x null ratio, with small pages and row groups; read back at edge batch sizes
 * in both memory modes and compared value by value with parquet-java's column readers.
 */
class FlatTypesTest {
    static final MessageType SCHEMA = Types.buildMessage()
            .optional(PrimitiveTypeName.BOOLEAN).named("bool")
            .required(PrimitiveTypeName.INT32).named("i32")
            .optional(PrimitiveTypeName.INT32).as(intType(8, true)).named("i8")
            .optional(PrimitiveTypeName.INT32).as(intType(8, false)).named("u8")
            .optional(PrimitiveTypeName.INT32).as(intType(16, true)).named("i16")
            .optional(PrimitiveTypeName.INT32).as(intType(16, false)).named("u16")
            .optional(PrimitiveTypeName.INT32).as(intType(32, false)).named("u32")
            .optional(PrimitiveTypeName.INT64).named("i64")
            .optional(PrimitiveTypeName.INT64).as(intType(64, false)).named("u64")
            .optional(PrimitiveTypeName.INT32).as(dateType()).named("date")
            .optional(PrimitiveTypeName.INT32).as(timeType(true, TimeUnit.MILLIS)).named("time_ms")
            .optional(PrimitiveTypeName.INT64).as(timeType(false, TimeUnit.MICROS)).named("time_us")
            .optional(PrimitiveTypeName.INT64).as(timeType(true, TimeUnit.NANOS)).named("time_ns")
            .optional(PrimitiveTypeName.INT64).as(timestampType(true, TimeUnit.MILLIS)).named("ts_ms")
            .optional(PrimitiveTypeName.INT64).as(timestampType(false, TimeUnit.MICROS)).named("ts_us")
            .optional(PrimitiveTypeName.INT64).as(timestampType(true, TimeUnit.NANOS)).named("ts_ns")
            .optional(PrimitiveTypeName.INT32).as(decimalType(2, 9)).named("dec32")
            .optional(PrimitiveTypeName.INT64).as(decimalType(4, 18)).named("dec64")
            .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(9).as(decimalType(3, 20)).named("dec_f9")
            .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(16).as(decimalType(10, 38)).named("dec_f16")
            .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(20).as(decimalType(5, 45)).named("dec_f20")
            .optional(PrimitiveTypeName.BINARY).as(decimalType(6, 30)).named("dec_b")
            .optional(PrimitiveTypeName.FLOAT).named("f")
            .required(PrimitiveTypeName.DOUBLE).named("d")
            .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(2).as(float16Type()).named("f16")
            .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(16).as(uuidType()).named("uuid")
            .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(5).named("fixed5")
            .optional(PrimitiveTypeName.INT96).named("i96")
            .optional(PrimitiveTypeName.BINARY).named("s")
            .named("m");
    static final List<CompressionCodecName> CODECS = List.of(CompressionCodecName.UNCOMPRESSED,
            CompressionCodecName.SNAPPY, CompressionCodecName.ZSTD, CompressionCodecName.GZIP);
    static final int[] BATCH_SIZES = {1, 7, 64, 1000, 100_000};

    /** How parquet-java is made to encode the values. */
    enum Encoding { PLAIN, DICTIONARY, BYTE_STREAM_SPLIT, DELTA }

    record Scenario(WriterVersion version, Encoding encoding, CompressionCodecName codec, double nullRatio,
            int rows) {
        String name() {
            return version.name().replace("PARQUET_", "v").replace("_0", "") + "-" + encoding + "-" + codec
                    + "-nulls" + (int) (nullRatio * 100) + "-" + rows;
        }
    }

    @TempDir
    static Path dir;

    static final Set<String> ENCODINGS_SEEN = ConcurrentHashMap.newKeySet();

    @TestFactory
    Stream<DynamicTest> writtenByParquetJava() {
        List<Scenario> scenarios = new ArrayList<>();
        for (WriterVersion version : WriterVersion.values()) {
            for (Encoding encoding : Encoding.values()) {
                for (CompressionCodecName codec : CODECS) {
                    for (double nulls : new double[] {0, 0.3, 1}) {
                        if (nulls == 1 && codec != CompressionCodecName.UNCOMPRESSED) {
                            continue;
                        }
                        scenarios.add(new Scenario(version, encoding, codec, nulls, 1500));
                    }
                }
            }
        }
        return scenarios.stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> check(s)));
    }

    @AfterAll
    static void everyEncodingWasCovered() {
        Set<String> expected = new TreeSet<>(List.of("PLAIN", "PLAIN_DICTIONARY", "RLE_DICTIONARY",
                "BYTE_STREAM_SPLIT", "DELTA_BINARY_PACKED", "RLE", "DELTA_BYTE_ARRAY"));
        assertTrue(ENCODINGS_SEEN.containsAll(expected), "covered " + new TreeSet<>(ENCODINGS_SEEN) + " expected "
                + expected);
    }

    private static void check(Scenario s) throws IOException {
        Path path = dir.resolve(s.name() + ".parquet");
        write(path, s, new Random(s.name().hashCode()));
        int i = 0;
        for (String column : FlatOracle.fixedWidthColumns(SCHEMA)) {
            List<Object> expected = FlatOracle.read(path, column);
            assertEquals(s.rows(), expected.size());
            for (int k = 0; k < 2; k++, i++) {
                int batch = BATCH_SIZES[i % BATCH_SIZES.length];
                boolean batchScoped = (i / BATCH_SIZES.length) % 2 == 0;
                FlatOracle.check(path, column, ParquetViewOptions.defaults().withBatchSize(batch)
                        .withBatchScopedMemory(batchScoped), expected, s.name() + " column=" + column + " batch="
                                + batch + " batchScoped=" + batchScoped);
            }
        }
        try (Arena arena = Arena.ofConfined(); ParquetViewReader reader = ParquetViewReader.open(path, arena)) {
            assertEquals(SCHEMA.getFieldCount(), reader.columns().size(), "every flat column is read by default");
            for (ParquetColumn column : reader.columns()) {
                for (PageInfo page : reader.pages(column.name())) {
                    ENCODINGS_SEEN.add(page.encoding());
                }
            }
            // a whole batch of every column at once: the string column stays views
            ViewBatch batch = reader.nextBatch();
            assertEquals(batch.columnNames().size() - 1, batch.columnNames().stream()
                    .filter(n -> batch.isFixedWidth(batch.columnNames().indexOf(n))).count());
            assertEquals(batch.rowCount(), batch.column("s").size());
        }
    }

    @Test
    void wrongAccessNamesTheColumnTheRowAndTheType() throws IOException {
        Path path = dir.resolve("access.parquet");
        write(path, new Scenario(WriterVersion.PARQUET_1_0, Encoding.PLAIN, CompressionCodecName.UNCOMPRESSED, 0.3,
                100), new Random(3));
        try (Arena arena = Arena.ofConfined(); ParquetViewReader reader = ParquetViewReader.open(path, arena,
                ParquetViewOptions.defaults().withColumns("i64", "s", "dec_f16", "bool"))) {
            assertTrue(reader.columns().get(0).isFixedWidth());
            assertEquals(null, reader.columns().get(0).kind());
            assertEquals(dev.stringview.ViewKind.BINARY, reader.columns().get(1).kind());
            assertEquals("FIXED_LEN_BYTE_ARRAY(16) DECIMAL(38,10)", reader.columns().get(2).type().toString());
            ViewBatch batch = reader.nextBatch();
            IllegalStateException notViews = assertThrows(IllegalStateException.class, () -> batch.column("i64"));
            assertEquals("column is fixed-width, not views: column=i64 index=0 type=INT64 (read it with "
                    + "fixedWidthColumn)", notViews.getMessage());
            IllegalStateException notFixed = assertThrows(IllegalStateException.class,
                    () -> batch.fixedWidthColumn(1));
            assertTrue(notFixed.getMessage().startsWith("column is views, not fixed-width: column=s index=1"),
                    notFixed.getMessage());
            assertThrows(IllegalStateException.class, batch::columns);
            FixedWidthColumn i64 = batch.fixedWidthColumn("i64");
            IndexOutOfBoundsException row = assertThrows(IndexOutOfBoundsException.class,
                    () -> i64.getLong(batch.rowCount()));
            assertEquals("row out of range: column=i64 row=100 rowCount=100", row.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> i64.isNull(-1));
            UnsupportedOperationException type = assertThrows(UnsupportedOperationException.class,
                    () -> i64.getDecimal(0));
            assertEquals("accessor does not fit the column's type: column=i64 accessor=getDecimal type=INT64",
                    type.getMessage());
            assertThrows(UnsupportedOperationException.class, () -> i64.getInt(0));
            assertThrows(UnsupportedOperationException.class, () -> batch.fixedWidthColumn("dec_f16").getLong(0));
            assertThrows(UnsupportedOperationException.class, () -> batch.fixedWidthColumn("bool").getBytes(0));
            assertThrows(UnsupportedOperationException.class, () -> batch.fixedWidthColumn("bool").getDouble(0));
        }
    }

    @Test
    void aStringFilterOnAFixedWidthColumnIsRefused() throws IOException {
        Path path = dir.resolve("filter.parquet");
        write(path, new Scenario(WriterVersion.PARQUET_1_0, Encoding.PLAIN, CompressionCodecName.UNCOMPRESSED, 0.3,
                500), new Random(4));
        for (boolean pruning : new boolean[] {true, false}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ParquetScan.of(path)
                    .withPruning(pruning).count(RowFilter.equalTo("i32", "5")));
            assertTrue(e.getMessage().contains("column=i32"), e.getMessage());
        }
    }

    static void write(Path path, Scenario s, Random random) throws IOException {
        Files.deleteIfExists(path);
        ExampleParquetWriter.Builder builder = ExampleParquetWriter.builder(new LocalOutputFile(path))
                .withConf(new PlainParquetConfiguration())
                .withType(SCHEMA)
                .withCodecFactory(new TestCodecs())
                .withCompressionCodec(s.codec())
                .withWriterVersion(s.version())
                .withDictionaryEncoding(s.encoding() == Encoding.DICTIONARY)
                .withDictionaryPageSize(4 * 1024)
                .withPageSize(2 * 1024)
                .withPageRowCountLimit(300)
                .withRowGroupSize(64L * 1024)
                .withPageWriteChecksumEnabled(random.nextBoolean());
        ParquetProperties.Builder props = propertiesOf(builder);
        switch (s.encoding()) {
            case PLAIN, DELTA -> props.withValuesWriterFactory(new Forced(s.encoding()));
            case BYTE_STREAM_SPLIT -> props.withByteStreamSplitEncoding(true).withExtendedByteStreamSplitEncoding(true);
            case DICTIONARY -> { }
        }
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        // a small pool so that dictionaries form, plus fresh values so that some chunks fall back
        List<Group> pool = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            pool.add(row(groups, random, s.nullRatio()));
        }
        try (ParquetWriter<Group> writer = builder.build()) {
            for (int r = 0; r < s.rows(); r++) {
                boolean fresh = s.encoding() != Encoding.DICTIONARY || r > s.rows() / 2 || random.nextInt(4) == 0;
                writer.write(fresh ? row(groups, random, s.nullRatio()) : pool.get(random.nextInt(pool.size())));
            }
        }
    }

    private static Group row(SimpleGroupFactory groups, Random random, double nullRatio) {
        Group g = groups.newGroup();
        for (org.apache.parquet.schema.Type field : SCHEMA.getFields()) {
            if (field.isRepetition(Repetition.OPTIONAL) && random.nextDouble() < nullRatio) {
                continue;
            }
            PrimitiveType p = field.asPrimitiveType();
            String name = field.getName();
            switch (name) {
                case "bool" -> g.add(name, random.nextBoolean());
                case "i8" -> g.add(name, (int) (byte) edgeInt(random));
                case "u8" -> g.add(name, edgeInt(random) & 0xFF);
                case "i16" -> g.add(name, (int) (short) edgeInt(random));
                case "u16" -> g.add(name, edgeInt(random) & 0xFFFF);
                case "date" -> g.add(name, random.nextInt(200_000) - 100_000);
                case "time_ms" -> g.add(name, random.nextInt(86_400_000));
                case "dec32" -> g.add(name, random.nextInt(1_999_999_999) - 999_999_999);
                case "dec64" -> g.add(name, random.nextLong() % 1_000_000_000_000_000_000L);
                case "dec_f9", "dec_f16", "dec_f20", "dec_b" -> {
                    int precision = ((org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation)
                            p.getLogicalTypeAnnotation()).getPrecision();
                    BigInteger unscaled = new BigInteger(precision * 3, random).mod(BigInteger.TEN.pow(precision));
                    if (random.nextBoolean()) {
                        unscaled = unscaled.negate();
                    }
                    if (random.nextInt(8) == 0) {
                        unscaled = BigInteger.valueOf(random.nextInt(3) - 1); // -1, 0, 1
                    }
                    byte[] minimal = unscaled.toByteArray();
                    byte[] bytes;
                    if (p.getPrimitiveTypeName() == PrimitiveTypeName.BINARY) {
                        bytes = minimal;
                    } else {
                        bytes = new byte[p.getTypeLength()];
                        java.util.Arrays.fill(bytes, (byte) (unscaled.signum() < 0 ? -1 : 0));
                        System.arraycopy(minimal, 0, bytes, bytes.length - minimal.length, minimal.length);
                    }
                    g.add(name, Binary.fromConstantByteArray(bytes));
                }
                case "f16" -> {
                    short half = random.nextInt(10) == 0 ? (short) 0x7E00 : Float.floatToFloat16(
                            (float) random.nextGaussian() * 1000);
                    g.add(name, Binary.fromConstantByteArray(new byte[] {(byte) half, (byte) (half >> 8)}));
                }
                case "i96" -> {
                    byte[] b = new byte[12];
                    java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                    bb.putLong(0, (long) (random.nextDouble() * 86_400_000_000_000L));
                    bb.putInt(8, 2_440_588 + random.nextInt(200_000) - 100_000);
                    g.add(name, Binary.fromConstantByteArray(b));
                }
                case "s" -> g.add(name, Binary.fromString("v" + random.nextInt(50)));
                default -> {
                    switch (p.getPrimitiveTypeName()) {
                        case INT32 -> g.add(name, edgeInt(random));
                        case INT64 -> g.add(name, edgeLong(random));
                        case FLOAT -> g.add(name, random.nextInt(20) == 0 ? Float.NaN : random.nextFloat() * 1e6f);
                        case DOUBLE -> g.add(name, random.nextInt(20) == 0 ? -0.0 : random.nextGaussian() * 1e12);
                        case FIXED_LEN_BYTE_ARRAY -> {
                            byte[] b = new byte[p.getTypeLength()];
                            random.nextBytes(b);
                            g.add(name, Binary.fromConstantByteArray(b));
                        }
                        default -> throw new AssertionError(name);
                    }
                }
            }
        }
        return g;
    }

    static int edgeInt(Random random) {
        return switch (random.nextInt(8)) {
            case 0 -> Integer.MIN_VALUE;
            case 1 -> Integer.MAX_VALUE;
            case 2 -> -1;
            case 3 -> 0;
            case 4 -> random.nextInt(256) - 128;
            default -> random.nextInt();
        };
    }

    static long edgeLong(Random random) {
        return switch (random.nextInt(8)) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> Long.MAX_VALUE;
            case 2 -> -1;
            case 3 -> 0;
            case 4 -> random.nextInt(1 << 20);
            default -> random.nextLong();
        };
    }

    /** parquet-java's writer settings behind its builder (as GeneratedFilesTest reaches them). */
    static ParquetProperties.Builder propertiesOf(ParquetWriter.Builder<?, ?> builder) {
        try {
            Field field = ParquetWriter.Builder.class.getDeclaredField("encodingPropsBuilder");
            field.setAccessible(true);
            return (ParquetProperties.Builder) field.get(builder);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * PLAIN for every type in both page versions (parquet-java's v2 writer would pick DELTA / RLE), or the DELTA
     * family in both (its v1 writer never does): DELTA_BINARY_PACKED for INT32 and INT64, RLE for BOOLEAN,
     * DELTA_BYTE_ARRAY for byte arrays, PLAIN for the rest.
     */
    private static final class Forced implements ValuesWriterFactory {
        private final Encoding encoding;
        private final DefaultValuesWriterFactory fallback = new DefaultValuesWriterFactory();
        private ParquetProperties properties;

        Forced(Encoding encoding) {
            this.encoding = encoding;
        }

        @Override
        public void initialize(ParquetProperties properties) {
            this.properties = properties;
            fallback.initialize(properties);
        }

        @Override
        public ValuesWriter newValuesWriter(ColumnDescriptor descriptor) {
            int slab = properties.getInitialSlabSize();
            int page = properties.getPageSizeThreshold();
            var allocator = properties.getAllocator();
            PrimitiveTypeName type = descriptor.getPrimitiveType().getPrimitiveTypeName();
            if (encoding == Encoding.DELTA) {
                switch (type) {
                    case INT32 -> {
                        return new DeltaBinaryPackingValuesWriterForInteger(slab, page, allocator);
                    }
                    case INT64 -> {
                        return new DeltaBinaryPackingValuesWriterForLong(slab, page, allocator);
                    }
                    case BOOLEAN -> {
                        return new RunLengthBitPackingHybridValuesWriter(1, slab, page, allocator);
                    }
                    case BINARY, FIXED_LEN_BYTE_ARRAY -> {
                        return new DeltaByteArrayWriter(slab, page, allocator);
                    }
                    default -> { }
                }
            }
            return switch (type) {
                case BOOLEAN -> new BooleanPlainValuesWriter();
                case FIXED_LEN_BYTE_ARRAY -> new FixedLenByteArrayPlainValuesWriter(
                        descriptor.getPrimitiveType().getTypeLength(), slab, page, allocator);
                default -> new PlainValuesWriter(slab, page, allocator);
            };
        }
    }
}
