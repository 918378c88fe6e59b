package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.stringview.parquet.GeneratedFilesTest.Encoding;
import dev.stringview.parquet.GeneratedFilesTest.Lengths;
import dev.stringview.parquet.GeneratedFilesTest.Scenario;
import dev.stringview.parquet.internal.PageHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutates and truncates valid files and reads the results: every outcome must be either values or a
 * {@link ParquetViewException}, never another exception, an error or a hang. Where pages carry checksums, a
 * change inside a page body must be reported, never read as values. Bounded: a fixed number of mutants (set
 * {@code -Dfuzz.iterations}, {@code -Dfuzz.seed}), each under a time limit.
 */
class FuzzTest {
    private static final int ITERATIONS = Integer.getInteger("fuzz.iterations", 1200);
    private static final long SEED = Long.getLong("fuzz.seed", 20261122L);
    private static final Duration PER_MUTANT = Duration.ofSeconds(10);
    private static final ParquetViewOptions OPTIONS = ParquetViewOptions.defaults().withMaxPageBytes(16 << 20);

    @TempDir
    static Path dir;

    static final List<Path> seeds = new ArrayList<>();

    @BeforeAll
    static void writeSeeds() throws IOException {
        List<Scenario> scenarios = List.of(
                new Scenario(WriterVersion.PARQUET_1_0, Encoding.PLAIN_OR_DELTA, CompressionCodecName.UNCOMPRESSED, 0.3, Lengths.MIXED, 400),
                new Scenario(WriterVersion.PARQUET_1_0, Encoding.DICTIONARY, CompressionCodecName.SNAPPY, 0.3, Lengths.SHORT, 400),
                new Scenario(WriterVersion.PARQUET_2_0, Encoding.PLAIN_OR_DELTA, CompressionCodecName.GZIP, 0.3, Lengths.MIXED, 400),
                new Scenario(WriterVersion.PARQUET_2_0, Encoding.DICTIONARY, CompressionCodecName.ZSTD, 0, Lengths.LONG, 200),
                new Scenario(WriterVersion.PARQUET_1_0, Encoding.DELTA_LENGTH, CompressionCodecName.LZ4_RAW, 0.3, Lengths.MIXED, 400),
                new Scenario(WriterVersion.PARQUET_2_0, Encoding.DELTA_LENGTH, CompressionCodecName.LZ4, 0.3, Lengths.SHORT, 400),
                new Scenario(WriterVersion.PARQUET_2_0, Encoding.PLAIN_OR_DELTA, CompressionCodecName.UNCOMPRESSED, 0, Lengths.SHORT, 400));
        Random random = new Random(SEED);
        for (Scenario s : scenarios) {
            Path path = dir.resolve("seed-" + s.name() + ".parquet");
            GeneratedFilesTest.write(path, s, random);
            seeds.add(path);
        }
        for (FlatTypesTest.Encoding encoding : FlatTypesTest.Encoding.values()) { // every fixed-width type
            FlatTypesTest.Scenario s = new FlatTypesTest.Scenario(encoding.ordinal() % 2 == 0
                    ? WriterVersion.PARQUET_1_0 : WriterVersion.PARQUET_2_0, encoding,
                    encoding.ordinal() < 2 ? CompressionCodecName.UNCOMPRESSED : CompressionCodecName.SNAPPY, 0.3, 300);
            Path path = dir.resolve("seed-flat-" + s.name() + ".parquet");
            FlatTypesTest.write(path, s, random);
            seeds.add(path);
        }
        for (String name : List.of("delta_length_byte_array.parquet", "binary.parquet", "datapage_v2.snappy.parquet",
                "non_hadoop_lz4_compressed.parquet", "alltypes_tiny_pages.parquet",
                "delta_encoding_optional_column.parquet", "rle-dict-snappy-checksum.parquet")) {
            seeds.add(TestData.dataDir().resolve(name));
        }
        for (Path seed : seeds) {
            assertTrue(!pageBodies(seed, Files.readAllBytes(seed)).isEmpty(), "seed has BYTE_ARRAY pages: " + seed);
        }
    }

    /** Page bodies (offset, length) of every BYTE_ARRAY chunk, and whether each page carries a CRC. */
    record Body(long offset, int length, boolean hasCrc) {}

