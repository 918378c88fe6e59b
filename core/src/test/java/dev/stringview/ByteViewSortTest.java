package dev.stringview;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ByteView#sort} against an on-heap model: a stable {@code Arrays.sort} of the values' indices by
 * {@link Arrays#compareUnsigned} of their bytes. Every position is checked by identity, so a value that lands in
 * the right order but out of array order among equals (a broken stability) fails too. Cases come from a
 * fixed-seed {@link Random}; seed, case and position are in every message.
 */
class ByteViewSortTest {
    private static final long SEED = 0x5EED_0419L;
    /** Lengths around the inline limit (12) and the 16-byte rounds, and longer ones. */
    private static final int[] LENGTHS = {0, 1, 11, 12, 13, 15, 16, 17, 31, 32, 33, 47, 48, 49, 100, 131};
    /** Bytes that keep keys close (few distinct) and sit on both sides of the signed/unsigned boundary. */
    private static final byte[] ALPHABET = {'a', 'b', 0x7F, (byte) 0x80, (byte) 0xFF, 0};
    private static final int[] SIZES = {0, 1, 2, 3, 7, 32, 33, 34, 100, 300, 2000};

    /**
     * A value near {@code base} (40..70 bytes every near value starts from): a prefix of it (values that are
     * prefixes of each other, every round border), it with one byte changed at any position (prefix, bytes 4..11,
     * 12..15, 16..31, later) to a byte of {@link #ALPHABET}, it extended, an edge length of its own, or any value
     * of {@link ByteViewTest#randomValue}.
     */
    private static byte[] nearValue(Random random, byte[] base) {
        return switch (random.nextInt(5)) {
            case 0 -> Arrays.copyOf(base, random.nextInt(base.length + 1));
            case 1 -> {
                byte[] value = Arrays.copyOf(base, LENGTHS[random.nextInt(LENGTHS.length)] + random.nextInt(3));
                if (value.length > 0) {
                    value[random.nextInt(value.length)] = ALPHABET[random.nextInt(ALPHABET.length)];
                }
                yield value;
            }
            case 2 -> {
                byte[] value = Arrays.copyOf(base, base.length + 1 + random.nextInt(40));
                for (int i = base.length; i < value.length; i++) {
                    value[i] = ALPHABET[random.nextInt(ALPHABET.length)];
                }
                yield value;
            }
            case 3 -> {
                byte[] value = new byte[LENGTHS[random.nextInt(LENGTHS.length)]];
                for (int i = 0; i < value.length; i++) {
                    value[i] = ALPHABET[random.nextInt(ALPHABET.length)];
                }
                yield value;
            }
            default -> ByteViewTest.randomValue(random);
        };
    }

    /**
     * {@code n} values: with {@code shared} out of 8 near one base (all equal for 40+ bytes), the rest any value;
     * one in five a duplicate of an earlier one.
     */
    private static byte[][] values(Random random, int n, int shared) {
        byte[] base = new byte[40 + random.nextInt(31)];
        for (int i = 0; i < base.length; i++) {
            base[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        byte[][] values = new byte[n][];
        for (int i = 0; i < n; i++) {
            if (i > 0 && random.nextInt(5) == 0) {
                values[i] = values[random.nextInt(i)].clone();
            } else {
                values[i] = random.nextInt(8) < shared ? nearValue(random, base) : ByteViewTest.randomValue(random);
            }
        }
        return values;
    }

    /**
     * The values as {@code ByteView}s: a third as rows of one column of them all (in a shape with several or many
     * buffers), the rest made in one of {@link ByteViewTest#make}'s ways (copies, wraps, stream reads into native
     * and heap memory, slices of slices, ...).
     */
    private static ByteView[] views(Random random, byte[][] values, Arena arena) throws IOException {
        TestData.Shape shape = random.nextBoolean() ? TestData.Shape.SCATTERED : TestData.Shape.CONCAT;
        ViewColumn column = TestData.column(arena, ViewKind.BINARY, Arrays.asList(values), shape, random.nextLong());
        ByteView[] views = new ByteView[values.length];
        for (int i = 0; i < values.length; i++) {
            views[i] = random.nextInt(3) == 0 ? column.view(i)
                    : ByteViewTest.make(values[i], random.nextInt(ByteViewTest.WAYS), arena);
        }
        return views;
    }

    /**
     * Sorts {@code views[from, to)} and checks every position by identity against a stable sort of the model's
     * indices; positions outside the range must hold what they held.
     */
    private static void assertSorts(ByteView[] views, byte[][] values, int from, int to, String where) {
        ByteView[] before = views.clone();
        Integer[] order = new Integer[to - from];
        for (int i = 0; i < order.length; i++) {
            order[i] = from + i;
        }
        Arrays.sort(order, (x, y) -> Arrays.compareUnsigned(values[x], values[y])); // stable (a merge sort)
        if (from == 0 && to == views.length) {
            ByteView.sort(views);
        } else {
            ByteView.sort(views, from, to);
        }
        for (int i = 0; i < views.length; i++) {
            ByteView expected = i < from || i >= to ? before[i] : before[order[i - from]];
            if (views[i] != expected) {
                int model = i < from || i >= to ? i : order[i - from];
                assertSame(expected, views[i], where + " from=" + from + " to=" + to + " position=" + i
                        + " expectedIndex=" + model + " expected=" + Arrays.toString(values[model]) + " actual="
                        + Arrays.toString(views[i].toByteArray()));
            }
        }
    }

    @Test
    void sortsLikeTheModelAndKeepsEqualValuesInArrayOrder() throws IOException {
        Random random = new Random(SEED);
        int c = 0;
        for (int n : SIZES) {
            for (int shared : new int[] {0, 1, 4, 8}) { // 1 in 8 near the base: few ties, refined in sorted order
                for (int trial = 0; trial < (n > 300 ? 2 : 6); trial++, c++) {
                    try (Arena arena = Arena.ofConfined()) {
                        byte[][] values = values(random, n, shared);
                        ByteView[] views = views(random, values, arena);
                        assertSorts(views, values, 0, n, "seed=" + SEED + " case=" + c + " n=" + n + " shared="
                                + shared);
                    }
                }
            }
        }
    }

    @Test
    void sortsSubrangesAndLeavesTheRestAlone() throws IOException {
        Random random = new Random(SEED + 1);
        for (int c = 0; c < 200; c++) {
            try (Arena arena = Arena.ofConfined()) {
                int n = random.nextInt(120);
                byte[][] values = values(random, n, random.nextInt(9));
                ByteView[] views = views(random, values, arena);
                int from = random.nextInt(n + 1);
                int to = from + random.nextInt(n - from + 1);
                assertSorts(views, values, from, to, "seed=" + (SEED + 1) + " case=" + c + " n=" + n);
            }
        }
    }

    /** All keys equal for 48+ bytes: every round border is crossed by a run holding all values. */
    @Test
    void valuesEqualForManyRoundsThenPrefixesOfEachOther() throws IOException {
        Random random = new Random(SEED + 2);
        byte[] base = new byte[130];
        for (int i = 0; i < base.length; i++) {
            base[i] = (byte) (0x80 + (i % 3)); // >= 0x80 in every position
        }
        List<byte[]> list = new ArrayList<>();
        for (int length = 0; length <= base.length; length++) {
            list.add(Arrays.copyOf(base, length)); // every prefix, each twice
            list.add(Arrays.copyOf(base, length));
        }
        for (int at = 40; at < base.length; at += 7) {
            byte[] value = base.clone();
            value[at] = 0x7F; // differs late, below the base's byte there
            list.add(value);
        }
        Collections.shuffle(list, random);
        byte[][] values = list.toArray(new byte[0][]);
        try (Arena arena = Arena.ofConfined()) {
            assertSorts(views(random, values, arena), values, 0, values.length, "seed=" + (SEED + 2));
        }
    }

    @Test
    void nullsAreRejectedNamingTheIndexAndTheArrayIsUnchanged() {
        ByteView[] views = {ByteView.copyOf("zeta-zeta-zeta"), ByteView.copyOf("b"), null, ByteView.copyOf("a"),
            ByteView.EMPTY, null};
        ByteView[] before = views.clone();
        NullPointerException all = assertThrows(NullPointerException.class, () -> ByteView.sort(views));
        assertEquals("null value in the array to sort: index=2 from=0 to=6", all.getMessage());
        assertArrayEqualsByIdentity(before, views);
        NullPointerException range = assertThrows(NullPointerException.class, () -> ByteView.sort(views, 3, 6));
        assertEquals("null value in the array to sort: index=5 from=3 to=6", range.getMessage());
        assertArrayEqualsByIdentity(before, views);
        NullPointerException one = assertThrows(NullPointerException.class, () -> ByteView.sort(views, 2, 3));
        assertTrue(one.getMessage().contains("index=2"), one.getMessage());
        ByteView.sort(views, 0, 2); // nulls outside the range are not looked at
        assertSame(before[1], views[0]);
        assertSame(before[0], views[1]);
        assertThrows(IndexOutOfBoundsException.class, () -> ByteView.sort(views, 4, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> ByteView.sort(views, 0, 7));
    }

    /**
     * Long values of a closed arena throw when their bytes are read, before anything moves: the array is left as
     * it was. Inline values of that arena hold no memory and still sort.
     */
    @Test
    void aClosedArenaThrowsAndLeavesTheArrayUnchanged() throws IOException {
        Random random = new Random(SEED + 3);
        byte[][] values = values(random, 200, 4);
        Arena arena = Arena.ofConfined();
        ByteView[] views = views(random, values, arena);
        ByteView[] inline = Arrays.stream(views).filter(ByteView::isInline).toArray(ByteView[]::new);
        byte[][] inlineValues = Arrays.stream(inline).map(ByteView::toByteArray).toArray(byte[][]::new);
        long nativeValues = Arrays.stream(views).filter(v -> !v.isInline() && v.segment().isNative()).count();
        assertTrue(nativeValues > 0, "no value in native memory: seed=" + (SEED + 3));
        arena.close();
        ByteView[] before = views.clone();
        assertThrows(IllegalStateException.class, () -> ByteView.sort(views));
        assertArrayEqualsByIdentity(before, views);
        assertSorts(inline, inlineValues, 0, inline.length, "seed=" + (SEED + 3) + " inline of a closed arena");
    }

    private static void assertArrayEqualsByIdentity(ByteView[] expected, ByteView[] actual) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            assertSame(expected[i], actual[i], "index=" + i);
        }
    }
}
