package dev.stringview.internal;

import dev.stringview.ViewLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * 64-bit hashing of values. Inline values hash from their two view words; long values hash their bytes. A
 * value's length decides which form it has (Arrow requires values of at most 12 bytes to be inline), so equal
 * bytes give equal hashes wherever they are stored.
 */
public final class Hashing {
    private static final long K1 = 0x9E37_79B9_7F4A_7C15L;
    private static final long K2 = 0xC2B2_AE3D_27D4_EB4FL;
    private static final long K3 = 0x1656_67B1_9E37_79F9L;

    private Hashing() {}

    /** Murmur3's 64-bit finalizer: full avalanche of the mixed state. */
    public static long fmix64(long h) {
        h ^= h >>> 33;
        h *= 0xFF51_AFD7_ED55_8CCDL;
        h ^= h >>> 33;
        h *= 0xC4CE_B9FE_1A85_EC53L;
        h ^= h >>> 33;
        return h;
    }

    /**
     * Hash of an inline value from its view words (length in word0, zero padding is canonical). The constant
     * keeps the empty value's hash away from 0, the hash of null rows.
     */
    public static long hashInline(long word0, long word1) {
        return fmix64(word0 * K1 ^ Long.rotateLeft(word1 * K2, 29) ^ K3);
    }

    /** Hash of {@code length} bytes at {@code offset} of {@code data}. */
    public static long hashBytes(MemorySegment data, long offset, int length) {
        long h = length * K3;
        // An int word counter (C2 optimizes int-counted loops best; the offset stays long).
        int words = length >>> 3;
        for (int w = 0; w < words; w++) {
            h = Long.rotateLeft(h ^ data.get(ViewLayout.LAYOUT_LE_LONG, offset + ((long) w << 3)) * K1, 27) * K2;
        }
        long i = offset + ((long) words << 3);
        long end = offset + length;
        long tail = 0;
        int rest = (int) (end - i);
        if (rest > 0 && length >= Long.BYTES) {
            // The last 8 bytes in one read, shifted so that only the rest remains: the same value the byte loop
            // below builds, without up to 7 separately checked segment reads.
            tail = data.get(ViewLayout.LAYOUT_LE_LONG, end - Long.BYTES) >>> ((Long.BYTES - rest) << 3);
            i = end;
        }
        int shift = 0;
        while (i < end) {
            tail |= (data.get(ValueLayout.JAVA_BYTE, i) & 0xFFL) << shift;
            shift += 8;
            i++;
        }
        h = Long.rotateLeft(h ^ tail * K1, 27) * K2;
        return fmix64(h);
    }
}
