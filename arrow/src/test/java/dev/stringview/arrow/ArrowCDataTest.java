package dev.stringview.arrow;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.TestData;
import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.arrow.ArrowCData.StructKind;
import dev.stringview.arrow.internal.CDataExport;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The C Data bridge against itself: round trips over every layout, slices, streams, and forged structs. */
class ArrowCDataTest {
    private static final int CASES = 400;

    @Test
    void columnsRoundTripAndAreReleasedExactlyOnceWhenTheArenaCloses() {
        int liveBefore = CDataExport.liveExports();
        for (long seed = 1; seed <= CASES; seed++) {
            Layouts.Case c = Layouts.randomCase(seed);
            AtomicInteger released = new AtomicInteger();
            try (Arena source = Arena.ofConfined()) {
                ViewColumn column = Layouts.column(source, c);
                MemorySegment schema = ArrowCData.allocateSchema(source);
                MemorySegment array = ArrowCData.allocateArray(source);
                ArrowCData.exportColumn(column, "s", schema, array, released::incrementAndGet);
                MemorySegment bufferCount = array.asSlice(24, 8);
                assertEquals(3 + column.bufferCount(), bufferCount.get(JAVA_LONG, 0), c.toString());
                try (Arena target = Arena.ofConfined()) {
                    ViewColumn imported = ArrowCData.importColumn(schema, array, target);
                    assertTrue(ArrowCData.isReleased(array, StructKind.ARRAY), "moved: " + c);
                    assertTrue(ArrowCData.isReleased(schema, StructKind.SCHEMA), "schema released: " + c);
                    Layouts.assertColumn(c, imported);
                    if (column.size() > 0) {
                        assertEquals(column.views().address(), imported.views().address(), "zero-copy: " + c);
                    }
                    assertEquals(0, released.get(), c.toString());
                }
                assertEquals(1, released.get(), "release once when the importing arena closes: " + c);
            }
        }
        assertEquals(liveBefore, CDataExport.liveExports());
    }

    @Test
    void aSlicedArrayHonoursItsOffset() {
        for (long seed = 1; seed <= CASES; seed++) {
            Layouts.Case c = Layouts.randomCase(seed);
            int rows = c.model().size();
            try (Arena source = Arena.ofConfined(); Arena target = Arena.ofConfined()) {
                ViewColumn column = Layouts.column(source, c);
                int offset = rows == 0 ? 0 : (int) (seed % (rows + 1));
                MemorySegment schema = ArrowCData.allocateSchema(source);
                MemorySegment array = ArrowCData.allocateArray(source);
                ArrowCData.exportColumn(column, "s", schema, array, null);
                array.set(JAVA_LONG, 16, offset);
                array.set(JAVA_LONG, 0, rows - offset);
                ViewColumn imported = ArrowCData.importColumn(schema, array, target);
                Layouts.assertColumn(new Layouts.Case(c.kind(), c.shape(), c.model().subList(offset, rows), seed),
                        imported);
            }
        }
    }

    @Test
    void tablesAndStreamsRoundTrip() {
        try (Arena source = Arena.ofShared(); Arena target = Arena.ofConfined()) {
            List<ViewTable> batches = new ArrayList<>();
            for (long seed = 1; seed <= 20; seed++) {
                Layouts.Case c = Layouts.randomCase(seed * 7919);
                Layouts.Case d = new Layouts.Case(ViewKind.BINARY, TestData.Shape.CONCAT, c.model(), seed);
                batches.add(ViewTable.of(List.of("a", "b"), List.of(
                        Layouts.column(source, new Layouts.Case(ViewKind.UTF8, c.shape(), utf8(c, seed), seed)),
                        Layouts.column(source, d))));
            }
            MemorySegment stream = ArrowCData.allocateStream(source);
            AtomicInteger released = new AtomicInteger();
            ArrowCData.exportStream(List.of("a", "b"), List.of(ViewKind.UTF8, ViewKind.BINARY), batches.iterator(),
                    stream, released::incrementAndGet);
            int batch = 0;
            try (ViewTableReader reader = ArrowCData.importStream(stream, target)) {
                assertTrue(ArrowCData.isReleased(stream, StructKind.STREAM));
                while (reader.hasNext()) {
                    ViewTable table = reader.next();
                    ViewTable expected = batches.get(batch);
                    assertEquals(List.of("a", "b"), table.names());
                    for (int col = 0; col < 2; col++) {
                        ViewColumn e = expected.column(col);
                        ViewColumn a = table.column(col);
                        assertEquals(e.size(), a.size());
                        for (int row = 0; row < e.size(); row++) {
                            assertTrue(e.valueEquals(row, a, row), "batch=" + batch + " column=" + col + " row=" + row);
                        }
                    }
                    batch++;
                }
            }
            assertEquals(batches.size(), batch);
            assertEquals(1, released.get());
        }
    }

