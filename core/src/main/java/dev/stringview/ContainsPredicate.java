package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.ByteSearch;
import dev.stringview.internal.SubstringPredicate;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@code value LIKE '%s%'}. Rows shorter than the needle are ruled out by their length. Inline rows are searched
 * in registers, from the two view words, without another memory access. Long rows are searched in their buffer.
 *
 * <p><b>Runs.</b> Where consecutive long rows lie back to back in one buffer (a Parquet PLAIN or decompressed page,
 * a builder's block: at most {@link #MAX_GAP} bytes between one row's end and the next one's start), the kernel
 * searches the whole run's bytes in one pass and maps each occurrence back to the row holding it, instead of
 * starting a search per row. Per-row searches of ~60-byte URLs spent most of their time in setting up and
 * finishing the vector screen, not in screening bytes; one search over a run screens 32 starts per step
 * throughout. An occurrence that is not inside one row (it starts in a gap, or crosses into the next row) is
 * skipped. ClickHouse searches its string columns the same way, over the whole chars array.
 *
 * <p><b>Scattered rows.</b> When long rows' bytes are scattered over a heap far larger than the cache, each read is
 * a cache and TLB miss. Searching row by row would take those misses one after another, since a search's
 * branches keep the CPU from running far ahead. So rows go in blocks: a first pass over the block only loads the
 * first byte of each valid long row, a loop of independent loads whose misses overlap; the search pass that
 * follows then finds most lines in the cache. Java has no prefetch instruction; this is the nearest thing.
 */
final class ContainsPredicate extends ViewPredicate implements SubstringPredicate {
    /** Rows per block: enough loads to fill the CPU's miss buffers, few enough to stay cached. */
    private static final int BLOCK = 64;

    /**
     * The most bytes between two rows for them to be searched as one run: Parquet's PLAIN encoding puts a 4-byte
     * length before each value. Bytes in gaps are screened for nothing, so the bound keeps that waste small.
     */
    static final long MAX_GAP = 8;

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

    /** The prepared search, for {@code internal.reader.SubstringSearch.of(ViewPredicate)}. */
    @Override
    public ByteSearch search() {
        return search;
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        MemorySegment[] buffers = column.bufferArray();
        boolean hasNulls = column.hasNulls(); // only a null row's view may hold garbage: check before following it
        int found = 0;
        long touched = 0;
        for (int start = from; start < to; start += BLOCK) {
            int end = Math.min(to, start + BLOCK);
            if (buffers.length != 0) {
                touched += touchLongRows(column, views, buffers, selection, start, end);
            }
            long hits = 0; // bit i - start for row selection[i]
            // The current run: its first row (block position), buffer and bytes [runStart, runEnd).
            int runFirst = -1;
            int runBuffer = 0;
            long runStart = 0;
            long runEnd = 0;
            int runRows = 0;
            // One loop for both cases and the row test written out in it: a per-row helper method gets compiled
            // on its own, too large to be inlined back (PrintInlining: "already compiled into a big method"),
            // and the call then costs more than the search. A run's search is called once per run.
            for (int i = start; i < end; i++) {
                int row = selection == null ? i : selection[i];
                long at = (long) row << 4;
                long w0 = views.get(LAYOUT_LE_LONG, at);
                int length = (int) w0;
                if (length < needleLength || (hasNulls && !column.isValid(row))) {
                    continue;
                }
                long w1 = views.get(LAYOUT_LE_LONG, at + 8);
                if (length <= INLINE_MAX) {
                    if (search.occursInInline((w0 >>> 32) | (w1 << 32), w1 >>> 32, length)) {
                        hits |= 1L << (i - start);
                    }
                    continue;
                }
                int index = (int) w1;
                long offset = w1 >>> 32;
                if (runRows > 0 && index == runBuffer && offset >= runEnd && offset - runEnd <= MAX_GAP) {
                    runEnd = offset + length;
                    runRows++;
                    continue;
                }
                if (runRows == 1) {
                    // a run of one row (scattered bytes): searched here, as a call per row costs more than it does
                    if (search.indexOf(buffers[runBuffer], runStart, runEnd - runStart) >= 0) {
                        hits |= 1L << (runFirst - start);
                    }
                } else if (runRows > 1) {
                    hits |= searchRun(column, views, buffers[runBuffer], selection, start, runFirst, i, runEnd,
                            hasNulls);
                }
                runFirst = i;
                runBuffer = index;
                runStart = offset;
                runEnd = offset + length;
                runRows = 1;
            }
            if (runRows > 0) {
                hits |= searchRun(column, views, buffers[runBuffer], selection, start, runFirst, end, runEnd,
                        hasNulls);
            }
            while (hits != 0) {
                int i = start + Long.numberOfTrailingZeros(hits);
                out[found++] = selection == null ? i : selection[i];
                hits &= hits - 1;
            }
        }
        touchSink = touched;
        return found;
    }

    /**
     * Searches the bytes of {@code bytes} up to {@code regionEnd} that hold a run: the long rows (of at least the
     * needle's length, not null) among block positions {@code [first, last)}, back to back. Returns
     * their hits as bits relative to {@code blockStart}.
     *
     * <p>Rows are taken in order with {@code p}, the first occurrence at or after some earlier row's start. When
     * {@code p} lies before the row, the row's own first occurrence is searched for from its start. The row holds
     * the needle exactly when that occurrence ends inside it: there is none between the row's start and {@code p}.
     * If it does not end inside, the row holds none, and {@code p} carries over to the next row. One screening pass
     * covers the run when nothing is found; rows are visited one by one only up to the last occurrence.
     */
    private long searchRun(ViewColumn column, MemorySegment views, MemorySegment bytes, int[] selection,
            int blockStart, int first, int last, long regionEnd, boolean hasNulls) {
        long hits = 0;
        long p = -1;
        for (int i = first; i < last; i = nextInRun(column, views, selection, i, last, hasNulls)) {
            long at = (long) (selection == null ? i : selection[i]) << 4;
            long s = views.get(LAYOUT_LE_LONG, at + 8) >>> 32;
            if (p < s) {
                long found = search.indexOf(bytes, s, regionEnd - s);
                if (found < 0) {
                    return hits;
                }
                p = s + found;
            }
            if (p + needleLength <= s + (int) views.get(LAYOUT_LE_LONG, at)) {
                hits |= 1L << (i - blockStart);
            }
        }
        return hits;
    }

    /** The block position after {@code i} of the next row of the run, or {@code last}. */
    private int nextInRun(ViewColumn column, MemorySegment views, int[] selection, int i, int last,
            boolean hasNulls) {
        for (int k = i + 1; k < last; k++) {
            int row = selection == null ? k : selection[k];
            int length = (int) views.get(LAYOUT_LE_LONG, (long) row << 4);
            if (length > INLINE_MAX && length >= needleLength && (!hasNulls || column.isValid(row))) {
                return k;
            }
        }
        return last;
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
