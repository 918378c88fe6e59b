package dev.stringview;

import static dev.stringview.ModelChecks.checkPredicate;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stringview.TestData.Shape;
import dev.stringview.internal.Vectorization;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The first, view-only pass of equality, starts-with and order, which runs as Vector API code
 * ({@code internal.PanamaViewWords}, 32 rows a step) when the JVM has the module and as the kernels' scalar loops
 * otherwise; Surefire runs this class both ways (core/pom.xml). Fixed-seed loops against the on-heap model over the
 * row counts where a vector loop has edges: 0..70 rows, then around multiples of 32, 64 and the 1024-row chunks
 * of {@code count} and {@code mask}; values of 0/1/4/11/12/13/16/17 bytes and others, bytes 0x00/0x80/0xC3/0xFF in
 * prefixes, nulls whose views hold garbage, and columns of many buffers.
 */
class ViewWordPassTest {
    /**
     * The properties run on the vector loops where this JVM has them (the default surefire run) and on the scalar
     * loops where it has not (the scalar-kernels run, core/pom.xml): the kernels take the vector loops only after
     * the explicit warm-up.
     */
    @org.junit.jupiter.api.BeforeAll
    static void warmUpVectorLoops() {
        ViewKernels.warmUp();
    }

    private static final int[] LENGTHS = {0, 1, 4, 11, 12, 13, 16, 17, 3, 5, 8, 25};
    private static final byte[] ALPHABET = {0x00, 0x01, 'a', 'b', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};

    /** Row counts: every count to 70, then around the multiples where a vector step, a word or a chunk ends. */
    static int[] rowCounts() {
        IntStream small = IntStream.rangeClosed(0, 70);
        IntStream edges = IntStream.of(95, 96, 97, 127, 128, 129, 255, 256, 257, 1023, 1024, 1025, 1056, 2047, 2049,
                3100);
        return IntStream.concat(small, edges).toArray();
    }

    @Test
    void vectorPassIsActiveExactlyWhenExpected() {
        boolean available = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
                && !"false".equals(System.getProperty(Vectorization.PROPERTY));
        assertEquals(available, Vectorization.available(), Vectorization.describe());
        assertEquals(available, ViewKernels.warmUp(), Vectorization.describe());
        boolean expected = available && Vectorization.preferredBits() >= 512;
        assertEquals(expected, Vectorization.viewWords() != null, Vectorization.describe());
    }

    /** Warms the vector passes up where the JVM has them, so that the kernels below run them; else scalar. */
    private static void warmUpVectorPasses() {
        ViewKernels.warmUp();
    }

