package dev.stringview;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;

class SmokeTest {
    @Test
    void buildsAndFilters() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn c = ViewColumns.ofStrings(arena, "apple", null, "a much longer value here", "apple", "");
            assertEquals(5, c.size());
            assertEquals("a much longer value here", c.string(2));
            assertEquals(2, ViewPredicates.equalTo("apple").count(c));
            assertEquals(1, ViewPredicates.contains("longer").count(c));
            assertEquals(4, ViewPredicates.like("%").count(c));
        }
    }
}
