package dev.stringview.samples.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CityReportTest {

    @Test
    void runsOnTheModulePath() {
        // Surefire puts this module and stringview-core on the module path because of module-info.
        assertEquals("dev.stringview.samples.engine", CityReport.class.getModule().getName());
        assertEquals("dev.stringview", dev.stringview.ViewColumn.class.getModule().getName());
        assertTrue(CityReport.class.getModule().canRead(dev.stringview.ViewColumn.class.getModule()));
    }

    @Test
    void filtersSortsAndCountsAFixedColumn() {
        // 12 bytes is the longest inline value; "Santiago de Compostela" and "São Paulo, SP" live in a buffer.
        List<String> cities = Arrays.asList("Stockholm", "Seville", null, "São Paulo, SP", "Oslo", "Stockholm",
                "Santiago de Compostela", "S", "Sevilla", "", "Stockholm!!!", "Stockholm!!!");
        try (Arena arena = Arena.ofConfined()) {
            CityReport.Result result = CityReport.run(arena, cities, "S");
            assertEquals(9, result.matches());
            // Unsigned byte order: 'a' (0x61) < 'e' (0x65) < 't' (0x74) < 'ã' (0xC3 0xA3).
            assertEquals(List.of("S", "Santiago de Compostela", "Sevilla", "Seville", "Stockholm", "Stockholm",
                    "Stockholm!!!", "Stockholm!!!", "São Paulo, SP"), result.sorted());
            assertEquals(Map.of("S", 1, "Santiago de Compostela", 1, "Sevilla", 1, "Seville", 1, "Stockholm", 2,
                    "Stockholm!!!", 2, "São Paulo, SP", 1), result.countsByValue());
        }
    }

    @Test
    void agreesWithAnOnHeapModelOnRandomColumns() {
        long seed = 0x5EED_12L;
        Random random = new Random(seed);
        String[] alphabet = {"a", "b", "S", "é", "ß", "😀"};
        for (int round = 0; round < 300; round++) {
            int rows = random.nextInt(60);
            List<String> cities = new ArrayList<>();
            for (int row = 0; row < rows; row++) {
                if (random.nextInt(8) == 0) {
                    cities.add(null);
                    continue;
                }
                // Lengths around the 12-byte inline limit and the 4-byte prefix.
                int chars = random.nextInt(18);
                StringBuilder value = new StringBuilder();
                for (int i = 0; i < chars; i++) {
                    value.append(alphabet[random.nextInt(alphabet.length)]);
                }
                cities.add(value.toString());
            }
            String prefix = alphabet[random.nextInt(alphabet.length)] + (random.nextBoolean() ? "" : "a");

            List<String> expectedSorted = new ArrayList<>();
            Map<String, Integer> expectedCounts = new TreeMap<>();
            for (String city : cities) {
                if (city != null && city.startsWith(prefix)) {
                    expectedSorted.add(city);
                    expectedCounts.merge(city, 1, Integer::sum);
                }
            }
            expectedSorted.sort(Comparator.comparing(s -> s.getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned));

            try (Arena arena = Arena.ofConfined()) {
                CityReport.Result result = CityReport.run(arena, cities, prefix);
                String where = "seed=" + seed + " round=" + round + " prefix=" + prefix + " rows=" + cities;
                assertEquals(expectedSorted.size(), result.matches(), where);
                assertEquals(expectedSorted, result.sorted(), where);
                assertEquals(expectedCounts, new TreeMap<>(result.countsByValue()), where);
                assertTrue(result.countsByValue().values().stream().allMatch(n -> n > 0), where);
            }
        }
    }
}