    /** Every entry point of equality, starts-with and the six comparisons, against the model, at every row count. */
    @Test
    void kernelsMatchModelAtEveryRowCount() {
        warmUpVectorPasses();
        for (int rows : rowCounts()) {
            long seed = 0x5EED_0000L + rows;
            Random random = new Random(seed);
            byte[] start = randomBytes(random, 17);
            List<byte[]> values = values(random, rows, start, rows % 3 != 0);
            Shape shape = Shape.values()[rows % Shape.values().length];
            List<byte[]> constants = new ArrayList<>();
            constants.add(Arrays.copyOf(start, LENGTHS[random.nextInt(LENGTHS.length)]));
            if (rows > 0 && values.get(rows / 2) != null) {
                constants.add(values.get(rows / 2));
            }
            try (Arena arena = Arena.ofConfined()) {
                ViewColumn column = TestData.anyColumn(arena, ViewKind.BINARY, values, shape, seed);
                String where = "rows=" + rows + " shape=" + shape + " seed=" + seed;
                for (byte[] k : constants) {
                    String what = where + " constant=" + ModelChecks.show(k);
                    checkPredicate(what + " equalTo", ViewPredicates.equalTo(k), column, values,
                            v -> Arrays.equals(v, k), seed);
                    checkPredicate(what + " notEqualTo", ViewPredicates.notEqualTo(k), column, values,
                            v -> !Arrays.equals(v, k), seed);
                    for (Comparison c : Comparison.values()) {
                        checkPredicate(what + " compare(" + c + ")", ViewPredicates.compare(c, k), column, values,
                                v -> c.accepts(Arrays.compareUnsigned(v, k)), seed);
                    }
                }
                for (int patternLength : new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17}) {
                    byte[] pattern = Arrays.copyOf(start, patternLength);
                    checkPredicate(where + " startsWith " + ModelChecks.show(pattern),
                            ViewPredicates.startsWith(pattern), column, values,
                            v -> v.length >= pattern.length
                                    && Arrays.equals(v, 0, pattern.length, pattern, 0, pattern.length), seed);
                }
            }
        }
    }

    /**
     * Starts-with at every share of candidates: columns where every row, about a third, or one row in twenty
     * shares the pattern's first 4 bytes, at row counts around the 32-row steps and 1024-row windows, against the
     * model for {@code count} (bit counts, long candidates only written), {@code select} and {@code mask}, with and
     * without nulls.
     */
    @Test
    void startsWithMatchesModelAtEveryCandidateShare() {
        warmUpVectorPasses();
        for (int rows : new int[] {31, 32, 33, 1023, 1024, 1025, 3100}) {
            for (int share : new int[] {1, 3, 20}) {
                long seed = 0x5EED_1500L + rows * 31L + share;
                Random random = new Random(seed);
                byte[] start = randomBytes(random, 17);
                List<byte[]> values = new ArrayList<>();
                for (int row = 0; row < rows; row++) {
                    int length = LENGTHS[random.nextInt(LENGTHS.length)];
                    byte[] value = randomBytes(random, length);
                    if (random.nextInt(share) == 0) {
                        System.arraycopy(start, 0, value, 0, Math.min(length, 4 + random.nextInt(14)));
                    }
                    values.add(share == 3 && random.nextInt(10) == 0 ? null : value);
                }
                Shape shape = Shape.values()[(rows + share) % Shape.values().length];
                try (Arena arena = Arena.ofConfined()) {
                    ViewColumn column = TestData.anyColumn(arena, ViewKind.BINARY, values, shape, seed);
                    for (int patternLength : new int[] {0, 2, 4, 5, 8, 12, 13, 17}) {
                        byte[] pattern = Arrays.copyOf(start, patternLength);
                        checkPredicate("rows=" + rows + " share=1/" + share + " shape=" + shape + " seed=" + seed
                                        + " startsWith " + ModelChecks.show(pattern),
                                ViewPredicates.startsWith(pattern), column, values,
                                v -> v != null && v.length >= pattern.length
                                        && Arrays.equals(v, 0, pattern.length, pattern, 0, pattern.length), seed);
                    }
                }
            }
        }
    }

    /**
     * The order kernel's vector pass switches, window by window, between leaving every row with the constant's
     * prefix to the tie phase and settling the inline ones from their views ({@code settleInline}), after a window
     * whose crowded words had such rows, with a plain pass every eighth window. Columns of 9,000 to 9,500 rows
     * (more than eight windows, not a multiple of 32) run through regimes of about 1,500 rows each: words crowded
     * with inline ties (lengths 0..13 around the inline edge, most sharing the constant's first 4, 8 or 12
     * bytes), crowded with long ties (17 and 25 bytes), sparse ties, crowded with a mix, so that the mode turns on
     * and off inside one call and at window borders. Bytes 0x00, 0x80 and 0xFF, nulls with garbage views, every
     * shape; constants of 0..13, 17 and 25 bytes from the shared start, and a row's own value; every comparison
     * against the on-heap model, through select, count, mask, test and selections.
     */
    @Test
    void orderSettlesInlineTiesAcrossWindows() {
        warmUpVectorPasses();
        int[] constantLengths = {0, 1, 3, 4, 5, 8, 11, 12, 13, 17, 25};
        for (int trial = 0; trial < 3; trial++) {
            long seed = 0x5E77_1E00L + trial;
            Random random = new Random(seed);
            byte[] start = randomBytes(random, 25);
            start[1] = (byte) 0x80;
            start[2] = (byte) 0xFF;
            int rows = 9000 + random.nextInt(500);
            List<byte[]> values = new ArrayList<>();
            for (int row = 0; row < rows; row++) {
                int regime = (row / 1500 + trial) % 4; // 0 inline ties, 1 long ties, 2 sparse, 3 mixed
                if ((row & 15) == 3 && random.nextInt(3) == 0) {
                    values.add(null);
                    continue;
                }
                int length = switch (regime) {
                    case 0 -> random.nextInt(14);
                    case 1 -> random.nextBoolean() ? 17 : 25;
                    default -> LENGTHS[random.nextInt(LENGTHS.length)];
                };
                byte[] value = randomBytes(random, length);
                boolean tie = regime == 2 ? random.nextInt(20) == 0 : random.nextInt(8) != 0;
                if (tie) {
                    int shared = Math.min(length, new int[] {4, 8, 12, 25}[random.nextInt(4)]);
                    System.arraycopy(start, 0, value, 0, shared);
                }
                values.add(value);
            }
            Shape shape = Shape.values()[trial % Shape.values().length];
            try (Arena arena = Arena.ofConfined()) {
                ViewColumn column = TestData.anyColumn(arena, ViewKind.BINARY, values, shape, seed);
                List<byte[]> constants = new ArrayList<>();
                for (int length : constantLengths) {
                    byte[] k = Arrays.copyOf(start, length);
                    if (length > 0 && random.nextBoolean()) {
                        k[length - 1] = ALPHABET[random.nextInt(ALPHABET.length)];
                    }
                    constants.add(k);
                }
                byte[] own = values.get(random.nextInt(rows));
                if (own != null) {
                    constants.add(own);
                }
                for (byte[] k : constants) {
                    String what = "rows=" + rows + " shape=" + shape + " seed=" + seed + " constant="
                            + ModelChecks.show(k);
                    for (Comparison c : Comparison.values()) {
                        checkPredicate(what + " compare(" + c + ")", ViewPredicates.compare(c, k), column, values,
                                v -> c.accepts(Arrays.compareUnsigned(v, k)), seed);
                    }
                }
            }
        }
    }

    /**
     * The vector methods against the scalar loops they replace, directly, over ranges that start and end anywhere
     * (not only at the kernels' chunk borders), on views of random words (lengths of either sign, any prefix) and
     * of view-like words sharing a constant's prefix. The output array has room for exactly {@code to - from}
     * ids, so a vector store past that room would fail.
     */
    @Test
    void vectorMethodsMatchTheScalarLoops() {
        warmUpVectorPasses();
        Vectorization.ViewWordScan vector = Vectorization.viewWords();
        assumeTrue(vector != null, "the vector code is not active in this run");
        Random random = new Random(0xB0B5L);
        for (int trial = 0; trial < 400; trial++) {
            int size = trial < 140 ? trial / 2 : random.nextInt(trial < 300 ? 300 : 3000);
            long k0 = viewLikeWord(random);
            long k1 = random.nextLong();
            long[] words = new long[2 * size];
            for (int i = 0; i < size; i++) {
                boolean close = random.nextInt(4) == 0;
                words[2 * i] = close ? (random.nextBoolean() ? k0 : (k0 & ~0xFFFF_FFFFL) | random.nextInt(20))
                        : random.nextInt(8) == 0 ? random.nextLong() : viewLikeWord(random);
                words[2 * i + 1] = close && random.nextBoolean() ? k1
                        : close && random.nextBoolean() ? (k1 & 0xFFFF_FFFFL) | (long) random.nextInt(4) << 32
                        : random.nextLong();
            }
            MemorySegment views = MemorySegment.ofArray(words);
            int from = size == 0 ? 0 : random.nextInt(size + 1);
            int to = from + (size == from ? 0 : random.nextInt(size - from + 1));
            String what = "trial=" + trial + " size=" + size + " from=" + from + " to=" + to;

            int[] out = new int[to - from];
            int n = vector.equalWord0(views, from, to, k0, out);
            assertArrayEquals(IntStream.range(from, to).filter(r -> words[2 * r] == k0).toArray(),
                    Arrays.copyOf(out, n), what + " equalWord0");

            assertEquals(IntStream.range(0, to).filter(r -> words[2 * r] == k0 && words[2 * r + 1] == k1).count(),
                    vector.countEqualViews(views, to, k0, k1), what + " countEqualViews");

            int patternLength = random.nextInt(20);
            long prefixMask = lowBytes(Math.min(patternLength, 4)) << 32;
            long inlineMask = lowBytes(Math.max(0, Math.min(patternLength, 12) - 4));
            // One pattern in four ends in a zero byte: countPrefix then keeps its length test.
            long lastByteMask = patternLength == 0 ? 0 : patternLength <= 4 ? 0xFFL << (24 + 8 * patternLength)
                    : patternLength <= 12 ? 0xFFL << (8 * (patternLength - 5)) : 0;
            boolean zeroLast = random.nextInt(4) == 0;
            long prefixBits = k0 & prefixMask & (zeroLast && patternLength <= 4 ? ~lastByteMask : -1L);
            long inlineBits = k1 & inlineMask & (zeroLast && patternLength > 4 ? ~lastByteMask : -1L);
            n = vector.prefixCandidates(views, from, to, prefixMask, prefixBits, patternLength, inlineMask,
                    inlineBits, out);
            assertArrayEquals(candidates(words, from, to, prefixMask, prefixBits, patternLength, inlineMask,
                    inlineBits), Arrays.copyOf(out, n), what + " prefixCandidates patternLength=" + patternLength);
            // The count form: the same candidates, those the view decides counted, the long ones of a pattern
            // longer than 4 bytes written (the slots past them are filled first, to see stale ids). A pattern of
            // 1..12 bytes whose last byte is not zero skips the length test and so needs zero padding after an
            // inline value (as validation requires): on these random words only the other patterns are checked,
            // and every pattern on a copy of them with the padding of inline rows (and all bytes of rows of
            // negative length) zeroed.
            boolean lengthTested = patternLength == 0 || patternLength > 12
                    || ((prefixBits | inlineBits) & lastByteMask) == 0;
            long[] padded = words.clone();
            for (int i = 0; i < size; i++) {
                int length = (int) padded[2 * i];
                if (length <= 12) {
                    int kept = Math.max(0, length);
                    padded[2 * i] = padded[2 * i] & (lowBytes(Math.min(kept, 4)) << 32 | 0xFFFF_FFFFL);
                    padded[2 * i + 1] &= lowBytes(Math.max(0, kept - 4));
                }
            }
            for (long[] checked : lengthTested ? new long[][] {words, padded} : new long[][] {padded}) {
                int[] expected = candidates(checked, from, to, prefixMask, prefixBits, patternLength, inlineMask,
                        inlineBits);
                Arrays.fill(out, -7);
                long counted = vector.countPrefix(MemorySegment.ofArray(checked), from, to, prefixMask, prefixBits,
                        patternLength, inlineMask, inlineBits, out);
                int[] longRows = Arrays.stream(expected).filter(r -> patternLength > 4 && (int) checked[2 * r] > 12)
                        .toArray();
                String which = what + (checked == padded ? " zero-padded" : "") + " countPrefix";
                assertEquals(expected.length - longRows.length, (int) (counted >>> 32),
                        which + " decided patternLength=" + patternLength + " lengthTested=" + lengthTested);
                assertArrayEquals(longRows, Arrays.copyOf(out, (int) counted),
                        which + " long candidates patternLength=" + patternLength);
            }
            // The form that hands over second view words, into an array with exactly the room it asks for.
            long[] words1 = new long[to - from + 8];
            int equalWords = vector.equalWords1(views, from, to, k0, words1);
            assertArrayEquals(IntStream.range(from, to).filter(r -> words[2 * r] == k0)
                    .mapToLong(r -> words[2 * r + 1]).toArray(), Arrays.copyOf(words1, equalWords),
                    what + " equalWords1");

            int count = Math.min(1024, to - from);
            long firstKey = Long.reverseBytes(k0 >>> 32 | k1 << 32);
            int prefixLittleEndian = (int) (k0 >>> 32);
            for (boolean settleInline : new boolean[] {false, true}) {
                long[] less = new long[(count + 63) >>> 6];
                long[] ties = new long[less.length];
                vector.orderWords(views, from, count, firstKey, prefixLittleEndian, settleInline, less, ties);
                for (int i = 0; i < count; i++) {
                    long key = Long.reverseBytes(words[2 * (from + i)] >>> 32 | words[2 * (from + i) + 1] << 32);
                    int row = from + i;
                    String how = what + " settleInline=" + settleInline + " orderWords";
                    assertEquals(Long.compareUnsigned(key, firstKey) < 0, (less[i >>> 6] >>> i & 1) != 0,
                            () -> how + " less row=" + row);
                    // A tie: the constant's prefix, and (settleInline) long or with the constant's bytes 4..11 (an
                    // inline row whose bytes 4..11 differ is ordered by its "less" bit).
                    boolean settled = settleInline && (int) words[2 * (from + i)] <= 12 && key != firstKey;
                    assertEquals((key >>> 32) == (firstKey >>> 32) && !settled, (ties[i >>> 6] >>> i & 1) != 0,
                            () -> how + " ties row=" + row);
                }
            }
        }
    }

    /** The model of starts-with's candidates among the rows {@code [from, to)} of {@code words}. */
    private static int[] candidates(long[] words, int from, int to, long prefixMask, long prefixBits,
            int patternLength, long inlineMask, long inlineBits) {
        return IntStream.range(from, to).filter(r -> (words[2 * r] & prefixMask) == prefixBits
                && (int) words[2 * r] >= patternLength
                && ((int) words[2 * r] > 12 || (words[2 * r + 1] & inlineMask) == inlineBits)).toArray();
    }

    /** A first view word: a length of 0..40, a prefix from a few bytes including 0x00, 0x80 and 0xFF. */
    private static long viewLikeWord(Random random) {
        long prefix = 0;
        for (int i = 0; i < 4; i++) {
            prefix |= (long) (ALPHABET[random.nextInt(ALPHABET.length)] & 0xFF) << (8 * i);
        }
        return prefix << 32 | random.nextInt(41);
    }

    private static long lowBytes(int n) {
        return n == 8 ? -1L : (1L << (8 * n)) - 1;
    }

    private static byte[] randomBytes(Random random, int n) {
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return bytes;
    }

    /**
     * {@code rows} values: a third start like {@code start} for 4, 8 or 12 bytes or all of it (ties for every
     * kernel), the rest random; lengths from {@link #LENGTHS}; about one in twelve null when {@code nulls}.
     */
    private static List<byte[]> values(Random random, int rows, byte[] start, boolean nulls) {
        List<byte[]> values = new ArrayList<>();
        for (int row = 0; row < rows; row++) {
            int length = LENGTHS[random.nextInt(LENGTHS.length)];
            if (nulls && random.nextInt(12) == 0) {
                values.add(null);
                continue;
            }
            byte[] value = randomBytes(random, length);
            if (random.nextInt(3) == 0) {
                int shared = Math.min(length, new int[] {4, 8, 12, 17}[random.nextInt(4)]);
                System.arraycopy(start, 0, value, 0, shared);
            }
            values.add(value);
        }
        return values;
    }
}
