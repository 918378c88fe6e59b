package dev.stringview.format.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * {@code ColumnDeserializer}'s ASCII test of a block's chars: one pass, no branch on the data, either on its own
 * ({@link #highBits}) or fused with the chars' copy into the block's buffer ({@link #copyHighBits}).
 */
public final class AsciiBits {
    private static final VarHandle BYTES_LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private AsciiBits() {}

    /**
     * The OR of {@code bytes[from, from + length)} as little-endian words (the last few bytes ORed into the low
     * byte): a byte of 0x80 or more sets some bit of {@code 0x8080_8080_8080_8080}. 32 bytes an iteration in four
     * independent words, so that the loop has no branch on the data and no single dependency chain (C2 does not
     * vectorize it; four chains measured 1.8x faster than one over 4 MiB).
     */
    public static long highBits(byte[] bytes, int from, int length) {
        long high0 = 0;
        long high1 = 0;
        long high2 = 0;
        long high3 = 0;
        int i = from;
        int end = from + length;
        for (; i <= end - 32; i += 32) {
            high0 |= (long) BYTES_LE_LONG.get(bytes, i);
            high1 |= (long) BYTES_LE_LONG.get(bytes, i + 8);
            high2 |= (long) BYTES_LE_LONG.get(bytes, i + 16);
            high3 |= (long) BYTES_LE_LONG.get(bytes, i + 24);
        }
        for (; i <= end - 8; i += 8) {
            high0 |= (long) BYTES_LE_LONG.get(bytes, i);
        }
        for (; i < end; i++) {
            high0 |= bytes[i] & 0xFF;
        }
        return high0 | high1 | high2 | high3;
    }

    /**
     * Copies {@code length} bytes of {@code from} (from {@code fromOffset} on) to {@code to} (from 0 on) and returns
     * the OR of the copied bytes as little-endian words, as {@link #highBits} does (the last bytes, fewer than 8,
     * ORed into the low byte): the chars' copy and their ASCII test in one read. A loop over 8-byte words that C2
     * on JDK 25 turns into 512-bit loads, stores and ORs (hsdis: eight {@code vmovdqu32} loads and stores and
     * their {@code vpord}s per 512-byte iteration, no call), so it runs faster than {@code MemorySegment.copy} of
     * the same bytes alone: with 4 MiB of chars (65,535 values of 51-77 bytes) 98-101 µs against 153-159 for the
     * copy, and 178-192 for the copy after a test in 64 KiB pieces, the form it replaced
     * (SeparatedLoopsSideBySide, docs/serialization.md). Both ranges are checked by the segments' own accesses.
     * {@code length} is an {@code int} on purpose: with a {@code long} length the same loop was left scalar (158
     * µs), as C2 then cannot bound the word count and splits the loop into a nest it does not vectorize.
     */
    public static long copyHighBits(MemorySegment from, long fromOffset, MemorySegment to, int length) {
        long high = 0;
        long words = length >>> 3;
        for (long i = 0; i < words; i++) {
            long word = from.get(Wire.LE_LONG, fromOffset + 8 * i);
            to.set(Wire.LE_LONG, 8 * i, word);
            high |= word;
        }
        for (long i = words << 3; i < length; i++) {
            byte b = from.get(ValueLayout.JAVA_BYTE, fromOffset + i);
            to.set(ValueLayout.JAVA_BYTE, i, b);
            high |= b & 0xFF;
        }
        return high;
    }
}
