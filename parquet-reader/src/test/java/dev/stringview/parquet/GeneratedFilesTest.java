package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewKind;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
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
import org.apache.parquet.column.values.deltalengthbytearray.DeltaLengthByteArrayValuesWriter;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written by parquet-java's writer across encoding x page version x codec x null ratio x length
 * distribution, with small pages and row groups, read back with several batch sizes and compared with
 * parquet-java's reader value by value.
 */
class GeneratedFilesTest {
    static final MessageType SCHEMA = MessageTypeParser.parseMessageType(
            "message m { optional binary s (STRING); required binary b; optional binary j (JSON); }");
    static final List<CompressionCodecName> CODECS = List.of(CompressionCodecName.UNCOMPRESSED,
            CompressionCodecName.SNAPPY, CompressionCodecName.GZIP, CompressionCodecName.ZSTD,
            CompressionCodecName.LZ4_RAW, CompressionCodecName.LZ4, CompressionCodecName.BROTLI);
    static final int[] BATCH_SIZES = {1, 7, 8, 9, 1024, 333, 100_000};

    enum Lengths { SHORT, MIXED, LONG }

    enum Encoding { PLAIN_OR_DELTA, DICTIONARY, DELTA_LENGTH }

    record Scenario(WriterVersion version, Encoding encoding, CompressionCodecName codec, double nullRatio,
            Lengths lengths, int rows) {
        String name() {
            return version.name().replace("PARQUET_", "v").replace("_0", "") + "-" + encoding + "-" + codec + "-nulls"
                    + (int) (nullRatio * 100) + "-" + lengths + "-" + rows;
        }
    }

    @TempDir
    static Path dir;

    static final Set<String> PAGE_KINDS = ConcurrentHashMap.newKeySet();

