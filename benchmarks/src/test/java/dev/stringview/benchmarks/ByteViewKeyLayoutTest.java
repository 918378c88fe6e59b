package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The heap-layout probe on tiny data: it walks every mapped key and node of both sides and reports sane shares. */
class ByteViewKeyLayoutTest {
    @Test
    void measuresEveryPairOfBothSides() throws ReflectiveOperationException {
        ByteViewBenchmark.Keys keys = new ByteViewBenchmark.Keys();
        keys.rows = 3000;
        keys.setup();
        try {
            Map<String, double[]> layout = ByteViewKeyLayout.measure(keys);
            assertEquals(4, layout.size());
            layout.forEach((pair, r) -> {
                assertTrue(r[0] >= 0 && r[0] <= r[1] && r[1] <= 1, pair + " shares " + r[0] + " " + r[1]);
                assertTrue(r[2] > 0, pair + " median distance " + r[2]); // an object is never its own referent
            });
        } finally {
            keys.tearDown();
        }
    }
}
