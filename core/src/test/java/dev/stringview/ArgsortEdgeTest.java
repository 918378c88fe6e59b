package dev.stringview;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.stringview.TestData.Shape;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link ViewKernels#argsort} and {@link ViewKernels#argsortTopK} at the edges of the radix sort, against the
 * model (a stable sort by {@code Arrays.compareUnsigned}, nulls last), in every column shape: values equal through
 * the 16 bytes of a sorting round and beyond, lengths at the round's edges, zero bytes that only the length tells
 * apart from padding, bytes {@code >= 0x80}, all-equal columns, few and many tied rows (the two ways a refinement
 * round reads its rows), and k = 0, 1, the non-null count and the size. Fixed seeds; columns of a few thousand
 * rows so that the radix passes, not only the insertion sort for short ranges, run.
 */
class ArgsortEdgeTest {
    /** Bytes that matter to unsigned order and to zero padding. */
    private static final byte[] ALPHABET = {0x00, 0x01, 'a', 'b', (byte) 0x7F, (byte) 0x80, (byte) 0xC3,
        (byte) 0xFF};
    private static final int[] EDGE_LENGTHS = {0, 1, 4, 8, 11, 12, 13, 15, 16, 17, 24, 31, 32, 33, 48, 49};

    @Test
    void valuesEqualThroughSixteenBytesAndMore() {
        Random random = new Random(15);
        byte[] stem = bytes(random, 64);
        stem[3] = (byte) 0x80; // in the view's prefix
        stem[9] = (byte) 0xFF;
        for (int round = 0; round < 4; round++) {
            List<byte[]> values = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                int choice = random.nextInt(20);
                if (choice == 0) {
                    values.add(null);
                } else if (choice < 4) { // a stem cut at an edge length: prefixes of each other
                    values.add(Arrays.copyOf(stem, EDGE_LENGTHS[random.nextInt(EDGE_LENGTHS.length)]));
                } else { // the stem's first 12..56 bytes, then a short tail over the alphabet
                    byte[] v = Arrays.copyOf(stem, 12 + random.nextInt(45) + random.nextInt(4));
                    int tailFrom = v.length - random.nextInt(Math.min(4, v.length) + 1);
                    for (int j = tailFrom; j < v.length; j++) {
                        v[j] = ALPHABET[random.nextInt(ALPHABET.length)];
                    }
                    values.add(v);
                }
            }
            checkEveryShape(values, round);
        }
    }

    @Test
    void zeroBytesAreToldFromPaddingByLength() {
        // All-zero values of every length up to 50, three of each, shuffled: only the lengths order them.
        List<byte[]> values = new ArrayList<>();
        for (int copy = 0; copy < 3; copy++) {
            for (int length = 0; length <= 50; length++) {
                values.add(new byte[length]);
                byte[] high = new byte[length];
                Arrays.fill(high, (byte) 0xFF);
                values.add(high);
            }
        }
        values.add(null);
        Collections.shuffle(values, new Random(3));
        checkEveryShape(values, 3);
    }

    @Test
    void allEqualColumnsKeepRowOrder() {
        for (int length : EDGE_LENGTHS) {
            byte[] value = new byte[length];
            Arrays.fill(value, (byte) 0xC3);
            List<byte[]> values = new ArrayList<>(Collections.nCopies(700, value));
            checkEveryShape(values, length);
            for (int i = 0; i < values.size(); i += 7) {
                values.set(i, null);
            }
            checkEveryShape(values, length);
        }
    }

    @Test
    void fewAndManyRowsTiedPastTheFirstRound() {
        // A refinement round reads its rows in sorted order when few rows are tied, in row order when many are:
        // 1% and 60% of the rows share a 40-byte start, the rest are random.
        Random random = new Random(16);
        byte[] stem = bytes(random, 40);
        for (int tiedPercent : new int[] {1, 60, 100}) {
            List<byte[]> values = new ArrayList<>();
            for (int i = 0; i < 4000; i++) {
                if (random.nextInt(100) < tiedPercent) {
                    byte[] v = Arrays.copyOf(stem, 33 + random.nextInt(30));
                    for (int j = 38; j < v.length; j++) {
                        v[j] = ALPHABET[random.nextInt(ALPHABET.length)];
                    }
                    values.add(v);
                } else {
                    values.add(random.nextInt(50) == 0 ? null : bytes(random, random.nextInt(40)));
                }
            }
            checkEveryShape(values, tiedPercent);
        }
    }

    @Test
    void emptyAndAllNullColumns() {
        checkEveryShape(List.of(), 0);
        checkEveryShape(new ArrayList<>(Collections.nCopies(100, (byte[]) null)), 1);
    }

    private static byte[] bytes(Random random, int length) {
        byte[] v = new byte[length];
        for (int i = 0; i < length; i++) {
            v[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return v;
    }

    /** argsort and top-k at k = 0, 1, 2, the non-null count and one either side, half and the size. */
    private static void checkEveryShape(List<byte[]> values, long seed) {
        int size = values.size();
        Integer[] boxed = IntStream.range(0, size).boxed().toArray(Integer[]::new);
        Arrays.sort(boxed, (x, y) -> KernelPropertyTest.NULLS_LAST.compare(values.get(x), values.get(y)));
        int[] expected = Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();
        int nonNull = (int) values.stream().filter(v -> v != null).count();
        for (Shape shape : Shape.values()) {
            try (Arena arena = Arena.ofConfined()) {
                ViewColumn column = TestData.column(arena, ViewKind.BINARY, values, shape, seed);
                String what = "shape=" + shape + " seed=" + seed + " rows=" + size + " nonNull=" + nonNull;
                assertArrayEquals(expected, ViewKernels.argsort(column), what);
                for (int k : new int[] {0, 1, 2, nonNull - 1, nonNull, nonNull + 1, size / 2, size}) {
                    if (k >= 0) {
                        assertArrayEquals(Arrays.copyOf(expected, Math.min(k, size)),
                                ViewKernels.argsortTopK(column, k), what + " k=" + k);
                    }
                }
            }
        }
    }
}
