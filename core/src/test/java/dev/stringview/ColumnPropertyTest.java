package dev.stringview;

import static dev.stringview.Gen.API;
import static dev.stringview.ModelChecks.assertReadsBack;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sageserpent.americium.java.Trials;
import dev.stringview.TestData.Model;
import dev.stringview.TestData.Shape;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link ViewColumn}, {@link ViewColumnBuilder} and {@link ViewColumns} against the on-heap model: read-back in
 * every shape, copy-free take / slice / concat, exact compaction, accounting, and the builder's block policy
 * and dedup.
 */
class ColumnPropertyTest {
    private static final int KIB = 1024;

    static Trials<Model> models() {
        return API.alternate(TestData.anyModels(), TestData.sharedPrefixModels());
    }

    static Trials<List<Model>> modelLists() {
        return Gen.lists(TestData.utf8Model(), 1, 4)
                .map(l -> l.stream().map(v -> new Model(ViewKind.UTF8, v)).toList());
    }

    // ------------------------------------------------------------------------------------------- read-back

    @Test
    void everyShapeReadsBackTheModel() {
        Gen.forAll(500, models(), TestData.shapes(), Gen.seeds(),
                (model, shape, seed) -> everyShapeReadsBackTheModel(model, shape, seed));
    }

    private void everyShapeReadsBackTheModel(Model model, Shape shape, long seed) {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.column(arena, model.kind(), model.values(), shape, seed);
            assertReadsBack(column, model.kind(), model.values(), true, ModelChecks.describe(model, shape, seed));
            ViewColumn garbage = TestData.withGarbageNullViews(arena, column, seed);
            assertReadsBack(garbage, model.kind(), model.values(), false,
                    "garbage null views " + ModelChecks.describe(model, shape, seed));
        }
    }

    @Test
    void validBitsEqualTheModelsNullsAtEveryOffsetAndWidth() {
        Gen.forAll(120, models(), TestData.shapes(), Gen.seeds(),
                (model, shape, seed) -> validBitsEqualTheModel(model, shape, seed));
    }

    private void validBitsEqualTheModel(Model model, Shape shape, long seed) {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.column(arena, model.kind(), model.values(), shape, seed);
            int size = column.size();
            Random random = new Random(seed);
            // Every start in the first 130 rows (every bit offset in a word and across bytes), then a random stride.
            for (int from = 0; from < size; from += from < 130 ? 1 : 1 + random.nextInt(50)) {
                int[] widths = {1, Math.min(64, size - from), 1 + random.nextInt(Math.min(64, size - from))};
                for (int count : widths) {
                    long want = 0;
                    for (int i = 0; i < count; i++) {
                        want |= (model.values().get(from + i) == null ? 0L : 1L) << i;
                    }
                    assertEquals(want, column.validBits(from, count), ModelChecks.describe(model, shape, seed)
                            + " from=" + from + " count=" + count);
                }
            }
            assertEquals("rows out of range: from=0 count=0 size=" + size,
                    assertThrows(IndexOutOfBoundsException.class, () -> column.validBits(0, 0)).getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> column.validBits(0, 65));
            assertThrows(IndexOutOfBoundsException.class, () -> column.validBits(-1, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> column.validBits(size, 1));
            if (size >= 2) {
                assertThrows(IndexOutOfBoundsException.class, () -> column.validBits(size - 1, 2));
            }
        }
    }

    @Test
    void valueEqualsAcrossShapes() {
        Gen.forAll(400, models(), TestData.shapes(), TestData.shapes(), Gen.seeds(),
                (model, shapeA, shapeB, seed) -> valueEqualsAcrossShapes(model, shapeA, shapeB, seed));
    }

    private void valueEqualsAcrossShapes(Model model, Shape shapeA, Shape shapeB, long seed) {
        List<byte[]> values = model.values();
        int size = values.size();
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn a = TestData.anyColumn(arena, model.kind(), values, shapeA, seed);
            ViewColumn b = TestData.anyColumn(arena, model.kind(), values, shapeB, ~seed);
            Random random = new Random(seed);
            for (int i = 0; i < size; i++) {
                int row = i;
                // Built only on failure: the description holds the whole model.
                java.util.function.Supplier<String> what = () -> ModelChecks.describe(model, shapeA, seed) + " vs "
                        + shapeB + " row " + row;
                assertTrue(a.valueEquals(i, b, i), () -> what.get() + ": same row, other shape");
                assertTrue(b.valueEquals(i, a, i), () -> what.get() + ": same row, other shape (swapped)");
                assertTrue(a.valueEquals(i, a, i), () -> what.get() + ": reflexive");
                for (int k = 0; k < 4; k++) {
                    int j = random.nextInt(size);
                    boolean expected = Arrays.equals(values.get(i), values.get(j)); // null equals null
                    assertEquals(expected, a.valueEquals(i, b, j), () -> what.get() + " vs row " + j + " "
                            + ModelChecks.show(values.get(row)) + " / " + ModelChecks.show(values.get(j)));
                    assertEquals(expected, b.valueEquals(j, a, i), () -> what.get() + " vs row " + j + " (swapped)");
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------ copy-free operations

    private static Set<MemorySegment> bufferSet(ViewColumn column) {
        Set<MemorySegment> set = new HashSet<>();
        for (int b = 0; b < column.bufferCount(); b++) {
            set.add(column.buffer(b));
        }
        return set;
    }

    /** Each long value of {@code result} row {@code r} sits at the very address of {@code source} row {@code s}. */
    private static void assertSameBytes(ViewColumn result, int r, ViewColumn source, int s, String what) {
        MemorySegment value = result.segment(r);
        if (value != null && value.byteSize() > ViewLayout.INLINE_MAX) {
            assertEquals(source.segment(s).address(), value.address(), what + ": row " + r + " copied its bytes");
        }
    }

    @Test
    void takeSharesBuffers() {
        Gen.forAll(500, models(), TestData.shapes(), Gen.seeds(),
                (model, shape, seed) -> takeSharesBuffers(model, shape, seed));
    }

    private void takeSharesBuffers(Model model, Shape shape, long seed) {
        List<byte[]> values = model.values();
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn source = TestData.anyColumn(arena, model.kind(), values, shape, seed);
            Random random = new Random(seed);
            int[] rows = TestData.unorderedSelection(values.size(), seed);
            int count = random.nextInt(rows.length + 1);
            int[] padded = Arrays.copyOf(rows, rows.length + 1);
            padded[rows.length] = -1; // past count: ignored
            ViewColumn taken = source.take(arena, padded, count);
            List<byte[]> expected = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                expected.add(values.get(rows[i]));
            }
            String what = ModelChecks.describe(model, shape, seed) + " take " + Arrays.toString(Arrays.copyOf(rows, count));
            assertReadsBack(taken, model.kind(), expected, true, what);
            assertEquals(source.bufferCount(), taken.bufferCount(), what + ": buffer count");
            for (int b = 0; b < source.bufferCount(); b++) {
                assertEquals(source.buffer(b), taken.buffer(b), what + ": buffer " + b);
                assertEquals(source.buffer(b).address(), taken.buffer(b).address(), what + ": buffer " + b);
            }
            for (int i = 0; i < count; i++) {
                assertSameBytes(taken, i, source, rows[i], what);
            }
        }
    }

    @Test
    void sliceSharesEverything() {
        Gen.forAll(500, models(), TestData.shapes(), Gen.seeds(),
                (model, shape, seed) -> sliceSharesEverything(model, shape, seed));
    }

    private void sliceSharesEverything(Model model, Shape shape, long seed) {
        List<byte[]> values = model.values();
        int size = values.size();
        Random random = new Random(seed);
        int from = random.nextInt(size + 1);
        int length = random.nextInt(size - from + 1);
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn source = TestData.anyColumn(arena, model.kind(), values, shape, seed);
            ViewColumn slice = source.slice(from, length);
            String what = ModelChecks.describe(model, shape, seed) + " slice(" + from + ", " + length + ")";
            assertReadsBack(slice, model.kind(), values.subList(from, from + length), (seed & 1) == 0, what);
            assertEquals(bufferSet(source), bufferSet(slice), what + ": buffers");
            assertEquals(source.bufferCount(), slice.bufferCount(), what + ": buffer count");
            assertEquals(source.views().address() + 16L * from, slice.views().address(), what + ": views copied");
            for (int i = 0; i < length; i++) {
                assertSameBytes(slice, i, source, from + i, what);
            }
            // a slice of the slice
            int from2 = random.nextInt(length + 1);
            int length2 = random.nextInt(length - from2 + 1);
            ViewColumn inner = slice.slice(from2, length2);
            assertReadsBack(inner, model.kind(), values.subList(from + from2, from + from2 + length2), (seed & 1) == 0,
                    what + " slice(" + from2 + ", " + length2 + ")");
            assertThrows(IndexOutOfBoundsException.class, () -> source.slice(from, size - from + 1));
        }
    }

    @Test
    void concatSharesBuffersOnce() {
        Gen.forAll(400, modelLists(), Gen.seeds(),
                (models, seed) -> concatSharesBuffersOnce(models, seed));
    }

    private void concatSharesBuffersOnce(List<Model> models, long seed) {
        Random random = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            List<ViewColumn> parts = new ArrayList<>();
            List<List<byte[]>> partValues = new ArrayList<>();
            List<byte[]> expected = new ArrayList<>();
            List<int[]> origin = new ArrayList<>(); // result row -> (part, row)
            Set<MemorySegment> union = new LinkedHashSet<>();
            for (Model model : models) {
                Shape shape = Shape.values()[random.nextInt(Shape.values().length)];
                ViewColumn part = TestData.anyColumn(arena, model.kind(), model.values(), shape, random.nextLong());
                parts.add(part);
                partValues.add(model.values());
                if (random.nextInt(4) == 0) {
                    parts.add(part); // the same column twice: its buffers must appear once
                    partValues.add(model.values());
                }
            }
            for (int p = 0; p < parts.size(); p++) {
                ViewColumn part = parts.get(p);
                union.addAll(bufferSet(part));
                for (int row = 0; row < part.size(); row++) {
                    expected.add(partValues.get(p).get(row));
                    origin.add(new int[] {p, row});
                }
            }
            ViewColumn all = ViewColumns.concat(arena, parts);
            String what = "concat of " + parts.size() + " parts " + models;
            assertReadsBack(all, ViewKind.UTF8, expected, true, what);
            assertEquals(union, bufferSet(all), what + ": buffers");
            assertEquals(union.size(), all.bufferCount(), what + ": a shared buffer must appear once");
            for (int r = 0; r < all.size(); r++) {
                assertSameBytes(all, r, parts.get(origin.get(r)[0]), origin.get(r)[1], what);
            }
        }
    }

    @Test
    void concatRejectsNothingAndMixedKinds() {
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalArgumentException.class, () -> ViewColumns.concat(arena, List.of()));
            ViewColumn utf8 = ViewColumns.ofStrings(arena, "a");
            ViewColumn binary = ViewColumns.ofBytes(arena, new byte[] {1});
            assertThrows(IllegalArgumentException.class, () -> ViewColumns.concat(arena, utf8, binary));
            ViewColumn one = ViewColumns.concat(arena, utf8);
            assertEquals("a", one.string(0));
        }
    }

    // ------------------------------------------------------------------------------------------- compaction

    /** (bufferIndex, offset, length) of every non-null long value, read from the raw views. */
    static List<long[]> references(ViewColumn column) {
        List<long[]> refs = new ArrayList<>();
        MemorySegment views = column.views();
        for (int row = 0; row < column.size(); row++) {
            int length = column.length(row);
            if (!column.isNull(row) && length > ViewLayout.INLINE_MAX) {
                refs.add(new long[] {views.get(ViewLayout.LAYOUT_LE_INT, 16L * row + 8),
                        views.get(ViewLayout.LAYOUT_LE_INT, 16L * row + 12), length});
            } else {
                refs.add(null);
            }
        }
        return refs;
    }

    static long distinctReferencedBytes(ViewColumn column) {
        Set<List<Long>> distinct = new HashSet<>();
        long total = 0;
        for (long[] ref : references(column)) {
            if (ref != null && distinct.add(List.of(ref[0], ref[1], ref[2]))) {
                total += ref[2];
            }
        }
        return total;
    }

    @Test
    void compactIsExactlySized() {
        Gen.forAll(500, models(), TestData.shapes(), API.booleans(), Gen.seeds(),
                (model, shape, takeWithRepeats, seed) -> compactIsExactlySized(model, shape, takeWithRepeats, seed));
    }

    private void compactIsExactlySized(Model model, Shape shape, boolean takeWithRepeats, long seed) {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.anyColumn(arena, model.kind(), model.values(), shape, seed);
            List<byte[]> values = model.values();
            if (takeWithRepeats) {
                int[] rows = TestData.unorderedSelection(values.size(), seed);
                column = column.take(arena, rows, rows.length);
                List<byte[]> taken = new ArrayList<>();
                for (int row : rows) {
                    taken.add(values.get(row));
                }
                values = taken;
            }
            ViewColumn source = column;
            String what = ModelChecks.describe(model, shape, seed) + (takeWithRepeats ? " (taken with repeats)" : "");
            ViewColumn compacted = source.compact(arena);
            assertReadsBack(compacted, model.kind(), values, true, what + " compacted");
            List<long[]> sourceRefs = references(source);
            List<long[]> refs = references(compacted);
            long distinct = distinctReferencedBytes(source);
            assertEquals(source.referencedBytes(), compacted.referencedBytes(), what + ": referencedBytes");
            assertEquals(distinct, compacted.bufferBytes(),
                    what + ": bufferBytes must equal the bytes of distinct (buffer, offset, length) references"
                            + " (referencedBytes=" + source.referencedBytes() + ")");
            if (distinct == 0) {
                assertEquals(0, compacted.bufferCount(), what + ": no long value, no buffer");
            }
            // sharing: two long rows share bytes after compaction iff they shared them before
            Map<List<Long>, List<Long>> mapping = new HashMap<>();
            Map<List<Long>, List<Long>> inverse = new HashMap<>();
            for (int row = 0; row < values.size(); row++) {
                if (sourceRefs.get(row) == null) {
                    continue;
                }
                List<Long> before = List.of(sourceRefs.get(row)[0], sourceRefs.get(row)[1], sourceRefs.get(row)[2]);
                List<Long> after = List.of(refs.get(row)[0], refs.get(row)[1], refs.get(row)[2]);
                assertEquals(after, Objects.requireNonNullElse(mapping.putIfAbsent(before, after), after),
                        what + ": row " + row + " no longer shares its bytes");
                assertEquals(before, Objects.requireNonNullElse(inverse.putIfAbsent(after, before), before),
                        what + ": row " + row + " now shares bytes with a different value");
            }
            // a copy: no new buffer overlaps an old one
            for (int b = 0; b < compacted.bufferCount(); b++) {
                MemorySegment fresh = compacted.buffer(b);
                for (MemorySegment old : bufferSet(source)) {
                    assertTrue(fresh.address() + fresh.byteSize() <= old.address()
                            || old.address() + old.byteSize() <= fresh.address(), what + ": buffer " + b + " not fresh");
                }
            }
            assertFalse(compacted.shouldCompact(), what + ": compacted column should not want compaction");
        }
    }

    /**
     * Slices of page-like columns (many builder buffers, as a reader's batches over pages): compaction copies each
     * buffer's referenced run once and lays the long values out in row order, each starting where the last ended,
     * in one exactly sized buffer; nulls and inline values between them take no bytes.
     */
    @Test
    void compactOfSlicesLaysValuesOutInRowOrder() {
        Gen.forAll(400, models(), Gen.seeds(), this::compactOfSlicesLaysValuesOutInRowOrder);
    }

    private void compactOfSlicesLaysValuesOutInRowOrder(Model model, long seed) {
        Random random = new Random(seed);
        List<byte[]> values = model.values();
        try (Arena arena = Arena.ofConfined()) {
            List<ViewColumn> pages = new ArrayList<>();
            for (int from = 0; from < values.size() || pages.isEmpty(); ) {
                int to = Math.min(values.size(), from + 1 + random.nextInt(9));
                pages.add(TestData.build(arena, model.kind(), values.subList(from, to), false));
                from = to;
            }
            ViewColumn column = ViewColumns.concat(arena, pages);
            int from = random.nextInt(values.size() + 1);
            int length = random.nextInt(values.size() - from + 1);
            String what = ModelChecks.describe(model, Shape.CONCAT, seed) + " slice from=" + from + " length="
                    + length;
            ViewColumn compacted = column.slice(from, length).compact(arena);
            assertReadsBack(compacted, model.kind(), values.subList(from, from + length), true, what);
            assertEquals(compacted.referencedBytes(), compacted.bufferBytes(), what + ": bufferBytes");
            assertTrue(compacted.bufferCount() <= 1, what + ": buffers=" + compacted.bufferCount());
            long expectedOffset = 0;
            List<long[]> refs = references(compacted);
            for (int row = 0; row < length; row++) {
                if (refs.get(row) != null) {
                    assertEquals(0, refs.get(row)[0], what + ": row=" + row + " bufferIndex");
                    assertEquals(expectedOffset, refs.get(row)[1], what + ": row=" + row + " offset");
                    expectedOffset += refs.get(row)[2];
                }
            }
        }
    }

    @Test
    void compactOfDedupColumnKeepsOneCopy() {
        try (Arena arena = Arena.ofConfined()) {
            String repeated = "a value longer than twelve bytes";
            ViewColumn column = TestData.build(arena, ViewKind.UTF8, Arrays.asList(
                    repeated.getBytes(StandardCharsets.UTF_8), repeated.getBytes(StandardCharsets.UTF_8)), true);
            assertEquals(64, column.referencedBytes());
            assertEquals(distinctReferencedBytes(column), 32);
            ViewColumn compacted = column.compact(arena);
            assertEquals(repeated, compacted.string(0));
            assertEquals(repeated, compacted.string(1));
            assertEquals(compacted.segment(0).address(), compacted.segment(1).address(), "still shared");
            assertEquals(32, compacted.bufferBytes(), "one copy of the shared value, in an exactly sized buffer");
        }
    }

    @Test
    void compactOfRepeatedTakeKeepsOneCopy() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "short", "a value longer than twelve bytes");
            ViewColumn taken = column.take(arena, new int[] {1, 1, 1, 0}, 4);
            ViewColumn compacted = taken.compact(arena);
            assertEquals(96, taken.referencedBytes());
            assertEquals(32, compacted.bufferBytes(), "three views of the same bytes keep sharing one copy");
        }
    }

    // ------------------------------------------------------------------------------------------ accounting

    /** The block policy's model: sizes of the blocks the builder allocates for these long values, in order. */
    static final class BlockModel {
        final List<Long> buffers = new ArrayList<>();
        private int block = -1;
        private long used;
        private long next = 8 * KIB;

        /** Where a copied value of {@code length} bytes goes: {bufferIndex, offset}. */
        long[] place(int length) {
            if (block >= 0 && used + length <= buffers.get(block)) {
                long[] at = {block, used};
                used += length;
                return at;
            }
            if (length > next) {
                buffers.add((long) length);
                return new long[] {buffers.size() - 1, 0};
            }
            buffers.add(next);
            block = buffers.size() - 1;
            used = length;
            next = Math.min(2 * next, 2 * KIB * KIB);
            return new long[] {block, 0};
        }

        long total() {
            return buffers.stream().mapToLong(Long::longValue).sum();
        }
    }

    @Test
    void accountingMatchesModel() {
        Gen.forAll(500, models(), TestData.shapes(), Gen.seeds(),
                (model, shape, seed) -> accountingMatchesModel(model, shape, seed));
    }

    private void accountingMatchesModel(Model model, Shape shape, long seed) {
        List<byte[]> values = model.values();
        long referenced = 0;
        boolean anyLong = false;
        BlockModel blocks = new BlockModel();
        for (byte[] v : values) {
            if (v != null && v.length > ViewLayout.INLINE_MAX) {
                referenced += v.length;
                anyLong = true;
                blocks.place(v.length);
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.anyColumn(arena, model.kind(), values, shape, seed);
            String what = ModelChecks.describe(model, shape, seed);
            assertEquals(16L * values.size(), column.viewBytes(), what + ": viewBytes");
            assertEquals(referenced, column.referencedBytes(), what + ": referencedBytes");
            long buffered = 0;
            for (int b = 0; b < column.bufferCount(); b++) {
                buffered += column.buffer(b).byteSize();
            }
            assertEquals(buffered, column.bufferBytes(), what + ": bufferBytes");
            assertTrue(buffered >= distinctReferencedBytes(column), what + ": buffers hold every referenced byte");
            assertEquals(buffered >= 2 * referenced && buffered - referenced >= 16 * KIB, column.shouldCompact(),
                    what + ": shouldCompact with bufferBytes=" + buffered + " referencedBytes=" + referenced);
            if (shape == Shape.BUILDER) {
                assertEquals(blocks.buffers, bufferSizes(column), what + ": builder blocks");
                assertEquals(anyLong ? blocks.total() : 0, column.bufferBytes(), what + ": builder bufferBytes");
            }
            if (shape == Shape.COMPACTED) {
                assertEquals(referenced, column.bufferBytes(), what + ": compacted, nothing shared");
            }
        }
    }

    private static List<Long> bufferSizes(ViewColumn column) {
        List<Long> sizes = new ArrayList<>();
        for (int b = 0; b < column.bufferCount(); b++) {
            sizes.add(column.buffer(b).byteSize());
        }
        return sizes;
    }

    @Test
    void shouldCompactAfterSelectiveTake() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8);
            for (int i = 0; i < 2000; i++) {
                builder.append(String.format("value number %08d", i)); // 21 bytes
            }
            ViewColumn column = builder.build();
            assertEquals(42000, column.referencedBytes());
            assertFalse(column.shouldCompact(), "bufferBytes=" + column.bufferBytes());
            ViewColumn few = column.take(arena, new int[] {3, 1999, 500}, 3);
            assertEquals(63, few.referencedBytes());
            assertTrue(few.shouldCompact());
            ViewColumn compacted = few.compact(arena);
            assertEquals(63, compacted.bufferBytes());
            assertFalse(compacted.shouldCompact());
            assertEquals("value number 00001999", compacted.string(1));
            // Saving less than 16 KiB is not worth it, however large the factor.
            ViewColumn small = ViewColumns.ofStrings(arena, "a value longer than twelve bytes").take(arena, new int[0], 0);
            assertEquals(8 * KIB, small.bufferBytes());
            assertFalse(small.shouldCompact());
        }
    }

    // --------------------------------------------------------------------------------- builder: block policy

    /**
     * One appended row of the block-policy property: {@code -2} null, {@code -1} an inline value, otherwise the
     * id of a long value whose length is {@code lengths[id % lengths.size()]} and whose bytes depend only on
     * the id (so equal ids are repeated values, and distinct ids distinct ones, often sharing their prefix).
     */
    private static byte[] longValue(int id, int length) {
        byte[] v = new byte[length];
        Random random = new Random(id);
        random.nextBytes(v);
        v[0] = 'p';
        v[1] = 'r';
        v[2] = 'e';
        v[3] = (byte) (id % 3);
        v[4] = (byte) (id >>> 8);
        v[5] = (byte) id;
        return v;
    }

    static Trials<List<Integer>> longLengths() {
        return Gen.lists(API.alternateWithWeights(
                Map.entry(10, API.integers(13, 40)),
                Map.entry(10, API.integers(13, 3000)),
                Map.entry(3, API.choose(8 * KIB - 1, 8 * KIB, 8 * KIB + 1, 16 * KIB, 16 * KIB + 1)),
                Map.entry(2, API.integers(3000, 40000)),
                Map.entry(1, API.integers(2 * KIB * KIB - 2, 2 * KIB * KIB + 100_000))), 1, 12);
    }

    static Trials<List<Integer>> rowKinds() {
        return Gen.lists(API.alternateWithWeights(Map.entry(1, API.only(-2)), Map.entry(2, API.only(-1)),
                Map.entry(6, API.integers(0, 30))), 0, 250);
    }

    @Test
    void builderBlocksFollowThePolicy() {
        Gen.forAll(60, longLengths(), rowKinds(), API.booleans(), API.integers(0, 300), Gen.seeds(),
                (lengths, rows, dedup, dedupFrom, seed) -> builderBlocksFollowThePolicy(lengths, rows, dedup, dedupFrom, seed));
    }

    private void builderBlocksFollowThePolicy(List<Integer> lengths, List<Integer> rows, boolean dedup, int dedupFrom, long seed) {
        Random random = new Random(seed);
        List<byte[]> values = new ArrayList<>();
        Map<Integer, byte[]> byId = new HashMap<>();
        long bytes = 0;
        for (int r = 0; r < rows.size(); r++) {
            int kind = rows.get(r);
            bytes += kind < 0 ? 0 : lengths.get(kind % lengths.size());
            if (bytes > 24L * KIB * KIB) {
                rows = rows.subList(0, r); // keep each try's memory bounded
                break;
            }
        }
        for (int kind : rows) {
            if (kind == -2) {
                values.add(null);
            } else if (kind == -1) {
                byte[] v = new byte[random.nextInt(13)];
                random.nextBytes(v);
                values.add(v);
            } else {
                values.add(byId.computeIfAbsent(kind, id -> longValue(id, lengths.get(id % lengths.size()))));
            }
        }
        // the model: which values get copied where
        BlockModel blocks = new BlockModel();
        Map<Integer, List<List<Long>>> locations = new HashMap<>(); // id -> places where a copy of it sits
        List<Set<List<Long>>> allowed = new ArrayList<>();
        long copied = 0;
        long referenced = 0;
        boolean shared = false;
        for (int i = 0; i < rows.size(); i++) {
            int kind = rows.get(i);
            if (kind < 0) {
                allowed.add(null);
                continue;
            }
            int length = values.get(i).length;
            referenced += length;
            List<List<Long>> earlier = locations.computeIfAbsent(kind, k -> new ArrayList<>());
            if (dedup && i >= dedupFrom && !earlier.isEmpty()) {
                allowed.add(new HashSet<>(earlier)); // any earlier copy of the same bytes
                shared = true;
                continue;
            }
            long[] at = blocks.place(length);
            copied += length;
            List<Long> place = List.of(at[0], at[1]);
            earlier.add(place);
            allowed.add(Set.of(place));
        }
        try (Arena arena = Arena.ofConfined()) {
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.BINARY);
            for (int i = 0; i < values.size(); i++) {
                if (dedup && i == dedupFrom) {
                    builder.withDedup(true); // enabling late indexes the rows already appended
                }
                builder.append(values.get(i));
            }
            if (dedup && dedupFrom >= values.size()) {
                builder.withDedup(true);
            }
            ViewColumn column = builder.build();
            String what = "lengths=" + lengths + " rows=" + rows + " dedup=" + dedup + " from " + dedupFrom;
            assertReadsBack(column, ViewKind.BINARY, values, true, what);
            assertEquals(blocks.buffers, bufferSizes(column), what + ": blocks");
            MemorySegment views = column.views();
            for (int i = 0; i < values.size(); i++) {
                if (allowed.get(i) != null) {
                    List<Long> at = List.of((long) views.get(ViewLayout.LAYOUT_LE_INT, 16L * i + 8),
                            (long) views.get(ViewLayout.LAYOUT_LE_INT, 16L * i + 12));
                    assertTrue(allowed.get(i).contains(at), what + ": row " + i + " at " + at + ", expected one of "
                            + allowed.get(i));
                }
            }
            assertEquals(referenced, column.referencedBytes(), what);
            if (shared) {
                assertTrue(column.referencedBytes() > copied, what + ": dedup shares bytes");
            } else {
                assertEquals(referenced, copied, what);
            }
            if (copied == 0) {
                assertEquals(0, column.bufferCount(), what + ": all values inline (or null): no buffer at all");
            }
        }
    }

    @Test
    void blocksStartAt8KiBAndDoubleTo2MiB() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8);
            String value = "x".repeat(4000);
            for (int i = 0; i < 1800; i++) {
                builder.append(value);
            }
            ViewColumn column = builder.build();
            List<Long> sizes = bufferSizes(column);
            List<Long> expected = new ArrayList<>();
            long total = 0;
            for (long size = 8 * KIB; total < 1800L * 4000; size = Math.min(2 * size, 2 * KIB * KIB)) {
                expected.add(size);
                total += size / 4000 * 4000; // whole values per block
            }
            assertEquals(8 * KIB, sizes.get(0));
            assertEquals(16 * KIB, sizes.get(1));
            assertEquals(2L * KIB * KIB, sizes.get(sizes.size() - 1));
            assertEquals(2L * KIB * KIB, sizes.get(sizes.size() - 2));
            assertEquals(expected, sizes);
        }
    }

    @Test
    void valueLargerThanTheNextBlockGetsItsOwn() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.BINARY);
            builder.append(new byte[13]); // block 0: 8 KiB, next block 16 KiB
            builder.append(new byte[20000]); // > 16 KiB: its own block of exactly 20000 bytes
            builder.append(new byte[100]); // still fits block 0
            builder.append(new byte[16 * KIB]); // does not fit block 0, not larger than 16 KiB: new 16 KiB block
            builder.append(new byte[16 * KIB + 1]); // not larger than the next size (32 KiB): a new 32 KiB block
            ViewColumn column = builder.build();
            assertEquals(List.of(8L * KIB, 20000L, 16L * KIB, 32L * KIB), bufferSizes(column));
            MemorySegment views = column.views();
            assertEquals(0, views.get(ViewLayout.LAYOUT_LE_INT, 8));
            assertEquals(1, views.get(ViewLayout.LAYOUT_LE_INT, 16 + 8));
            assertEquals(0, views.get(ViewLayout.LAYOUT_LE_INT, 32 + 8));
            assertEquals(13, views.get(ViewLayout.LAYOUT_LE_INT, 32 + 12));
            assertEquals(2, views.get(ViewLayout.LAYOUT_LE_INT, 48 + 8));
            assertEquals(3, views.get(ViewLayout.LAYOUT_LE_INT, 64 + 8));
        }
    }

    @Test
    void noBufferWhenEveryValueIsInline() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "", "abcdefghijkl", null, "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9");
            assertEquals(0, column.bufferCount());
            assertEquals(0, column.bufferBytes());
            assertEquals(0, column.referencedBytes());
            assertEquals(0, column.compact(arena).bufferCount());
            assertEquals(0, ViewColumns.ofStrings(arena).bufferCount());
        }
    }

    @Test
    void dedupSharesRepeatedLongValues() {
        try (Arena arena = Arena.ofConfined()) {
            String a = "a repeated long value";
            String b = "a repeated long value, but longer";
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8).withDedup(true);
            for (String s : new String[] {a, b, a, null, a, b, "short", "short"}) {
                builder.append(s);
            }
            ViewColumn column = builder.build();
            assertEquals(column.segment(0).address(), column.segment(2).address());
            assertEquals(column.segment(0).address(), column.segment(4).address());
            assertEquals(column.segment(1).address(), column.segment(5).address());
            assertEquals(3L * a.length() + 2L * b.length(), column.referencedBytes());
            assertEquals((long) a.length() + b.length(), distinctReferencedBytes(column));
            assertTrue(column.referencedBytes() > distinctReferencedBytes(column));
            // without dedup every value has its own copy
            ViewColumn plain = ViewColumns.ofStrings(arena, a, a);
            assertTrue(plain.segment(0).address() != plain.segment(1).address());
        }
    }

    // ------------------------------------------------------------------------------ builder: append variants

    /** Every way of appending a value (and a null) builds the same column. */
    @Test
    void appendVariantsAgree() {
        Gen.forAll(200, models(), Gen.seeds(),
                (model, seed) -> appendVariantsAgree(model, seed));
    }

    private void appendVariantsAgree(Model model, long seed) {
        Random random = new Random(seed);
        List<byte[]> values = model.values();
        try (Arena arena = Arena.ofConfined()) {
            ViewColumnBuilder builder = ViewColumns.builder(arena, model.kind());
            if (random.nextBoolean()) {
                builder.withExpectedRows(random.nextInt(2 * values.size() + 1));
            }
            if (random.nextBoolean()) {
                builder.withDedup(true);
            }
            for (byte[] v : values) {
                int way = random.nextInt(5);
                if (v == null) {
                    switch (way) {
                        case 0 -> builder.append((String) null);
                        case 1 -> builder.append((byte[]) null);
                        case 2 -> builder.append((MemorySegment) null);
                        default -> builder.appendNull();
                    }
                    continue;
                }
                switch (way) {
                    case 0 -> {
                        if (model.kind() == ViewKind.UTF8) {
                            builder.append(new String(v, StandardCharsets.UTF_8));
                        } else {
                            builder.append(v);
                        }
                    }
                    case 1 -> builder.append(v.clone());
                    case 2 -> {
                        int before = random.nextInt(5);
                        byte[] padded = new byte[before + v.length + random.nextInt(5)];
                        Arrays.fill(padded, (byte) 0x5A);
                        System.arraycopy(v, 0, padded, before, v.length);
                        builder.append(padded, before, v.length);
                    }
                    case 3 -> builder.append(MemorySegment.ofArray(v.clone()));
                    default -> {
                        MemorySegment off = arena.allocate(v.length + 3L, 1).asSlice(3, v.length);
                        MemorySegment.copy(MemorySegment.ofArray(v), 0, off, 0, v.length);
                        builder.append(off);
                    }
                }
            }
            assertEquals(values.size(), builder.size());
            assertReadsBack(builder.build(), model.kind(), values, true, model + " seed=" + seed);
            assertThrows(IllegalStateException.class, builder::build, "a spent builder refuses more calls");
            assertThrows(IllegalStateException.class, builder::appendNull);
        }
    }

    @Test
    void utf8BuilderValidatesUnlessTold() {
        byte[] bad = {'o', 'k', (byte) 0xE2, (byte) 0x82}; // truncated 3-byte sequence
        byte[] badLong = "a long value that ends badly \u00e9".getBytes(StandardCharsets.UTF_8);
        badLong = Arrays.copyOf(badLong, badLong.length - 1);
        byte[] surrogate = {(byte) 0xED, (byte) 0xA0, (byte) 0x80};
        byte[] overlong = {(byte) 0xC0, (byte) 0xAF};
        try (Arena arena = Arena.ofConfined()) {
            for (byte[] v : List.of(bad, badLong, surrogate, overlong)) {
                ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8);
                assertThrows(ViewFormatException.class, () -> builder.append(v));
                assertThrows(ViewFormatException.class, () -> builder.append(MemorySegment.ofArray(v)));
                assertEquals(0, builder.size(), "a rejected value is not appended");
                builder.append("fine");
                assertEquals("fine", builder.build().string(0));
                ViewColumn trusted = ViewColumns.builder(arena, ViewKind.UTF8).withUtf8Validation(false).append(v).build();
                assertArrayEquals(v, trusted.bytes(0));
                ViewColumn binary = ViewColumns.builder(arena, ViewKind.BINARY).append(v).build();
                assertArrayEquals(v, binary.bytes(0));
            }
        }
    }

    // ----------------------------------------------------------------------------------- builder: appendFrom

    @Test
    void appendFromSharesSourceBuffers() {
        Gen.forAll(150, models(), models(), TestData.shapes(), TestData.shapes(), Gen.lists(API.integers(0, 10_000), 0, 300), Gen.seeds(),
                (first, second, shapeA, shapeB, picks, seed) -> appendFromSharesSourceBuffers(first, second, shapeA, shapeB, picks, seed));
    }

    private void appendFromSharesSourceBuffers(Model first, Model second, Shape shapeA, Shape shapeB, List<Integer> picks, long seed) {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn a = TestData.anyColumn(arena, first.kind(), first.values(), shapeA, seed);
            ViewColumn b = TestData.anyColumn(arena, first.kind(),
                    second.kind() == first.kind() ? second.values() : first.values(), shapeB, ~seed);
            ViewColumnBuilder builder = ViewColumns.builder(arena, first.kind());
            List<byte[]> expected = new ArrayList<>();
            List<ViewColumn> sourceOf = new ArrayList<>();
            List<Integer> rowOf = new ArrayList<>();
            for (int pick : picks) {
                ViewColumn source = (pick & 1) == 0 ? a : b;
                if (source.size() == 0) {
                    continue;
                }
                int row = (pick >>> 1) % source.size();
                builder.appendFrom(source, row);
                expected.add(source.bytes(row));
                sourceOf.add(source);
                rowOf.add(row);
            }
            ViewColumn column = builder.build();
            String what = "appendFrom " + shapeA + "/" + shapeB + " seed=" + seed;
            assertReadsBack(column, first.kind(), expected, true, what);
            Set<MemorySegment> sources = bufferSet(a);
            sources.addAll(bufferSet(b));
            assertTrue(sources.containsAll(bufferSet(column)), what + ": a buffer that no source has");
            assertEquals(bufferSet(column).size(), column.bufferCount(), what + ": a buffer adopted twice");
            for (int r = 0; r < column.size(); r++) {
                assertSameBytes(column, r, sourceOf.get(r), rowOf.get(r), what);
            }
        }
    }

    @Test
    void appendFromBinaryIntoUtf8Validates() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn binary = ViewColumns.ofBytes(arena, "ok text".getBytes(StandardCharsets.UTF_8),
                    new byte[] {'a', (byte) 0xC3}, "valid long text, not inline".getBytes(StandardCharsets.UTF_8),
                    new byte[] {'l', 'o', 'n', 'g', ' ', 'b', 'u', 't', ' ', 'b', 'a', 'd', (byte) 0xFF});
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8);
            builder.appendFrom(binary, 0);
            builder.appendFrom(binary, 2);
            assertThrows(ViewFormatException.class, () -> builder.appendFrom(binary, 1));
            assertThrows(ViewFormatException.class, () -> builder.appendFrom(binary, 3));
            ViewColumn column = builder.build();
            assertEquals(2, column.size());
            assertEquals("valid long text, not inline", column.string(1));
        }
    }

    // --------------------------------------------------------------- allocators that do not zero their memory

    /** A slicing allocator over memory full of 0xFF: what the FFM API allows a SegmentAllocator to return. */
    private static SegmentAllocator dirtyAllocator(Arena arena, long bytes) {
        MemorySegment memory = arena.allocate(bytes, 16);
        memory.fill((byte) 0xFF);
        return SegmentAllocator.slicingAllocator(memory);
    }

    @Test
    void takeConcatCompactWithADirtyAllocator() {
        Gen.forAll(150, models(), TestData.shapes(), Gen.seeds(),
                (model, shape, seed) -> takeConcatCompactWithADirtyAllocator(model, shape, seed));
    }

    private void takeConcatCompactWithADirtyAllocator(Model model, Shape shape, long seed) {
        List<byte[]> values = model.values();
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.anyColumn(arena, model.kind(), values, shape, seed);
            long room = 64L * values.size() + 3 * column.referencedBytes() + 4096;
            String what = ModelChecks.describe(model, shape, seed) + " dirty allocator";
            int[] rows = TestData.unorderedSelection(values.size(), seed);
            List<byte[]> taken = new ArrayList<>();
            for (int row : rows) {
                taken.add(values.get(row));
            }
            assertReadsBack(column.take(dirtyAllocator(arena, room), rows, rows.length), model.kind(), taken, false,
                    what + " take");
            List<byte[]> twice = new ArrayList<>(values);
            twice.addAll(values);
            assertReadsBack(ViewColumns.concat(dirtyAllocator(arena, room), column, column), model.kind(), twice, false,
                    what + " concat");
            assertReadsBack(column.compact(dirtyAllocator(arena, room)), model.kind(), values, false, what + " compact");
        }
    }

    /** The builder copies whole views and bitmap words into its allocator's memory, so dirt does not matter. */
    @Test
    void builderWithADirtyAllocator() {
        Gen.forAll(100, models(), API.booleans(),
                (model, dedup) -> builderWithADirtyAllocator(model, dedup));
    }

    private void builderWithADirtyAllocator(Model model, boolean dedup) {
        List<byte[]> values = model.values();
        long bytes = 0;
        for (byte[] v : values) {
            bytes += v == null ? 0 : v.length;
        }
        try (Arena arena = Arena.ofConfined()) {
            ViewColumnBuilder builder = ViewColumns.builder(dirtyAllocator(arena, 64L * values.size() + 4 * bytes
                    + 64 * KIB), model.kind()).withDedup(dedup);
            values.forEach(builder::append);
            assertReadsBack(builder.build(), model.kind(), values, false, model + " dirty allocator, builder");
        }
    }

    @Test
    void takeWithADirtyAllocatorKeepsNullsNull() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "a", null);
            ViewColumn taken = column.take(dirtyAllocator(arena, 1024), new int[] {0, 1}, 2);
            assertEquals("a", taken.string(0));
            assertTrue(taken.isNull(1), "row 1 was null in the source");
            assertEquals(1, taken.nullCount());
        }
    }

    @Test
    void concatAndCompactWithADirtyAllocatorKeepNullsNull() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "a", null);
            ViewColumn concat = ViewColumns.concat(dirtyAllocator(arena, 1024), column);
            assertTrue(concat.isNull(1), "concat: row 1 was null in the source");
            ViewColumn compacted = column.compact(dirtyAllocator(arena, 1024));
            assertTrue(compacted.isNull(1), "compact: row 1 was null in the source");
        }
    }
}
