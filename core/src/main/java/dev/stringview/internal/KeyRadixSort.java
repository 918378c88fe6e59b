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
 * <p>An instance owns scratch arrays as long as the largest range it scattered (at most the key arrays) and one
 * count table per byte position; it is not thread-safe and is reused for every range of one sort.
 */
public final class KeyRadixSort {
    /** Key bytes: 8 of {@code high}, 8 of {@code low}, 1 in {@code tail}. */
    public static final int KEY_BYTES = 17;
    /** Ranges this short are finished by insertion sort: a count table of 256 entries costs more. */
    private static final int INSERTION_MAX = 32;

    private final long[] high;
    private final long[] low;
    private final long[] tail;
    /** Scratch for one scatter, indexed from the range's start; grown to the largest range kept. */
    private long[] highScratch = new long[0];
    private long[] lowScratch = new long[0];
    private long[] tailScratch = new long[0];
    /**
     * One count table per key byte, made when a range first counts at that byte: a sort of a few keys (all
     * finished by insertion sort) then allocates none of the 17 KiB.
     */
    private final int[][] counts = new int[KEY_BYTES][];

    /** Sorts ranges of these arrays (all of the same length), which the caller fills between calls. */
    public KeyRadixSort(long[] high, long[] low, long[] tail) {
        if (low.length != high.length || tail.length != high.length) {
            throw new IllegalArgumentException("key arrays differ in length: high=" + high.length + " low="
                    + low.length + " tail=" + tail.length);
        }
        this.high = high;
        this.low = low;
        this.tail = tail;
    }

    /**
     * Sorts positions {@code [from, to)} stably by (high, low, tail byte 4), all unsigned, as far as positions
     * before {@code limit} need, and returns the end of the positions that still hold keys of the range: with
     * {@code limit < to}, keys of buckets that start at or after {@code limit} are dropped, and the positions from
     * the returned end to {@code to} hold stale copies. Positions before {@code limit} hold their sorted keys, and
     * every key equal to the one at {@code limit - 1} is before the returned end.
     */
    public int sort(int from, int to, int limit) {
        return sort(from, to, 0, limit);
    }

    private int sort(int from, int to, int digit, int limit) {
        while (true) {
            if (to - from <= INSERTION_MAX) {
                insertionSort(from, to);
                return to;
            }
            if (digit == KEY_BYTES) {
                return to; // every key byte agrees: the stable order is the order they came in
            }
            long[] words = digit < 8 ? high : digit < 16 ? low : tail;
            int shift = digit < 16 ? 56 - 8 * (digit & 7) : 32;
            int[] count = counts[digit];
            if (count == null) {
                count = counts[digit] = new int[257];
            } else {
                Arrays.fill(count, 0);
            }
            for (int i = from; i < to; i++) {
                count[(int) (words[i] >>> shift) & 0xFF]++;
            }
            if (count[(int) (words[from] >>> shift) & 0xFF] == to - from) {
                // One bucket: nothing to move at this byte. Rather than count the next bytes one by one (string
                // keys share long starts), find the first byte where any key differs from the first one.
                digit = firstDifference(from, to, digit + 1);
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
            int n = to - from;
            int kept = 256;
            if (limit < to) {
                // Top-k: buckets that start at or after the limit are never looked at again, so their keys are
                // not moved; only the kept buckets are scattered and copied back.
                kept = 0;
                while (kept < 256 && from + count[kept] < limit) {
                    kept++;
                }
                n = count[kept];
            }
            if (highScratch.length < n) {
                int grown = (int) Math.min(high.length, Math.max(n, 2L * highScratch.length));
                highScratch = new long[grown];
                lowScratch = new long[grown];
                tailScratch = new long[grown];
            }
            int[] next = Arrays.copyOf(count, 257);
            if (kept < 256) {
                for (int i = from; i < to; i++) {
                    int b = (int) (words[i] >>> shift) & 0xFF;
                    if (b < kept) {
                        int at = next[b]++;
                        highScratch[at] = high[i];
                        lowScratch[at] = low[i];
                        tailScratch[at] = tail[i];
                    }
                }
            } else {
                for (int i = from; i < to; i++) {
                    int at = next[(int) (words[i] >>> shift) & 0xFF]++;
                    highScratch[at] = high[i];
                    lowScratch[at] = low[i];
                    tailScratch[at] = tail[i];
                }
            }
            System.arraycopy(highScratch, 0, high, from, n);
            System.arraycopy(lowScratch, 0, low, from, n);
            System.arraycopy(tailScratch, 0, tail, from, n);
            int validEnd = from + n;
            for (int b = 0; b < 256; b++) {
                int start = from + count[b];
                int end = from + count[b + 1];
                if (start >= limit) {
                    break;
                }
                if (end - start > 1) {
                    int sortedEnd = sort(start, end, digit + 1, limit);
                    if (end > limit) { // the last bucket to start before the limit: its drops end the range
                        validEnd = sortedEnd;
                    }
                }
            }
            return validEnd;
        }
    }

    /**
     * The first key byte at or after {@code digit} where some key of {@code [from, to)} differs from the one at
     * {@code from}, or {@link #KEY_BYTES} if none does: one pass of XORs instead of a count per byte.
     */
    private int firstDifference(int from, int to, int digit) {
        long h = high[from];
        long l = low[from];
        long t = tail[from];
        long dh = 0;
        long dl = 0;
        long dt = 0;
        for (int i = from + 1; i < to; i++) {
            dh |= high[i] ^ h;
            dl |= low[i] ^ l;
            dt |= tail[i] ^ t;
        }
        int first;
        if (dh != 0) {
            first = Long.numberOfLeadingZeros(dh) >>> 3;
        } else if (dl != 0) {
            first = 8 + (Long.numberOfLeadingZeros(dl) >>> 3);
        } else {
            first = (dt & 0xFF_0000_0000L) != 0 ? 16 : KEY_BYTES;
        }
        return Math.max(first, digit);
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
