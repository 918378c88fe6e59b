package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The deserialize side-by-side runner times every reader once on a small block; each checks its row count. */
class SerializationSideBySideTest {
    @Test
    void timesEveryReader() throws Exception {
        for (int size : new int[] {1, 16}) {
            SerializationSideBySide.Result r = SerializationSideBySide.run(size, 3000, 1,
                    SerializationSideBySide.READERS, 1_000_000);
            assertEquals(SerializationSideBySide.READERS, List.copyOf(r.micros().keySet()), "size=" + size);
            r.micros().forEach((name, micros) -> assertTrue(micros > 0, name + " timed: " + micros));
        }
    }

    @Test
    void runsOnlyTheNamedReaders() throws Exception {
        SerializationSideBySide.Result r = SerializationSideBySide.run(8, 500, 1, List.of("separated", "arrowIpc"),
                1_000_000);
        assertEquals(List.of("separated", "arrowIpc"), List.copyOf(r.micros().keySet()));
        assertThrows(IllegalArgumentException.class,
                () -> SerializationSideBySide.run(8, 500, 1, List.of("nope"), 1_000_000));
    }
}
