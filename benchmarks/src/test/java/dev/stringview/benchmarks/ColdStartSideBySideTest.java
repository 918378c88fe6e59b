package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cold-start runner on tiny data (not timed): every case starts its fresh JVMs in both modes, each call is
 * timed, and the two modes' counts agree (the runner throws otherwise).
 */
class ColdStartSideBySideTest {
    @Test
    void runsEveryCaseInBothModesAndTheCountsAgree() throws Exception {
        List<ColdStartSideBySide.Result> seen = new ArrayList<>();
        List<ColdStartSideBySide.Result> results = ColdStartSideBySide.run(1, new int[] {301},
                List.of("equal", "lessThan", "startsWith"), "mix", 2, null, seen::add);
        assertEquals(3, results.size());
        assertEquals(results, seen);
        for (ColdStartSideBySide.Result r : results) {
            assertEquals(ColdStartSideBySide.MODES, r.modes(), r.name());
            assertEquals(ColdStartSideBySide.MODES.size(), r.millisPerCall().length, r.name());
            for (double[] calls : r.millisPerCall()) {
                assertEquals(2, calls.length, r.name());
                for (double ms : calls) {
                    assertTrue(ms > 0, "every call timed: " + r.name());
                }
            }
        }
    }
}
