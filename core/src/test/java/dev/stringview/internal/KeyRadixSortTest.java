package dev.stringview.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyRadixSort} against a plain model: {@code Arrays.sort} of boxed positions by (high, low, tail byte 4)
 * unsigned, which is stable, over random keys whose bytes come from a few values (so ranges share bytes, skip
 * positions and split late), random ranges and limits. Fixed seeds.
 */
class KeyRadixSortTest {
    private static final long[] BYTE_VALUES = {0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF};

    @Test
    void sortsRangesStablyUpToTheLimit() {
        Random random = new Random(17);
        for (int trial = 0; trial < 300; trial++) {
            int n = random.nextInt(trial % 10 == 0 ? 5000 : 300);
            int distinctBytes = 1 + random.nextInt(BYTE_VALUES.length);
            int sharedBytes = random.nextInt(18); // the first key bytes every key shares
            long[] high = new long[n];
            long[] low = new long[n];
            long[] tail = new long[n];
            byte[][] model = new byte[n][];
            for (int i = 0; i < n; i++) {
                byte[] key = new byte[KeyRadixSort.KEY_BYTES];
                for (int b = 0; b < key.length; b++) {
                    key[b] = (byte) (b < sharedBytes ? 0x80 : BYTE_VALUES[random.nextInt(distinctBytes)]);
                }
                for (int b = 0; b < 8; b++) {
                    high[i] = (high[i] << 8) | (key[b] & 0xFF);
                    low[i] = (low[i] << 8) | (key[b + 8] & 0xFF);
                }
                tail[i] = ((long) (key[16] & 0xFF) << 32) | i; // the payload is the position it started at
                model[i] = key;
            }
            int from = n == 0 ? 0 : random.nextInt(n);
            int to = from + (n == from ? 0 : random.nextInt(n - from + 1));
            int limit = random.nextInt(4) == 0 ? from + random.nextInt(to - from + 1) : to;
            int end = new KeyRadixSort(high, low, tail).sort(from, to, limit);

            Integer[] expected = IntStream.range(from, to).boxed().toArray(Integer[]::new);
            Arrays.sort(expected, Comparator.comparing((Integer i) -> model[i], Arrays::compareUnsigned));
            String what = "trial=" + trial + " n=" + n + " from=" + from + " to=" + to + " limit=" + limit
                    + " sharedBytes=" + sharedBytes + " distinctBytes=" + distinctBytes;
            // Sorted through the whole run of keys equal to the one at limit - 1, and that run before the end.
            int sortedTo = limit;
            while (sortedTo > from && sortedTo < to && Arrays.equals(model[expected[sortedTo - from]],
                    model[expected[limit - 1 - from]])) {
                sortedTo++;
            }
            assertEquals(true, end >= sortedTo && end <= to, what + " end=" + end + " sortedTo=" + sortedTo);
            int[] payloads = new int[sortedTo - from];
            for (int i = from; i < sortedTo; i++) {
                payloads[i - from] = (int) tail[i];
                byte[] key = model[(int) tail[i]];
                assertEquals(key[16] & 0xFF, (int) (tail[i] >>> 32) & 0xFF, what);
            }
            assertArrayEquals(Arrays.stream(expected).limit(sortedTo - from).mapToInt(Integer::intValue).toArray(),
                    payloads, what);
            // Positions outside the range are untouched.
            for (int i = 0; i < from; i++) {
                assertEquals(i, (int) tail[i], what);
            }
            for (int i = to; i < n; i++) {
                assertEquals(i, (int) tail[i], what);
            }
        }
    }

    @Test
    void rejectsKeyArraysOfDifferentLengths() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new KeyRadixSort(new long[3], new long[3], new long[2]));
        assertEquals("key arrays differ in length: high=3 low=3 tail=2", e.getMessage());
    }
}
