package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.Vectorization;
import java.lang.foreign.MemorySegment;

/**
 * {@code value LIKE 'p%'}, in two phases like {@link EqualityPredicate}. First, rows long enough and whose masked
 * prefix word matches become candidates, from the first view word alone. Then the candidates are confirmed: a
 * pattern of at most 4 bytes needs nothing more; otherwise every candidate's bytes 4..11 (an inline row's second
 * view word, a long row's buffer) are compared masked, in one loop over all candidates ({@link TieWords}), and
 * only a pattern longer than 12 bytes reads the rest of its candidates that agree so far. {@code count} over a
 * column without nulls writes no ids for the candidates the view decides ({@link #countRows}). Without a selection
 * the first phase is the Vector API pass once it is warm ({@link Vectorization#viewWords()}).
 */
final class PrefixPredicate extends ViewPredicate {
    private final Constant pattern;
    private final long prefixMask;
    private final long prefixBits;
    private final long inlineMask;
    private final long inlineBits;
    // The pattern's first 8 bytes as a long value holds them in its buffer, masked to its length, for
    // TieWords.countPrefixRows.
    private final long headBits;
    private final long headMask;

    PrefixPredicate(Constant pattern) {
        this.pattern = pattern;
        this.prefixMask = Constant.lowBytesMask(Math.min(pattern.length, 4)) << 32;
        this.prefixBits = pattern.word0 & prefixMask;
        this.inlineMask = Constant.lowBytesMask(Math.max(0, Math.min(pattern.length, INLINE_MAX) - 4));
        this.inlineBits = pattern.word1 & inlineMask;
        this.headMask = Constant.lowBytesMask(Math.min(pattern.length, 8));
        this.headBits = ((pattern.word0 >>> 32) | (pattern.word1 << 32)) & headMask;
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        int candidates = 0;
        long mask = prefixMask;
        long bits = prefixBits;
        int patternLength = pattern.length;
        // The first view word decides most rows. Only rows it keeps read the second, which settles inline rows
        // (reading it for every row measured 2-3x slower at a 5% share; a branch-free form, 64 rows a word, was
        // slower as well), so that only long candidates go on to their buffers.
        Vectorization.ViewWordScan vector = Vectorization.viewWords();
        if (selection == null && vector != null) {
            candidates = vector.prefixCandidates(views, from, to, mask, bits, patternLength, inlineMask, inlineBits,
                    out);
        } else if (selection == null) { // the row as induction variable lets the JIT hoist bounds checks
            for (int row = from; row < to; row++) {
                long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
                if ((w0 & mask) == bits && (int) w0 >= patternLength
                        && inlineRestMatches(views, (long) row << 4, (int) w0)) {
                    out[candidates++] = row;
                }
            }
        } else {
            for (int i = from; i < to; i++) {
                int row = selection[i];
                long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
                if ((w0 & mask) == bits && (int) w0 >= patternLength
                        && inlineRestMatches(views, (long) row << 4, (int) w0)) {
                    out[candidates++] = row;
                }
            }
        }
        return confirm(column, views, out, candidates);
    }

    /**
     * The second phase: keeps, in order, the candidates of {@code out[0..candidates)} that are non-null and hold
     * the pattern, and returns how many.
     */
    private int confirm(ViewColumn column, MemorySegment views, int[] out, int candidates) {
        int found = TieWords.keepValid(column, out, candidates);
        int patternLength = pattern.length;
        if (patternLength <= 4) {
            return found;
        }
        // Bytes 4..11 of every candidate in one loop whose loads do not wait on each other (TieWords): for a
        // pattern of at most 12 bytes they decide; a longer one's candidates that agree there compare the rest.
        MemorySegment[] buffers = column.bufferArray();
        found = TieWords.keepMatching(views, buffers, out, found, inlineMask, inlineBits);
        if (patternLength <= INLINE_MAX) {
            return found;
        }
        int likely = likelyBufferIndex(views, out, found, buffers);
        MemorySegment likelyBuffer = bufferOrEmpty(buffers, likely);
        int kept = 0;
        for (int j = 0; j < found; j++) {
            int row = out[j];
            long w1 = views.get(LAYOUT_LE_LONG, ((long) row << 4) + 8); // a long row: the pattern is longer than 12
            int index = (int) w1;
            if (pattern.differenceAfterPrefix(index == likely ? likelyBuffer : buffers[index], w1 >>> 32) == 0) {
                out[kept++] = row; // a branch on purpose: see EqualityPredicate
            }
        }
        return kept;
    }

