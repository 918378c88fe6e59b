package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stream-read breakdown on tiny budgets (not timed): every row runs and gets a positive time. */
class ByteViewReadPartsTest {
    @Test
    void runsEveryRow() {
        Map<String, Double> at8 = ByteViewReadParts.run(1, 8, 1);
        assertEquals(18, at8.size(), "rows: " + at8.keySet());
        at8.forEach((name, ns) -> assertTrue(ns > 0, "timed: " + name + "=" + ns));
        assertEquals(17, ByteViewReadParts.run(1, 5, 1).size(), "no readLong row at 5 bytes");
        Map<String, Double> at36 = ByteViewReadParts.run(1, 36, 1);
        assertEquals(7, at36.size(), "long values: the native read's rows: " + at36.keySet());
        at36.forEach((name, ns) -> assertTrue(ns > 0, "timed: " + name + "=" + ns));
        assertEquals(3, ByteViewReadParts.run(1, 36, 1, true).size(), "heap slab: the read and its two peers");
        assertThrows(IllegalArgumentException.class, () -> ByteViewReadParts.run(1, 0, 1));
    }
}
