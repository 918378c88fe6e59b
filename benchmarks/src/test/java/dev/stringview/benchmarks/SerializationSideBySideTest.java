package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.format.ColumnCodec;
import dev.stringview.format.ColumnDeserializer;
import dev.stringview.format.ColumnFormat;
import dev.stringview.format.ColumnSerializer;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
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

    @Test
    void runsABaselineBuildsReadersNextToTheCurrentOnes() throws Exception {
        // This build's own format classes stand in for an older build: they load apart from the current ones.
        Path formatClasses = Path.of(ColumnDeserializer.class.getProtectionDomain().getCodeSource().getLocation()
                .toURI());
        List<String> readers = List.of("separated", "separatedBaseline", "separatedTrustedBaseline",
                "sizePrefixBaseline");
        SerializationSideBySide.Result r = SerializationSideBySide.run(8, 500, 1, readers, 1_000_000, formatClasses);
        assertEquals(readers, List.copyOf(r.micros().keySet()));
        assertThrows(IllegalArgumentException.class, () -> SerializationSideBySide.run(8, 500, 1,
                List.of("separatedBaseline"), 1_000_000, null));
        BaselineFormat baseline = BaselineFormat.load(formatClasses, true);
        try (Arena arena = Arena.ofConfined()) {
            byte[] bytes = SerializationBenchmark.serializeOnce(ColumnSerializer.of(ColumnFormat.SEPARATED,
                    ColumnCodec.NONE), ViewColumns.ofStrings(arena, "a", "a value over twelve bytes"),
                    new SerializationBenchmark.MemorySink()).toArray(ValueLayout.JAVA_BYTE);
            ViewColumn back = baseline.read(MemorySegment.ofArray(bytes), arena);
            assertEquals("a value over twelve bytes", back.string(1));
        }
        assertThrows(IOException.class, () -> BaselineFormat.load(Path.of("no/such.jar"), true));
    }

    @Test
    void aBaselineBuildsReaderRunsOnItsOwnCore() throws Exception {
        // This build's core and format classes stand in for an older build's: all of them load apart.
        Path coreClasses = Path.of(ViewColumn.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path formatClasses = Path.of(ColumnDeserializer.class.getProtectionDomain().getCodeSource().getLocation()
                .toURI());
        BaselineFormat oldBuild = BaselineFormat.loadWithCore(List.of(formatClasses, coreClasses), true);
        try (Arena arena = Arena.ofConfined()) {
            byte[] bytes = SerializationBenchmark.serializeOnce(ColumnSerializer.of(ColumnFormat.SEPARATED,
                    ColumnCodec.NONE), ViewColumns.ofStrings(arena, "a", "a value over twelve bytes", "12345678"),
                    new SerializationBenchmark.MemorySink()).toArray(ValueLayout.JAVA_BYTE);
            assertEquals(3, oldBuild.rows(MemorySegment.ofArray(bytes), arena));
            // its column is the other core's class, which the current one cannot take
            assertThrows(ClassCastException.class, () -> oldBuild.read(MemorySegment.ofArray(bytes), arena));
        }
    }
}
