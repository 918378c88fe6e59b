package dev.stringview;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Views that break the format are rejected with the row and field named; a closed arena fails cleanly. */
class BadInputTest {
    private static final String LONG = "a value longer than twelve bytes";

    /** Raw views and buffers of a valid column, copied so a test can corrupt them. */
    private record Raw(MemorySegment views, MemorySegment buffer) {}

    private static Raw raw(Arena arena, String... values) {
        ViewColumn column = ViewColumns.ofStrings(arena, values);
        MemorySegment views = arena.allocate(column.views().byteSize(), 16);
        views.copyFrom(column.views());
        MemorySegment buffer = arena.allocate(Math.max(1, column.bufferCount() == 0 ? 1 : column.buffer(0).byteSize()), 1);
        if (column.bufferCount() > 0) {
            buffer.copyFrom(column.buffer(0));
        }
        return new Raw(views, buffer);
    }

    private static ViewFormatException rejected(ViewKind kind, Raw raw, int rows) {
        return assertThrows(ViewFormatException.class,
                () -> ViewColumns.fromViews(kind, rows, raw.views(), null, List.of(raw.buffer())));
    }

    @Test
    void validRawPartsAreAccepted() {
        try (Arena arena = Arena.ofConfined()) {
            Raw raw = raw(arena, "short", LONG, "", "exactly12byt", "exactly13byte");
            ViewColumn column = ViewColumns.fromViews(ViewKind.UTF8, 5, raw.views(), null, List.of(raw.buffer()));
            assertEquals(LONG, column.string(1));
            assertEquals("exactly13byte", column.string(4));
        }
    }

    @Test
    void bufferIndexOutOfRange() {
        try (Arena arena = Arena.ofConfined()) {
            Raw raw = raw(arena, "short", LONG);
            raw.views().set(ViewLayout.LAYOUT_LE_INT, 16 + ViewLayout.OFFSET_BUFFER_INDEX, 3);
            ViewFormatException e = rejected(ViewKind.UTF8, raw, 2);
            assertEquals(1, e.row());
            assertEquals("bufferIndex", e.field());
            assertTrue(e.getMessage().contains("row=1") && e.getMessage().contains("bufferIndex=3")
                    && e.getMessage().contains("buffers=1"), e.getMessage());
        }
    }

    @Test
    void negativeBufferIndex() {
        try (Arena arena = Arena.ofConfined()) {
            Raw raw = raw(arena, LONG);
            raw.views().set(ViewLayout.LAYOUT_LE_INT, ViewLayout.OFFSET_BUFFER_INDEX, -1);
            assertEquals("bufferIndex", rejected(ViewKind.BINARY, raw, 1).field());
        }
    }

    @Test
    void offsetPastTheBuffer() {
        try (Arena arena = Arena.ofConfined()) {
            Raw raw = raw(arena, "x", "y", LONG);
            raw.views().set(ViewLayout.LAYOUT_LE_INT, 32 + ViewLayout.OFFSET_BUFFER_OFFSET, 8190);
            ViewFormatException e = rejected(ViewKind.UTF8, raw, 3);
            assertEquals(2, e.row());
            assertEquals("offset", e.field());
            assertTrue(e.getMessage().contains("offset=8190") && e.getMessage().contains("length=" + LONG.length())
                    && e.getMessage().contains("bufferSize=" + raw.buffer().byteSize()), e.getMessage());
        }
    }

    @Test
    void negativeOffset() {
        try (Arena arena = Arena.ofConfined()) {
            Raw raw = raw(arena, LONG);
            raw.views().set(ViewLayout.LAYOUT_LE_INT, ViewLayout.OFFSET_BUFFER_OFFSET, -4);
            assertEquals("offset", rejected(ViewKind.BINARY, raw, 1).field());
        }
    }

    @Test
    void negativeLength() {
        try (Arena arena = Arena.ofConfined()) {
            Raw raw = raw(arena, "abc");
            raw.views().set(ViewLayout.LAYOUT_LE_INT, 0, -7);
            ViewFormatException e = rejected(ViewKind.BINARY, raw, 1);
            assertEquals("length", e.field());
            assertTrue(e.getMessage().contains("length=-7"), e.getMessage());
        }
    }

