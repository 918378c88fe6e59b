package dev.stringview.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stringview.format.internal.Lz4Block;
import dev.stringview.format.internal.SizeCodec;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/** The lightweight sizes codec: each mode is chosen where it is smallest, and every mode decodes what it encoded. */
class SizeCodecTest {
    private static final long SEED = 0x517E5L;
    private final SizeCodec codec = new SizeCodec(new Lz4Block());

    private long encode(int[] sizes, MemorySegment out) {
        return codec.encodeLightweight(sizes, sizes.length, out,
                MemorySegment.ofArray(new byte[4 * sizes.length]));
    }

    private int[] roundTrip(int[] sizes, String where) throws CorruptColumnException {
        MemorySegment out = MemorySegment.ofArray(new byte[codec.maxEncodedLength(sizes.length)]);
        long encoded = encode(sizes, out);
        int encoding = (int) (encoded & 0xFF);
        int length = (int) (encoded >>> 8);
        int[] back = new int[sizes.length];
        codec.decode(encoding, out.asSlice(0, length), sizes.length, back, 0, 0);
        assertArrayEquals(sizes, back, where + " encoding=" + SizeCodec.name(encoding));
        return new int[] {encoding, length};
    }

    private static int[] of(int n, IntUnaryOperator f) {
        int[] out = new int[n];
        Arrays.setAll(out, f);
        return out;
    }

    @Test
    void eachModeIsChosenWhereItIsSmallest() throws CorruptColumnException {
        assertEquals(SizeCodec.CONSTANT, roundTrip(of(65_535, i -> 8), "constant")[0]);
        assertEquals(4, roundTrip(of(65_535, i -> 8), "constant")[1]);
        assertEquals(SizeCodec.CONSTANT_DELTA, roundTrip(of(1000, i -> 5 + 3 * i), "constantDelta")[0]);
        assertEquals(SizeCodec.CONSTANT_DELTA, roundTrip(of(1000, i -> 100_000 - 7 * i), "descending")[0]);
        assertEquals(SizeCodec.RUN_LENGTH, roundTrip(of(10_000, i -> i / 1000), "runs")[0]);
        Random random = new Random(SEED);
        int[] uniform = of(65_535, i -> 26 + random.nextInt(13)); // seed 003's [0.8s, 1.2s] at s = 32
        int[] chosen = roundTrip(uniform, "uniform");
        assertEquals(SizeCodec.FRAME_OF_REFERENCE, chosen[0]);
        assertEquals(5 + (65_535 * 4 + 7) / 8, chosen[1], "4 bits a value");
        int[] walk = new int[5000];
        walk[0] = 1_000_000;
        for (int i = 1; i < walk.length; i++) {
            walk[i] = walk[i - 1] + random.nextInt(7) - 3; // small steps over a wide range
        }
        assertEquals(SizeCodec.DELTA_FRAME_OF_REFERENCE, roundTrip(walk, "walk")[0]);
        int[] repeating = of(20_000, i -> (i % 4) * 1_000_000); // wide and irregular for FOR, a pattern for LZ4
        assertEquals(SizeCodec.LZ4, roundTrip(repeating, "lz4 fallback")[0]);
    }

    @Test
    void randomSizesRoundTripInWhicheverModeWins() throws CorruptColumnException {
        Random random = new Random(SEED + 1);
        int[] seen = new int[7];
        for (int c = 0; c < 400; c++) {
            int n = 1 + random.nextInt(random.nextBoolean() ? 10 : 3000);
            int base = random.nextInt(4) == 0 ? Integer.MAX_VALUE - random.nextInt(100) : random.nextInt(1000);
            int spread = 1 << random.nextInt(31);
            int mode = random.nextInt(5);
            int[] sizes = new int[n];
            for (int i = 0; i < n; i++) {
                long v = switch (mode) {
                    case 0 -> base;
                    case 1 -> (long) base - (long) i % 3;
                    case 2 -> random.nextInt(Math.max(1, spread));
                    case 3 -> i == 0 ? base : Math.max(0, Math.min(Integer.MAX_VALUE, (long) sizes[i - 1]
                            + random.nextInt(9) - 4));
                    default -> random.nextInt(3) == 0 ? Integer.MAX_VALUE : 0;
                };
                sizes[i] = (int) Math.max(0, Math.min(Integer.MAX_VALUE, v));
            }
            seen[roundTrip(sizes, "seed=" + (SEED + 1) + " case=" + c + " n=" + n + " mode=" + mode)[0]]++;
        }
        for (int encoding = SizeCodec.CONSTANT; encoding <= SizeCodec.DELTA_FRAME_OF_REFERENCE; encoding++) {
            assertEquals(true, seen[encoding] > 0, "mode never chosen: " + SizeCodec.name(encoding) + " seen="
                    + Arrays.toString(seen));
        }
    }

