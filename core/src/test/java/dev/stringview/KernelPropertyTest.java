package dev.stringview;

import static dev.stringview.Gen.API;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sageserpent.americium.java.Trials;
import dev.stringview.TestData.Model;
import dev.stringview.TestData.Probe;
import dev.stringview.TestData.Shape;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@link ViewKernels}: column-versus-column comparison, hashing, argsort and distinct counting, against the model. */
class KernelPropertyTest {
    /**
     * The properties run on the vector loops where this JVM has them (the default surefire run) and on the scalar
     * loops where it has not (the scalar-kernels run, core/pom.xml): the kernels take the vector loops only after
     * the explicit warm-up.
     */
    @org.junit.jupiter.api.BeforeAll
    static void warmUpVectorLoops() {
        ViewKernels.warmUp();
    }


    static Trials<Model> models() {
        return API.alternate(TestData.anyModels(), TestData.sharedPrefixModels(), TestData.deepSharedModels());
    }

    static Trials<Probe> probes() {
        return TestData.probes();
    }

    static Trials<List<Probe>> probeLists() {
        return Gen.lists(Gen.orNull(9, TestData.probes(), 1), 1, 8);
    }

    /** Unsigned bytewise order, nulls last: the model of argsort (List.sort is stable). */
    static final Comparator<byte[]> NULLS_LAST = Comparator.nullsLast(Arrays::compareUnsigned);

    // --------------------------------------------------------------------------------- column vs column

    /**
     * A right-hand model row by row from the left one: the same value (as a copy), an altered copy (probe),
     * a different row's value, or null; so equal, near-equal and unrelated pairs all occur.
     */
    static List<byte[]> partner(List<byte[]> left, List<Probe> probes, long seed) {
        Random random = new Random(seed);
        List<byte[]> right = new ArrayList<>();
        for (int i = 0; i < left.size(); i++) {
            byte[] v = left.get(i);
            Probe probe = probes.get(random.nextInt(probes.size()));
            int choice = random.nextInt(8);
            if (choice == 0 || probe == null) {
                right.add(null);
            } else if (choice <= 2 || v == null) {
                right.add(v == null ? probe.resolve(left) : v.clone());
            } else if (choice <= 5) {
                right.add(probe.resolve(Arrays.asList(v)));
            } else {
                right.add(probe.resolve(left));
            }
        }
        return right;
    }

    @Test
    void compareColumnsMatchesModel() {
        Gen.forAll(600, models(), TestData.shapes(), TestData.shapes(), probeLists(), Gen.seeds(),
                (model, leftShape, rightShape, probes, seed) -> compareColumnsMatchesModel(model, leftShape, rightShape, probes, seed));
    }

