package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Suites 2 and 3 compare like with like: on hits-like files of every layout, this library, both parquet-java
 * paths and DuckDB count the same rows for every query, and the count equals a scan of the generator itself. The
 * generator has the shape the documentation claims.
 */
class EnginesAgreeTest {
    static final int ROWS = 30_000;

    @TempDir
    static Path dir;

    @Test
    void everyEngineCountsWhatTheGeneratorProduced() throws Exception {
        HitsGenerator generator = new HitsGenerator();
        List<Query> queries = List.of(Query.Q20, Query.EQUALITY, Query.PREFIX);
        long[] expected = new long[queries.size()];
        for (long row = 0; row < ROWS; row++) {
            String url = generator.row(row)[0];
            for (int q = 0; q < queries.size(); q++) {
                Query query = queries.get(q);
                boolean match = switch (query.kind()) {
                    case CONTAINS -> url.contains(query.constant());
                    case EQUAL -> url.equals(query.constant());
                    case PREFIX -> url.startsWith(query.constant());
                };
                expected[q] += match ? 1 : 0;
            }
        }
        try (Connection duckdb = HitsQueryBenchmark.openDuckDb();
                Connection duckdbDefault = HitsQueryBenchmark.openDuckDbDefaultThreads()) {
            for (ParquetFiles.Layout layout : List.of(ParquetFiles.PLAIN, ParquetFiles.SNAPPY,
                    ParquetFiles.DICTIONARY_ZSTD, new ParquetFiles.Layout("snappySmallGroups", false,
                            org.apache.parquet.hadoop.metadata.CompressionCodecName.SNAPPY, 4096))) {
                Path file = Locations.hitsFile(dir, layout, ROWS, null);
                for (int q = 0; q < queries.size(); q++) {
                    Query query = queries.get(q);
                    String where = "layout=" + layout.name() + " query=" + query.name();
                    assertTrue(expected[q] > 0, "query selects nothing: " + where);
                    assertEquals(expected[q], query.countViews(file), "views " + where);
                    assertEquals(expected[q], query.countParquetJavaString(file), "parquetJavaString " + where);
                    assertEquals(expected[q], query.countParquetJavaBytes(file), "parquetJavaBytes " + where);
                    assertEquals(expected[q], query.countDuckDb(duckdb, file), "duckdb " + where);
                    assertEquals(expected[q], query.countDuckDb(duckdbDefault, file), "duckdbDefault " + where);
                    for (int threads : new int[] {1, 2, 7}) {
                        assertEquals(expected[q], query.countScan(file, threads), "scan threads=" + threads + " "
                                + where);
                    }
                }
            }
        }
    }

    @Test
    void hitsLikeDataHasTheDocumentedShape() {
        HitsGenerator generator = new HitsGenerator();
        int n = 50_000;
        int google = 0;
        int emptyPhrase = 0;
        int shortUrl = 0;
        int longUrl = 0;
        int multiByteTitle = 0;
        for (long row = 0; row < n; row++) {
            String[] v = generator.row(row);
            google += v[0].contains("google") ? 1 : 0;
            emptyPhrase += v[3].isEmpty() ? 1 : 0;
            int urlBytes = v[0].getBytes(StandardCharsets.UTF_8).length;
            shortUrl += urlBytes < 20 ? 1 : 0;
            longUrl += urlBytes > 200 ? 1 : 0;
            multiByteTitle += v[2].getBytes(StandardCharsets.UTF_8).length > v[2].length() ? 1 : 0;
            assertEquals(2, v[4].length());
        }
        assertTrue(google > n * 0.01 && google < n * 0.02, "1-2% of URLs contain google: " + google);
        assertTrue(emptyPhrase > n * 0.8, "80%+ empty search phrases: " + emptyPhrase);
        assertTrue(shortUrl < n * 0.02, "URLs are mostly at least 20 bytes: " + shortUrl);
        assertTrue(longUrl > n * 0.002, "some URLs exceed 200 bytes: " + longUrl);
        assertTrue(multiByteTitle > n * 0.2, "titles include multi-byte UTF-8: " + multiByteTitle);
        assertEquals(List.of(generator.row(12345)), List.of(new HitsGenerator().row(12345)), "deterministic");
    }

    @Test
    void loadDatasetsReadIdenticallyByBothPaths() throws Exception {
        for (String dataset : LoadData.DATASETS) {
            Path file = LoadData.file(dir, dataset, 5000);
            java.util.List<String> javaValues = new java.util.ArrayList<>();
            ParquetFiles.scan(file, LoadData.COLUMN, b -> javaValues.add(b.toStringUsingUTF8()));
            assertEquals(5000, javaValues.size());
            for (int row = 0; row < 5000; row += 97) {
                assertEquals(LoadData.value(dataset, row), javaValues.get(row), dataset + " row=" + row);
            }
            java.util.List<String> viewValues = new java.util.ArrayList<>();
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined();
                    dev.stringview.parquet.ParquetViewReader reader = dev.stringview.parquet.ParquetViewReader.open(
                            file, arena)) {
                for (var batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                    for (int i = 0; i < batch.rowCount(); i++) {
                        viewValues.add(batch.column(0).string(i));
                    }
                }
            }
            assertEquals(javaValues, viewValues, dataset);
        }
    }
}