    static List<Body> pageBodies(Path path, byte[] bytes) throws IOException {
        List<Body> bodies = new ArrayList<>();
        MemorySegment file = MemorySegment.ofArray(bytes);
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(path), Oracle.options())) {
            for (BlockMetaData block : reader.getFooter().getBlocks()) {
                for (ColumnChunkMetaData chunk : block.getColumns()) {
                    if (chunk.getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BINARY
                            || chunk.getPath().size() != 1) {
                        continue; // the reader never reads other columns' pages
                    }
                    long p = chunk.getStartingPos();
                    long end = p + chunk.getTotalSize();
                    while (p < end) {
                        PageHeader h = PageHeader.parse(file, p, end);
                        long body = p + h.headerSize();
                        bodies.add(new Body(body, h.compressedSize(), h.hasCrc()));
                        p = body + h.compressedSize();
                    }
                }
            }
        }
        return bodies;
    }

    @Test
    void mutantsFailCleanly() throws Exception {
        Random random = new Random(SEED);
        int outcomesValues = 0;
        int outcomesErrors = 0;
        int crcChecked = 0;
        for (int i = 0; i < ITERATIONS; i++) {
            Path seed = seeds.get(random.nextInt(seeds.size()));
            byte[] original = Files.readAllBytes(seed);
            List<Body> bodies = pageBodies(seed, original);
            byte[] mutant = original.clone();
            int footerLength = (original[original.length - 8] & 0xFF) | (original[original.length - 7] & 0xFF) << 8
                    | (original[original.length - 6] & 0xFF) << 16 | (original[original.length - 5] & 0xFF) << 24;
            int dataEnd = original.length - 8 - footerLength;
            int kind = random.nextInt(10);
            String what;
            Body touched = null;
            switch (kind) {
                case 0, 1, 2 -> { // flip bytes anywhere in the page area (headers and bodies)
                    int n = 1 + random.nextInt(4);
                    for (int k = 0; k < n; k++) {
                        int at = 4 + random.nextInt(dataEnd - 4);
                        mutant[at] ^= (byte) (1 + random.nextInt(255));
                    }
                    what = "flip " + n + " page-area bytes";
                }
                case 3, 4 -> { // a forged int32 somewhere in the page area (lengths, sizes, counts)
                    int at = 4 + random.nextInt(Math.max(1, dataEnd - 8));
                    int value = switch (random.nextInt(6)) {
                        case 0 -> Integer.MAX_VALUE;
                        case 1 -> -1;
                        case 2 -> Integer.MIN_VALUE;
                        case 3 -> 1 << random.nextInt(31);
                        case 4 -> random.nextInt(1 << 16);
                        default -> random.nextInt();
                    };
                    for (int k = 0; k < 4; k++) {
                        mutant[at + k] = (byte) (value >>> (8 * k));
                    }
                    what = "int32 " + value + " at " + at;
                }
                case 5 -> { // one byte inside a page body
                    touched = bodies.get(random.nextInt(bodies.size()));
                    if (touched.length() == 0) {
                        touched = null;
                        what = "empty body";
                        break;
                    }
                    int at = (int) touched.offset() + random.nextInt(touched.length());
                    mutant[at] ^= (byte) (1 + random.nextInt(255));
                    what = "body byte at " + at;
                }
                case 6 -> { // truncate the file
                    mutant = Arrays.copyOf(original, random.nextInt(original.length));
                    what = "truncate to " + mutant.length;
                }
                case 7 -> { // cut bytes out of the page area, keeping the footer
                    int from = 4 + random.nextInt(dataEnd - 4);
                    int n = 1 + random.nextInt(Math.min(64, dataEnd - from));
                    byte[] cut = new byte[original.length - n];
                    System.arraycopy(original, 0, cut, 0, from);
                    System.arraycopy(original, from + n, cut, from, original.length - from - n);
                    mutant = cut;
                    what = "cut " + n + " bytes at " + from;
                }
                default -> { // the footer
                    int at = dataEnd + random.nextInt(footerLength);
                    mutant[at] ^= (byte) (1 + random.nextInt(255));
                    what = "footer byte at " + at;
                }
            }
            Path path = dir.resolve("mutant.parquet");
            Files.write(path, mutant);
            String label = "mutant " + i + " of " + seed.getFileName() + ": " + what;
            // Odd mutants go through the native decompressors, even ones through the pure-Java decoders.
            ParquetViewOptions options = OPTIONS.withNativeDecompression(i % 2 == 1);
            boolean[] failed = new boolean[1];
            assertTimeoutPreemptively(PER_MUTANT, () -> {
                try {
                    BadDataTest.readAllColumns(path, options);
                } catch (ParquetViewException e) {
                    failed[0] = true;
                    assertTrue(e.getMessage().contains("file=mutant.parquet"), e.getMessage());
                } catch (Throwable t) {
                    throw new AssertionError(label + ": unexpected " + t, t);
                }
            }, label);
            if (failed[0]) {
                outcomesErrors++;
            } else {
                outcomesValues++;
                if (touched != null && touched.hasCrc()) {
                    fail(label + ": a changed page body with a CRC was read as values");
                }
            }
            if (touched != null && touched.hasCrc()) {
                crcChecked++;
            }
        }
        assertEquals(ITERATIONS, outcomesValues + outcomesErrors);
        assertTrue(outcomesErrors > ITERATIONS / 4, "most mutants are rejected: errors=" + outcomesErrors);
        assertTrue(crcChecked > 0, "some mutants hit checksummed page bodies");
    }
}
