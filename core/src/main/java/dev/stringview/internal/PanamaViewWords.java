package dev.stringview.internal;

import dev.stringview.ViewLayout;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The view-word passes of {@link Vectorization.ViewWordScan} with the Panama Vector API. One load takes
 * {@code LANES / 2} whole views (a 512-bit vector holds 8 longs: 4 views), so that even lanes hold first view words
 * (length, prefix) and odd lanes second ones; every lane is compared with a broadcast constant at once, the masks
 * become bits ({@code toLong}), and {@link Long#compress} keeps the lanes that matter (the even ones), one bit per
 * row in row order, 32 rows per step. Rows after the last full step go through the same scalar tests as the
 * kernels' scalar loops, so every method's output is exactly theirs.
 *
 * <p>The width is a constant chosen when this class initializes: 512 bits, or 256 bits under
 * {@code -Dstringview.viewWordBits=256}, which exists only to compare the two widths (256 bits measured slower
 * than the scalar loops in cache, so {@link Vectorization} loads this class only on CPUs with 512-bit vectors). A
 * species held in a static final field is a constant to C2; passed around, it may not be, and the Vector API then
 * runs boxed code (see {@link PanamaByteSearch}).
 */
final class PanamaViewWords implements Vectorization.ViewWordScan {
    private static final VectorSpecies<Long> LONGS = longSpecies();
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_512.vectorBitSize() == LONGS.vectorBitSize()
            ? IntVector.SPECIES_512 : IntVector.SPECIES_256;
    private static final int LANES = LONGS.length();
    /** Views per load. */
    private static final int VIEWS = LANES / 2;
    /** Loads per step: a step fills one 64-bit word of lane bits, 32 rows. */
    private static final int LOADS = Long.SIZE / LANES;
    private static final int STEP_ROWS = 32;
    private static final long STEP_BYTES = STEP_ROWS * 16L;
    private static final long EVEN_LANES = 0x5555_5555_5555_5555L;
    /** Every fourth bit: int lane 4k of a load is the first int of view k. */
    private static final long QUARTER_LANES = 0x1111_1111_1111_1111L;
    /**
     * The incubator's unsigned less-than, looked up by name because it changed after JDK 22 (the release this code
     * compiles for): {@code UNSIGNED_LT} there, {@code ULT} since. Null when neither exists; order then flips the
     * sign bits and compares signed. Held in a static final field, it is a constant to C2 (AVX-512 compares
     * unsigned in one instruction, saving the XOR a load).
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

    private static VectorSpecies<Long> longSpecies() {
        return Vectorization.VIEW_WORD_BITS == 256 ? LongVector.SPECIES_256 : LongVector.SPECIES_512;
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

    @Override
    public int equalWord0(MemorySegment views, int from, int to, long k0, int[] out) {
        LongVector constant = LongVector.broadcast(LONGS, k0);
        int candidates = 0;
        int row = from;
        for (; row + STEP_ROWS <= to; row += STEP_ROWS) {
            long at = (long) row << 4;
            long lanes = 0;
            for (int j = 0; j < LOADS; j++) {
                lanes |= LongVector.fromMemorySegment(LONGS, views, at + j * (LANES * 8L), LE)
                        .compare(VectorOperators.EQ, constant).toLong() << (j * LANES);
            }
            candidates = writeRows(out, candidates, row, Long.compress(lanes, EVEN_LANES));
        }
        for (; row < to; row++) {
            if (views.get(ViewLayout.LAYOUT_LE_LONG, (long) row << 4) == k0) {
                out[candidates++] = row;
            }
        }
        return candidates;
    }

    @Override
    public int countEqualViews(MemorySegment views, int n, long k0, long k1) {
        LongVector constant = pairs(k0, k1);
        int count = 0;
        int row = 0;
        for (; row + STEP_ROWS <= n; row += STEP_ROWS) {
            long at = (long) row << 4;
            long lanes = 0;
            for (int j = 0; j < LOADS; j++) {
                lanes |= LongVector.fromMemorySegment(LONGS, views, at + j * (LANES * 8L), LE)
                        .compare(VectorOperators.EQ, constant).toLong() << (j * LANES);
            }
            count += Long.bitCount(lanes & (lanes >>> 1) & EVEN_LANES); // both words of the view
        }
        for (; row < n; row++) {
            long at = (long) row << 4;
            if (views.get(ViewLayout.LAYOUT_LE_LONG, at) == k0 && views.get(ViewLayout.LAYOUT_LE_LONG, at + 8) == k1) {
                count++;
            }
        }
        return count;
    }

    @Override
    public int prefixCandidates(MemorySegment views, int from, int to, long prefixMask, long prefixBits,
            int patternLength, long inlineMask, long inlineBits, int[] out) {
        LongVector masks = pairs(prefixMask, inlineMask);
        LongVector bits = pairs(prefixBits, inlineBits);
        int candidates = 0;
        int row = from;
        for (; row + STEP_ROWS <= to; row += STEP_ROWS) {
            long rows = prefixStep(views, (long) row << 4, masks, bits, patternLength);
            candidates = writeRows(out, candidates, row, rows & LOW_INT);
        }
        for (; row < to; row++) {
            if (prefixRowBits(views, row, prefixMask, prefixBits, patternLength, inlineMask, inlineBits) != 0) {
                out[candidates++] = row;
            }
        }
        return candidates;
    }

    @Override
    public long countPrefix(MemorySegment views, int from, int to, long prefixMask, long prefixBits,
            int patternLength, long inlineMask, long inlineBits, int[] longCandidates) {
        LongVector masks = pairs(prefixMask, inlineMask);
        LongVector bits = pairs(prefixBits, inlineBits);
        // A pattern of at most 4 bytes is decided by prefix and length alone: no candidate is left for the buffer.
        long undecided = patternLength > ViewLayout.PREFIX_SIZE ? -1L : 0L;
        // With a last pattern byte that is not zero and at most 12 bytes, the length test decides nothing the
        // masked compares have not: an inline row shorter than the pattern has a zero (its padding) where the
        // pattern's last byte is, and a long row is longer than the pattern. Such steps skip it, which measured
        // faster on PrefixCollisionBatchBenchmark (decision record 013).
        boolean paddingDecides = lastByteIsNotZero(patternLength, prefixBits, inlineBits);
        int decided = 0;
        int candidates = 0;
        int row = from;
        for (; row + STEP_ROWS <= to; row += STEP_ROWS) {
            long rows = paddingDecides ? prefixStepPadded(views, (long) row << 4, masks, bits)
                    : prefixStep(views, (long) row << 4, masks, bits, patternLength);
            long longRows = (rows >>> 32) & undecided; // candidates whose bytes past the prefix are in a buffer
            decided += Long.bitCount(rows & LOW_INT) - Long.bitCount(longRows);
            if (longRows != 0) { // rare in most data, never in all-inline data: a predictable branch
                candidates = writeRows(longCandidates, candidates, row, longRows);
            }
        }
        for (; row < to; row++) {
            int rowBits = prefixRowBits(views, row, prefixMask, prefixBits, patternLength, inlineMask, inlineBits);
            if ((rowBits & 2 & undecided) != 0) {
                longCandidates[candidates++] = row;
            } else {
                decided += rowBits & 1;
            }
        }
        return (long) decided << 32 | candidates;
    }

    @Override
    public int equalWords1(MemorySegment views, int from, int to, long k0, long[] words1) {
        LongVector constant = LongVector.broadcast(LONGS, k0);
        int count = 0;
        int row = from;
        // Every load compresses and stores, with no branch on whether it holds a candidate: at Suite 1's share
        // (about one row in twenty shares length and prefix) such a branch would go either way.
        int loads = (to - from) / STEP_ROWS * LOADS;
        long start = (long) from << 4;
        for (int load = 0; load < loads; load++) {
            LongVector v = LongVector.fromMemorySegment(LONGS, views, start + load * (LANES * 8L), LE);
            long first = v.compare(VectorOperators.EQ, constant).toLong() & EVEN_LANES;
            v.compress(VectorMask.fromLong(LONGS, first << 1)).intoArray(words1, count);
            count += Long.bitCount(first);
        }
        for (row += loads / LOADS * STEP_ROWS; row < to; row++) {
            long at = (long) row << 4;
            if (views.get(ViewLayout.LAYOUT_LE_LONG, at) == k0) {
                words1[count++] = views.get(ViewLayout.LAYOUT_LE_LONG, at + 8);
            }
        }
        return count;
    }

    /**
     * One 32-row step of starts-with at view offset {@code at}: bit {@code i} of the low half is set when row
     * {@code i} is a candidate (prefix and length fit, and the row is long or its inline bytes agree), bit
     * {@code 32 + i} when it is also long.
     */
    private static long prefixStep(MemorySegment views, long at, LongVector masks, LongVector bits,
            int patternLength) {
        // One AND and one compare test the masked prefix (even lanes) and the masked inline bytes 4..11 (odd
        // lanes) together. The lengths are compared as int lanes of the same load (lane 4k is view k's length),
        // which saves shifting them out of the long lanes: on a CPU that runs 512-bit operations in two halves
        // (AMD Zen 4) every vector operation counts.
        long same = 0;
        long longEnough = 0;
        long isLong = 0;
        for (int half = 0; half < 2; half++) { // int-lane bits fill a 64-bit word every LOADS / 2 loads
            long atLeast = 0;
            long above = 0;
            for (int j = 0; j < LOADS / 2; j++) {
                int load = half * (LOADS / 2) + j;
                LongVector v = LongVector.fromMemorySegment(LONGS, views, at + load * (LANES * 8L), LE);
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

    /**
     * Whether a starts-with pattern of {@code patternLength} bytes, whose masked prefix and inline bytes are
     * {@code prefixBits} and {@code inlineBits} (as {@link #countPrefix} takes them), has 1 to 12 bytes and a last
     * byte that is not zero: then {@link #prefixStepPadded} gives {@link #prefixStep}'s bits.
     */
    static boolean lastByteIsNotZero(int patternLength, long prefixBits, long inlineBits) {
        if (patternLength < 1 || patternLength > ViewLayout.INLINE_MAX) {
            return false;
        }
        long last = patternLength <= ViewLayout.PREFIX_SIZE
                ? prefixBits >>> (32 + 8 * (patternLength - 1))
                : inlineBits >>> (8 * (patternLength - 1 - ViewLayout.PREFIX_SIZE));
        return (last & 0xFF) != 0;
    }

    /**
     * {@link #prefixStep} without the length test, for a pattern of 1 to 12 bytes whose last byte is not zero
     * ({@link #lastByteIsNotZero}): in a view whose padding is zero, as validation requires, an inline row shorter
     * than the pattern fails the masked compare at the pattern's last byte, and a long row is longer than the
     * pattern. One int compare a load instead of two.
     */
    private static long prefixStepPadded(MemorySegment views, long at, LongVector masks, LongVector bits) {
        long same = 0;
        long isLong = 0;
        for (int half = 0; half < 2; half++) {
            long above = 0;
            for (int j = 0; j < LOADS / 2; j++) {
                int load = half * (LOADS / 2) + j;
                LongVector v = LongVector.fromMemorySegment(LONGS, views, at + load * (LANES * 8L), LE);
                same |= v.and(masks).compare(VectorOperators.EQ, bits).toLong() << (load * LANES);
                above |= v.reinterpretAsInts().compare(VectorOperators.GT, ViewLayout.INLINE_MAX).toLong()
                        << (j * 2 * LANES);
            }
            isLong |= Long.compress(above, EVEN_LANES) << (half * 32);
        }
        long rows = same & (isLong | same >>> 1);
        return Long.compress(rows, EVEN_LANES) | Long.compress(rows & isLong, EVEN_LANES) << 32;
    }

    /** {@link #prefixStep} for one row: bit 0 when it is a candidate, bit 1 when it is also long. */
    private static int prefixRowBits(MemorySegment views, int row, long prefixMask, long prefixBits,
            int patternLength, long inlineMask, long inlineBits) {
        long at = (long) row << 4;
        long w0 = views.get(ViewLayout.LAYOUT_LE_LONG, at);
        boolean isLongRow = (int) w0 > ViewLayout.INLINE_MAX;
        if ((w0 & prefixMask) == prefixBits && (int) w0 >= patternLength
                && (isLongRow | (views.get(ViewLayout.LAYOUT_LE_LONG, at + 8) & inlineMask) == inlineBits)) {
            return isLongRow ? 3 : 1;
        }
        return 0;
    }

    @Override
    public void orderWords(MemorySegment views, int first, int count, long firstKey, int prefixLittleEndian,
            boolean settleInline, long[] less, long[] ties) {
        // Each load starts 4 bytes into a view, so that even lanes hold view bytes 4..11: the prefix, then bytes
        // 4..7 of an inline value or a long one's buffer index. Byte-swapped, that orders like the value whenever
        // the prefixes differ (OrderPredicate), and for an inline row it is its first eight bytes, so an inline
        // row whose eight bytes differ from the constant's is decided too (settleInline). The loads of a step end
        // 4 bytes into the next row, so steps run only while that row is in the segment; the rest goes through
        // the scalar loop.
        LongVector key = LongVector.broadcast(LONGS, UNSIGNED_LT == null ? firstKey ^ Long.MIN_VALUE : firstKey);
        LongVector prefix = LongVector.broadcast(LONGS, Integer.toUnsignedLong(prefixLittleEndian));
        long start = ((long) first << 4) + 4;
        // Whole steps, counted once, and one flat loop over the loads of all steps: a loop over the steps with the
        // loads of a step in an inner loop kept a bounds, liveness and segment-class check per load and its own
        // bookkeeping (-XX:+PrintAssembly), and measured slower than this loop (decision record 013).
        int steps = (int) Math.min(count / STEP_ROWS, Math.max(0, (views.byteSize() - start) / STEP_BYTES));
        int loads = steps * LOADS;
        long below = 0;
        long tied = 0;
        if (!settleInline) {
            for (int load = 0; load < loads; load++) {
                LongVector v = LongVector.fromMemorySegment(LONGS, views, start + load * (LANES * 8L), LE);
                int shift = (load % LOADS) * LANES;
                below |= below(v, key).toLong() << shift;
                tied |= v.and(LOW_INT).compare(VectorOperators.EQ, prefix).toLong() << shift;
                if (load % LOADS == LOADS - 1) {
                    int i = (load / LOADS) * STEP_ROWS;
                    less[i >>> 6] |= Long.compress(below, EVEN_LANES) << (i & 63);
                    ties[i >>> 6] |= Long.compress(tied, EVEN_LANES) << (i & 63);
                    below = 0;
                    tied = 0;
                }
            }
        } else {
            // A second load of the same views from their start gives the lengths (even lanes; shifted up, a signed
            // compare with 12 << 32 is the int compare).
            LongVector bytes4To11 = LongVector.broadcast(LONGS, Long.reverseBytes(firstKey));
            long inlineMaxHigh = (long) ViewLayout.INLINE_MAX << 32;
            for (int load = 0; load < loads; load++) {
                long at = start + load * (LANES * 8L);
                LongVector v = LongVector.fromMemorySegment(LONGS, views, at, LE);
                LongVector words0 = LongVector.fromMemorySegment(LONGS, views, at - 4, LE);
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
        }
        for (int i = steps * STEP_ROWS; i < count; i++) {
            long at = ((long) (first + i) << 4) + 4;
            long k = views.get(ViewLayout.LAYOUT_BE_LONG, at);
            boolean settled = settleInline && views.get(ViewLayout.LAYOUT_LE_INT, at - 4) <= ViewLayout.INLINE_MAX
                    && k != firstKey;
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

    /**
     * Writes {@code base + i} for every set bit {@code i} of {@code rows} (32 bits) to {@code out} from
     * {@code candidates}, ascending, and returns the new count: {@code INTS} lanes at a time with one compress and
     * one full store, no branch per row. A store writes all lanes, past the candidates it keeps; those slots lie
     * below {@code base - from + 32}, inside the room for {@code to - from} ids the caller guarantees.
     */
    private static int writeRows(int[] out, int candidates, int base, long rows) {
        int lanes = INTS.length();
        for (int k = 0; k < STEP_ROWS; k += lanes) {
            long part = (rows >>> k) & ((1L << lanes) - 1);
            IntVector.broadcast(INTS, base + k).addIndex(1).compress(VectorMask.fromLong(INTS, part))
                    .intoArray(out, candidates);
            candidates += Long.bitCount(part);
        }
        return candidates;
    }

    @Override
    public String describe() {
        return LONGS.vectorBitSize() + "-bit view words";
    }
}
