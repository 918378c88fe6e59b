package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The side-by-side runner measures every layout on a small file and checks the three engines agree (not timed). */
class SideBySideTest {
    @TempDir
    Path dir;

    @Test
    void runsEveryLayoutAndTheEnginesAgree() throws Exception {
        List<SideBySide.Result> results = SideBySide.run(dir, Query.Q20, 2, 4096);
        assertEquals(List.of("plain", "snappy", "dictZstd", "dictUrlsZstd"),
                results.stream().map(SideBySide.Result::layout).toList());
        long first = results.get(0).count();
        for (SideBySide.Result r : results) {
            if (!r.layout().equals("dictUrlsZstd")) { // other URLs: its own count, which the engines agree on
                assertEquals(first, r.count(), "same rows on every layout: " + r);
            }
            assertTrue(r.count() > 0, "the query selects rows: " + r);
            assertTrue(r.views() > 0 && r.parquetJava() > 0 && r.duckdb() > 0 && r.scan1() > 0 && r.scanAll() > 0
                    && r.duckdbDefault() > 0, "every engine timed: " + r);
        }
        assertTrue(first > 0, "the query selects rows");
    }

    /**
     * The point of {@code dictUrlsZstd}: its URL pages are all dictionary-encoded, where {@code dictZstd}'s nearly
     * distinct URLs overflow the dictionary and fall back to PLAIN.
     */
    @Test
    void dictUrlsZstdReallyIsDictionaryEncoded() throws Exception {
        for (ParquetFiles.Layout layout : List.of(ParquetFiles.DICTIONARY_URLS_ZSTD, ParquetFiles.DICTIONARY_ZSTD)) {
            Path file = Locations.hitsFile(dir, layout, 60_000, null);
            java.util.Set<String> encodings = new java.util.TreeSet<>();
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined();
                    dev.stringview.parquet.ParquetViewReader reader = dev.stringview.parquet.ParquetViewReader.open(
                            file, arena, dev.stringview.parquet.ParquetViewOptions.defaults().withColumns("URL"))) {
                for (dev.stringview.parquet.PageInfo page : reader.pages("URL")) {
                    if (!page.kind().equals("DICTIONARY")) {
                        encodings.add(page.encoding());
                    }
                }
            }
            if (layout == ParquetFiles.DICTIONARY_URLS_ZSTD) {
                assertEquals(java.util.Set.of("PLAIN_DICTIONARY"), encodings, layout.name());
            } else {
                assertTrue(encodings.contains("PLAIN"), layout.name() + " falls back: " + encodings);
            }
        }
    }

    @Test
    void rejectsNonPositiveArguments() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SideBySide.run(dir, Query.Q20, 0, 10));
        assertTrue(e.getMessage().contains("rounds=0"), e.getMessage());
    }
}
