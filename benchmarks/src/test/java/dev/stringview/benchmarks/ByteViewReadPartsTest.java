package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The inline stream-read breakdown on tiny budgets (not timed): every row runs and gets a positive time. */
class ByteViewReadPartsTest {
    @Test
    void runsEveryRow() {
        Map<String, Double> at8 = ByteViewReadParts.run(1, 8, 1);
        assertEquals(14, at8.size(), "rows: " + at8.keySet());
        at8.forEach((name, ns) -> assertTrue(ns > 0, "timed: " + name + "=" + ns));
        assertEquals(13, ByteViewReadParts.run(1, 5, 1).size(), "no readLong row at 5 bytes");
        assertThrows(IllegalArgumentException.class, () -> ByteViewReadParts.run(1, 13, 1));
    }
}