    private void compareColumnsMatchesModel(Model model, Shape leftShape, Shape rightShape, List<Probe> probes, long seed) {
        if (leftShape == rightShape) {
            rightShape = Shape.values()[(rightShape.ordinal() + 1 + (int) Math.floorMod(seed, 7)) % Shape.values().length];
        }
        List<byte[]> left = model.values();
        ViewKind kind = model.kind();
        List<byte[]> right = partner(left, probes, seed);
        if (kind == ViewKind.UTF8 && right.stream().anyMatch(v -> v != null && !Utf8.isValid(v))) {
            kind = ViewKind.BINARY; // altered constants need not be text
        }
        int size = left.size();
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn l = TestData.anyColumn(arena, kind, left, leftShape, seed);
            ViewColumn r = TestData.anyColumn(arena, kind, right, rightShape, ~seed);
            List<int[]> selections = List.of(IntStream.range(0, size).toArray(), new int[0],
                    TestData.selection(size, seed), TestData.unorderedSelection(size, seed + 1));
            for (Comparison c : Comparison.values()) {
                String what = c + " left=" + leftShape + " right=" + rightShape + " seed=" + seed;
                int[] want = IntStream.range(0, size).filter(i -> left.get(i) != null && right.get(i) != null
                        && c.accepts(Arrays.compareUnsigned(left.get(i), right.get(i)))).toArray();
                int[] out = new int[size];
                int n = ViewKernels.compare(c, l, r, out);
                assertArrayEquals(want, Arrays.copyOf(out, n), () -> what + " all rows; pairs " + pairs(left, right));
                // swapping the sides mirrors the operator
                int[] self = new int[size];
                n = ViewKernels.compare(c, l, l, self);
                assertArrayEquals(IntStream.range(0, size).filter(i -> left.get(i) != null && c.accepts(0)).toArray(),
                        Arrays.copyOf(self, n), () -> what + " column against itself");
                int[] mirrored = new int[size];
                n = ViewKernels.compare(mirror(c), r, l, mirrored);
                assertArrayEquals(want, Arrays.copyOf(mirrored, n), () -> what + " mirrored");
                for (int[] selection : selections) {
                    int[] wantSel = Arrays.stream(selection).filter(i -> left.get(i) != null && right.get(i) != null
                            && c.accepts(Arrays.compareUnsigned(left.get(i), right.get(i)))).toArray();
                    int[] outSel = new int[selection.length];
                    n = ViewKernels.compare(c, l, r, selection, selection.length, outSel);
                    assertArrayEquals(wantSel, Arrays.copyOf(outSel, n),
                            () -> what + " selection " + Arrays.toString(selection) + "; pairs " + pairs(left, right));
                }
            }
        }
    }

    /**
     * Column-vs-column order decides 64 rows (or selection entries) per bit word and resolves ties after each
     * word: columns of 100..700 rows whose values nearly all share a long start (so ties, with nulls among them,
     * fill whole words and cross word borders), against partners altered from them, for all rows and every kind
     * of selection.
     */
    @Test
    void compareColumnsOverManyWordsOfTies() {
        Gen.forAll(12, TestData.deepSharedModels(100, 700), TestData.shapes(), TestData.shapes(), probeLists(),
                Gen.seeds(), (model, leftShape, rightShape, probes, seed) ->
                        compareColumnsMatchesModel(model, leftShape, rightShape, probes, seed));
    }

    static Comparison mirror(Comparison c) {
        return switch (c) {
            case EQUAL, NOT_EQUAL -> c;
            case LESS_THAN -> Comparison.GREATER_THAN;
            case LESS_THAN_OR_EQUAL -> Comparison.GREATER_THAN_OR_EQUAL;
            case GREATER_THAN -> Comparison.LESS_THAN;
            case GREATER_THAN_OR_EQUAL -> Comparison.LESS_THAN_OR_EQUAL;
        };
    }

    private static String pairs(List<byte[]> left, List<byte[]> right) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < left.size(); i++) {
            sb.append(i).append(": ").append(ModelChecks.show(left.get(i))).append(" vs ")
                    .append(ModelChecks.show(right.get(i))).append("; ");
        }
        return sb.toString();
    }

    @Test
    void compareColumnsRejectsDifferentSizes() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn a = ViewColumns.ofStrings(arena, "a", "b");
            ViewColumn b = ViewColumns.ofStrings(arena, "a");
            assertThrows(IllegalArgumentException.class, () -> ViewKernels.compare(Comparison.EQUAL, a, b, new int[2]));
            assertThrows(IllegalArgumentException.class,
                    () -> ViewKernels.compare(Comparison.EQUAL, a, a, new int[1]));
            assertThrows(IndexOutOfBoundsException.class,
                    () -> ViewKernels.compare(Comparison.EQUAL, a, a, new int[] {2}, 1, new int[1]));
        }
    }

    @Test
    void compareColumnsAtTheLayoutEdges() {
        String[] left = {"abcdefghijkl", "abcdefghijklm", "ab", "\u00e9", "abcdXfghijklmnop", "abcd", null, "", "x"};
        String[] right = {"abcdefghijklm", "abcdefghijkl", "ab\0", "z", "abcdYfghijklmnop", "abcd\0\0\0\0\0\0\0\0\0", "x", "", null};
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn l = ViewColumns.ofStrings(arena, left);
            ViewColumn r = ViewColumns.ofStrings(arena, right);
            int[] out = new int[left.length];
            int n = ViewKernels.compare(Comparison.LESS_THAN, l, r, out);
            assertArrayEquals(new int[] {0, 2, 4, 5}, Arrays.copyOf(out, n));
            n = ViewKernels.compare(Comparison.GREATER_THAN, l, r, out);
            assertArrayEquals(new int[] {1, 3}, Arrays.copyOf(out, n));
            n = ViewKernels.compare(Comparison.EQUAL, l, r, out);
            assertArrayEquals(new int[] {7}, Arrays.copyOf(out, n));
            n = ViewKernels.compare(Comparison.NOT_EQUAL, l, r, out);
            assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5}, Arrays.copyOf(out, n));
        }
    }

    // ----------------------------------------------------------------------------------------------- hash

    @Test
    void equalBytesHashEquallyAcrossShapes() {
        Gen.forAll(600, models(), TestData.shapes(), TestData.shapes(), Gen.seeds(),
                (model, shapeA, shapeB, seed) -> equalBytesHashEquallyAcrossShapes(model, shapeA, shapeB, seed));
    }

    private void equalBytesHashEquallyAcrossShapes(Model model, Shape shapeA, Shape shapeB, long seed) {
        List<byte[]> values = model.values();
        int size = values.size();
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn a = TestData.anyColumn(arena, model.kind(), values, shapeA, seed);
            ViewColumn b = TestData.anyColumn(arena, model.kind(), values, shapeB, ~seed);
            // the same values again, reversed, as another column
            List<byte[]> reversed = new ArrayList<>(values);
            java.util.Collections.reverse(reversed);
            ViewColumn c = TestData.anyColumn(arena, model.kind(), reversed, shapeB, seed + 1);
            long[] ha = new long[size + 1];
            long[] hb = new long[size];
            ha[size] = 12345;
            ViewKernels.hash(a, ha);
            ViewKernels.hash(b, hb);
            assertEquals(12345, ha[size], "hash wrote past the rows");
            Map<ByteBuffer, Long> byValue = new HashMap<>();
            for (int row = 0; row < size; row++) {
                byte[] v = values.get(row);
                String what = "row " + row + " " + ModelChecks.show(v) + " shapes " + shapeA + "/" + shapeB;
                assertEquals(a.hash(row), ha[row], what + ": ViewKernels.hash vs ViewColumn.hash");
                assertEquals(b.hash(row), hb[row], what);
                if (v == null) {
                    assertEquals(0, ha[row], what + ": null hashes to 0");
                    assertEquals(0, hb[row], what + ": null hashes to 0");
                    continue;
                }
                assertEquals(ha[row], hb[row], what + ": same bytes, other shape");
                assertEquals(ha[row], c.hash(size - 1 - row), what + ": same bytes, other column");
                Long earlier = byValue.putIfAbsent(ByteBuffer.wrap(v), ha[row]);
                if (earlier != null) {
                    assertEquals(earlier.longValue(), ha[row], what + ": same bytes, other row");
                }
            }
        }
    }

    @Test
    void hashOfCommonValuesDiffers() {
        // Distinct hashes are not promised, but a hash that collided on these would make hash tables degenerate.
        // (The empty value hashes to 0 like null rows do; the API allows that, so it is not asserted either way.)
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "", "\0", "a", "a\0", "abcdefghijkl", "abcdefghijklm",
                    "abcdefghijkl\0", "abcdefghijklmn", null);
            Set<Long> hashes = new HashSet<>();
            for (int row = 0; row < column.size() - 1; row++) {
                hashes.add(column.hash(row));
            }
            assertEquals(column.size() - 1, hashes.size());
            assertEquals(0, column.hash(column.size() - 1));
        }
    }

    // -------------------------------------------------------------------------------------------- argsort

    @Test
    void argsortIsTheStableSortNullsLast() {
        Gen.forAll(1000, models(), TestData.shapes(), Gen.seeds(),
                (model, shape, seed) -> argsortIsTheStableSortNullsLast(model, shape, seed));
    }

    private void argsortIsTheStableSortNullsLast(Model model, Shape shape, long seed) {
        List<byte[]> values = model.values();
        int size = values.size();
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.anyColumn(arena, model.kind(), values, shape, seed);
            int[] order = ViewKernels.argsort(column);
            String what = ModelChecks.describe(model, shape, seed) + " order=" + Arrays.toString(order);
            assertEquals(size, order.length, what);
            // a permutation
            boolean[] seen = new boolean[size];
            for (int row : order) {
                assertEquals(false, row < 0 || row >= size || seen[row], () -> what + ": not a permutation");
                seen[row] = true;
            }
            // sorted, stable, nulls last
            for (int i = 1; i < size; i++) {
                byte[] prev = values.get(order[i - 1]);
                byte[] cur = values.get(order[i]);
                int cmp = NULLS_LAST.compare(prev, cur);
                int at = i;
                assertEquals(true, cmp < 0 || (cmp == 0 && order[i - 1] < order[i]),
                        () -> what + ": position " + at + " " + ModelChecks.show(prev) + " then " + ModelChecks.show(cur));
            }
            // hence exactly the model's stable sort
            Integer[] expected = IntStream.range(0, size).boxed().toArray(Integer[]::new);
            Arrays.sort(expected, (x, y) -> NULLS_LAST.compare(values.get(x), values.get(y)));
            assertArrayEquals(Arrays.stream(expected).mapToInt(Integer::intValue).toArray(), order, what);
        }
    }

    /**
     * {@code argsortTopK(column, k)} is the first {@code min(k, size)} entries of the model's stable sort, nulls
     * last, for k at the edges (0, 1, the non-null count and one either side of it, the size and past it) and at
     * random; the shared-prefix models put k inside long runs of equal prefixes and equal chunks.
     */
    @Test
    void argsortTopKIsTheStartOfTheStableSort() {
        Gen.forAll(300, models(), TestData.shapes(), API.integers(0, 400), Gen.seeds(),
                (model, shape, randomK, seed) -> argsortTopKIsTheStartOfTheStableSort(model, shape, randomK, seed));
    }

    private void argsortTopKIsTheStartOfTheStableSort(Model model, Shape shape, int randomK, long seed) {
        List<byte[]> values = model.values();
        int size = values.size();
        Integer[] boxed = IntStream.range(0, size).boxed().toArray(Integer[]::new);
        Arrays.sort(boxed, (x, y) -> NULLS_LAST.compare(values.get(x), values.get(y)));
        int[] expected = Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();
        int nonNull = (int) values.stream().filter(v -> v != null).count();
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.anyColumn(arena, model.kind(), values, shape, seed);
            for (int k : new int[] {0, 1, 2, nonNull - 1, nonNull, nonNull + 1, size, size + 3, randomK,
                size / 2}) {
                if (k < 0) {
                    continue;
                }
                int[] top = ViewKernels.argsortTopK(column, k);
                assertArrayEquals(Arrays.copyOf(expected, Math.min(k, size)), top,
                        ModelChecks.describe(model, shape, seed) + " k=" + k);
            }
        }
    }

    @Test
    void argsortTopKRejectsNegativeK() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.column(arena, ViewKind.UTF8, List.<byte[]>of("a".getBytes(StandardCharsets.UTF_8)), Shape.BUILDER, 0);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ViewKernels.argsortTopK(column, -1));
            assertEquals("k must not be negative: k=-1 rows=1", e.getMessage());
        }
    }

    @Test
    void argsortLongRunsOfEqualPrefixes() {
        // More than 16 rows share each prefix, so the merge sort (not only the insertion sort) runs.
        Random random = new Random(7);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            int choice = random.nextInt(10);
            values.add(choice == 0 ? null
                    : ("abc" + (choice < 5 ? "" : "d") + "x".repeat(random.nextInt(14)) + (char) ('a' + random.nextInt(3)))
                            .getBytes(StandardCharsets.UTF_8));
        }
        for (Shape shape : Shape.values()) {
            try (Arena arena = Arena.ofConfined()) {
                ViewColumn column = TestData.column(arena, ViewKind.UTF8, values, shape, 3);
                Integer[] expected = IntStream.range(0, values.size()).boxed().toArray(Integer[]::new);
                Arrays.sort(expected, (x, y) -> NULLS_LAST.compare(values.get(x), values.get(y)));
                assertArrayEquals(Arrays.stream(expected).mapToInt(Integer::intValue).toArray(),
                        ViewKernels.argsort(column), shape.toString());
            }
        }
    }

    // -------------------------------------------------------------------------------------- distinctCount

    @Test
    void distinctCountMatchesHashSet() {
        Gen.forAll(1000, models(), TestData.shapes(), Gen.seeds(),
                (model, shape, seed) -> distinctCountMatchesHashSet(model, shape, seed));
    }

    private void distinctCountMatchesHashSet(Model model, Shape shape, long seed) {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.anyColumn(arena, model.kind(), model.values(), shape, seed);
            Set<ByteBuffer> distinct = new HashSet<>();
            for (byte[] v : model.values()) {
                if (v != null) {
                    distinct.add(ByteBuffer.wrap(v));
                }
            }
            assertEquals(distinct.size(), ViewKernels.distinctCount(column), ModelChecks.describe(model, shape, seed));
        }
    }

    @Test
    void distinctCountManyRows() {
        Random random = new Random(11);
        List<byte[]> values = new ArrayList<>();
        Set<ByteBuffer> distinct = new HashSet<>();
        for (int i = 0; i < 5000; i++) {
            byte[] v = random.nextInt(20) == 0 ? null
                    : ("value-" + random.nextInt(random.nextBoolean() ? 50 : 3000)).getBytes(StandardCharsets.UTF_8);
            values.add(v);
            if (v != null) {
                distinct.add(ByteBuffer.wrap(v));
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            for (Shape shape : Shape.values()) {
                assertEquals(distinct.size(), ViewKernels.distinctCount(TestData.column(arena, ViewKind.UTF8, values,
                        shape, 5)), shape.toString());
            }
            assertEquals(0, ViewKernels.distinctCount(ViewColumns.ofStrings(arena)));
            assertEquals(0, ViewKernels.distinctCount(ViewColumns.ofStrings(arena, null, null)));
            assertEquals(1, ViewKernels.distinctCount(ViewColumns.ofStrings(arena, "", null, "")));
        }
    }
}
