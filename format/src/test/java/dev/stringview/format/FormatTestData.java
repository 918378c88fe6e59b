package dev.stringview.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.internal.reader.InlineViews;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** Random columns for the format tests: an on-heap model (values, null = null row) and its column. */
final class FormatTestData {
    static final int[] EDGE_LENGTHS = {0, 1, 11, 12, 13, 15, 16, 17};

    /** The layouts of lengths the sizes codecs treat differently. */
    enum Lengths { EMPTY, EDGE, CONSTANT, ASCENDING, RUNS, UNIFORM_SMALL, WIDE, LONG, INLINE, TINY }

    /** The lengths of {@link Lengths#INLINE}: blocks of inline values only, InlineViews' vector form when warm. */
    static final int[] INLINE_LENGTHS = {0, 1, 2, 3, 4, 5, 8, 11, 12};

    enum Nulls { NONE, SOME, ALL }

    record Model(ViewKind kind, List<byte[]> values) {
        String describe() {
            return "kind=" + kind + " rows=" + values.size();
        }
    }

    private FormatTestData() {}

    /**
     * Warms up the vector loops ({@code ViewKernels.warmUp}) and checks that this JVM then takes {@code InlineViews}'
     * vector form exactly when it has the incubator module, vectorization is not turned off and the CPU has 512-bit
     * vectors: the default Surefire run then reads inline-only blocks through it, the {@code scalar-views} run
     * through the reader's own loops.
     */
    static void warmUpInlineViews() {
        dev.stringview.ViewKernels.warmUp();
        boolean expected = dev.stringview.internal.Vectorization.available()
                && dev.stringview.internal.Vectorization.preferredBits() >= 512;
        assertEquals(expected, InlineViews.vectorized(),
                dev.stringview.internal.Vectorization.describe());
    }

    static Model model(Random random, ViewKind kind, Lengths lengths, Nulls nulls, int rows) {
        List<byte[]> values = new ArrayList<>(rows);
        int constant = EDGE_LENGTHS[random.nextInt(EDGE_LENGTHS.length)];
        int run = 0;
        int runLength = 0;
        for (int i = 0; i < rows; i++) {
            if (nulls == Nulls.ALL || (nulls == Nulls.SOME && random.nextInt(5) == 0)) {
                values.add(null);
                continue;
            }
            int length = switch (lengths) {
                case EMPTY -> 0;
                case EDGE -> EDGE_LENGTHS[random.nextInt(EDGE_LENGTHS.length)];
                case CONSTANT -> constant;
                case ASCENDING -> (i % 40) + 3;
                case RUNS -> {
                    if (runLength == 0) {
                        run = random.nextInt(30);
                        runLength = 1 + random.nextInt(400);
                    }
                    runLength--;
                    yield run;
                }
                case UNIFORM_SMALL -> 6 + random.nextInt(5); // [0.8 * 8, 1.2 * 8]
                case WIDE -> random.nextInt(3) == 0 ? random.nextInt(3000) : random.nextInt(20);
                case LONG -> 100 + random.nextInt(900);
                case INLINE -> INLINE_LENGTHS[random.nextInt(INLINE_LENGTHS.length)];
                case TINY -> random.nextInt(5);
            };
            values.add(kind == ViewKind.UTF8 ? utf8(random, length) : binary(random, length));
        }
        return new Model(kind, values);
    }

    /** Exactly {@code length} bytes of valid UTF-8 with 1- to 4-byte characters (and bytes >= 0x80 in prefixes). */
    static byte[] utf8(Random random, int length) {
        StringBuilder s = new StringBuilder();
        int bytes = 0;
        while (bytes < length) {
            int room = length - bytes;
            int pick = random.nextInt(6);
            if (pick == 0 && room >= 2) {
                s.append('é');
                bytes += 2;
            } else if (pick == 1 && room >= 3) {
                s.append('€');
                bytes += 3;
            } else if (pick == 2 && room >= 4) {
                s.appendCodePoint(0x1F600);
                bytes += 4;
            } else {
                s.append((char) ('a' + random.nextInt(3)));
                bytes++;
            }
        }
        byte[] out = s.toString().getBytes(StandardCharsets.UTF_8);
        if (out.length != length) {
            throw new AssertionError("utf8 generator: length=" + length + " got=" + out.length);
        }
        return out;
    }

    static byte[] binary(Random random, int length) {
        byte[] out = new byte[length];
        random.nextBytes(out);
        return out;
    }

    static ViewColumn column(SegmentAllocator allocator, Model model) {
        ViewColumnBuilder builder = ViewColumns.builder(allocator, model.kind());
        for (byte[] value : model.values()) {
            builder.append(value);
        }
        return builder.build();
    }

    static byte[] serialize(ColumnSerializer serializer, ViewColumn column) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long written = serializer.write(column, out);
        if (written != out.size()) {
            throw new AssertionError("write() returned " + written + " but wrote " + out.size());
        }
        return out.toByteArray();
    }

    /** Reads {@code model}'s serialized column from an exactly sized heap segment, a native segment and a stream. */
    static List<ViewColumn> readEveryWay(ColumnSerializer serializer, Model model, Arena arena, String where)
            throws IOException {
        byte[] bytes = serialize(serializer, column(arena, model));
        ColumnDeserializer reader = ColumnDeserializer.create();
        List<ViewColumn> out = List.of(
                reader.read(MemorySegment.ofArray(bytes), arena),
                reader.read(arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes), arena),
                reader.read(new ByteArrayInputStream(bytes), arena));
        for (int i = 0; i < out.size(); i++) {
            assertMatches(model, out.get(i), where + " input=" + i);
        }
        return out;
    }

    /** Every value of {@code column} equals the model's, null rows included. */
    static void assertMatches(Model model, ViewColumn column, String where) {
        if (column.size() != model.values().size()) {
            throw new AssertionError(where + ": rows=" + column.size() + " expected=" + model.values().size());
        }
        if (column.kind() != model.kind()) {
            throw new AssertionError(where + ": kind=" + column.kind() + " expected=" + model.kind());
        }
        long nulls = model.values().stream().filter(v -> v == null).count();
        if (column.nullCount() != nulls) {
            throw new AssertionError(where + ": nulls=" + column.nullCount() + " expected=" + nulls);
        }
        for (int row = 0; row < column.size(); row++) {
            byte[] expected = model.values().get(row);
            byte[] actual = column.bytes(row);
            if (!Arrays.equals(expected, actual)) {
                throw new AssertionError(where + ": row=" + row + " expected=" + Arrays.toString(expected) + " actual="
                        + Arrays.toString(actual));
            }
        }
        // The views must be valid Arrow views (padding, prefixes, offsets), checked by core's validator.
        ViewColumns.fromViews(column.kind(), column.size(), column.views(), column.validity().orElse(null),
                buffers(column));
    }

    static List<java.lang.foreign.MemorySegment> buffers(ViewColumn column) {
        List<java.lang.foreign.MemorySegment> out = new ArrayList<>();
        for (int i = 0; i < column.bufferCount(); i++) {
            out.add(column.buffer(i));
        }
        return out;
    }
}