    @TestFactory
    Stream<DynamicTest> writtenByParquetJava() {
        List<Scenario> scenarios = new ArrayList<>();
        for (WriterVersion version : WriterVersion.values()) {
            for (Encoding encoding : Encoding.values()) {
                for (CompressionCodecName codec : CODECS) {
                    for (double nulls : new double[] {0, 0.3, 1}) {
                        for (Lengths lengths : Lengths.values()) {
                            if (encoding == Encoding.DELTA_LENGTH && nulls == 0.3 && lengths == Lengths.SHORT) {
                                continue;
                            }
                            scenarios.add(new Scenario(version, encoding, codec, nulls, lengths,
                                    lengths == Lengths.LONG ? 600 : 1500));
                        }
                    }
                }
            }
        }
        return scenarios.stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> check(s)));
    }

    @AfterAll
    static void everyPageKindWasCovered() {
        Set<String> expected = new TreeSet<>(List.of("DATA_V1", "DATA_V2", "DICTIONARY", "PLAIN", "RLE_DICTIONARY",
                "PLAIN_DICTIONARY", "DELTA_BYTE_ARRAY", "DELTA_LENGTH_BYTE_ARRAY", "IN_PLACE_FILE",
                "IN_PLACE_DECOMPRESSED", "MATERIALIZED", "NONE"));
        for (CompressionCodecName codec : CODECS) {
            expected.add(codec.name());
        }
        assertTrue(PAGE_KINDS.containsAll(expected), "covered " + new TreeSet<>(PAGE_KINDS) + " expected " + expected);
    }

    private static void check(Scenario s) throws IOException {
        Path path = dir.resolve(s.name() + ".parquet");
        write(path, s, new Random(s.name().hashCode()));
        for (String column : List.of("s", "b", "j")) {
            List<byte[]> expected = Oracle.read(path, column);
            assertEquals(s.rows(), expected.size());
            for (int i = 0; i < BATCH_SIZES.length; i++) {
                int batch = BATCH_SIZES[i];
                // Every file goes through both decoders (native and pure-Java) and both memory modes, in all four
                // combinations, with different batch sizes.
                boolean nativeDecompression = i % 2 == 0;
                boolean batchScoped = (i / 2) % 2 == 0;
                ParquetTestingConformanceTest.assertEqualValues(expected,
                        Reading.read(path, column, ParquetViewOptions.defaults().withBatchSize(batch)
                                .withNativeDecompression(nativeDecompression).withBatchScopedMemory(batchScoped)),
                        s.name() + " column=" + column + " batch=" + batch + " native=" + nativeDecompression
                                + " batchScoped=" + batchScoped);
            }
        }
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(path, arena)) {
            assertEquals(List.of(ViewKind.UTF8, ViewKind.BINARY, ViewKind.UTF8),
                    reader.columns().stream().map(ParquetColumn::kind).toList());
            for (String column : List.of("s", "b", "j")) {
                for (PageInfo page : reader.pages(column)) {
                    PAGE_KINDS.add(page.kind());
                    PAGE_KINDS.add(page.encoding());
                    PAGE_KINDS.add(page.codec());
                    PAGE_KINDS.add(page.views().name());
                }
            }
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
                .withDictionaryPageSize(8 * 1024)
                .withPageSize(2 * 1024)
                .withPageRowCountLimit(200)
                .withRowGroupSize(48L * 1024)
                .withPageWriteChecksumEnabled(random.nextBoolean());
        if (s.encoding() == Encoding.DELTA_LENGTH) {
            forceDeltaLength(builder);
        }
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        List<String> pool = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            pool.add(string(random, s.lengths()));
        }
        try (ParquetWriter<Group> writer = builder.build()) {
            for (int row = 0; row < s.rows(); row++) {
                Group g = groups.newGroup();
                if (random.nextDouble() >= s.nullRatio()) {
                    g.add("s", random.nextInt(3) == 0 ? string(random, s.lengths()) : pool.get(random.nextInt(pool.size())));
                }
                g.add("b", Binary.fromConstantByteArray(bytes(random, s.lengths())));
                if (random.nextDouble() >= s.nullRatio() / 2) {
                    g.add("j", "{\"k\":\"" + pool.get(random.nextInt(pool.size())).replace("\"", "") + "\"}");
                }
                writer.write(g);
            }
        }
    }

    /** parquet-java's writer never picks DELTA_LENGTH_BYTE_ARRAY on its own: swap in its values writer. */
    private static void forceDeltaLength(ExampleParquetWriter.Builder builder) {
        try {
            Field field = ParquetWriter.Builder.class.getDeclaredField("encodingPropsBuilder");
            field.setAccessible(true);
            ParquetProperties.Builder props = (ParquetProperties.Builder) field.get(builder);
            props.withValuesWriterFactory(new ValuesWriterFactory() {
                private final DefaultValuesWriterFactory fallback = new DefaultValuesWriterFactory();
                private ParquetProperties properties;

                @Override
                public void initialize(ParquetProperties properties) {
                    this.properties = properties;
                    fallback.initialize(properties);
                }

                @Override
                public ValuesWriter newValuesWriter(ColumnDescriptor descriptor) {
                    if (descriptor.getPrimitiveType().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BINARY) {
                        return new DeltaLengthByteArrayValuesWriter(properties.getInitialSlabSize(),
                                properties.getPageSizeThreshold(), properties.getAllocator());
                    }
                    return fallback.newValuesWriter(descriptor);
                }
            });
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static final String[] PIECES = {"a", "Z", "0", " ", "é", "€", "😀", "\u0000", "ß", "漢"};

    static String string(Random random, Lengths lengths) {
        int target = switch (lengths) {
            case SHORT -> random.nextInt(14); // 0..13 bytes: both sides of the 12-byte inline limit
            case MIXED -> random.nextInt(10) == 0 ? 128 + random.nextInt(200) : random.nextInt(60);
            case LONG -> random.nextInt(8) == 0 ? (random.nextInt(4) == 0 ? 10 * 1024 : random.nextInt(10 * 1024))
                    : random.nextInt(40);
        };
        StringBuilder sb = new StringBuilder();
        int bytes = 0;
        while (bytes < target) {
            String piece = random.nextInt(4) == 0 ? PIECES[random.nextInt(PIECES.length)] : "x";
            int n = piece.getBytes(StandardCharsets.UTF_8).length;
            if (bytes + n > target) {
                piece = "y";
                n = 1;
            }
            sb.append(piece);
            bytes += n;
        }
        return sb.toString();
    }

    static byte[] bytes(Random random, Lengths lengths) {
        int n = switch (lengths) {
            case SHORT -> random.nextInt(14);
            case MIXED -> random.nextInt(200);
            case LONG -> random.nextInt(10) == 0 ? random.nextInt(10 * 1024 + 1) : random.nextInt(30);
        };
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

}