    /**
     * {@code count(*)} over a column without nulls and without a selection: candidates that the view decides (the
     * pattern has at most 4 bytes, or the row is inline and its bytes 4..11 were compared in the view) are counted
     * as bits, with no row id written; only long candidates of a pattern longer than 4 bytes are written, window
     * by window, and confirmed from their buffers. The select form writes every candidate's id and confirms them
     * all, which for all-inline data is most of its work (Suite 1's 8-byte rows). Windows of nothing but long rows,
     * many of them candidates, of a 5..8-byte pattern on one buffer skip the pass and the ids: one loop over the rows
     * reads each value's first 8 bytes from the buffer ({@link TieWords#countPrefixRows}).
     */
    @Override
    int countRows(ViewColumn column, int[] selection, int n) {
        if (selection != null || column.hasNulls()) { // a null row's view may hold garbage: select checks them
            return super.countRows(column, selection, n);
        }
        MemorySegment views = column.viewSegment();
        Vectorization.ViewWordScan vector = Vectorization.viewWords();
        int largest = TieWords.windowRows(column); // larger over buffers far larger than the cache
        int window = largest;
        int[] longCandidates = new int[Math.min(largest, Math.max(1, n))];
        MemorySegment[] buffers = column.bufferArray();
        // Over a buffer far larger than the cache, sparse long candidates' offsets are read in a loop of their own
        // (TieWords.countMatchingLongGathered); that array is made on first use.
        boolean gather = column.bufferBytes() >= TieWords.LARGE_BUFFER_BYTES;
        long[] offsets = null;
        // Windows of nothing but long rows, many of them candidates, are counted row by row with no pass
        // (TieWords.countPrefixRows, patterns of 5..8 bytes). Chosen once per window: first from the call's first
        // rows, then from the previous window's long candidates (at least three in eight of its rows). Once an
        // inline row has been seen (in those first rows, or a window that turned out not all long, which is then
        // counted again through the pass), only a window of nothing but long candidates brings the row loop back.
        MemorySegment only = TieWords.onlyBuffer(buffers);
        boolean rowLoops = only != null && pattern.length > 4 && pattern.length <= Long.BYTES;
        int sampled = rowLoops ? longCandidatesAmongFirst(views, Math.min(n, ROW_LOOP_SAMPLE)) : -1;
        boolean sawInline = sampled < 0;
        boolean rowLoop = rowLoops && !sawInline && dense(sampled, Math.min(n, ROW_LOOP_SAMPLE));
        int total = 0;
        for (int from = 0, to; from < n; from = to) {
            to = Math.min(n, from + window);
            if (rowLoop) {
                int rows = TieWords.countPrefixRows(views, only, from, to, headBits, headMask);
                if (rows != TieWords.NOT_ALL_LONG) {
                    total += rows;
                    window = largest;
                    continue;
                }
                rowLoop = false;
                sawInline = true;
            }
            long counted = vector != null
                    ? vector.countPrefix(views, from, to, prefixMask, prefixBits, pattern.length, inlineMask,
                            inlineBits, longCandidates)
                    : countPrefix(views, from, to, longCandidates);
            int candidates = (int) counted;
            total += (int) (counted >>> 32);
            if (candidates > 0) {
                // Long candidates of a pattern of at most 12 bytes: one masked word decides, so they are counted
                // without writing the kept ids back (TieWords.countMatchingLong); longer patterns confirm.
                if (pattern.length <= INLINE_MAX && gather && TieWords.sparse(candidates, to - from)) {
                    if (offsets == null) {
                        offsets = new long[longCandidates.length];
                    }
                    total += TieWords.countMatchingLongGathered(views, buffers, longCandidates, candidates,
                            inlineMask, inlineBits, offsets);
                } else if (pattern.length <= INLINE_MAX && candidates == to - from) {
                    total += TieWords.countMatchingLongRun(views, buffers, longCandidates, from, candidates,
                            inlineMask, inlineBits);
                } else if (pattern.length <= INLINE_MAX) {
                    total += TieWords.countMatchingLong(views, buffers, longCandidates, candidates, inlineMask,
                            inlineBits);
                } else {
                    total += confirm(column, views, longCandidates, candidates);
                }
            }
            window = TieWords.nextWindowRows(largest, candidates, to - from);
            rowLoop = rowLoops && (sawInline ? candidates == to - from : dense(candidates, to - from));
        }
        return total;
    }

    /** Rows {@link #countRows} looks at before its first window to choose the row loop. */
    private static final int ROW_LOOP_SAMPLE = 64;

    /**
     * How many of the rows {@code [0, n)} share the pattern's masked prefix when all of them are long, else -1:
     * chooses the row loop ({@link TieWords#countPrefixRows}) for {@link #countRows}'s first window.
     */
    private int longCandidatesAmongFirst(MemorySegment views, int n) {
        int candidates = 0;
        for (int row = 0; row < n; row++) {
            long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
            if ((int) w0 <= INLINE_MAX) {
                return -1;
            }
            candidates += (w0 & prefixMask) == prefixBits ? 1 : 0;
        }
        return candidates;
    }

    /**
     * Whether {@code candidates} long candidates among {@code rows} rows make the row loop pay: three in eight. The
     * row loop costs about the same at any share, while the pass and the id loop grow with it, and the row loop
     * already won at 30% and 40% (decision record 010).
     */
    private static boolean dense(int candidates, int rows) {
        return rows > 0 && (long) candidates * 8 >= (long) rows * 3;
    }

    /**
     * The scalar form of {@link Vectorization.ViewWordScan#countPrefix}: the first view word alone decides most
     * rows, as in {@link #selectRows}'s loop, and only rows whose prefix and length fit read the second.
     */
    private long countPrefix(MemorySegment views, int from, int to, int[] longCandidates) {
        long mask = prefixMask;
        long bits = prefixBits;
        int patternLength = pattern.length;
        boolean undecided = patternLength > 4;
        int decided = 0;
        int candidates = 0;
        for (int row = from; row < to; row++) {
            long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
            if ((w0 & mask) == bits && (int) w0 >= patternLength) {
                if ((int) w0 <= INLINE_MAX) {
                    decided += (views.get(LAYOUT_LE_LONG, ((long) row << 4) + 8) & inlineMask) == inlineBits ? 1 : 0;
                } else if (undecided) {
                    longCandidates[candidates++] = row;
                } else {
                    decided++;
                }
            }
        }
        return (long) decided << 32 | candidates;
    }

    /**
     * For a candidate of {@code length} bytes whose prefix and length fit, at view offset {@code at}: false when it
     * is inline and its bytes 4..11 already differ from the pattern's (no branch on which kind it is: mixed data
     * would mispredict).
     */
    private boolean inlineRestMatches(MemorySegment views, long at, int length) {
        boolean isLong = length > INLINE_MAX; // from the first view word already loaded, not read again
        return isLong | (views.get(LAYOUT_LE_LONG, at + 8) & inlineMask) == inlineBits;
    }
}