    private static List<byte[]> utf8(Layouts.Case c, long seed) {
        java.util.Random random = new java.util.Random(seed);
        List<byte[]> values = new ArrayList<>();
        for (byte[] value : c.model()) {
            values.add(value == null ? null : Layouts.value(ViewKind.UTF8, random));
        }
        return values;
    }

    @Test
    void aStreamReportsAProducerErrorThroughGetLastError() {
        try (Arena arena = Arena.ofShared()) {
            ViewTable good = ViewTable.of("s", ViewColumns.ofStrings(arena, "x"));
            ViewTable bad = ViewTable.of("other", ViewColumns.ofStrings(arena, "y"));
            MemorySegment stream = ArrowCData.allocateStream(arena);
            ArrowCData.exportStream(good, List.of(bad).iterator(), stream, null);
            try (ViewTableReader reader = ArrowCData.importStream(stream, arena)) {
                assertEquals("x", reader.next().column("s").string(0));
                ArrowDataException e = assertThrows(ArrowDataException.class, reader::next);
                assertTrue(e.getMessage().contains("batch=1 errno=5 error=batch does not match the stream schema: "
                        + "batch=1 names=[other] expected=[s]"), e.getMessage());
            }
        }
    }

    // ------------------------------------------------------------------------------------------ forged structs

