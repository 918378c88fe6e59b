package dev.stringview.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ByteRanges} and {@link Hashing#hashBytes} (its heap-array path and its one-read tail) against an on-heap
 * model ({@link Arrays#equals}, {@link Arrays#compareUnsigned} and a byte-at-a-time hash), on heap and native
 * segments at odd offsets and at the edges of the 8-byte words.
 */
class ByteRangesTest {
    private static final long SEED = 0x5EED_B17EL;
    private static final int[] EDGE_LENGTHS = {8, 9, 12, 13, 15, 16, 17, 23, 24, 25, 31, 32, 33, 127, 128, 129, 200};

    private static byte[] value(Random random, int length) {
        byte[] out = new byte[length];
        int mode = random.nextInt(3);
        for (int i = 0; i < length; i++) {
            out[i] = switch (mode) {
                case 0 -> (byte) ('a' + random.nextInt(2)); // long shared prefixes
                case 1 -> (byte) (0x7E + random.nextInt(4)); // around the signed/unsigned boundary
                default -> (byte) random.nextInt(256);
            };
        }
        return out;
    }

    /** {@code bytes} at {@code offset} of a heap or native segment with a few junk bytes after them. */
    private static MemorySegment place(byte[] bytes, int offset, boolean heap, Arena arena, Random random) {
        long size = offset + bytes.length + 5L;
        MemorySegment segment = heap ? MemorySegment.ofArray(new byte[(int) size]) : arena.allocate(size);
        for (long i = 0; i < size; i++) {
            segment.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt(256));
        }
        MemorySegment.copy(bytes, 0, segment, ValueLayout.JAVA_BYTE, offset, bytes.length);
        return segment;
    }

    /** The byte-at-a-time form of {@link Hashing#hashBytes} (its definition before the tail became one read). */
    private static long modelHash(byte[] bytes) {
        final long k1 = 0x9E37_79B9_7F4A_7C15L;
        final long k2 = 0xC2B2_AE3D_27D4_EB4FL;
        final long k3 = 0x1656_67B1_9E37_79F9L;
        long h = bytes.length * k3;
        int i = 0;
        for (; i + 8 <= bytes.length; i += 8) {
            long word = 0;
            for (int j = 7; j >= 0; j--) {
                word = word << 8 | (bytes[i + j] & 0xFFL);
            }
            h = Long.rotateLeft(h ^ word * k1, 27) * k2;
        }
        long tail = 0;
        for (int shift = 0; i < bytes.length; i++, shift += 8) {
            tail |= (bytes[i] & 0xFFL) << shift;
        }
        return Hashing.fmix64(Long.rotateLeft(h ^ tail * k1, 27) * k2);
    }

    @Test
    void rangesAndHashAgreeWithTheModelOnHeapAndNativeMemory() {
        Random random = new Random(SEED);
        try (Arena arena = Arena.ofConfined()) {
            for (int c = 0; c < 3000; c++) {
                int lengthA = random.nextBoolean() ? EDGE_LENGTHS[random.nextInt(EDGE_LENGTHS.length)]
                        : 8 + random.nextInt(200);
                byte[] a = value(random, lengthA);
                byte[] b;
                switch (random.nextInt(4)) {
                    case 0 -> b = a.clone();
                    case 1 -> { // equal but for one byte, anywhere (also in the overlapping last word)
                        b = a.clone();
                        b[random.nextInt(b.length)] ^= (byte) (1 + random.nextInt(255));
                    }
                    case 2 -> b = Arrays.copyOf(a, Math.max(8, a.length + random.nextInt(17) - 8)); // prefix/extension
                    default -> b = value(random, 8 + random.nextInt(200));
                }
                int offsetA = random.nextInt(9);
                int offsetB = random.nextInt(9);
                boolean heapA = random.nextBoolean();
                boolean heapB = random.nextBoolean();
                MemorySegment sa = place(a, offsetA, heapA, arena, random);
                MemorySegment sb = place(b, offsetB, heapB, arena, random);
                String where = "seed=" + SEED + " case=" + c + " lengthA=" + a.length + " lengthB=" + b.length
                        + " heapA=" + heapA + " heapB=" + heapB + " a=" + Arrays.toString(a) + " b=" + Arrays.toString(b);
                assertEquals(Integer.signum(Arrays.compareUnsigned(a, b)),
                        Integer.signum(ByteRanges.compare(sa, offsetA, a.length, sb, offsetB, b.length)), where);
                if (a.length == b.length) {
                    assertEquals(Arrays.equals(a, b), ByteRanges.equal(sa, offsetA, sb, offsetB, a.length), where);
                }
                if (Arrays.equals(a, b)) {
                    assertEquals(Hashing.hashBytes(sa, offsetA, a.length), Hashing.hashBytes(sb, offsetB, b.length), where);
                }
                assertEquals(modelHash(a), Hashing.hashBytes(sa, offsetA, a.length), where);
            }
        }
    }

    @Test
    void hashOfShortRangesKeepsTheByteLoop() {
        Random random = new Random(SEED + 1);
        try (Arena arena = Arena.ofConfined()) {
            for (int length = 0; length < 8; length++) {
                byte[] bytes = value(random, length);
                for (int offset = 0; offset < 4; offset++) {
                    for (boolean heap : new boolean[] {true, false}) {
                        MemorySegment segment = place(bytes, offset, heap, arena, random);
                        assertEquals(modelHash(bytes), Hashing.hashBytes(segment, offset, length),
                                "length=" + length + " offset=" + offset + " heap=" + heap);
                    }
                }
            }
        }
    }
}
