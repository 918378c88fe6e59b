package dev.stringview.internal;

import java.util.Arrays;

/**
 * A stable most-significant-digit radix sort of 17-byte keys held in three parallel arrays: {@code high} and
 * {@code low} (two 64-bit words compared unsigned, high first) and {@code tail}, whose bits 32..39 are the 17th
 * key byte and whose low 32 bits are a payload (a row number) that travels with the key but is not sorted on.
 *
 * <p>Why a radix sort: the argsort keys are chunks of string bytes, and string data shares long starts (every
 * URL begins with "http", most with "https://www."), so a comparison sort spends its time on keys that agree in
 * most of their bytes and on branches that mispredict. A byte-wise MSD radix sort reads each key once per byte
 * position that still splits its range, and skips a byte position in one counting pass when all keys of the range
 * share it (the DuckDB / "engineering radix sort" practice: distribution counting, small ranges by insertion sort).
 * Each level counts, then scatters the range into scratch arrays and copies it back, so equal keys keep their
 * order: the sort is stable.
 *
 * <p>{@code limit} cuts work for top-k: a bucket that starts at or after position {@code limit} is left unsorted,
 * so only positions {@code < limit} are guaranteed to hold their sorted keys.
 *
 * <p>An instance owns scratch arrays as long as the key arrays and one count table per byte position; it is not
 * thread-safe and is reused for every range of one sort.
 */
public final class KeyRadixSort {
    /** Key bytes: 8 of {@code high}, 8 of {@code low}, 1 in {@code tail}. */
    public static final int KEY_BYTES = 17;
    /** Ranges this short are finished by insertion sort: a count table of 256 entries costs more. */
    private static final int INSERTION_MAX = 32;

    private final long[] high;
    private final long[] low;
    private final long[] tail;
    private final long[] highScratch;
    private final long[] lowScratch;
    private final long[] tailScratch;
    private final int[][] counts = new int[KEY_BYTES][257];

    /** Sorts ranges of these arrays (all of the same length), which the caller fills between calls. */
    public KeyRadixSort(long[] high, long[] low, long[] tail) {
        if (low.length != high.length || tail.length != high.length) {
            throw new IllegalArgumentException("key arrays differ in length: high=" + high.length + " low="
                    + low.length + " tail=" + tail.length);
        }
        this.high = high;
        this.low = low;
        this.tail = tail;
        this.highScratch = new long[high.length];
        this.lowScratch = new long[high.length];
        this.tailScratch = new long[high.length];
    }

    /**
     * Sorts positions {@code [from, to)} stably by (high, low, tail byte 4), all unsigned; positions at or after
     * {@code limit} may be left out of order.
     */
    public void sort(int from, int to, int limit) {
        sort(from, to, 0, limit);
    }

    private void sort(int from, int to, int digit, int limit) {
        while (true) {
            if (to - from <= INSERTION_MAX) {
                insertionSort(from, to);
                return;
            }
            if (digit == KEY_BYTES) {
                return; // every key byte agrees: the stable order is the order they came in
            }
            long[] words = digit < 8 ? high : digit < 16 ? low : tail;
            int shift = digit < 16 ? 56 - 8 * (digit & 7) : 32;
            int[] count = counts[digit];
            Arrays.fill(count, 0);
            for (int i = from; i < to; i++) {
                count[(int) (words[i] >>> shift) & 0xFF]++;
            }
            if (count[(int) (words[from] >>> shift) & 0xFF] == to - from) {
                digit++; // one bucket: nothing to move at this byte
                continue;
            }
            // count[b] becomes the start of bucket b (relative to from); count[256] the end of the last one.
            int sum = 0;
            for (int b = 0; b < 256; b++) {
                int c = count[b];
                count[b] = sum;
                sum += c;
            }
            count[256] = sum;
            int[] next = Arrays.copyOf(count, 257);
            for (int i = from; i < to; i++) {
                int at = from + next[(int) (words[i] >>> shift) & 0xFF]++;
                highScratch[at] = high[i];
                lowScratch[at] = low[i];
                tailScratch[at] = tail[i];
            }
            int n = to - from;
            System.arraycopy(highScratch, from, high, from, n);
            System.arraycopy(lowScratch, from, low, from, n);
            System.arraycopy(tailScratch, from, tail, from, n);
            for (int b = 0; b < 256; b++) {
                int start = from + count[b];
                int end = from + count[b + 1];
                if (start >= limit) {
                    break;
                }
                if (end - start > 1) {
                    sort(start, end, digit + 1, limit);
                }
            }
            return;
        }
    }

    /** Stable insertion sort of {@code [from, to)} by the whole key. */
    private void insertionSort(int from, int to) {
        for (int i = from + 1; i < to; i++) {
            long h = high[i];
            long l = low[i];
            long t = tail[i];
            int j = i - 1;
            while (j >= from && greater(high[j], low[j], tail[j], h, l, t)) {
                high[j + 1] = high[j];
                low[j + 1] = low[j];
                tail[j + 1] = tail[j];
                j--;
            }
            high[j + 1] = h;
            low[j + 1] = l;
            tail[j + 1] = t;
        }
    }

    private static boolean greater(long h1, long l1, long t1, long h2, long l2, long t2) {
        if (h1 != h2) {
            return Long.compareUnsigned(h1, h2) > 0;
        }
        if (l1 != l2) {
            return Long.compareUnsigned(l1, l2) > 0;
        }
        return ((t1 >>> 32) & 0xFF) > ((t2 >>> 32) & 0xFF);
    }

    /** Whether positions {@code x} and {@code y} hold equal keys (payloads aside). */
    public boolean sameKey(int x, int y) {
        return high[x] == high[y] && low[x] == low[y] && ((tail[x] ^ tail[y]) & 0xFF_0000_0000L) == 0;
    }
}
