package dev.stringview.internal;

import java.util.Arrays;

/**
 * The rounds of a normalized-key sort of byte strings, shared by {@code ViewKernels.argsort} (rows of a column)
 * and {@code ByteView.sort} (an array of values): the caller writes every item's first round key (its bytes
 * {@code [0, 16)}), this sorts them with {@link KeyRadixSort}, and then sorts each run of items still tied after a
 * round by their next 16 bytes, one depth at a time, until no run is tied. Items are numbered {@code 0..items-1}
 * by the caller; the number travels with the key in the low 32 bits of {@code tail}, so after {@link #sort}
 * position {@code i} of the sorted order holds item {@code (int) tail[i]}.
 *
 * <p>A key is bytes {@code [depth, depth + 16)} of the value as two big-endian words, zero-padded past its end,
 * and in {@code tail} bits 32..39 the value's remaining length clipped to {@link #CONTINUES} ("goes on past these
 * 16 bytes"). Keys that agree belong to values of which the one with the smaller clipped length is a prefix of
 * the other (the padding equals the other's bytes); equal keys with a clipped length below {@link #CONTINUES}
 * belong to equal values and stay in item order (the radix sort is stable).
 */
public final class KeyRounds {
    /** Bytes of a value each sorting round compares: two 64-bit key words. */
    public static final int ROUND_BYTES = 16;
    /** A clipped length meaning "the value goes on past this round's 16 bytes". */
    public static final int CONTINUES = ROUND_BYTES + 1;
    /**
     * A refinement round reads its items in item order when they are at least 1/this of all items: then a pass in
     * item order (over a column's views, or over an array's values as they were allocated) costs less than the
     * cache misses of reading them in sorted order.
     */
    private static final int ITEM_ORDER_SHARE = 16;

    private KeyRounds() {}

    /** Writes round keys of items: what a column or an array of values contributes to the sort. */
    public interface KeySource {
        /**
         * Writes the key of {@code item} at byte {@code depth} into position {@code at} of the three arrays, with
         * {@link #tail}. Called past depth 0 only for items whose key went on past the previous round, so their
         * length is greater than {@code depth}.
         */
        void roundKey(int item, int depth, long[] high, long[] low, long[] tail, int at);
    }

    /** The {@code tail} word of an item of {@code length} bytes at byte {@code depth}: clipped length, item. */
    public static long tail(int length, int depth, int item) {
        return ((long) Math.min(length - depth, CONTINUES) << 32) | (item & 0xFFFF_FFFFL);
    }

    /**
     * Sorts positions {@code [0, count)} of the keys, which hold every item's depth-0 key, far enough that
     * positions before {@code limit} ({@code <= count}) hold their items in order: keys of radix buckets that start
     * at or after {@code limit} may be left unsorted or dropped, and tied runs are refined only when they start
     * before it. {@code items} is the number of item numbers (at least {@code count}; a column's rows including
     * nulls), the size of the pass that reads big refinement rounds in item order.
     */
    public static void sort(KeySource source, long[] high, long[] low, long[] tail, int count, int items,
            int limit) {
        KeyRadixSort sorter = new KeyRadixSort(high, low, tail);
        // Runs still tied after a round, each to be sorted by its next 16 bytes, one depth at a time. For top-k
        // the radix sort drops the keys of buckets past the limit: runs are looked for only up to where it kept
        // them.
        TiedRanges ties = new TiedRanges();
        pushTies(sorter, tail, 0, sorter.sort(0, count, limit), limit, ties);
        int[] position = null; // position[item]: where an item to refine sits, valid where stamp[item] == depth
        int[] stamp = null;
        for (int depth = ROUND_BYTES; ties.top > 0; depth += ROUND_BYTES) {
            TiedRanges ranges = ties;
            ties = new TiedRanges();
            long tied = 0;
            for (int r = 0; r < ranges.top; r += 2) {
                tied += ranges.entries[r + 1] - ranges.entries[r];
            }
            if (tied >= items / ITEM_ORDER_SHARE) {
                // Many items to refine: read them in item order, not in sorted order (random accesses into a
                // column's views and buffers, or an array's values and their bytes, a cache miss or two per
                // item). Items of one range are in item order (the sort is stable), so the key writes are one
                // forward stream per range.
                if (position == null) {
                    position = new int[items];
                    stamp = new int[items];
                }
                for (int r = 0; r < ranges.top; r += 2) {
                    for (int i = ranges.entries[r]; i < ranges.entries[r + 1]; i++) {
                        int item = (int) tail[i];
                        position[item] = i;
                        stamp[item] = depth;
                    }
                }
                for (int item = 0; item < items; item++) {
                    if (stamp[item] == depth) {
                        source.roundKey(item, depth, high, low, tail, position[item]);
                    }
                }
            } else {
                for (int r = 0; r < ranges.top; r += 2) {
                    for (int i = ranges.entries[r]; i < ranges.entries[r + 1]; i++) {
                        source.roundKey((int) tail[i], depth, high, low, tail, i);
                    }
                }
            }
            for (int r = 0; r < ranges.top; r += 2) {
                int from = ranges.entries[r];
                int to = ranges.entries[r + 1];
                pushTies(sorter, tail, from, sorter.sort(from, to, limit), limit, ties);
            }
        }
    }

    /**
     * Adds every run of two or more equal keys in sorted {@code [from, to)} that starts before {@code limit} and
     * goes on past the round (clipped length {@link #CONTINUES}) to {@code ties}. Runs that end within the round
     * hold equal values and stay in item order.
     */
    private static void pushTies(KeyRadixSort sorter, long[] tail, int from, int to, int limit, TiedRanges ties) {
        for (int i = from; i < to && i < limit; ) {
            int end = i + 1;
            while (end < to && sorter.sameKey(i, end)) {
                end++;
            }
            if (end - i > 1 && (int) (tail[i] >>> 32) == CONTINUES) {
                ties.push(i, end);
            }
            i = end;
        }
    }

    /** Ranges of the sort still to refine at the next depth: (from, to) pairs. */
    private static final class TiedRanges {
        int[] entries = new int[32];
        int top;

        void push(int from, int to) {
            if (top + 2 > entries.length) {
                entries = Arrays.copyOf(entries, entries.length * 2);
            }
            entries[top] = from;
            entries[top + 1] = to;
            top += 2;
        }
    }
}
