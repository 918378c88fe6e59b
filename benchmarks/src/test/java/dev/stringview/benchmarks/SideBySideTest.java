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
        assertEquals(List.of("plain", "snappy", "dictZstd"), results.stream().map(SideBySide.Result::layout).toList());
        long first = results.get(0).count();
        for (SideBySide.Result r : results) {
            assertEquals(first, r.count(), "same rows on every layout: " + r);
            assertTrue(r.views() > 0 && r.parquetJava() > 0 && r.duckdb() > 0 && r.scan1() > 0 && r.scanAll() > 0
                    && r.duckdbDefault() > 0, "every engine timed: " + r);
        }
        assertTrue(first > 0, "the query selects rows");
    }

    @Test
    void rejectsNonPositiveArguments() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SideBySide.run(dir, Query.Q20, 0, 10));
        assertTrue(e.getMessage().contains("rounds=0"), e.getMessage());
    }
}
