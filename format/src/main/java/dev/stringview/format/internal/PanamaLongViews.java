package dev.stringview.format.internal;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector form of {@link ViewLoops#allLong} (every value longer than 12 bytes) with the Panama Vector API,
 * 512-bit vectors, 16 rows a step and 4 views (one 512-bit store) a group:
 * <ol>
 *   <li>the step's 16 sizes in one int vector, their exclusive prefix sum in the register (four shifted adds):
 *       each row's offset in the block's buffer, word 1's upper half;</li>
 *   <li>per group of 4 rows a 128-byte window of the chars at the group's first value (two 64-byte loads of the
 *       heap array), and one two-vector byte permute ({@code rearrange} of the two) that takes each
 *       row's 4 prefix bytes out of it by their offsets from the group's start, so no prefix is loaded on its
 *       own;</li>
 *   <li>the lengths and offsets spread to their bytes of the 4 views by one two-vector byte permute, the prefixes
 *       and the buffer index blended in, one store.</li>
 * </ol>
 * A step runs only when its 4 windows lie inside the chars (so nothing past them is read, even when the array
 * holds more) and each group's 4 prefixes lie inside its window (a group spans at most 124 bytes from its first
 * value's start to its last one's, true whenever every value is at most 41 bytes); otherwise the vector steps end
 * there and {@link ViewLoops#allLong} builds the rest. Which step ended it does not matter for correctness: the
 * rows before it are written exactly as the scalar loop writes them.
 *
 * <p>Referenced only by name ({@link LongViews}), so that without the incubator module nothing links it.
 */
final class PanamaLongViews implements LongViews.Steps {
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_512;
    private static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_512;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    static final int STEP_ROWS = 16;
    /** A group's window: two 64-byte vectors, the table of one {@code vpermi2b}. */
    static final int WINDOW = 128;
    /** The largest offset of a prefix's first byte in its group's window (its 4 bytes must be inside). */
    static final int MAX_PREFIX_AT = WINDOW - 4;

    /** Lane {@code m} takes lane {@code m - k} (zero below {@code k}, see the masks): the prefix sum's shifts. */
    private static final VectorShuffle<Integer> UP_1 = VectorShuffle.fromOp(INTS, m -> (m - 1) & 15);
    private static final VectorShuffle<Integer> UP_2 = VectorShuffle.fromOp(INTS, m -> (m - 2) & 15);
    private static final VectorShuffle<Integer> UP_4 = VectorShuffle.fromOp(INTS, m -> (m - 4) & 15);
    private static final VectorShuffle<Integer> UP_8 = VectorShuffle.fromOp(INTS, m -> (m - 8) & 15);
    private static final VectorMask<Integer> FROM_1 = VectorMask.fromLong(INTS, 0xFFFE);
    private static final VectorMask<Integer> FROM_2 = VectorMask.fromLong(INTS, 0xFFFC);
    private static final VectorMask<Integer> FROM_4 = VectorMask.fromLong(INTS, 0xFFF0);
    private static final VectorMask<Integer> FROM_8 = VectorMask.fromLong(INTS, 0xFF00);
    /** Lane {@code m} takes its group's first lane. */
    private static final VectorShuffle<Integer> GROUP_FIRST = VectorShuffle.fromOp(INTS, m -> m & ~3);
    private static final IntVector MAX_PREFIX_AT_INTS = IntVector.broadcast(INTS, MAX_PREFIX_AT);

    /**
     * Group {@code g}'s prefix-byte indexes: byte {@code 4 + k} of view {@code j} takes row {@code 4g + j}'s offset
     * in its group (lane {@code 4g + j} of those offsets narrowed to bytes), to which {@link #BYTE_OF_PREFIX} adds
     * {@code k}; the other bytes are not stored.
     */
    private static final VectorShuffle<Byte> PREFIX_AT_0 = prefixAt(0);
    private static final VectorShuffle<Byte> PREFIX_AT_1 = prefixAt(1);
    private static final VectorShuffle<Byte> PREFIX_AT_2 = prefixAt(2);
    private static final VectorShuffle<Byte> PREFIX_AT_3 = prefixAt(3);
    private static final ByteVector BYTE_OF_PREFIX = bytes(b -> b % 16 >= 4 && b % 16 < 8 ? b % 4 : 0);
    /**
     * Group {@code g}'s lengths and offsets: int 0 of view {@code j} takes size {@code 4g + j}
     * ({@code LENGTHS_g}, the other lanes zeroed by {@link #LENGTH_LANES}), int 3 its offset ({@code OFFSETS_g},
     * {@link #OFFSET_LANES}); two masked one-vector permutes ORed, as a two-vector permute and blends left C2
     * boxing the vectors.
     */
    private static final VectorShuffle<Integer> LENGTHS_0 = spread(0);
    private static final VectorShuffle<Integer> LENGTHS_1 = spread(1);
    private static final VectorShuffle<Integer> LENGTHS_2 = spread(2);
    private static final VectorShuffle<Integer> LENGTHS_3 = spread(3);
    private static final VectorMask<Integer> LENGTH_LANES = VectorMask.fromLong(INTS, 0x1111);
    private static final VectorMask<Integer> OFFSET_LANES = VectorMask.fromLong(INTS, 0x8888);
    /** Int 2 of each view, the buffer index. */
    private static final VectorMask<Integer> BUFFER_INDEX_LANES = VectorMask.fromLong(INTS, 0x4444);
    /** Bytes 4..7 of each view, the prefix. */
    private static final VectorMask<Byte> PREFIX_BYTES = VectorMask.fromLong(BYTES, 0x00F0_00F0_00F0_00F0L);

    private static VectorShuffle<Byte> prefixAt(int group) {
        return VectorShuffle.fromOp(BYTES, b -> 4 * group + b / 16);
    }

    private static VectorShuffle<Integer> spread(int group) {
        return VectorShuffle.fromOp(INTS, m -> 4 * group + m / 4);
    }

    private static ByteVector bytes(java.util.function.IntUnaryOperator byteAt) {
        byte[] bytes = new byte[BYTES.length()];
        for (int b = 0; b < bytes.length; b++) {
            bytes[b] = (byte) byteAt.applyAsInt(b);
        }
        return ByteVector.fromArray(BYTES, bytes, 0);
    }

    @Override
    public long steps(int[] sizes, int rows, byte[] bytes, int base, int charsLength, int bufferIndex,
            MemorySegment out, long outAt) {
        IntVector bufferIndexInts = IntVector.zero(INTS).blend(bufferIndex, BUFFER_INDEX_LANES);
        int lastWindowStart = charsLength - WINDOW; // a window starting at or before it lies inside the chars
        int p = 0;
        int i = 0;
        for (; i <= rows - STEP_ROWS; i += STEP_ROWS) {
            IntVector size = IntVector.fromArray(INTS, sizes, i);
            IntVector sum = size.add(size.rearrange(UP_1, FROM_1));
            sum = sum.add(sum.rearrange(UP_2, FROM_2));
            sum = sum.add(sum.rearrange(UP_4, FROM_4));
            sum = sum.add(sum.rearrange(UP_8, FROM_8)); // inclusive
            IntVector before = sum.sub(size); // exclusive: each row's offset from the step's start
            IntVector inGroup = before.sub(before.rearrange(GROUP_FIRST));
            int start1 = before.lane(4);
            int start2 = before.lane(8);
            int start3 = before.lane(12);
            if (p + start3 > lastWindowStart || inGroup.compare(VectorOperators.GT, MAX_PREFIX_AT_INTS).anyTrue()) {
                break;
            }
            // No vector is reinterpreted: C2 on JDK 25 boxed every vector of this loop around the int-to-byte
            // reinterpretations of an earlier form (10.7 ns a row, hsdis: allocations in the loop). Offsets in a
            // group are below 128 here, so they narrow to bytes exactly.
            ByteVector inGroupBytes = (ByteVector) inGroup.convertShape(VectorOperators.I2B, BYTES, 0);
            IntVector offset = before.add(p);
            long at = outAt + 16L * i;
            int q = base + p;
            // The four groups written out: as calls of a helper, C2 left the last two out of line (the inlining
            // budget), which boxed every vector passed to them.
            group(bytes, q, inGroupBytes.rearrange(PREFIX_AT_0), size.rearrange(LENGTHS_0, LENGTH_LANES).or(offset.rearrange(LENGTHS_0, OFFSET_LANES)),
                    bufferIndexInts, out, at);
            group(bytes, q + start1, inGroupBytes.rearrange(PREFIX_AT_1), size.rearrange(LENGTHS_1, LENGTH_LANES).or(offset.rearrange(LENGTHS_1, OFFSET_LANES)),
                    bufferIndexInts, out, at + 64);
            group(bytes, q + start2, inGroupBytes.rearrange(PREFIX_AT_2), size.rearrange(LENGTHS_2, LENGTH_LANES).or(offset.rearrange(LENGTHS_2, OFFSET_LANES)),
                    bufferIndexInts, out, at + 128);
            group(bytes, q + start3, inGroupBytes.rearrange(PREFIX_AT_3), size.rearrange(LENGTHS_3, LENGTH_LANES).or(offset.rearrange(LENGTHS_3, OFFSET_LANES)),
                    bufferIndexInts, out, at + 192);
            p += sum.lane(15);
        }
        return (long) i << 32 | p;
    }

    /**
     * One group's 4 views at {@code out[at]}: lengths, buffer index and offsets as ints, then the prefixes picked
     * out of the group's 128-byte window at {@code bytes[q]} stored over bytes 4..7 of each view.
     */
    private static void group(byte[] bytes, int q, ByteVector prefixAt, IntVector lengthOffset,
            IntVector bufferIndexInts, MemorySegment out, long at) {
        lengthOffset.or(bufferIndexInts).intoMemorySegment(out, at, LE);
        ByteVector low = ByteVector.fromArray(BYTES, bytes, q);
        ByteVector high = ByteVector.fromArray(BYTES, bytes, q + 64);
        // Indexes 64..127 are exceptional for a 64-lane shuffle and take the second vector's lane (index - 64).
        ByteVector index = prefixAt.add(BYTE_OF_PREFIX);
        VectorShuffle<Byte> shuffle = index.toShuffle();
        low.rearrange(shuffle).blend(high.rearrange(shuffle), index.compare(VectorOperators.GE, (byte) 64))
                .intoMemorySegment(out, at, LE, PREFIX_BYTES);
    }

    @Override
    public boolean isUseful() {
        return IntVector.SPECIES_PREFERRED.vectorBitSize() >= 512;
    }

    @Override
    public String describe() {
        return "512-bit long-value views, 16 rows a step, a 128-byte window per 4 rows";
    }
}
