package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The page-search side-by-side runner times both paths on small files and checks they agree (not timed). */
class PageSearchSideBySideTest {
    @TempDir
    Path dir;

    @Test
    void timesBothPathsOnPlainAndSnappyAndTheyAgree() throws Exception {
        List<PageSearchSideBySide.Result> results = PageSearchSideBySide.run(dir, 1, 4096, List.of("plain", "snappy"));
        assertEquals(List.of("plain", "snappy"), results.stream().map(PageSearchSideBySide.Result::layout).toList());
        for (PageSearchSideBySide.Result r : results) {
            assertTrue(r.count() > 0, "the query selects rows: " + r);
            assertEquals(results.get(0).count(), r.count(), "same rows on both layouts: " + r);
            assertTrue(r.searchWall() > 0 && r.viewsWall() > 0, "both paths timed: " + r);
        }
    }
}
