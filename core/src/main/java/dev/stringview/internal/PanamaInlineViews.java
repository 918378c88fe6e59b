package dev.stringview.internal;

import dev.stringview.ViewLayout;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector form of {@link dev.stringview.InlineViews#build} with the Panama Vector API, 512-bit vectors, 16 rows
 * a step, 4 views (one 512-bit store) a group:
 * <ol>
 *   <li>the 16 sizes in one int vector, checked to lie in [0, 12], and turned into each
 *       row's value-byte mask within its view, {@code ((1 << size) - 1) << 4} (bytes 4..4+size-1 of its 16; two
 *       lane-wise ops), narrowed to 16 shorts: their four longs are the byte masks of the four groups;</li>
 *   <li>per group a 64-byte window of the chars loaded at the group's first value (4 values of at most 12 bytes
 *       always fit in it), and one byte expand ({@code expand}, {@code vpexpandb} on AVX-512 VBMI2): the window's
 *       first bytes, in order, go to the mask's set bytes, every other byte becomes zero, which places each value
 *       in bytes 4.. of its view and zeroes the bytes past its end, as the Utf8View layout requires;</li>
 *   <li>the sizes spread to int 0 of each view by one zero-masked int permute and ORed in; the next group's window
 *       starts the mask's bit count further.</li>
 * </ol>
 * The chars offset is the only value carried from group to group (an add of a bit count), and no prefix sum is
 * computed: the version before this one summed the 16 sizes in the register (four shifted adds), spread offsets
 * and sizes to the view bytes with two byte permutes a group, took the chars with a third and blended the length
 * in: 1.12-1.31x the time of this one for a 65,535-row block of 1-byte values (SeparatedLoopsSideBySide, JVMs
 * of the two builds alternated, loaded machine; docs/benchmarks.md).
 *
 * <p>The step runs only while the last group's window (at most 3 x 4 x 12 bytes in, then 64) lies inside the
 * chars segment, so that no load ever reaches past its end; the rows after that, and those of a step holding a
 * size outside [0, 12], go through {@link InlineViewLoop}, which builds them (or names the bad row). The steps go
 * in runs counted in advance (as many as the chars left allow at 12 bytes a row), so that the loop C2 compiles
 * has one exit on a step count and keeps no segment check but the chars window's bound inside: 65,535 one-byte
 * rows in 34 µs instead of 43 (SeparatedLoopsSideBySide, both builds on the same loaded machine).
 *
 * <p>Referenced only by name from {@link Vectorization}, so that without the incubator module nothing links it.
 */
final class PanamaInlineViews implements Vectorization.InlineViewScan {
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_512;
    private static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_512;
    private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_256;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int STEP_ROWS = 16;
    /** Chars a step may cover before its last group's window starts (12 values of 12 bytes) plus that window. */
    private static final long STEP_CHARS_ROOM = 12L * ViewLayout.INLINE_MAX + 64;
    /** Chars a step covers at most: 16 values of 12 bytes. */
    private static final long STEP_CHARS_MAX = (long) STEP_ROWS * ViewLayout.INLINE_MAX;

    /** {@code (16 << size) - 16} is {@code ((1 << size) - 1) << 4}: bits 4..4+size-1. */
    private static final IntVector SIXTEEN = IntVector.broadcast(INTS, 16);
    private static final IntVector TWELVE = IntVector.broadcast(INTS, ViewLayout.INLINE_MAX);
    /** Lane {@code 4j} of group {@code g}'s views takes row {@code 4g + j}'s size; the other lanes are zero. */
    private static final VectorShuffle<Integer> LENGTHS_0 = lengths(0);
    private static final VectorShuffle<Integer> LENGTHS_1 = lengths(1);
    private static final VectorShuffle<Integer> LENGTHS_2 = lengths(2);
    private static final VectorShuffle<Integer> LENGTHS_3 = lengths(3);
    private static final VectorMask<Integer> LENGTH_LANES = VectorMask.fromLong(INTS, 0x1111);

    private static VectorShuffle<Integer> lengths(int group) {
        return VectorShuffle.fromOp(INTS, i -> 4 * group + i / 4);
    }

