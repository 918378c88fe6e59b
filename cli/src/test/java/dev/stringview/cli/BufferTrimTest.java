package dev.stringview.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link BufferTrim} and {@code convert}'s choice between it and compaction, against an on-heap model: slices of
 * page-like columns (several buffers, nulls, values of 0, 1, 11, 12, 13, 15, 16, 17 and more bytes, non-ASCII,
 * bytes {@code >= 0x80} in prefixes), fixed seeds.
 */
class BufferTrimTest {
    private static final int[] EDGE_LENGTHS = {0, 1, 11, 12, 13, 15, 16, 17, 40, 100};

    private static byte[] value(Random random) {
        if (random.nextInt(8) == 0) {
            return null;
        }
        int length = EDGE_LENGTHS[random.nextInt(EDGE_LENGTHS.length)];
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        while (out.size() < length) {
            if (length - out.size() >= 2 && random.nextInt(4) == 0) {
                out.write(0xC3); // é: bytes >= 0x80, also in prefixes
                out.write(0xA9);
            } else {
                out.write('a' + random.nextInt(26));
            }
        }
        return out.toByteArray();
    }

    /** Several builder columns concatenated: several buffers, each holding its values in row order. */
    private static ViewColumn pages(Arena arena, List<byte[]> values, Random random) {
        List<ViewColumn> parts = new ArrayList<>();
        for (int from = 0; from < values.size() || parts.isEmpty(); ) {
            int to = Math.min(values.size(), from + 1 + random.nextInt(40));
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8);
            for (byte[] v : values.subList(from, to)) {
                builder.append(v);
            }
            parts.add(builder.build());
            from = to;
        }
        return ViewColumns.concat(arena, parts);
    }

    private static void assertModel(List<byte[]> expected, ViewColumn column, String what) {
        assertEquals(expected.size(), column.size(), what + ": rows");
        for (int row = 0; row < expected.size(); row++) {
            byte[] v = expected.get(row);
            assertEquals(v == null, column.isNull(row), what + ": row=" + row + " null");
            if (v != null) {
                assertArrayEquals(v, column.bytes(row), what + ": row=" + row);
            }
        }
    }

    @Test
    void trimmedSlicesReadBackTheModelFromTheSpansOnly() {
        int trimmedCount = 0;
        for (long seed = 0; seed < 300; seed++) {
            Random random = new Random(seed);
            List<byte[]> values = new ArrayList<>();
            int n = random.nextInt(300);
            for (int i = 0; i < n; i++) {
                values.add(value(random));
            }
            try (Arena arena = Arena.ofConfined()) {
                ViewColumn column = pages(arena, values, random);
                int from = random.nextBoolean() ? 8 * random.nextInt(n / 8 + 1) : random.nextInt(n + 1);
                int length = random.nextInt(n - from + 1);
                String what = "seed=" + seed + " rows=" + n + " from=" + from + " length=" + length;
                ViewColumn slice = column.slice(from, length);
                ViewColumn trimmed = BufferTrim.trimmed(slice, arena);
                if (from % 8 != 0) {
                    assertNull(trimmed, what + ": a bitmap starting mid-byte is left to compact");
                } else {
                    assertNotNull(trimmed, what + ": values in row order always trim");
                    trimmedCount++;
                    assertModel(values.subList(from, from + length), trimmed, what);
                    assertTrue(trimmed.bufferBytes() < 2 * Math.max(1, trimmed.referencedBytes()),
                            what + ": bufferBytes=" + trimmed.bufferBytes() + " referenced=" + trimmed.referencedBytes());
                    assertEquals(slice.nullCount(), trimmed.nullCount(), what + ": nulls");
                }
                ViewColumn written = ArrowCommands.forWriting(slice, arena);
                assertModel(values.subList(from, from + length), written, what + " forWriting");
                assertTrue(written.bufferBytes() <= slice.bufferBytes(), what + ": never more bytes to write");
            }
        }
        assertTrue(trimmedCount > 100, "trimmed cases: " + trimmedCount);
    }

    @Test
    void scatteredValuesAreLeftToCompaction() {
        try (Arena arena = Arena.ofConfined()) {
            // one 64 KiB page whose batch references a value at each end: the span is the whole page
            java.lang.foreign.MemorySegment page = arena.allocate(64 * 1024);
            byte[] first = "the first value of the page".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] last = "the last value of the page".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            java.lang.foreign.MemorySegment.copy(first, 0, page, java.lang.foreign.ValueLayout.JAVA_BYTE, 0,
                    first.length);
            long lastAt = page.byteSize() - last.length;
            java.lang.foreign.MemorySegment.copy(last, 0, page, java.lang.foreign.ValueLayout.JAVA_BYTE, lastAt,
                    last.length);
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.BINARY);
            int buffer = builder.adoptBuffer(page);
            builder.appendView(buffer, 0, first.length);
            builder.appendNull();
            builder.appendView(buffer, lastAt, last.length);
            ViewColumn firstAndLast = builder.build();
            assertNull(BufferTrim.trimmed(firstAndLast, arena), "the span is the whole page");
            ViewColumn written = ArrowCommands.forWriting(firstAndLast, arena);
            assertEquals(firstAndLast.referencedBytes(), written.bufferBytes(), "compacted instead");
            assertModel(java.util.Arrays.asList(first, null, last), written, "compacted");
        }
    }
}
