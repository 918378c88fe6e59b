package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link Report} renders Suite 3 whole from a JMH result list: every layout (dictUrlsZstd included), every engine
 * column (ParquetScan at 1 thread and all cores, DuckDB at 1 thread and its default threads) and the targets'
 * ratios, computed from the scores.
 */
class ReportSuite3Test {
    /** Scores chosen so each cell's ratios are known: DuckDB 100, scan 1 thread 70 or 90, all cores 60. */
    private static List<Report.Result> results() {
        List<Report.Result> results = new ArrayList<>();
        for (String layout : Report.LAYOUTS) {
            for (String query : Report.QUERIES) {
                Map<String, Double> scores = new LinkedHashMap<>();
                scores.put("views", 50.0);
                scores.put("scanOneThread", layout.equals("snappy") && query.equals("equality") ? 90.0 : 70.0);
                scores.put("scanAllCores", 60.0);
                scores.put("parquetJavaString", 200.0);
                scores.put("parquetJavaBytes", 180.0);
                scores.put("duckdb", 100.0);
                scores.put("duckdbDefaultThreads", 100.0);
                for (Map.Entry<String, Double> e : scores.entrySet()) {
                    results.add(new Report.Result("HitsQueryBenchmark", e.getKey(),
                            Map.of("layout", layout, "query", query, "rows", "2000000"), e.getValue(), 1, Map.of(), "ns/op"));
                }
            }
        }
        return results;
    }

    @Test
    void suite3HasEveryLayoutEngineAndTargetRatio() {
        String md = new Report(results(), Map.of()).markdown("results.json");
        String suite3 = md.substring(md.indexOf("## Suite 3"), md.indexOf("### Where Q20's time goes"));
        List<String> rows = suite3.lines().filter(l -> l.startsWith("| q20Contains") || l.startsWith("| equality")
                || l.startsWith("| prefix")).toList();
        assertEquals(Report.LAYOUTS.size() * Report.QUERIES.size(), rows.size(), suite3);
        assertTrue(rows.stream().filter(r -> r.contains("| dictUrlsZstd |")).count() == 3, suite3);
        String header = suite3.lines().filter(l -> l.startsWith("| query | layout |")).findFirst().orElseThrow();
        for (String column : List.of("ParquetScan, 1 thread", "ParquetScan, all cores", "DuckDB, 1 thread",
                "DuckDB, default threads", "scan/DuckDB, 1 thread", "scan/DuckDB, all cores")) {
            assertTrue(header.contains(column), header);
        }
        String snappyEquality = rows.stream().filter(r -> r.startsWith("| equality | snappy |")).findFirst()
                .orElseThrow();
        assertTrue(snappyEquality.endsWith("| 0.90 | 0.60 |"), snappyEquality);
        assertTrue(rows.get(0).endsWith("| 0.70 | 0.60 |"), rows.get(0));
        assertTrue(md.contains("ParquetScan at 1 thread ≤ 0.8x DuckDB at 1 thread | 11 of 12 cells; worst 0.90 "
                + "(snappy equality) | **no** |"), md);
        assertTrue(md.contains("ParquetScan at all cores ≤ 0.8x DuckDB at its default threads | 12 of 12 cells; "
                + "worst 0.60"), md);
    }
}