    @Test
    void forgedStreamsAreRejectedNamingTheRow() {
        int[] out = new int[4];
        MemorySegment negative = MemorySegment.ofArray(new byte[] {-1, -1, -1, -1});
        CorruptColumnException e = assertThrows(CorruptColumnException.class,
                () -> codec.decode(SizeCodec.CONSTANT, negative, 4, out, 3, 100));
        assertEquals("corrupt serialized column: block=3 row=100 field=sizes encoding=constant size=-1 max=2147483647",
                e.getMessage());
        // Constant delta that runs past 2^31 - 1 at the third row.
        MemorySegment delta = MemorySegment.ofArray(new byte[8]);
        delta.set(SizeCodecLayouts.LE_INT, 0, Integer.MAX_VALUE - 1);
        delta.set(SizeCodecLayouts.LE_INT, 4, 1);
        e = assertThrows(CorruptColumnException.class, () -> codec.decode(SizeCodec.CONSTANT_DELTA, delta, 4, out, 0, 0));
        assertEquals(2, e.row());
        // Runs that cover more rows than the block has.
        MemorySegment runs = MemorySegment.ofArray(new byte[] {1, 0, 0, 0, 5, 0, 0, 0, 9});
        e = assertThrows(CorruptColumnException.class, () -> codec.decode(SizeCodec.RUN_LENGTH, runs, 4, out, 0, 0));
        assertEquals("sizes", e.field());
        // A bit width over 32, and a stream shorter than its width needs.
        MemorySegment wide = MemorySegment.ofArray(new byte[] {0, 0, 0, 0, 40});
        assertThrows(CorruptColumnException.class, () -> codec.decode(SizeCodec.FRAME_OF_REFERENCE, wide, 4, out, 0, 0));
        MemorySegment shortFor = MemorySegment.ofArray(new byte[] {0, 0, 0, 0, 8, 1});
        assertThrows(CorruptColumnException.class,
                () -> codec.decode(SizeCodec.FRAME_OF_REFERENCE, shortFor, 4, out, 0, 0));
        assertThrows(CorruptColumnException.class, () -> codec.decode(9, shortFor, 4, out, 0, 0));
        // LZ4 that claims more than LZ4 can expand to.
        assertThrows(CorruptColumnException.class,
                () -> codec.decode(SizeCodec.LZ4, MemorySegment.ofArray(new byte[1]), 1000, new int[1000], 0, 0));
    }

