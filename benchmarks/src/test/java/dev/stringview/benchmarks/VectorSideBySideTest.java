package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The vector-against-scalar runner on tiny data (not timed): the three class loaders really chose scalar, 512-bit
 * and 256-bit view words (the test JVM has the Vector API module, see benchmarks/pom.xml), every case runs in all
 * three with its baseline, and their counts agree with pointer+length's (the runner throws otherwise).
 */
class VectorSideBySideTest {
    @Test
    void eachLoaderChoseItsOwnCode() throws Exception {
        List<String> chosen = VectorSideBySide.describeBuilds();
        assertEquals("scalar (SWAR)", chosen.get(0));
        // Without 512-bit vectors the library keeps its scalar view-word loops whatever the width asked for. The
        // CPU's width is known once this JVM's own vector code is loaded, by its warm-up.
        dev.stringview.ViewKernels.warmUp();
        boolean wide = dev.stringview.internal.Vectorization.preferredBits() >= 512;
        assertTrue(chosen.get(1).endsWith(wide ? "512-bit view words" : "scalar view words"), chosen.get(1));
        assertTrue(chosen.get(2).endsWith(wide ? "256-bit view words" : "scalar view words"), chosen.get(2));
    }

    @Test
    void runsEveryCaseInEveryBuildAndTheCountsAgree() throws Exception {
        List<VectorSideBySide.Result> seen = new ArrayList<>();
        List<VectorSideBySide.Result> results = VectorSideBySide.run(
                List.of("equal", "select:equal", "startsWith", "select:startsWith", "lessThan"), 1, 301, 2, seen::add);
        assertEquals(45, results.size());
        assertEquals(results, seen);
        for (VectorSideBySide.Result r : results) {
            for (double t : r.nsPerRow()) {
                assertTrue(t > 0, "every build timed: " + r.name());
            }
            assertTrue(r.pointerLength() > 0, "baseline timed: " + r.name());
        }
    }
}
