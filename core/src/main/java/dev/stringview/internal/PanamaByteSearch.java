package dev.stringview.internal;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link ByteSearch}'s rare-byte screen on 32 (or 16) candidate starts per step, with the Panama Vector API:
 * the haystack is loaded at the offsets of the needle's two rarest bytes, both loads are compared with those
 * bytes, and the lanes where both agree are verified in full by the scalar code. Loaded only through
 * {@link Vectorization} when {@code jdk.incubator.vector} is present. Loads are bounds-checked segment reads
 * that never go past the searched range.
 */
final class PanamaByteSearch implements Vectorization.VectorSearch {
    private static final VectorSpecies<Byte> WIDE = ByteVector.SPECIES_256;
    private static final VectorSpecies<Byte> NARROW = ByteVector.SPECIES_128;
    private static final int WIDE_LANES = 32;
    private static final int NARROW_LANES = 16;

    @Override
    public long indexOf(ByteSearch search, MemorySegment haystack, long offset, long lastStart) {
        long rare1 = search.rareOffset1();
        long rare2 = search.rareOffset2();
        byte byte1 = search.rareByte1();
        byte byte2 = search.rareByte2();
        long end = offset + lastStart + search.needleLength();
        if (lastStart >= WIDE_LANES - 1) {
            long start = 0;
            // Starts start..start+31 are all <= lastStart, so both loads end inside the haystack.
            for (; start + WIDE_LANES - 1 <= lastStart; start += WIDE_LANES) {
                long at = offset + start;
                long lanes = wideScreen(haystack, at, rare1, rare2, byte1, byte2);
                long found = search.verify(haystack, offset, end, start, lanes);
                if (found >= 0) {
                    return found;
                }
            }
            if (start > lastStart) {
                return -1;
            }
            // The last starts: one window moved back to end at lastStart, ignoring the starts already seen.
            long window = lastStart - (WIDE_LANES - 1);
            long at = offset + window;
            long lanes = wideScreen(haystack, at, rare1, rare2, byte1, byte2);
            return search.verify(haystack, offset, end, window, lanes & (-1L << (start - window)));
        }
        // 16..31 starts: two overlapping 16-lane windows, at 0 and ending at lastStart.
        long first = narrowScreen(haystack, offset, rare1, rare2, byte1, byte2);
        long found = search.verify(haystack, offset, end, 0, first);
        if (found >= 0 || lastStart < NARROW_LANES) {
            return found;
        }
        long window = lastStart - (NARROW_LANES - 1);
        long at = offset + window;
        long lanes = narrowScreen(haystack, at, rare1, rare2, byte1, byte2);
        return search.verify(haystack, offset, end, window, lanes & (-1L << (NARROW_LANES - window)));
    }

    /**
     * Bit k set when the haystack holds {@code byte1} at {@code at + k + rare1} and {@code byte2} at
     * {@code at + k + rare2}, for the 32 lanes k of {@link #WIDE}. Wide and narrow screens are separate methods
     * with the species as a constant: passed as an argument, the species was not constant wherever C2 declined to
     * inline, and the Vector API then runs its boxed fallback, which made Q20 on PLAIN far slower (decision
     * record 011).
     */
    private static long wideScreen(MemorySegment haystack, long at, long rare1, long rare2, byte byte1, byte byte2) {
        return ByteVector.fromMemorySegment(WIDE, haystack, at + rare1, ByteOrder.LITTLE_ENDIAN)
                .compare(VectorOperators.EQ, byte1)
                .and(ByteVector.fromMemorySegment(WIDE, haystack, at + rare2, ByteOrder.LITTLE_ENDIAN)
                        .compare(VectorOperators.EQ, byte2))
                .toLong();
    }

    /** {@link #wideScreen} for the 16 lanes of {@link #NARROW}. */
    private static long narrowScreen(MemorySegment haystack, long at, long rare1, long rare2, byte byte1, byte byte2) {
        return ByteVector.fromMemorySegment(NARROW, haystack, at + rare1, ByteOrder.LITTLE_ENDIAN)
                .compare(VectorOperators.EQ, byte1)
                .and(ByteVector.fromMemorySegment(NARROW, haystack, at + rare2, ByteOrder.LITTLE_ENDIAN)
                        .compare(VectorOperators.EQ, byte2))
                .toLong();
    }

    @Override
    public boolean isUseful() {
        return ByteVector.SPECIES_PREFERRED.vectorBitSize() >= WIDE.vectorBitSize();
    }

    @Override
    public int preferredBits() {
        return ByteVector.SPECIES_PREFERRED.vectorBitSize();
    }

    @Override
    public String describe() {
        return "preferred " + ByteVector.SPECIES_PREFERRED.vectorBitSize() + "-bit, searching "
                + WIDE.vectorBitSize() + "-bit";
    }
}
