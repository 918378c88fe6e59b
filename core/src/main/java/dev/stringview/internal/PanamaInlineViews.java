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
 * The vector form of {@link dev.stringview.InlineViews#build} with the Panama Vector API, 512-bit vectors, 16 rows
 * a step:
 * <ol>
 *   <li>the 16 sizes in one int vector, checked to lie in [0, 12], and their prefix sum in the register (four
 *       shifted adds), which gives each row's chars offset relative to the step's first row;</li>
 *   <li>per group of 4 rows (one 512-bit store of 4 views), a 64-byte window of the chars loaded at the group's
 *       first value: 4 values of at most 12 bytes always fit in it, so no group ever falls back;</li>
 *   <li>the view bytes by byte permutes ({@code selectFrom}, {@code vpermb} on AVX-512 VBMI): one spreads each
 *       row's offset in the window to the 12 value bytes of its view (plus 0, 1, ..., 11), one spreads each row's
 *       size (the 4 length bytes of the view, and the size again in the value bytes, compared with 0..11 to mask
 *       the bytes past the value's end), and the third takes the chars from the window with that mask zeroing the
 *       rest, as the Utf8View layout requires; a blend puts the length in bytes 0..3.</li>
 * </ol>
 * The step runs only while the last window of a step of the longest values (16 x 12 bytes, then 64) lies inside
 * the chars segment, so that no load ever reaches past its end; the rows after that, and those of a step holding
 * a size outside [0, 12], go through {@link InlineViewLoop}, which builds them (or names the bad row). Window
 * indices stay below 64 (at most 3 x 12 + 11), so the permutes are defined on every JDK since 22, where an index
 * out of range threw instead of wrapping.
 *
 * <p>Referenced only by name from {@link Vectorization}, so that without the incubator module nothing links it.
 */
final class PanamaInlineViews implements Vectorization.InlineViewScan {
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_512;
    private static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_512;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int STEP_ROWS = 16;
    /** Chars a step may cover before its last window starts (15 values of 12 bytes) plus that 64-byte window. */
    private static final long STEP_CHARS_ROOM = 15L * ViewLayout.INLINE_MAX + 64;

    /** Lane {@code i} takes lane {@code i - d}; with {@code KEEP_d}, lanes below {@code d} become zero. */
    private static final VectorShuffle<Integer> SHIFT_1 = shiftUp(1);
    private static final VectorShuffle<Integer> SHIFT_2 = shiftUp(2);
    private static final VectorShuffle<Integer> SHIFT_4 = shiftUp(4);
    private static final VectorShuffle<Integer> SHIFT_8 = shiftUp(8);
    private static final VectorMask<Integer> KEEP_1 = VectorMask.fromLong(INTS, 0xFFFE);
    private static final VectorMask<Integer> KEEP_2 = VectorMask.fromLong(INTS, 0xFFFC);
    private static final VectorMask<Integer> KEEP_4 = VectorMask.fromLong(INTS, 0xFFF0);
    private static final VectorMask<Integer> KEEP_8 = VectorMask.fromLong(INTS, 0xFF00);
    /** Lane {@code i} takes the first lane of its group of four, {@code i & ~3}. */
    private static final VectorShuffle<Integer> GROUP_FIRST = VectorShuffle.fromOp(INTS, i -> i & ~3);

    /**
     * Per group {@code g} of 4 rows, the byte indices that spread an int vector of the step (row {@code r} in
     * bytes {@code 4r..4r+3}) over the 4 views: view {@code j}'s bytes 0..3 take row {@code 4g + j}'s 4 bytes
     * (its length, little-endian), bytes 4..15 that row's low byte (its size or its offset in the window).
     */
    private static final ByteVector SPREAD_0 = spread(0);
    private static final ByteVector SPREAD_1 = spread(1);
    private static final ByteVector SPREAD_2 = spread(2);
    private static final ByteVector SPREAD_3 = spread(3);
    /** View byte {@code k}'s place in the value ({@code k - 4}), added to the spread offset. */
    private static final ByteVector VALUE_BYTE = viewBytes(k -> k < 4 ? 0 : k - 4);
    /** The same, compared with the spread size: a byte is the value's while {@code k - 4 < size}; 127 never is. */
    private static final ByteVector VALUE_BYTE_OR_NEVER = viewBytes(k -> k < 4 ? Byte.MAX_VALUE : k - 4);
    /** Bytes 0..3 of each view: the length. */
    private static final VectorMask<Byte> LENGTH_BYTES = VectorMask.fromLong(BYTES, 0x000F_000F_000F_000FL);

    private static VectorShuffle<Integer> shiftUp(int d) {
        return VectorShuffle.fromOp(INTS, i -> Math.max(i - d, 0));
    }

    private static ByteVector spread(int group) {
        byte[] indices = new byte[64];
        for (int b = 0; b < 64; b++) {
            int row = 4 * group + b / 16;
            int k = b % 16;
            indices[b] = (byte) (4 * row + (k < 4 ? k : 0));
        }
        return ByteVector.fromArray(BYTES, indices, 0);
    }

    private static ByteVector viewBytes(java.util.function.IntUnaryOperator ofViewByte) {
        byte[] bytes = new byte[64];
        for (int b = 0; b < 64; b++) {
            bytes[b] = (byte) ofViewByte.applyAsInt(b % 16);
        }
        return ByteVector.fromArray(BYTES, bytes, 0);
    }

    @Override
    public long build(int[] sizes, int from, int count, MemorySegment chars, long charsOffset, MemorySegment views,
            long viewsOffset) {
        long p = charsOffset;
        long lastStepStart = chars.byteSize() - STEP_CHARS_ROOM;
        int end = from + count;
        int row = from;
        long at = viewsOffset;
        for (; row <= end - STEP_ROWS && p <= lastStepStart; row += STEP_ROWS, at += STEP_ROWS * 16L) {
            IntVector size = IntVector.fromArray(INTS, sizes, row);
            if (size.compare(VectorOperators.GT, ViewLayout.INLINE_MAX).or(size.compare(VectorOperators.LT, 0))
                    .anyTrue()) {
                break; // the scalar loop names the row
            }
            IntVector end1 = size.add(size.rearrange(SHIFT_1, KEEP_1));
            IntVector end2 = end1.add(end1.rearrange(SHIFT_2, KEEP_2));
            IntVector end4 = end2.add(end2.rearrange(SHIFT_4, KEEP_4));
            IntVector ends = end4.add(end4.rearrange(SHIFT_8, KEEP_8));
            IntVector starts = ends.sub(size);
            ByteVector inGroup = starts.sub(starts.rearrange(GROUP_FIRST)).reinterpretAsBytes();
            ByteVector sizeBytes = size.reinterpretAsBytes();
            group(chars, p, views, at, SPREAD_0, inGroup, sizeBytes);
            group(chars, p + starts.lane(4), views, at + 64, SPREAD_1, inGroup, sizeBytes);
            group(chars, p + starts.lane(8), views, at + 128, SPREAD_2, inGroup, sizeBytes);
            group(chars, p + starts.lane(12), views, at + 192, SPREAD_3, inGroup, sizeBytes);
            p += ends.lane(15);
        }
        return InlineViewLoop.build(sizes, row, end - row, chars, p, views, at);
    }

    /** The 4 views of one group, its values in the 64 bytes of {@code chars} at {@code windowAt}. */
    private static void group(MemorySegment chars, long windowAt, MemorySegment views, long at, ByteVector spread,
            ByteVector inGroup, ByteVector sizeBytes) {
        ByteVector window = ByteVector.fromMemorySegment(BYTES, chars, windowAt, LE);
        ByteVector size = spread.selectFrom(sizeBytes);
        VectorMask<Byte> valueBytes = VALUE_BYTE_OR_NEVER.compare(VectorOperators.LT, size);
        ByteVector index = spread.selectFrom(inGroup).add(VALUE_BYTE);
        index.selectFrom(window, valueBytes).blend(size, LENGTH_BYTES).intoMemorySegment(views, at, LE);
    }

    @Override
    public String describe() {
        return "512-bit inline views, 16 rows a step";
    }
}