    /**
     * Raw and LZ4 sizes streams with a size of 2^31 or more (sign bit set) at the first, last and inner rows of
     * blocks whose lengths straddle the vector loop's strides (the check counts sign bits in one branch-free
     * pass, then searches): the first such row is named, and a stream without one decodes.
     */
    @Test
    void rawAndLz4SizesWithTheSignBitSetAreRejectedNamingTheFirstSuchRow() throws CorruptColumnException {
        Lz4Block lz4 = new Lz4Block();
        Random random = new Random(SEED + 7);
        for (int n : new int[] {1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1025, 65_535}) {
            int[] rows = {0, n - 1, n / 2, random.nextInt(n)};
            for (int bad : rows) {
                int[] sizes = of(n, i -> random.nextInt(5));
                sizes[bad] = random.nextBoolean() ? Integer.MIN_VALUE : -1 - random.nextInt(1 << 20);
                if (bad + 1 < n && random.nextBoolean()) {
                    sizes[n - 1] = -1; // a later bad row does not hide the first
                }
                MemorySegment raw = MemorySegment.ofArray(new byte[4 * n]);
                MemorySegment.copy(sizes, 0, raw, SizeCodecLayouts.LE_INT, 0, n);
                MemorySegment packed = MemorySegment.ofArray(new byte[lz4.maxCompressedLength(4 * n)]);
                MemorySegment compressed = packed.asSlice(0, lz4.compress(raw, packed));
                for (int encoding : new int[] {SizeCodec.RAW, SizeCodec.LZ4}) {
                    MemorySegment in = encoding == SizeCodec.RAW ? raw : compressed;
                    CorruptColumnException e = assertThrows(CorruptColumnException.class,
                            () -> codec.decode(encoding, in, n, new int[n], 2, 1000));
                    String where = "n=" + n + " bad=" + bad + " encoding=" + SizeCodec.name(encoding);
                    String expected = "corrupt serialized column: block=2 row=" + (1000 + bad) + " field=sizes"
                            + " encoding=" + SizeCodec.name(encoding) + " size=" + sizes[bad] + " max=2147483647";
                    assertEquals(expected, e.getMessage(), where);
                    // The reader's path: the one summary pass finds the sign, then the same row is named.
                    e = assertThrows(CorruptColumnException.class,
                            () -> codec.decodeSummarized(encoding, in, n, new int[n], 2, 1000));
                    assertEquals(expected, e.getMessage(), where + " summarized");
                }
                sizes[bad] = Integer.MAX_VALUE;
                sizes[n - 1] = 0;
                MemorySegment.copy(sizes, 0, raw, SizeCodecLayouts.LE_INT, 0, n);
                int[] back = new int[n];
                codec.decode(SizeCodec.RAW, raw, n, back, 0, 0);
                assertArrayEquals(sizes, back, "n=" + n + " bad=" + bad + " fixed");
                int[] summarized = new int[n];
                SizeCodec.Summary summary = codec.decodeSummarized(SizeCodec.RAW, raw, n, summarized, 0, 0);
                assertArrayEquals(sizes, summarized, "n=" + n + " bad=" + bad + " fixed, summarized");
                assertEquals(Arrays.stream(sizes).asLongStream().sum(), summary.sum(), "n=" + n + " bad=" + bad);
            }
        }
    }

    /**
     * The summary of raw sizes where they arrive (a heap segment over a larger array, at an odd offset) equals the
     * summary of the same sizes in an int[]: every class border (0, 1, 4, 5, 8, 9, 11, 12, 13, 15, 16, 17), all long,
     * one inline among long ones, sums that need a long, and a sign bit anywhere (both null).
     */
    @Test
    void rawSummaryIsTheIntArraySummary() {
        Random random = new Random(SEED + 7);
        int[] edges = {0, 1, 4, 5, 8, 9, 11, 12, 13, 15, 16, 17};
        for (int trial = 0; trial < 3_000; trial++) {
            int n = trial % 7 == 0 ? random.nextInt(3) : 1 + random.nextInt(trial % 3 == 0 ? 70 : 1200);
            int shape = random.nextInt(5);
            int[] sizes = new int[n];
            for (int i = 0; i < n; i++) {
                sizes[i] = switch (shape) {
                    case 0 -> edges[random.nextInt(edges.length)];
                    case 1 -> 13 + random.nextInt(100); // all long
                    case 2 -> random.nextInt(13); // all inline
                    case 3 -> 13 + random.nextInt(5) + (random.nextInt(50) == 0 ? -1 - random.nextInt(13) : 0);
                    default -> random.nextInt(4) == 0 ? (1 << 30) + random.nextInt(1 << 20) : random.nextInt(40);
                };
            }
            if (n > 0 && random.nextInt(6) == 0) {
                sizes[random.nextInt(n)] = Integer.MIN_VALUE + random.nextInt(1000);
            }
            int at = 1 + random.nextInt(7);
            byte[] bytes = new byte[at + 4 * n + random.nextInt(9)];
            random.nextBytes(bytes);
            MemorySegment raw = MemorySegment.ofArray(bytes).asSlice(at, 4L * n);
            MemorySegment.copy(sizes, 0, raw, SizeCodecLayouts.LE_INT, 0, n);
            String where = "seed=" + (SEED + 7) + " trial=" + trial + " n=" + n + " shape=" + shape;
            assertEquals(SizeCodec.summarize(sizes, n), SizeCodec.summarize(raw, n), where);
        }
    }

    /** Little-endian layout for building forged streams. */
    static final class SizeCodecLayouts {
        static final java.lang.foreign.ValueLayout.OfInt LE_INT = java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED
                .withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
    }
}
