package dev.stringview.internal;

import dev.stringview.ViewLayout;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.Arrays;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The view-word passes of {@link Vectorization.ViewWordScan} with the Panama Vector API, 512-bit vectors. One load
 * takes 4 whole views (8 longs), so that even lanes hold first view words (length, prefix) and odd lanes second
 * ones; every lane is compared with a broadcast constant at once, the masks become bits ({@code toLong}), and
 * {@link Long#compress} keeps one bit per row in row order, 32 rows per step. Rows after the last full step go
 * through the same tests one by one, so every method's output is exactly that of the kernels' scalar loops.
 *
 * <p>{@link Vectorization} loads this class only on CPUs whose preferred vectors have 512 bits. A species held in
 * a static final field is a constant to C2; passed around, it may not be, and the Vector API then runs boxed code
 * (see {@link PanamaByteSearch}).
 */
final class PanamaViewWords implements Vectorization.ViewWordScan {
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_512;
    private static final int LANES = LONGS.length();
    /** Loads per step: a step fills one 64-bit word of lane bits, 32 rows. */
    private static final int LOADS = Long.SIZE / LANES;
    private static final int STEP_ROWS = 32;
    private static final long STEP_BYTES = STEP_ROWS * 16L;
    private static final long EVEN_LANES = 0x5555_5555_5555_5555L;
    /**
     * The incubator's unsigned less-than, looked up by name because it changed after JDK 22 (the release this code
     * compiles for): {@code UNSIGNED_LT} there, {@code ULT} since. Null when neither exists; order then flips the
     * sign bits and compares signed.
     */
    private static final VectorOperators.Comparison UNSIGNED_LT = unsignedLessThan();
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final long LOW_INT = 0xFFFF_FFFFL;

    private static VectorOperators.Comparison unsignedLessThan() {
        for (String name : new String[] {"ULT", "UNSIGNED_LT"}) {
            try {
                return (VectorOperators.Comparison) VectorOperators.class.getField(name).get(null);
            } catch (ReflectiveOperationException | ClassCastException e) {
                // try the other name
            }
        }
        return null;
    }

    /** Two broadcast constants alternating over the lanes: {@code even} in even lanes, {@code odd} in odd ones. */
    private static LongVector pairs(long even, long odd) {
        long[] lanes = new long[LANES];
        for (int i = 0; i < LANES; i += 2) {
            lanes[i] = even;
            lanes[i + 1] = odd;
        }
        return LongVector.fromArray(LONGS, lanes, 0);
    }

    private static LongVector load(MemorySegment views, long at) {
        return LongVector.fromMemorySegment(LONGS, views, at, LE);
    }

    @Override
    public void equalWords(MemorySegment views, int first, int count, long k0, long k1, long[] word0Equal,
            long[] viewEqual) {
        int words = (count + 63) >>> 6;
        Arrays.fill(word0Equal, 0, words, 0L);
        Arrays.fill(viewEqual, 0, words, 0L);
        LongVector constant = pairs(k0, k1);
        long start = (long) first << 4;
        int steps = count / STEP_ROWS;
        for (int s = 0; s < steps; s++) {
            long at = start + s * STEP_BYTES;
            long lanes = 0;
            for (int j = 0; j < LOADS; j++) {
                lanes |= load(views, at + j * (LANES * 8L)).compare(VectorOperators.EQ, constant).toLong()
                        << (j * LANES);
            }
            int i = s * STEP_ROWS;
            word0Equal[i >>> 6] |= Long.compress(lanes, EVEN_LANES) << (i & 63);
            viewEqual[i >>> 6] |= Long.compress(lanes & (lanes >>> 1), EVEN_LANES) << (i & 63);
        }
        for (int i = steps * STEP_ROWS; i < count; i++) {
            long at = start + ((long) i << 4);
            long same0 = views.get(ViewLayout.LAYOUT_LE_LONG, at) == k0 ? 1 : 0;
            long same1 = views.get(ViewLayout.LAYOUT_LE_LONG, at + 8) == k1 ? 1 : 0;
            word0Equal[i >>> 6] |= same0 << i;
            viewEqual[i >>> 6] |= (same0 & same1) << i;
        }
    }

    @Override
    public void prefixWords(MemorySegment views, int first, int count, long prefixMask, long prefixBits,
            int patternLength, long inlineMask, long inlineBits, long[] candidates, long[] longCandidates) {
        int words = (count + 63) >>> 6;
        Arrays.fill(candidates, 0, words, 0L);
        Arrays.fill(longCandidates, 0, words, 0L);
        LongVector masks = pairs(prefixMask, inlineMask);
        LongVector bits = pairs(prefixBits, inlineBits);
        long start = (long) first << 4;
        int steps = count / STEP_ROWS;
        for (int s = 0; s < steps; s++) {
            long rows = prefixStep(views, start + s * STEP_BYTES, masks, bits, patternLength);
            int i = s * STEP_ROWS;
            candidates[i >>> 6] |= (rows & LOW_INT) << (i & 63);
            longCandidates[i >>> 6] |= (rows >>> 32) << (i & 63);
        }
        for (int i = steps * STEP_ROWS; i < count; i++) {
            long at = start + ((long) i << 4);
            long w0 = views.get(ViewLayout.LAYOUT_LE_LONG, at);
            long isLong = (int) w0 > ViewLayout.INLINE_MAX ? 1 : 0;
            long candidate = (w0 & prefixMask) == prefixBits && (int) w0 >= patternLength
                    && (isLong != 0 || (views.get(ViewLayout.LAYOUT_LE_LONG, at + 8) & inlineMask) == inlineBits)
                    ? 1 : 0;
            candidates[i >>> 6] |= candidate << i;
            longCandidates[i >>> 6] |= (candidate & isLong) << i;
        }
    }

    /**
     * One 32-row step of starts-with at view offset {@code at}: bit {@code i} of the low half is set when row
     * {@code i} is a candidate (prefix and length fit, and the row is long or its inline bytes agree), bit
     * {@code 32 + i} when it is also long.
     */
    private static long prefixStep(MemorySegment views, long at, LongVector masks, LongVector bits,
            int patternLength) {
        // One AND and one compare test the masked prefix (even lanes) and the masked inline bytes 4..11 (odd
        // lanes) together. The lengths are compared as int lanes of the same load (int lane 4k is view k's
        // length), which saves shifting them out of the long lanes.
        long same = 0;
        long longEnough = 0;
        long isLong = 0;
        for (int half = 0; half < 2; half++) { // int-lane bits fill a 64-bit word every LOADS / 2 loads
            long atLeast = 0;
            long above = 0;
            for (int j = 0; j < LOADS / 2; j++) {
                int load = half * (LOADS / 2) + j;
                LongVector v = load(views, at + load * (LANES * 8L));
                same |= v.and(masks).compare(VectorOperators.EQ, bits).toLong() << (load * LANES);
                IntVector ints = v.reinterpretAsInts();
                int shift = j * 2 * LANES;
                atLeast |= ints.compare(VectorOperators.GE, patternLength).toLong() << shift;
                above |= ints.compare(VectorOperators.GT, ViewLayout.INLINE_MAX).toLong() << shift;
            }
            // Int lane 4k goes to bit 2k, where view k's first word has its bit in the long-lane masks.
            longEnough |= Long.compress(atLeast, EVEN_LANES) << (half * 32);
            isLong |= Long.compress(above, EVEN_LANES) << (half * 32);
        }
        // Row bit (even lane): prefix and length fit, and the row is long or its inline bytes agree (odd lane).
        long rows = same & longEnough & (isLong | same >>> 1);
        return Long.compress(rows, EVEN_LANES) | Long.compress(rows & isLong, EVEN_LANES) << 32;
    }

    @Override
    public void orderWords(MemorySegment views, int first, int count, long firstKey, int prefixLittleEndian,
            long[] less, long[] ties) {
        int words = (count + 63) >>> 6;
        Arrays.fill(less, 0, words, 0L);
        Arrays.fill(ties, 0, words, 0L);
        // Each load starts 4 bytes into a view, so that even lanes hold view bytes 4..11: the prefix, then bytes
        // 4..7 of an inline value or a long one's buffer index. Byte-swapped, that orders like the value whenever
        // the prefixes differ (OrderPredicate), and for an inline row it is its first eight bytes, so an inline
        // row whose eight bytes differ from the constant's is decided too. A second load of the same views from
        // their start gives the lengths (even lanes; shifted up, a signed compare with 12 << 32 is the int
        // compare). The loads of a step end 4 bytes into the next row, so steps run only while that row is in the
        // segment; the rest goes through the scalar tests.
        LongVector key = LongVector.broadcast(LONGS, UNSIGNED_LT == null ? firstKey ^ Long.MIN_VALUE : firstKey);
        LongVector prefix = LongVector.broadcast(LONGS, Integer.toUnsignedLong(prefixLittleEndian));
        LongVector bytes4To11 = LongVector.broadcast(LONGS, Long.reverseBytes(firstKey));
        long inlineMaxHigh = (long) ViewLayout.INLINE_MAX << 32;
        long start = ((long) first << 4) + 4;
        // One flat loop over the loads of all steps: with the loads of a step in an inner loop, C2 kept a bounds,
        // liveness and segment-class check per load.
        int steps = (int) Math.min(count / STEP_ROWS, Math.max(0, (views.byteSize() - start) / STEP_BYTES));
        int loads = steps * LOADS;
        long below = 0;
        long tied = 0;
        for (int load = 0; load < loads; load++) {
            long at = start + load * (LANES * 8L);
            LongVector v = load(views, at);
            LongVector words0 = load(views, at - 4);
            int shift = (load % LOADS) * LANES;
            below |= below(v, key).toLong() << shift;
            VectorMask<Long> settled = words0.lanewise(VectorOperators.LSHL, 32)
                    .compare(VectorOperators.LE, inlineMaxHigh).and(v.compare(VectorOperators.NE, bytes4To11));
            tied |= v.and(LOW_INT).compare(VectorOperators.EQ, prefix).andNot(settled).toLong() << shift;
            if (load % LOADS == LOADS - 1) {
                int i = (load / LOADS) * STEP_ROWS;
                less[i >>> 6] |= Long.compress(below, EVEN_LANES) << (i & 63);
                ties[i >>> 6] |= Long.compress(tied, EVEN_LANES) << (i & 63);
                below = 0;
                tied = 0;
            }
        }
        for (int i = steps * STEP_ROWS; i < count; i++) {
            long at = ((long) (first + i) << 4) + 4;
            long k = views.get(ViewLayout.LAYOUT_BE_LONG, at);
            boolean settled = views.get(ViewLayout.LAYOUT_LE_INT, at - 4) <= ViewLayout.INLINE_MAX && k != firstKey;
            less[i >>> 6] |= (Long.compareUnsigned(k, firstKey) < 0 ? 1L : 0L) << i;
            ties[i >>> 6] |= ((k >>> 32) == firstKey >>> 32 && !settled ? 1L : 0L) << i;
        }
    }

    /**
     * The lanes whose value, byte-swapped, is unsigned below the key's ({@code key} as {@link #orderWords} made it:
     * sign-flipped when the incubator has no unsigned compare).
     */
    private static VectorMask<Long> below(LongVector v, LongVector key) {
        LongVector swapped = v.lanewise(VectorOperators.REVERSE_BYTES);
        return UNSIGNED_LT == null
                ? swapped.lanewise(VectorOperators.XOR, Long.MIN_VALUE).compare(VectorOperators.LT, key)
                : swapped.compare(UNSIGNED_LT, key);
    }

    @Override
    public String describe() {
        return LONGS.vectorBitSize() + "-bit view words";
    }
}