    /** Exports the views {@code ["ok", "a value longer than twelve", "inline"]} and forges the array. */
    private static ArrowDataException forged(Consumer<MemorySegment> forge) {
        AtomicInteger released = new AtomicInteger();
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "ok", "a value longer than twelve", "inline");
            MemorySegment schema = ArrowCData.allocateSchema(arena);
            MemorySegment array = ArrowCData.allocateArray(arena);
            ArrowCData.exportColumn(column, "s", schema, array, released::incrementAndGet);
            forge.accept(array);
            try (Arena target = Arena.ofConfined()) {
                ArrowDataException e = assertThrows(ArrowDataException.class,
                        () -> ArrowCData.importColumn(schema, array, target));
                assertEquals(1, released.get(), "a rejected array is released at once: " + e.getMessage());
                return e;
            } finally {
                assertEquals(1, released.get(), "and never again");
            }
        }
    }

    private record Exported(MemorySegment schema, MemorySegment array) {}

    /** A one-row string column {@code "x"} exported as column {@code s}, with no release hook. */
    private static Exported exportOneString(Arena arena) {
        ViewColumn column = ViewColumns.ofStrings(arena, "x");
        MemorySegment schema = ArrowCData.allocateSchema(arena);
        MemorySegment array = ArrowCData.allocateArray(arena);
        ArrowCData.exportColumn(column, "s", schema, array, null);
        return new Exported(schema, array);
    }

    private static MemorySegment buffers(MemorySegment array) {
        return array.get(ADDRESS, 40).reinterpret(8 * array.get(JAVA_LONG, 24));
    }

    @Test
    void aWrongBufferCountIsRejected() {
        ArrowDataException e = forged(array -> array.set(JAVA_LONG, 24, 2));
        assertEquals("column=s wrong buffer count: format=vu n_buffers=2 expected>=3 (validity, views, data..., "
                + "sizes)", e.getMessage());
    }

    @Test
    void aNullViewsBufferIsRejected() {
        ArrowDataException e = forged(array -> buffers(array).setAtIndex(ADDRESS, 1, MemorySegment.NULL));
        assertEquals("column=s null buffer: buffer=1 (views) length=3", e.getMessage());
    }

    @Test
    void aNullDataBufferIsRejected() {
        ArrowDataException e = forged(array -> buffers(array).setAtIndex(ADDRESS, 2, MemorySegment.NULL));
        assertTrue(e.getMessage().startsWith("column=s null buffer: buffer=2 bufferIndex=0 size="), e.getMessage());
    }

    @Test
    void sizesShorterThanTheViewsClaimAreRejected() {
        ArrowDataException e = forged(array -> {
            MemorySegment buffers = buffers(array);
            buffers.getAtIndex(ADDRESS, 3).reinterpret(8).set(JAVA_LONG, 0, 10);
        });
        assertTrue(e.getMessage().startsWith("column=s row=1 field=offset:"), e.getMessage());
        assertTrue(e.getMessage().contains("bufferSize=10"), e.getMessage());
    }

    @Test
    void aNegativeLengthOrOffsetIsRejected() {
        ArrowDataException e = forged(array -> array.set(JAVA_LONG, 16, -1));
        assertEquals("column=s bad length or offset: length=3 offset=-1", e.getMessage());
    }

    @Test
    void aNullValidityWithNullsIsRejected() {
        ArrowDataException e = forged(array -> array.set(JAVA_LONG, 8, 1));
        assertEquals("column=s null buffer: buffer=0 (validity) null_count=1", e.getMessage());
    }

    @Test
    void eachForgedViewFieldIsRejectedNamingRowAndField() {
        for (String field : List.of("bufferIndex", "offset", "prefix", "padding", "length", "utf8")) {
            ArrowDataException e = forged(array -> Forgery.forge(buffers(array).getAtIndex(ADDRESS, 1).address(),
                    field));
            assertTrue(e.getMessage().startsWith("column=s row="), e.getMessage());
            assertTrue(e.getMessage().contains("field=" + field), e.getMessage());
        }
    }

    @Test
    void anArrayWhoseReleaseWasAlreadyCalledIsRejected() {
        try (Arena arena = Arena.ofConfined()) {
            Exported exported = exportOneString(arena);
            MemorySegment schema = exported.schema();
            MemorySegment array = exported.array();
            MemorySegment release = array.get(ADDRESS, 64);
            dev.stringview.arrow.internal.CData.callRelease(release, array);
            assertTrue(ArrowCData.isReleased(array, StructKind.ARRAY));
            // Calling the release callback a second time is harmless: the struct says it is released.
            dev.stringview.arrow.internal.CData.callRelease(release, array);
            ArrowDataException e = assertThrows(ArrowDataException.class,
                    () -> ArrowCData.importColumn(schema, array, arena));
            assertEquals("ArrowArray already released: release=NULL", e.getMessage());
            assertTrue(ArrowCData.isReleased(schema, StructKind.SCHEMA));
            assertThrows(ArrowDataException.class, () -> ArrowCData.importColumn(schema, array, arena));
        }
    }

    @Test
    void unsupportedFormatsAreNamed() {
        try (Arena arena = Arena.ofConfined()) {
            Exported exported = exportOneString(arena);
            MemorySegment schema = exported.schema();
            MemorySegment array = exported.array();
            schema.get(ADDRESS, 0).reinterpret(3).setString(0, "i");
            ArrowDataException e = assertThrows(ArrowDataException.class,
                    () -> ArrowCData.importColumn(schema, array, arena));
            assertEquals("column=s unsupported format: format=i supported=vu,vz,u,z,U,Z", e.getMessage());
            assertTrue(ArrowCData.isReleased(array, StructKind.ARRAY));
            assertFalse(e.getMessage().isEmpty());
        }
    }
}