    @Test
    void nonZeroInlinePadding() {
        try (Arena arena = Arena.ofConfined()) {
            Raw raw = raw(arena, "ok", "abc");
            raw.views().set(ValueLayout.JAVA_BYTE, 16 + 4 + 3 + 5, (byte) 0x41); // view byte 12 of row 1
            ViewFormatException e = rejected(ViewKind.BINARY, raw, 2);
            assertEquals(1, e.row());
            assertEquals("padding", e.field());
            assertTrue(e.getMessage().contains("viewByte=12") && e.getMessage().contains("value=65"), e.getMessage());
        }
    }

    @Test
    void wrongPrefix() {
        try (Arena arena = Arena.ofConfined()) {
            Raw raw = raw(arena, LONG);
            raw.views().set(ValueLayout.JAVA_BYTE, ViewLayout.OFFSET_PREFIX + 2, (byte) 'Z');
            ViewFormatException e = rejected(ViewKind.BINARY, raw, 1);
            assertEquals(0, e.row());
            assertEquals("prefix", e.field());
            assertTrue(e.getMessage().contains("prefix=0x61205a61") && e.getMessage().contains("dataPrefix=0x61207661"),
                    e.getMessage());
        }
    }

    @Test
    void invalidUtf8InlineAndInBuffer() {
        try (Arena arena = Arena.ofConfined()) {
            Raw inline = raw(arena, "ok", "abc");
            inline.views().set(ValueLayout.JAVA_BYTE, 16 + 4 + 1, (byte) 0xC0); // overlong lead byte
            ViewFormatException e = rejected(ViewKind.UTF8, inline, 2);
            assertEquals(1, e.row());
            assertEquals("utf8", e.field());
            assertTrue(e.getMessage().contains("byteOffset=1"), e.getMessage());
            // The same bytes are fine in a binary column.
            ViewColumns.fromViews(ViewKind.BINARY, 2, inline.views(), null, List.of(inline.buffer()));

            Raw buffered = raw(arena, LONG);
            buffered.buffer().set(ValueLayout.JAVA_BYTE, 20, (byte) 0xED); // ED A0.. would be a surrogate
            buffered.buffer().set(ValueLayout.JAVA_BYTE, 21, (byte) 0xA0);
            buffered.buffer().set(ValueLayout.JAVA_BYTE, 22, (byte) 0x80);
            ViewFormatException e2 = rejected(ViewKind.UTF8, buffered, 1);
            assertEquals("utf8", e2.field());
            assertTrue(e2.getMessage().contains("byteOffset=20"), e2.getMessage());
        }
    }

    @Test
    void nullRowsAreNotInspected() {
        try (Arena arena = Arena.ofConfined()) {
            Raw raw = raw(arena, "fine", LONG);
            raw.views().set(ViewLayout.LAYOUT_LE_INT, 16 + ViewLayout.OFFSET_BUFFER_INDEX, 99);
            MemorySegment validity = arena.allocate(8, 8);
            validity.set(ValueLayout.JAVA_BYTE, 0, (byte) 0b01); // row 1 is null
            ViewColumn column = ViewColumns.fromViews(ViewKind.UTF8, 2, raw.views(), validity, List.of(raw.buffer()));
            assertTrue(column.isNull(1));
            assertEquals(0, ViewPredicates.equalTo(LONG).count(column)); // kernels never follow a null row's view
            assertEquals(1, ViewPredicates.notEqualTo(LONG).count(column));
        }
    }

    @Test
    void uncheckedColumnStillFailsWithAnExceptionNotACrash() {
        try (Arena arena = Arena.ofConfined()) {
            Raw raw = raw(arena, LONG);
            raw.views().set(ViewLayout.LAYOUT_LE_INT, ViewLayout.OFFSET_BUFFER_OFFSET, Integer.MAX_VALUE - 8);
            ViewColumn column = ViewColumns.fromViewsUnchecked(ViewKind.UTF8, 1, raw.views(), null, List.of(raw.buffer()));
            assertThrows(IndexOutOfBoundsException.class, () -> column.bytes(0));
            assertThrows(IndexOutOfBoundsException.class, () -> ViewPredicates.contains("zz").count(column));
        }
    }

