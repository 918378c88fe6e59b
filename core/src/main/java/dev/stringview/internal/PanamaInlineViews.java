package dev.stringview.internal;

import dev.stringview.ViewLayout;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector form of {@link dev.stringview.internal.reader.InlineViews#build} with the Panama Vector API, 512-bit
 * vectors, 16 rows
 * a step, 4 views (one 512-bit store) a group:
 * <ol>
 *   <li>the 16 sizes in one int vector, checked to lie in [0, 12] and narrowed to bytes; per group each size
 *       permuted to the 16 bytes of its view and compared with each byte's place in the value, which gives the
 *       group's value-byte mask (bytes 4..4+size-1 of each view) as a mask register;</li>
 *   <li>per group a 64-byte window of the chars loaded at the group's first value (4 values of at most 12 bytes
 *       always fit in it), and one byte expand ({@code expand}, {@code vpexpandb} on AVX-512 VBMI2): the window's
 *       first bytes, in order, go to the mask's set bytes, every other byte becomes zero, which places each value
 *       in bytes 4.. of its view and zeroes the bytes past its end, as the Utf8View layout requires;</li>
 *   <li>the permuted sizes blended into byte 0 of each view; the next group's window starts the mask's bit count
 *       further.</li>
 * </ol>
 * The chars offset is the only value carried from group to group (an add of a bit count), and no prefix sum is
 * computed.
 *
 * <p>The step runs only while the last group's window (at most 3 x 4 x 12 bytes in, then 64) lies inside the chars
 * segment, so that no load ever reaches past its end; the rows after that, and those of a step holding a size
 * outside [0, 12], go through {@link InlineViewLoop}, which builds them (or names the bad row). The steps go in
 * runs counted in advance (as many as the chars left allow at 12 bytes a row), so that the loop C2 compiles has one
 * exit on a step count and keeps no segment check but the chars window's bound inside.
 *
 * <p>Referenced only by name from {@link Vectorization}, so that without the incubator module nothing links it.
 */
final class PanamaInlineViews implements Vectorization.InlineViewScan {
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_512;
    private static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_512;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int STEP_ROWS = 16;
    /** Chars a step may cover before its last group's window starts (12 values of 12 bytes) plus that window. */
    private static final long STEP_CHARS_ROOM = 12L * ViewLayout.INLINE_MAX + 64;
    /** Chars a step covers at most: 16 values of 12 bytes. */
    private static final long STEP_CHARS_MAX = (long) STEP_ROWS * ViewLayout.INLINE_MAX;

    private static final IntVector TWELVE = IntVector.broadcast(INTS, ViewLayout.INLINE_MAX);
    /** Byte {@code k} of group {@code g}'s views takes narrowed size {@code 4g + k / 16}: its view's row. */
    private static final VectorShuffle<Byte> SIZE_PER_VIEW_0 = sizePerView(0);
    private static final VectorShuffle<Byte> SIZE_PER_VIEW_1 = sizePerView(1);
    private static final VectorShuffle<Byte> SIZE_PER_VIEW_2 = sizePerView(2);
    private static final VectorShuffle<Byte> SIZE_PER_VIEW_3 = sizePerView(3);
    /**
     * Byte {@code k} of a view is value byte {@code k - 4} for {@code k} in 4..15; bytes 0..3 take 127, which no
     * size reaches, so the compare {@code size > BYTE_IN_VALUE} sets exactly the bytes that hold the value.
     */
    private static final ByteVector BYTE_IN_VALUE = bytes(k -> k % 16 >= 4 ? k % 16 - 4 : 127);
    /** Byte 0 of each view, where its length goes (bytes 1..3 stay zero: sizes are at most 12). */
    private static final VectorMask<Byte> LENGTH_BYTES = VectorMask.fromLong(BYTES, 0x0001_0001_0001_0001L);

    private static ByteVector bytes(java.util.function.IntUnaryOperator byteAt) {
        byte[] bytes = new byte[BYTES.length()];
        for (int k = 0; k < bytes.length; k++) {
            bytes[k] = (byte) byteAt.applyAsInt(k);
        }
        return ByteVector.fromArray(BYTES, bytes, 0);
    }

    private static VectorShuffle<Byte> sizePerView(int group) {
        return VectorShuffle.fromOp(BYTES, k -> 4 * group + k / 16);
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
        // segments' liveness and the views' bounds checks out of it.
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
    private static long run(int[] sizes, int row, int steps, MemorySegment chars, long p,
            MemorySegment views, long at) {
        ByteVector valueBits = ByteVector.zero(BYTES);
        for (int s = 0; s < steps; s++) {
            IntVector size = IntVector.fromArray(INTS, sizes, row + s * STEP_ROWS);
            // size | (12 - size) is negative exactly for a size outside [0, 12] (the unsigned compare has
            // another name on JDK 22 than on 25).
            if (size.or(TWELVE.sub(size)).compare(VectorOperators.LT, 0).anyTrue()) {
                return ~s;
            }
            ByteVector sizeBytes = (ByteVector) size.convertShape(VectorOperators.I2B, BYTES, 0);
            long stepAt = at + s * (STEP_ROWS * 16L);
            ByteVector size0 = sizeBytes.rearrange(SIZE_PER_VIEW_0);
            VectorMask<Byte> valueBytes0 = size0.compare(VectorOperators.GT, BYTE_IN_VALUE);
            ByteVector values0 = group(chars, p, valueBytes0, size0, views, stepAt);
            p += valueBytes0.trueCount();
            ByteVector size1 = sizeBytes.rearrange(SIZE_PER_VIEW_1);
            VectorMask<Byte> valueBytes1 = size1.compare(VectorOperators.GT, BYTE_IN_VALUE);
            ByteVector values1 = group(chars, p, valueBytes1, size1, views, stepAt + 64);
            p += valueBytes1.trueCount();
            ByteVector size2 = sizeBytes.rearrange(SIZE_PER_VIEW_2);
            VectorMask<Byte> valueBytes2 = size2.compare(VectorOperators.GT, BYTE_IN_VALUE);
            ByteVector values2 = group(chars, p, valueBytes2, size2, views, stepAt + 128);
            p += valueBytes2.trueCount();
            ByteVector size3 = sizeBytes.rearrange(SIZE_PER_VIEW_3);
            VectorMask<Byte> valueBytes3 = size3.compare(VectorOperators.GT, BYTE_IN_VALUE);
            ByteVector values3 = group(chars, p, valueBytes3, size3, views, stepAt + 192);
            p += valueBytes3.trueCount();
            valueBits = valueBits.or(values0.or(values1).or(values2.or(values3)));
        }
        return valueBits.compare(VectorOperators.LT, (byte) 0).anyTrue() ? p | NON_ASCII : p;
    }

    /**
     * Stores the 4 views of one group at {@code views[at]}: the window of chars at {@code p} expanded into the
     * views' {@code valueBytes}, and byte 0 of each view from {@code sizePerView} (each row's size in the 16 bytes
     * of its view); returns the views' value bytes (zero elsewhere).
     */
    private static ByteVector group(MemorySegment chars, long p, VectorMask<Byte> valueBytes,
            ByteVector sizePerView, MemorySegment views, long at) {
        ByteVector values = ByteVector.fromMemorySegment(BYTES, chars, p, LE).expand(valueBytes);
        values.blend(sizePerView, LENGTH_BYTES).intoMemorySegment(views, at, LE);
        return values;
    }

    @Override
    public String describe() {
        return "512-bit inline views, byte expand, 16 rows a step";
    }
}
