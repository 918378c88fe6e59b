package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.internal.Vectorization;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The long-tie bisection on tiny data (not timed): every step runs at two window sizes where this JVM has the
 * vector passes, and the steps that compute the outcome agree with the kernel (run checks it and throws).
 */
class LongTieBisectionTest {
    @Test
    void runsEveryStepAndAgreesWithTheKernel() throws Exception {
        List<LongTieBisection.Result> results =
                LongTieBisection.run(1, 5000, "mix", new int[] {128, 1024}, line -> { });
        assertEquals(Vectorization.warmUp() && Vectorization.viewWords() != null, results != null, Vectorization.describe());
        if (results != null) {
            // the nine PASS_* steps at two windows, LOADS, CHASE, VIEW_LOADS and KERNEL once
            assertEquals(9 * 2 + 4, results.size(), results.toString());
            for (LongTieBisection.Result r : results) {
                assertTrue(r.nsPerRow() > 0, r.toString());
            }
        }
    }
}