    @Test
    void viewsSegmentTooSmallForTheRowCount() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment views = arena.allocate(31, 16);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ViewColumns.fromViews(ViewKind.BINARY, 2, views, null, List.of()));
            assertTrue(e.getMessage().contains("size=2") && e.getMessage().contains("viewBytes=31"), e.getMessage());
        }
    }

    @Test
    void builderRejectsInvalidUtf8AndBadRanges() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8).append("fine");
            ViewFormatException e = assertThrows(ViewFormatException.class,
                    () -> builder.append(new byte[] {'a', (byte) 0xF5, 'b'}));
            assertEquals(1, e.row());
            assertEquals("utf8", e.field());
            MemorySegment page = arena.allocate(64, 1);
            int index = builder.adoptBuffer(page);
            IndexOutOfBoundsException range = assertThrows(IndexOutOfBoundsException.class,
                    () -> builder.appendView(index, 60, 20));
            assertTrue(range.getMessage().contains("offset=60") && range.getMessage().contains("bufferSize=64"),
                    range.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> builder.appendView(index + 1, 0, 20));
            assertEquals(1, builder.size(), "rejected values must not leave rows behind");
            ViewColumn column = builder.withUtf8Validation(false).append(new byte[] {(byte) 0xFF}).build();
            assertEquals(2, column.size());
            assertThrows(IllegalStateException.class, () -> builder.append("late"));
        }
    }

    @Test
    void closedArenaGivesAnExceptionNotACrash() {
        Arena arena = Arena.ofConfined();
        ViewColumn column = ViewColumns.ofStrings(arena, "short", LONG, null);
        ViewPredicate predicate = ViewPredicates.equalTo(LONG);
        assertEquals(1, predicate.count(column));
        arena.close();
        assertThrows(IllegalStateException.class, () -> column.string(1));
        assertThrows(IllegalStateException.class, () -> column.isNull(2));
        assertThrows(IllegalStateException.class, () -> predicate.count(column));
        assertThrows(IllegalStateException.class, () -> ViewKernels.argsort(column));
    }

    @Test
    void takeRejectsRowsOutOfRange() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "a", "b");
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                    () -> column.take(arena, new int[] {1, 2}, 2));
            assertTrue(e.getMessage().contains("position=1") && e.getMessage().contains("row=2")
                    && e.getMessage().contains("size=2"), e.getMessage());
            IndexOutOfBoundsException s = assertThrows(IndexOutOfBoundsException.class,
                    () -> ViewPredicates.equalTo("a").select(column, new int[] {0, 5}, 2, new int[2]));
            assertTrue(s.getMessage().contains("row=5"), s.getMessage());
        }
    }

    @Test
    void likePatternEndingInEscapeIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ViewPredicates.like("abc\\", '\\'));
        assertTrue(e.getMessage().contains("position=3"), e.getMessage());
    }

    @Test
    void utf8ValidatorMatchesTheJdkDecoderOnEdgeSequences() {
        byte[][] cases = {
            {}, {'a'}, {(byte) 0xC2, (byte) 0x80}, {(byte) 0xC1, (byte) 0xBF}, {(byte) 0xE0, (byte) 0x9F, (byte) 0xBF},
            {(byte) 0xE0, (byte) 0xA0, (byte) 0x80}, {(byte) 0xED, (byte) 0x9F, (byte) 0xBF},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF0, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF},
            {(byte) 0xF0, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xF4, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF},
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80},
            {(byte) 0xE2, (byte) 0x82}, {(byte) 0x80}, {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', (byte) 0xC3},
            "plain ascii longer than eight bytes".getBytes(StandardCharsets.US_ASCII),
            "naïve café 中文 😀".getBytes(StandardCharsets.UTF_8),
        };
        for (byte[] bytes : cases) {
            boolean jdk = isValidByJdk(bytes);
            assertEquals(jdk, Utf8.isValid(bytes), () -> java.util.Arrays.toString(bytes));
        }
    }

    static boolean isValidByJdk(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes));
            return true;
        } catch (java.nio.charset.CharacterCodingException e) {
            return false;
        }
    }
}
