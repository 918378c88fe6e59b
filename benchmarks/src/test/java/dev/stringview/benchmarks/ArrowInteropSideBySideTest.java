package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CPU-time harness runs every method it compares on a small file (its own row-count check and the benchmark's
 * setup, which compares both conversions' outputs, do the checking; nothing is timed against a bound).
 */
class ArrowInteropSideBySideTest {
    @Test
    void runsEveryMethodWithItsBaseline() throws Exception {
        Map<String, double[]> result = ArrowInteropSideBySide.run(2, 2 * ArrowInteropBenchmark.BATCH_ROWS);
        assertEquals(List.of("ipcReadArrowJavaUnvalidated", "ipcReadValidatedViewsBatchScoped", "ipcReadValidatedViews",
                "parquetToIpcArrowJava", "parquetToIpcViews"), List.copyOf(result.keySet()));
        result.forEach((name, v) -> assertTrue(v[0] > 0 && (v.length == 1 || v[1] > 0), name + " timed"));
        assertEquals(1, result.get("parquetToIpcArrowJava").length, "a baseline has no ratio");
        assertEquals(2, result.get("parquetToIpcViews").length, "compared with its baseline");
    }
}
