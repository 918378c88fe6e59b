package dev.stringview.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded test columns for the round-trip properties: values on every edge of the view layout (0, 1, 11, 12, 13,
 * 15, 16, 17 bytes, non-ASCII UTF-8, bytes >= 0x80 in the prefix, nulls) in every memory layout the bridges must
 * carry (one block, many buffers through concat, scattered values with gaps, slices with odd bit offsets, take).
 * The model is a plain {@code List<byte[]>} with null for null rows.
 */
final class Layouts {
    private Layouts() {}

    static final int[] EDGE_LENGTHS = {0, 1, 4, 11, 12, 13, 15, 16, 17, 31, 100};
    private static final String[] CHARACTERS = {"a", "b", "z", "\0", "é", "ß", "€", "中", "😀", "\u007f", "h"};

    enum Shape { BUILDER, CONCAT, SCATTERED, SLICE, TAKE }

    record Case(ViewKind kind, Shape shape, List<byte[]> model, long seed) {
        @Override
        public String toString() {
            return "seed=" + seed + " kind=" + kind + " shape=" + shape + " rows=" + model.size();
        }
    }

    static Case randomCase(long seed) {
        Random random = new Random(seed);
        ViewKind kind = random.nextBoolean() ? ViewKind.UTF8 : ViewKind.BINARY;
        Shape shape = Shape.values()[random.nextInt(Shape.values().length)];
        int rows = random.nextInt(8) == 0 ? random.nextInt(3) : random.nextInt(120);
        int nullEvery = random.nextInt(4) == 0 ? 0 : 2 + random.nextInt(8);
        List<byte[]> model = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            model.add(nullEvery > 0 && random.nextInt(nullEvery) == 0 ? null : value(kind, random));
        }
        return new Case(kind, shape, model, seed);
    }

    static byte[] value(ViewKind kind, Random random) {
        int length = random.nextInt(3) == 0 ? random.nextInt(40) : EDGE_LENGTHS[random.nextInt(EDGE_LENGTHS.length)];
        if (kind == ViewKind.BINARY) {
            byte[] bytes = new byte[length];
            for (int i = 0; i < length; i++) {
                bytes[i] = random.nextBoolean() ? (byte) (0x80 + random.nextInt(128)) : (byte) random.nextInt(128);
            }
            return bytes;
        }
        StringBuilder s = new StringBuilder();
        while (s.toString().getBytes(StandardCharsets.UTF_8).length < length) {
            s.append(CHARACTERS[random.nextInt(CHARACTERS.length)]);
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    static ViewColumn column(Arena arena, Case c) {
        Random random = new Random(c.seed() ^ 0x5DEECE66DL);
        List<byte[]> values = c.model();
        return switch (c.shape()) {
            case BUILDER -> build(arena, c.kind(), values);
            case CONCAT -> {
                List<ViewColumn> parts = new ArrayList<>();
                int from = 0;
                while (from < values.size() || parts.isEmpty()) {
                    int to = Math.min(values.size(), from + 1 + random.nextInt(6));
                    parts.add(build(arena, c.kind(), values.subList(from, to)));
                    from = to;
                }
                yield ViewColumns.concat(arena, parts);
            }
            case SCATTERED -> scattered(arena, c.kind(), values, random);
            case SLICE -> {
                List<byte[]> padded = new ArrayList<>();
                int before = random.nextInt(11);
                for (int i = 0; i < before; i++) {
                    padded.add(random.nextBoolean() ? null : "padding before the slice".getBytes(StandardCharsets.UTF_8));
                }
                padded.addAll(values);
                padded.add("after the slice".getBytes(StandardCharsets.UTF_8));
                padded.add(null);
                yield build(arena, c.kind(), padded).slice(before, values.size());
            }
            case TAKE -> {
                int n = values.size();
                List<Integer> order = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    order.add(i);
                }
                java.util.Collections.shuffle(order, random);
                List<byte[]> shuffled = new ArrayList<>();
                int[] back = new int[n];
                for (int i = 0; i < n; i++) {
                    shuffled.add(values.get(order.get(i)));
                    back[order.get(i)] = i;
                }
                yield build(arena, c.kind(), shuffled).take(arena, back, n);
            }
        };
    }

    static ViewColumn build(Arena arena, ViewKind kind, List<byte[]> values) {
        ViewColumnBuilder builder = ViewColumns.builder(arena, kind);
        for (byte[] value : values) {
            builder.append(value);
        }
        return builder.build();
    }

    private static ViewColumn scattered(Arena arena, ViewKind kind, List<byte[]> values, Random random) {
        int buffers = 1 + random.nextInt(4);
        long total = 64;
        for (byte[] value : values) {
            total += value == null ? 0 : value.length + 16;
        }
        MemorySegment[] segments = new MemorySegment[buffers];
        long[] used = new long[buffers];
        ViewColumnBuilder builder = ViewColumns.builder(arena, kind);
        for (int b = 0; b < buffers; b++) {
            segments[b] = arena.allocate(total, 1);
            segments[b].fill((byte) 0x5A);
            builder.adoptBuffer(segments[b]);
        }
        for (byte[] value : values) {
            if (value == null) {
                builder.appendNull();
                continue;
            }
            int b = random.nextInt(buffers);
            long offset = used[b] + random.nextInt(16);
            MemorySegment.copy(MemorySegment.ofArray(value), 0, segments[b], offset, value.length);
            used[b] = offset + value.length;
            builder.appendView(b, offset, value.length);
        }
        return builder.build();
    }

    /** Asserts {@code column} holds exactly the model, row by row. */
    static void assertColumn(Case c, ViewColumn column) {
        assertEquals(c.kind(), column.kind(), c.toString());
        assertEquals(c.model().size(), column.size(), c.toString());
        for (int row = 0; row < column.size(); row++) {
            byte[] expected = c.model().get(row);
            assertEquals(expected == null, column.isNull(row), c + " row=" + row);
            assertArrayEquals(expected, column.bytes(row), c + " row=" + row);
        }
    }
}
