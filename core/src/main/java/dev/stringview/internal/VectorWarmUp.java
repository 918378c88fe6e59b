package dev.stringview.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The explicit warm-up of the Vector API loops ({@link Vectorization#warmUp}): each loop is called
 * {@link #CALLS} times over private data, on the calling thread, round-robin so that C2 compiles them side by
 * side. Until C2 has compiled a Vector API method the incubator runs its Java fallback, hundreds of times slower
 * than the compiled code per row, so the kernels get the loops only after this has run. The count is fixed, not
 * timed (decision record 001): HotSpot's tiered policy asks C2 for a method after a few thousand short calls, and
 * the calls after that cost little once the compiled code is in; the count leaves C2 the time of the remaining
 * calls to finish.
 *
 * <p>Calls are short (150-250 rows or bytes, a few back-edges), so HotSpot compiles the whole method on its
 * invocation and back-edge counts before an on-stack replacement would be due, and a whole-method compile is what
 * later callers enter. They vary everything a caller may vary (ranges starting and ending anywhere, so the scalar
 * tails run; candidate shares from none to all; order windows ending at the segment's end; both ASCII outcomes of
 * the inline-view builder; chars in a heap array), so that C2's profile holds every path and a caller's first rows
 * do not hit an untaken branch and send the method back to the interpreter. Views, chars and haystacks live in
 * native memory, as a column's do: a heap segment among the calls would make the profile of every vector load see
 * two segment classes, and C2 would then check the class at each of them.
 */
final class VectorWarmUp {
    /** Calls of each vector method. */
    static final int CALLS = 30_000;
    /** Rows of the private views and of the inline-view builder's private sizes. */
    static final int ROWS = 4096;
    /** Bytes of the private haystack of the substring screen. */
    private static final int HAYSTACK_BYTES = 1 << 16;
    private static final int VIEW_WORD_METHODS = 3;
    /** Needles the substring screen is warmed with: lengths 1..20. */
    private static final int NEEDLES = 20;

    private VectorWarmUp() {}

    /** Warms the given loops (a null one is skipped); returns the calls made, for tests. */
    static long run(Vectorization.VectorSearch search, Vectorization.ViewWordScan viewWords,
            Vectorization.InlineViewScan inlineViews) {
        SplittableRandom random = new SplittableRandom(0x5EED_0015L);
        long calls = 0;
        try (Arena arena = Arena.ofConfined()) {
            SearchCalls searchCalls = search == null ? null : new SearchCalls(search, arena, random);
            ViewWordCalls viewWordCalls = viewWords == null ? null : new ViewWordCalls(viewWords, arena, random);
            InlineViewCalls inlineViewCalls = inlineViews == null ? null
                    : new InlineViewCalls(inlineViews, arena, random);
            for (int call = 0; call < CALLS; call++) {
                if (searchCalls != null) {
                    searchCalls.call(random);
                    calls++;
                }
                if (viewWordCalls != null) {
                    for (int method = 0; method < VIEW_WORD_METHODS; method++) {
                        viewWordCalls.call(method, random);
                        calls++;
                    }
                }
                if (inlineViewCalls != null) {
                    inlineViewCalls.call(call, random);
                    calls++;
                }
            }
        }
        return calls;
    }

    /** The substring screen over URL-like bytes, needles taken from the haystack (found) or not (not found). */
    private static final class SearchCalls {
        private final Vectorization.VectorSearch search;
        private final MemorySegment haystack;
        private final ByteSearch[] needles = new ByteSearch[NEEDLES];

        SearchCalls(Vectorization.VectorSearch search, Arena arena, SplittableRandom random) {
            this.search = search;
            String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789/.:-_?=&%";
            byte[] bytes = new byte[HAYSTACK_BYTES];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) alphabet.charAt(random.nextInt(alphabet.length()));
            }
            this.haystack = arena.allocate(bytes.length, 16).copyFrom(MemorySegment.ofArray(bytes));
            for (int n = 0; n < NEEDLES; n++) {
                int length = n + 1;
                byte[] needle = Arrays.copyOfRange(bytes, 1000 * n, 1000 * n + length);
                if (n % 2 == 1) {
                    needle[length / 2] = (byte) 0xC3; // not in the haystack: the screen runs to the end
                }
                needles[n] = new ByteSearch(needle);
            }
        }

        void call(SplittableRandom random) {
            ByteSearch needle = needles[random.nextInt(NEEDLES)];
            long length = needle.needleLength() + 15 + random.nextInt(240); // at least 16 starts: the vector form
            long offset = random.nextInt(8) == 0 ? HAYSTACK_BYTES - length : random.nextLong(HAYSTACK_BYTES - length);
            search.indexOf(needle, haystack, offset, length - needle.needleLength());
        }
    }

    /** The view-word passes over synthetic views ({@link #views}). */
    private static final class ViewWordCalls {
        private final Vectorization.ViewWordScan scan;
        private final long[] words;
        private final MemorySegment views;
        private final long[] first = new long[8];
        private final long[] second = new long[8];

        ViewWordCalls(Vectorization.ViewWordScan scan, Arena arena, SplittableRandom random) {
            this.scan = scan;
            this.words = views(random);
            // A long[] holds the words in the platform's order, little-endian like a view on the CPUs with
            // 512-bit vectors this runs on; the passes read the segments little-endian either way.
            this.views = arena.allocate(8L * words.length, 16).copyFrom(MemorySegment.ofArray(words));
        }

        /** One call of pass {@code method} over a random range. */
        void call(int method, SplittableRandom random) {
            int from = random.nextInt(ROWS - 512);
            int to = from + 150 + random.nextInt(100); // the tail after the 32-row steps takes every length
            // A constant from the data (many candidates) or from nowhere (none).
            int row = random.nextInt(ROWS);
            long w0 = random.nextInt(4) == 0 ? random.nextLong() : words[2 * row];
            long w1 = words[2 * row + 1];
            if (random.nextInt(8) == 0) { // a window at the end of the segment: the last steps go scalar
                from = ROWS - (to - from);
                to = ROWS;
            }
            int count = to - from;
            switch (method) {
                case 0 -> scan.equalWords(views, from, count, w0, w1, first, second);
                case 1 -> {
                    int patternLength = random.nextInt(18);
                    long prefixMask = lowBytes(Math.min(patternLength, 4)) << 32;
                    long inlineMask = lowBytes(Math.max(0, Math.min(patternLength, 12) - 4));
                    scan.prefixWords(views, from, count, prefixMask, w0 & prefixMask, patternLength, inlineMask,
                            w1 & inlineMask, first, second);
                }
                default -> scan.orderWords(views, from, count, Long.reverseBytes(w0 >>> 32 | w1 << 32),
                        (int) (w0 >>> 32), first, second);
            }
        }
    }

    /**
     * Synthetic views: lengths 0..40 (inline and long), prefixes from 8 values with bytes 0x00, 0x80 and 0xFF, so
     * that a constant from the data shares its first word with about one row in 300 and its prefix with one in 8.
     */
    static long[] views(SplittableRandom random) {
        long[] prefixes = new long[8];
        for (int i = 0; i < prefixes.length; i++) {
            prefixes[i] = random.nextLong() & 0xFF80_FF00_0000_0000L | (long) i << 32;
        }
        long[] words = new long[2 * ROWS];
        for (int row = 0; row < ROWS; row++) {
            int length = random.nextInt(41);
            words[2 * row] = prefixes[random.nextInt(prefixes.length)] | length;
            words[2 * row + 1] = length <= 12 ? random.nextLong() & lowBytes(Math.max(0, length - 4))
                    : (long) random.nextInt(1 << 20) << 32 | random.nextInt(4);
        }
        return words;
    }

    private static long lowBytes(int n) {
        return n == 8 ? -1L : (1L << (8 * n)) - 1;
    }

    /**
     * The inline-view builder over its two data sets in turn: sizes up to 12 with any bytes and sizes up to 4 with
     * ASCII chars, so that both outcomes of the ASCII test are profiled and neither is compiled as a trap that
     * readers of text (or of binary) would hit.
     */
    private static final class InlineViewCalls {
        private final Vectorization.InlineViewScan scan;
        private final int[][] sizes;
        private final long[][] starts;
        private final MemorySegment[] chars;
        private final MemorySegment views;

        InlineViewCalls(Vectorization.InlineViewScan scan, Arena arena, SplittableRandom random) {
            this.scan = scan;
            this.sizes = new int[][] {sizes(random, 12), sizes(random, 4)};
            this.chars = new MemorySegment[sizes.length];
            this.starts = new long[sizes.length][ROWS + 1];
            for (int c = 0; c < sizes.length; c++) {
                for (int i = 0; i < ROWS; i++) {
                    starts[c][i + 1] = starts[c][i] + sizes[c][i];
                }
                long total = starts[c][ROWS];
                chars[c] = arena.allocate(total, 1); // exactly: the last calls' windows must stay inside
                int byteBound = c == 0 ? 0x100 : 0x80;
                for (long b = 0; b < total; b++) {
                    chars[c].set(ValueLayout.JAVA_BYTE, b, (byte) random.nextInt(byteBound));
                }
            }
            this.views = arena.allocate(16L * ROWS, 16);
        }

        /** Call number {@code call} over 150-250 rows starting anywhere, half of them ending at the chars' end. */
        void call(int call, SplittableRandom random) {
            int c = call & 1;
            int count = 150 + random.nextInt(101);
            int from = random.nextBoolean() ? ROWS - count : random.nextInt(ROWS - count);
            scan.build(sizes[c], from, count, chars[c], starts[c][from], views, 16L * from);
        }

        /** Sizes uniform in [0, max]. */
        private static int[] sizes(SplittableRandom random, int max) {
            int[] sizes = new int[ROWS];
            for (int i = 0; i < ROWS; i++) {
                sizes[i] = random.nextInt(max + 1);
            }
            return sizes;
        }
    }
}
