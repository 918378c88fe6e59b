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
    /** The largest size {@link #buildUpTo4} takes, and the chars its step covers at most (16 x 4). */
    private static final int UP_TO_4 = 4;
    private static final long UP_TO_4_STEP_CHARS = (long) STEP_ROWS * UP_TO_4;
    private static final IntVector FOUR = IntVector.broadcast(INTS, UP_TO_4);
    /** Byte {@code k} takes narrowed size {@code k / 4}: each size in the 4 bytes of its int lane. */
    private static final VectorShuffle<Byte> SIZE_PER_BYTE = VectorShuffle.fromOp(BYTES, k -> k / 4);
    /** Each byte's index within its int lane, 0..3. */
    private static final ByteVector BYTE_IN_LANE = bytes(k -> k & 3);
    /**
     * Group {@code g}'s views as a two-vector shuffle of (narrowed sizes, placed values): byte 0 of view {@code j}
     * is size {@code 4g + j}, bytes 4..7 its value's 4 bytes (the exceptional index {@code 4(4g + j) + b - 64}
     * takes lane {@code 4(4g + j) + b} of the values), every other byte the sizes' lane 63, which the narrowing
     * left zero.
     */
    private static final VectorShuffle<Byte> UP_TO_4_VIEWS_0 = upTo4Views(0);
    private static final VectorShuffle<Byte> UP_TO_4_VIEWS_1 = upTo4Views(1);
    private static final VectorShuffle<Byte> UP_TO_4_VIEWS_2 = upTo4Views(2);
    private static final VectorShuffle<Byte> UP_TO_4_VIEWS_3 = upTo4Views(3);

    private static VectorShuffle<Byte> upTo4Views(int group) {
        return VectorShuffle.fromOp(BYTES, k -> {
            int row = 4 * group + k / 16;
            int b = k % 16;
            return b == 0 ? row : b >= 4 && b < 8 ? 4 * row + b - 4 - 64 : 63;
        });
    }

    private static ByteVector bytes(java.util.function.IntUnaryOperator byteAt) {
        byte[] bytes = new byte[BYTES.length()];
        for (int k = 0; k < bytes.length; k++) {
            bytes[k] = (byte) byteAt.applyAsInt(k);
        }
        return ByteVector.fromArray(BYTES, bytes, 0);
    }

    private static VectorShuffle<Integer> lengths(int group) {
        return VectorShuffle.fromOp(INTS, i -> 4 * group + i / 4);
    }

    @Override
    public long build(int[] sizes, int from, int count, MemorySegment chars, long charsOffset, MemorySegment views,
            long viewsOffset) {
        return steps(sizes, from, count, chars, charsOffset, views, viewsOffset, false);
    }

    @Override
    public long buildUpTo4(int[] sizes, int from, int count, MemorySegment chars, long charsOffset,
            MemorySegment views, long viewsOffset) {
        return steps(sizes, from, count, chars, charsOffset, views, viewsOffset, true);
    }

    /** The steps of {@link #build} ({@link #run}) or {@link #buildUpTo4} ({@link #runUpTo4}), then the scalar rows. */
    private static long steps(int[] sizes, int from, int count, MemorySegment chars, long charsOffset,
            MemorySegment views, long viewsOffset, boolean upTo4) {
        // A step of values of at most 4 bytes covers at most 64 chars, and its one window is those 64.
        long stepCharsMax = upTo4 ? UP_TO_4_STEP_CHARS : STEP_CHARS_MAX;
        long p = charsOffset;
        long lastStepStart = chars.byteSize() - (upTo4 ? UP_TO_4_STEP_CHARS : STEP_CHARS_ROOM);
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
            int steps = (int) Math.min((end - row) / STEP_ROWS, (lastStepStart - p) / stepCharsMax + 1);
            long ended = upTo4 ? runUpTo4(sizes, row, steps, chars, p, views, at)
                    : run(sizes, row, steps, chars, p, views, at);
            if (ended < 0) { // a size outside [0, 12] (or [0, 4]): the scalar loop builds from its step on and
                // names the row
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
        long tail = InlineViewLoop.buildTestingAscii(sizes, row, end - row, chars, p, views, at,
                upTo4 ? UP_TO_4 : ViewLayout.INLINE_MAX);
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
     * {@link #run} for values of at most 4 bytes, where a view is {@code length | bytes << 32} and a zero word 1:
     * the step's 16 values (at most 64 bytes) come from one 64-byte window, placed by one byte expand into the 16
     * int lanes of a vector, each value in the low bytes of its lane. The expand's mask is a byte compare: the 16
     * sizes narrowed to bytes, each spread to the 4 bytes of its lane by a byte permute, against the bytes' indexes
     * in their lane, so byte {@code k} of lane {@code i} is set when {@code k < size_i}; its bit count is the step's
     * chars. Each group's 4 views are then one two-vector byte permute of the narrowed sizes (byte 0 of each view,
     * and zero bytes from their upper lanes) and the placed values (bytes 4..7), and one 512-bit store; the Vector
     * API compiles that permute to two byte permutes and a blend. So a step loads its chars once, not four times,
     * and the chars offset advances by one bit count a step.
     *
     * <p>No vector is reinterpreted here: before C2 compiles them, the Vector API runs a reinterpretation through
     * a heap segment, and the vector stores' shared profile then holds heap segments, so C2 compiled every view
     * store of {@link #run} too with a test for heap views (hsdis), which took the size-1 builder from 35 to 72 µs
     * a block in an earlier form of this method that reinterpreted three vectors a step.
     */
    private static long runUpTo4(int[] sizes, int row, int steps, MemorySegment chars, long p, MemorySegment views,
            long at) {
        ByteVector valueBits = ByteVector.zero(BYTES);
        for (int s = 0; s < steps; s++) {
            IntVector size = IntVector.fromArray(INTS, sizes, row + s * STEP_ROWS);
            if (size.or(FOUR.sub(size)).compare(VectorOperators.LT, 0).anyTrue()) { // a size outside [0, 4]
                return ~s;
            }
            ByteVector sizeBytes = (ByteVector) size.convertShape(VectorOperators.I2B, BYTES, 0);
            VectorMask<Byte> valueBytes = sizeBytes.rearrange(SIZE_PER_BYTE).compare(VectorOperators.GT,
                    BYTE_IN_LANE);
            ByteVector values = ByteVector.fromMemorySegment(BYTES, chars, p, LE).expand(valueBytes);
            p += valueBytes.trueCount();
            long stepAt = at + s * (STEP_ROWS * 16L);
            sizeBytes.rearrange(UP_TO_4_VIEWS_0, values).intoMemorySegment(views, stepAt, LE);
            sizeBytes.rearrange(UP_TO_4_VIEWS_1, values).intoMemorySegment(views, stepAt + 64, LE);
            sizeBytes.rearrange(UP_TO_4_VIEWS_2, values).intoMemorySegment(views, stepAt + 128, LE);
            sizeBytes.rearrange(UP_TO_4_VIEWS_3, values).intoMemorySegment(views, stepAt + 192, LE);
            valueBits = valueBits.or(values);
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
