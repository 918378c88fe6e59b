package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.internal.Vectorization;
import org.junit.jupiter.api.Test;

/** The order pass timing harness on tiny data (not timed): it runs all three passes where this JVM has them. */
class OrderPassTimingTest {
    @Test
    void timesEveryPassWhereTheVectorPassesExist() throws Exception {
        OrderPassTiming.Result r = OrderPassTiming.run(1, 2100, 2);
        assertEquals(Vectorization.warmUp() && Vectorization.viewWords() != null, r != null, Vectorization.describe());
        if (r != null) {
            assertTrue(r.plain() > 0 && r.settling() > 0 && r.countEqualViews() > 0, r.toString());
        }
    }
}
