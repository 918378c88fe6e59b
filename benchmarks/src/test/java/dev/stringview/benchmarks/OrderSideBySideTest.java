package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order side-by-side runner on tiny data (not timed): every case runs in both class loaders and the counts
 * agree. An empty directory stands in for the older core, so both loaders run the current classes.
 */
class OrderSideBySideTest {
    @TempDir
    Path oldCore;

    @Test
    void runsEveryCaseInBothLoadersAndTheCountsAgree() throws Exception {
        List<OrderSideBySide.Result> seen = new ArrayList<>();
        List<OrderSideBySide.Result> results = OrderSideBySide.run(oldCore, List.of("lessThan", "equal", "startsWith", "columns"),
                1, 300, 2,
                seen::add);
        assertEquals(36, results.size());
        assertEquals(results, seen);
        for (OrderSideBySide.Result r : results) {
            assertTrue(r.oldViews() > 0 && r.newViews() > 0, "both builds timed: " + r);
            assertTrue(r.name().startsWith("columns") || r.pointerLength() > 0, "baseline timed: " + r);
        }
    }
}
