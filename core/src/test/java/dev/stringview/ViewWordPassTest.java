package dev.stringview;

import static dev.stringview.ModelChecks.checkPredicate;
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
     * Order over columns of 9,000 to 9,500 rows (more than eight windows, not a multiple of 32) that run through
     * regimes of about 1,500 rows each: words crowded with inline ties (lengths 0..13 around the inline edge, most
     * sharing the constant's first 4, 8 or 12 bytes), crowded with long ties (17 and 25 bytes), sparse ties,
     * crowded with a mix, so that the tie share changes inside one call and at window borders. Bytes 0x00, 0x80 and
     * 0xFF, nulls with garbage views, every shape; constants of 0..13, 17 and 25 bytes from the shared start, and a
     * row's own value; every comparison against the on-heap model, through select, count, mask, test and
     * selections.
     */
    @Test
    void orderAcrossRegimesOfTies() {
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
     * The vector passes against the model of their bits, directly, over windows that start and end anywhere (not
     * only at the kernels' window borders) and up to the segment's end, on views of random words (lengths of either
     * sign, any prefix) and of view-like words sharing a constant's prefix. The output words are filled with
     * garbage first: a pass overwrites every word it covers.
     */
    @Test
    void vectorPassesMatchTheModel() {
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
            if (random.nextInt(4) == 0) {
                from = Math.max(0, size - random.nextInt(1100)); // a window ending at the segment's end
            }
            int count = Math.min(1024, size - from == 0 ? 0 : random.nextInt(size - from + 1));
            String what = "trial=" + trial + " size=" + size + " from=" + from + " count=" + count;
            int wordsOut = (count + 63) >>> 6;
            long[] a = new long[wordsOut + 1];
            long[] b = new long[wordsOut + 1];

            fillGarbage(random, a, b);
            vector.equalWords(views, from, count, k0, k1, a, b);
            assertBits(what + " equalWords word0Equal", from, count, a, r -> words[2 * r] == k0);
            assertBits(what + " equalWords viewEqual", from, count, b,
                    r -> words[2 * r] == k0 && words[2 * r + 1] == k1);

            int patternLength = random.nextInt(20);
            long prefixMask = lowBytes(Math.min(patternLength, 4)) << 32;
            long inlineMask = lowBytes(Math.max(0, Math.min(patternLength, 12) - 4));
            long prefixBits = k0 & prefixMask & (random.nextInt(4) == 0 ? ~(0xFFL << 56) : -1L);
            long inlineBits = k1 & inlineMask & (random.nextInt(4) == 0 ? ~(0xFFL << 24) : -1L);
            fillGarbage(random, a, b);
            vector.prefixWords(views, from, count, prefixMask, prefixBits, patternLength, inlineMask, inlineBits,
                    a, b);
            String how = what + " prefixWords patternLength=" + patternLength;
            assertBits(how + " candidates", from, count, a, r -> candidate(words, r, prefixMask, prefixBits,
                    patternLength, inlineMask, inlineBits));
            assertBits(how + " longCandidates", from, count, b, r -> candidate(words, r, prefixMask, prefixBits,
                    patternLength, inlineMask, inlineBits) && (int) words[2 * r] > 12);

            long firstKey = Long.reverseBytes(k0 >>> 32 | k1 << 32);
            int prefixLittleEndian = (int) (k0 >>> 32);
            fillGarbage(random, a, b);
            vector.orderWords(views, from, count, firstKey, prefixLittleEndian, a, b);
            assertBits(what + " orderWords less", from, count, a,
                    r -> Long.compareUnsigned(orderKey(words, r), firstKey) < 0);
            assertBits(what + " orderWords ties", from, count, b,
                    r -> (orderKey(words, r) >>> 32) == (firstKey >>> 32)
                            && ((int) words[2 * r] > 12 || orderKey(words, r) == firstKey));
        }
    }

    /** View bytes 4..11 of row {@code r}, big-endian. */
    private static long orderKey(long[] words, int r) {
        return Long.reverseBytes(words[2 * r] >>> 32 | words[2 * r + 1] << 32);
    }

    private static void fillGarbage(Random random, long[] a, long[] b) {
        for (int i = 0; i < a.length; i++) {
            a[i] = random.nextLong();
            b[i] = random.nextLong();
        }
    }

    /**
     * Bit {@code i} of {@code bits} is set exactly for the rows {@code from + i} ({@code i < count}) that
     * {@code expected} accepts, the bits past {@code count} in the covered words are clear.
     */
    private static void assertBits(String what, int from, int count, long[] bits,
            java.util.function.IntPredicate expected) {
        for (int i = 0; i < ((count + 63) & ~63); i++) {
            boolean set = (bits[i >>> 6] >>> i & 1) != 0;
            boolean want = i < count && expected.test(from + i);
            int row = from + i;
            assertEquals(want, set, () -> what + " row=" + row);
        }
    }

    /** The model of starts-with's candidate test for row {@code r} of {@code words}. */
    private static boolean candidate(long[] words, int r, long prefixMask, long prefixBits, int patternLength,
            long inlineMask, long inlineBits) {
        return (words[2 * r] & prefixMask) == prefixBits && (int) words[2 * r] >= patternLength
                && ((int) words[2 * r] > 12 || (words[2 * r + 1] & inlineMask) == inlineBits);
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
