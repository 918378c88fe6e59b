package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dictionary filtering ({@link ParquetScan#withPageFiltering}): rows of dictionary pages decided by their ids give
 * exactly the answers of the plain scan (batches of views, predicate per row) and of an on-heap model, on files
 * whose dictionary fills up mid-chunk so the writer falls back to PLAIN (or DELTA_BYTE_ARRAY) pages, with nulls,
 * 12/13-byte values, several row groups, and 1, 2 and 7 threads.
 */
class DictionaryFilterTest {
    static final int ROWS = 6000;
    static final int GROUP_ROWS = 1500;

    @TempDir
    static Path dir;

    record Layout(String name, WriterVersion version, CompressionCodecName codec, double nullRatio) {}

    static final List<Layout> LAYOUTS = List.of(
            new Layout("dict-v1-plain-fallback", WriterVersion.PARQUET_1_0, CompressionCodecName.UNCOMPRESSED, 0.15),
            new Layout("dict-v1-zstd-no-nulls", WriterVersion.PARQUET_1_0, CompressionCodecName.ZSTD, 0),
            new Layout("dict-v2-snappy-delta-fallback", WriterVersion.PARQUET_2_0, CompressionCodecName.SNAPPY,
                    0.3));

    /**
     * In each row group, the first rows draw from a pool of 40 values (dictionary pages); the rest are mostly
     * distinct, so the 2 KiB dictionary overflows and the writer's remaining pages of the chunk fall back.
     */
    static ParquetScanTest.Written write(Layout layout, long seed) throws IOException {
        Random random = new Random(seed);
        Path path = dir.resolve(layout.name() + "-" + seed + ".parquet");
        Files.deleteIfExists(path);
        List<String> pool = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String head = ParquetScanTest.ALPHABET[random.nextInt(ParquetScanTest.ALPHABET.length)];
            pool.add(head + ParquetScanTest.tail(random, 0));
        }
        pool.add("abcdefghijkl"); // 12 bytes: the last inline length
        pool.add("abcdefghijklm"); // 13 bytes: the first with a prefix and a buffer
        List<String> values = new ArrayList<>();
        SimpleGroupFactory groups = new SimpleGroupFactory(ParquetScanTest.SCHEMA);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(path))
                .withConf(new PlainParquetConfiguration())
                .withType(ParquetScanTest.SCHEMA)
                .withCodecFactory(new TestCodecs())
                .withCompressionCodec(layout.codec())
                .withWriterVersion(layout.version())
                .withDictionaryEncoding(true)
                .withDictionaryPageSize(2048)
                .withPageSize(1024)
                .withPageRowCountLimit(70)
                .withRowGroupRowCountLimit(GROUP_ROWS)
                .build()) {
            for (int row = 0; row < ROWS; row++) {
                String value;
                if (random.nextDouble() < layout.nullRatio()) {
                    value = null;
                } else if (row % GROUP_ROWS < 600 || random.nextInt(4) == 0) {
                    value = pool.get(random.nextInt(pool.size()));
                } else {
                    value = ParquetScanTest.ALPHABET[random.nextInt(ParquetScanTest.ALPHABET.length)]
                            + ParquetScanTest.tail(random, 0) + row;
                }
                values.add(value);
                Group g = groups.newGroup();
                if (value != null) {
                    g.add("s", value);
                }
                writer.write(g);
            }
        }
        return new ParquetScanTest.Written(path, values, GROUP_ROWS, layout.name() + " seed=" + seed);
    }

    @Test
    void dictionaryFilteringAnswersExactlyAsThePlainScanAndTheModel() throws IOException {
        long seed = 1414;
        Random random = new Random(seed);
        int scans = 0;
        for (Layout layout : LAYOUTS) {
            ParquetScanTest.Written w = write(layout, seed + layout.name().hashCode());
            assertFallsBackMidChunk(w);
            List<ParquetScanTest.Case> cases = ParquetScanTest.cases(w, random);
            cases.add(new ParquetScanTest.Case(ColumnFilter.equalTo("s", "abcdefghijkl"),
                    x -> new String(x, java.nio.charset.StandardCharsets.UTF_8).equals("abcdefghijkl")));
            cases.add(new ParquetScanTest.Case(ColumnFilter.equalTo("s", "abcdefghijklm"),
                    x -> new String(x, java.nio.charset.StandardCharsets.UTF_8).equals("abcdefghijklm")));
            for (ParquetScanTest.Case c : cases) {
                long[] expected = ParquetScanTest.expectedRows(w, c);
                for (int threads : ParquetScanTest.THREADS) {
                    int batch = 1 + random.nextInt(500);
                    ParquetScan scan = ParquetScan.of(w.path()).withExecutor(ScanTasks.POOL, threads)
                            .withOptions(ParquetViewOptions.defaults().withBatchSize(batch));
                    String where = w.describe() + " filter=" + c.filter() + " threads=" + threads + " batchSize="
                            + batch;
                    long[] plain = scan.withPageFiltering(false).select(c.filter());
                    assertArrayEquals(expected, plain, "plain scan " + where);
                    assertArrayEquals(plain, scan.select(c.filter()), "dictionary filtering " + where);
                    assertEquals(plain.length, scan.count(c.filter()), "dictionary filtering count " + where);
                    scans++;
                }
            }
        }
        assertTrue(scans > 150, "scans=" + scans);
    }

    /** The file really mixes dictionary-encoded and fallback data pages in one chunk, with several row groups. */
    static void assertFallsBackMidChunk(ParquetScanTest.Written w) throws IOException {
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(w.path(), arena)) {
            assertTrue(reader.rowGroupCount() >= 4, w.describe() + " rowGroups=" + reader.rowGroupCount());
            Set<Integer> mixed = new HashSet<>();
            Set<Integer> withIds = new HashSet<>();
            for (PageInfo p : reader.pages("s")) {
                if (p.kind().startsWith("DATA")) {
                    if (p.encoding().endsWith("DICTIONARY")) {
                        withIds.add(p.rowGroup());
                    } else if (withIds.contains(p.rowGroup())) {
                        mixed.add(p.rowGroup());
                    }
                }
            }
            assertTrue(mixed.size() >= 2, w.describe() + " row groups with a fallback after dictionary pages="
                    + mixed + " withDictionaryPages=" + withIds);
        }
    }
}
