package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The argsort side-by-side runner on tiny data (not timed): every data set sorts in both class loaders and the
 * orders agree. An empty directory stands in for the older core, so both loaders run the current classes.
 */
class ArgsortSideBySideTest {
    @TempDir
    Path oldCore;

    @Test
    void sortsEveryDataSetInBothLoadersAndTheOrdersAgree() throws Exception {
        List<ArgsortSideBySide.Result> seen = new ArrayList<>();
        List<ArgsortSideBySide.Result> results = ArgsortSideBySide.run(oldCore, List.of("url", "8", "25"), 1, 2000,
                seen::add);
        assertEquals(List.of("url", "8", "25"), results.stream().map(ArgsortSideBySide.Result::data).toList());
        assertEquals(results, seen);
        for (ArgsortSideBySide.Result r : results) {
            assertTrue(r.oldViews() > 0 && r.newViews() > 0 && r.javaString() > 0 && r.oldTop100() > 0
                    && r.newTop100() > 0, "all five timed: " + r);
        }
    }
}
