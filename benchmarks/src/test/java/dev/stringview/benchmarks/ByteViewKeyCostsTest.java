package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lookup and read cost breakdown on tiny data (not timed): every part runs and gets a positive time. */
class ByteViewKeyCostsTest {
    @Test
    void runsEveryPart() {
        Map<String, Double> costs = ByteViewKeyCosts.run(1, 3000, 36, 1);
        assertEquals(25, costs.size());
        costs.forEach((name, ns) -> assertTrue(ns > 0, "timed: " + name + "=" + ns));
    }
}