    @Override
    public long build(int[] sizes, int from, int count, MemorySegment chars, long charsOffset, MemorySegment views,
            long viewsOffset) {
        long p = charsOffset;
        long lastStepStart = chars.byteSize() - STEP_CHARS_ROOM;
        int end = from + count;
        int row = from;
        long at = viewsOffset;
        // The steps run in runs whose length is known before the run starts: a step covers at most
        // STEP_CHARS_MAX chars, so the next (room / STEP_CHARS_MAX + 1) steps all start at or before
        // lastStepStart. Inside a run the loop is counted (one exit on the step count), and C2 hoists the
        // segments' liveness and the views' bounds checks out of it; with the chars offset in the loop's exit test
        // it kept them, and the window bound and the chars' base, in every group (hsdis).
        boolean nonAscii = false;
        while (row <= end - STEP_ROWS && p <= lastStepStart) {
            int steps = (int) Math.min((end - row) / STEP_ROWS, (lastStepStart - p) / STEP_CHARS_MAX + 1);
            long ended = run(sizes, row, steps, chars, p, views, at);
            if (ended < 0) { // a size outside [0, 12]: the scalar loop builds from its step on and names the row
                int done = (int) ~ended;
                for (int i = row; i < row + done * STEP_ROWS; i++) {
                    p += sizes[i];
                }
                row += done * STEP_ROWS;
                at += done * (STEP_ROWS * 16L);
                break;
            }
            nonAscii |= (ended & NON_ASCII) != 0;
            p = ended & ~NON_ASCII;
            row += steps * STEP_ROWS;
            at += steps * (STEP_ROWS * 16L);
        }
        long tail = InlineViewLoop.buildTestingAscii(sizes, row, end - row, chars, p, views, at);
        return nonAscii && tail >= 0 ? ~tail : tail;
    }

    /** Set in {@link #run}'s result when a value byte of the run is 0x80 or above (chars offsets stay below). */
    private static final long NON_ASCII = 1L << 62;

    /**
     * Builds {@code steps} steps from row {@code row} on (the caller has made sure that every one of them starts
     * at or before the last step start); returns the chars offset after them, with {@link #NON_ASCII} set when a
     * value byte is 0x80 or above, or {@code ~stepsDone} when a step holds a size outside [0, 12] (that step and
     * the ones after it unbuilt). The ASCII test is an OR of the expanded windows, which hold exactly the values'
     * bytes: one more vector op a group, in place of the reader's own pass over the chars.
     */
    private static long run(int[] sizes, int row, int steps, MemorySegment chars, long p, MemorySegment views,
            long at) {
        ByteVector valueBits = ByteVector.zero(BYTES);
        for (int s = 0; s < steps; s++) {
            IntVector size = IntVector.fromArray(INTS, sizes, row + s * STEP_ROWS);
            // size | (12 - size) is negative exactly for a size outside [0, 12] (the unsigned compare has
            // another name on JDK 22 than on 25).
            if (size.or(TWELVE.sub(size)).compare(VectorOperators.LT, 0).anyTrue()) {
                return ~s;
            }
            LongVector masks = SIXTEEN.lanewise(VectorOperators.LSHL, size).sub(SIXTEEN)
                    .convertShape(VectorOperators.I2S, SHORTS, 0).reinterpretAsLongs();
            long stepAt = at + s * (STEP_ROWS * 16L);
            long mask0 = masks.lane(0);
            long mask1 = masks.lane(1);
            long mask2 = masks.lane(2);
            long mask3 = masks.lane(3);
            ByteVector values0 = group(chars, p, mask0, size, LENGTHS_0, views, stepAt);
            p += Long.bitCount(mask0);
            ByteVector values1 = group(chars, p, mask1, size, LENGTHS_1, views, stepAt + 64);
            p += Long.bitCount(mask1);
            ByteVector values2 = group(chars, p, mask2, size, LENGTHS_2, views, stepAt + 128);
            p += Long.bitCount(mask2);
            ByteVector values3 = group(chars, p, mask3, size, LENGTHS_3, views, stepAt + 192);
            p += Long.bitCount(mask3);
            valueBits = valueBits.or(values0.or(values1).or(values2.or(values3)));
        }
        return valueBits.compare(VectorOperators.LT, (byte) 0).anyTrue() ? p | NON_ASCII : p;
    }

    /**
     * Stores the 4 views of one group at {@code views[at]}, its values in the chars from {@code p} on and
     * {@code valueBytes} the views' bytes that hold them; returns the views' value bytes (zero elsewhere).
     */
    private static ByteVector group(MemorySegment chars, long p, long valueBytes, IntVector size,
            VectorShuffle<Integer> lengths, MemorySegment views, long at) {
        ByteVector values = ByteVector.fromMemorySegment(BYTES, chars, p, LE)
                .expand(VectorMask.fromLong(BYTES, valueBytes));
        values.or(size.rearrange(lengths, LENGTH_LANES).reinterpretAsBytes()).intoMemorySegment(views, at, LE);
        return values;
    }

    @Override
    public String describe() {
        return "512-bit inline views, byte expand, 16 rows a step";
    }
}
