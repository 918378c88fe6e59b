package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.ByteSearch;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@code value LIKE '%s%'}. Rows shorter than the needle are ruled out by their length. Inline rows are searched
 * in registers, from the two view words, without another memory access. Long rows are searched in their buffer.
 *
 * <p>Long rows must read their bytes, and when those bytes are scattered over a heap far larger than the cache,
 * each read is a cache and TLB miss. Searching row by row would take those misses one after another, since a
 * search's branches keep the CPU from running far ahead. So rows go in blocks: a first pass over the block only
 * loads the first byte of each valid long row, a loop of independent loads whose misses overlap; the search pass
 * that follows then finds most lines in the cache. Java has no prefetch instruction; this is the nearest thing.
 */
final class ContainsPredicate extends ViewPredicate {
    /** Rows per touch-then-search block: enough loads to fill the CPU's miss buffers, few enough to stay cached. */
    private static final int BLOCK = 64;

    /**
     * Receives the touching pass's loads so the JIT cannot drop them. Its value means nothing and is never read;
     * racing writes from several threads are harmless.
     */
    @SuppressWarnings("unused")
    private static long touchSink;

    private final ByteSearch search;
    private final int needleLength;

    ContainsPredicate(Constant needle) {
        this.search = new ByteSearch(needle.bytes);
        this.needleLength = needle.length;
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        MemorySegment[] buffers = column.bufferArray();
        int found = 0;
        long touched = 0;
        for (int start = from; start < to; start += BLOCK) {
            int end = Math.min(to, start + BLOCK);
            if (buffers.length != 0) {
                touched += touchLongRows(column, views, buffers, selection, start, end);
            }
            // One loop for both cases and the row test written out in it: a per-row helper method gets compiled
            // on its own, too large to be inlined back (PrintInlining: "already compiled into a big method"),
            // and the call then costs more than the search. The cost here is the search, not the selection load.
            for (int i = start; i < end; i++) {
                int row = selection == null ? i : selection[i];
                long at = (long) row << 4;
                long w0 = views.get(LAYOUT_LE_LONG, at);
                long w1 = views.get(LAYOUT_LE_LONG, at + 8);
                int length = (int) w0;
                boolean hit = false;
                if (length >= needleLength && column.isValid(row)) {
                    hit = length <= INLINE_MAX
                            ? search.occursInInline((w0 >>> 32) | (w1 << 32), w1 >>> 32, length)
                            : search.indexOf(buffers[(int) w1], w1 >>> 32, length) >= 0;
                }
                out[found] = row; // written always, kept only on a match
                found += hit ? 1 : 0;
            }
        }
        touchSink = touched;
        return found;
    }

    /** Loads the first data byte of every valid long row of the block that could hold the needle. */
    private long touchLongRows(ViewColumn column, MemorySegment views, MemorySegment[] buffers, int[] selection,
            int start, int end) {
        long sum = 0;
        for (int i = start; i < end; i++) {
            int row = selection == null ? i : selection[i];
            long at = (long) row << 4;
            int length = (int) views.get(LAYOUT_LE_LONG, at);
            if (length > INLINE_MAX && length >= needleLength && column.isValid(row)) {
                long w1 = views.get(LAYOUT_LE_LONG, at + 8);
                sum += buffers[(int) w1].get(ValueLayout.JAVA_BYTE, w1 >>> 32);
            }
        }
        return sum;
    }
}
