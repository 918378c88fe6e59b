package dev.stringview.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stringview.TestData;
import dev.stringview.TestData.Shape;
import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded round-trip cases over core's test generators ({@link TestData}, from core's test-jar): values on every
 * edge of the view layout (0, 1, 11, 12, 13, 15, 16, 17 bytes, non-ASCII UTF-8, bytes >= 0x80 in the prefix,
 * nulls) in every memory layout core's own properties use (builder blocks, dedup, scattered values with gaps in
 * many adopted buffers, concat, slices with odd bit offsets, take, raw views through the validating constructor,
 * compaction). The model is a plain {@code List<byte[]>} with null for null rows.
 */
final class Layouts {
    private Layouts() {}

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

    /** One value of {@code kind} drawn by core's generators. */
    static byte[] value(ViewKind kind, Random random) {
        return kind == ViewKind.UTF8 ? TestData.utf8String(random).getBytes(StandardCharsets.UTF_8)
                : TestData.binaryValue(random);
    }

    static ViewColumn column(Arena arena, Case c) {
        return TestData.column(arena, c.kind(), c.model(), c.shape(), c.seed());
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
