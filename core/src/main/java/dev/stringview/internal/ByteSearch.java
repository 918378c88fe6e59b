package dev.stringview.internal;

import dev.stringview.ViewLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Substring search for one needle, prepared once. Candidate positions are screened eight at a time (SWAR):
 * two 64-bit loads, at the offsets of the needle's two rarest bytes, are compared against those bytes, and only
 * positions where both agree are verified in full. Screening on rare bytes (the idea of Rust's {@code memchr}
 * crate) matters for text such as URLs, where a needle's first and last letters are common: {@code "google"}
 * screened on {@code 'g'}/{@code 'e'} lets many positions through, on {@code 'g'}/{@code 'l'} few.
 * Needles of up to 16 bytes are verified with one or two word compares instead of a {@code mismatch} call.
 */
public final class ByteSearch {
    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long HIGHS = 0x8080_8080_8080_8080L;

    /**
     * Rough commonness of each byte in text, URLs and identifiers (higher is more common). Only the order matters:
     * it picks which two needle bytes to screen on. Frequent English letters, URL punctuation and digits rank
     * high; control bytes and rare letters rank low.
     */
    private static final byte[] RANK = new byte[256];

    static {
        String common = " etaoinsrhldcum/.pfgwyb=&?:-_0123456789vkxjqzETAOINSRHLDCUMPFGWYBVKXJQZ,;'\"()[]%+#@!*$~|\\^`{}<>\t\n\r";
        for (int b = 0; b < 256; b++) {
            RANK[b] = (byte) (b >= 0x80 ? 20 : 1);
        }
        for (int i = 0; i < common.length(); i++) {
            RANK[common.charAt(i)] = (byte) Math.max(2, 120 - i);
        }
    }

    private final byte[] needle;
    private final MemorySegment needleSegment;
    private final int length;
    private final int rareOffset1;
    private final int rareOffset2;
    private final long rarePattern1;
    private final long rarePattern2;
    private final long firstWord; // needle bytes 0..7 (little-endian, zero-padded)
    private final long firstMask;
    private final long lastWord; // needle bytes length-8..length-1, for 9..16-byte needles
    private final long secondWord; // needle bytes 8..11 (zero-padded), for 9..12-byte needles
    private final long secondMask;

    public ByteSearch(byte[] needle) {
        this.needle = needle.clone();
        this.needleSegment = MemorySegment.ofArray(this.needle);
        this.length = needle.length;
        int rare1 = 0;
        int rare2 = length > 1 ? 1 : 0;
        for (int i = 0; i < length; i++) {
            if (rank(i) < rank(rare1)) {
                rare1 = i;
            }
        }
        if (rare2 == rare1) {
            rare2 = 0;
        }
        for (int i = 0; i < length; i++) {
            if (i != rare1 && rank(i) < rank(rare2)) {
                rare2 = i;
            }
        }
        this.rareOffset1 = rare1;
        this.rareOffset2 = rare2;
        this.rarePattern1 = length == 0 ? 0 : (needle[rare1] & 0xFFL) * ONES;
        this.rarePattern2 = length == 0 ? 0 : (needle[rare2] & 0xFFL) * ONES;
        long word = 0;
        for (int i = 0; i < Math.min(8, length); i++) {
            word |= (needle[i] & 0xFFL) << (8 * i);
        }
        this.firstWord = word;
        this.firstMask = length >= 8 ? -1L : (1L << (8 * length)) - 1;
        this.lastWord = length > 8 && length <= 16 ? needleSegment.get(ViewLayout.LAYOUT_LE_LONG, length - 8L) : 0;
        long second = 0;
        for (int i = 8; i < Math.min(12, length); i++) {
            second |= (needle[i] & 0xFFL) << (8 * (i - 8));
        }
        this.secondWord = second;
        this.secondMask = length <= 8 ? 0 : (1L << (8 * (Math.min(12, length) - 8))) - 1;
    }

    private int rank(int position) {
        return RANK[needle[position] & 0xFF];
    }

    public int needleLength() {
        return length;
    }

    /**
     * Whether the needle occurs in a value of at most 12 bytes held in registers: {@code low} holds bytes 0..7,
     * {@code high} bytes 8..11 in its low half (little-endian), {@code valueLength} is 0..12 and bytes past it
     * are ignored. This is how an inline view's value is searched without reading memory: both rare-byte
     * screens run on all 12 bytes at once (one bit per byte via {@link Long#compress}), and each surviving start
     * is verified with shifts of the two words.
     */
    public boolean occursInInline(long low, long high, int valueLength) {
        int lastStart = valueLength - length;
        if (lastStart < 0 || length > ViewLayout.INLINE_MAX) {
            return false;
        }
        if (length == 0) {
            return true;
        }
        // Most values do not hold the rarest byte at all: a three-operation test (it may report a byte that is
        // not there, never miss one that is) rejects them before the exact screen.
        long x = low ^ rarePattern1;
        long y = (high ^ rarePattern1) | 0xFFFF_FFFF_0000_0000L; // bytes 12..15 never match
        if (((((x - ONES) & ~x) | ((y - ONES) & ~y)) & HIGHS) == 0) {
            return false;
        }
        long starts = (equalBytes(low, high, rarePattern1) >>> rareOffset1)
                & (equalBytes(low, high, rarePattern2) >>> rareOffset2)
                & ((2L << lastStart) - 1);
        while (starts != 0) {
            int start = Long.numberOfTrailingZeros(starts);
            int shift = 8 * start;
            // Bytes start..start+7 of the value (for start > 4 the bytes past 11 come in as zeros).
            long window = start == 0 ? low : start < 8 ? (low >>> shift) | (high << (64 - shift)) : high >>> (shift - 64);
            if ((window & firstMask) == firstWord
                    && (length <= 8 || ((high >>> shift) & secondMask) == secondWord)) {
                return true;
            }
            starts &= starts - 1;
        }
        return false;
    }

    /** Bit k (k in 0..11) set when byte k of the 12-byte value {@code low, high} equals the byte repeated in {@code pattern}. */
    private static long equalBytes(long low, long high, long pattern) {
        return Long.compress(zeroBytes(low ^ pattern), HIGHS)
                | Long.compress(zeroBytes(high ^ pattern) & 0x8080_8080L, 0x8080_8080L) << 8;
    }

    /** High bit of every byte of {@code x} that is zero, and no other bits (exact, unlike the screening trick). */
    private static long zeroBytes(long x) {
        return ~(((x & ~HIGHS) + ~HIGHS) | x) & HIGHS;
    }

    /** Position of the first occurrence of the needle within {@code [offset, offset + length)}, relative to offset, or -1. */
    public long indexOf(MemorySegment haystack, long offset, long haystackLength) {
        Vectorization.VectorSearch vector = Vectorization.search(); // null until Vectorization.warmUp has run
        if (vector != null && haystackLength - length >= 15 && length != 0) {
            return vector.indexOf(this, haystack, offset, haystackLength - length);
        }
        return indexOfScalar(haystack, offset, haystackLength);
    }

    /** {@link #indexOf} with the scalar (SWAR) code only, whatever {@link Vectorization} chose. */
    long indexOfScalar(MemorySegment haystack, long offset, long haystackLength) {
        if (length == 0) {
            return 0;
        }
        long lastStart = haystackLength - length;
        if (lastStart < 0) {
            return -1;
        }
        long i = 0;
        // Both loads stay inside the range while i + 7 <= lastStart (the rare offsets are < length).
        while (i + 7 <= lastStart) {
            long at = firstMatch(haystack, offset, haystackLength, i, -1L);
            if (at >= 0) {
                return at;
            }
            i += 8;
        }
        if (i > lastStart) {
            return -1;
        }
        if (lastStart >= 7) {
            // The last few starts: one more window, moved back to end at lastStart, ignoring starts already seen.
            long window = lastStart - 7;
            return firstMatch(haystack, offset, haystackLength, window, -1L << (8 * (i - window)));
        }
        byte rare1 = needle[rareOffset1];
        byte rare2 = needle[rareOffset2];
        for (; i <= lastStart; i++) {
            if (haystack.get(ValueLayout.JAVA_BYTE, offset + i + rareOffset1) == rare1
                    && haystack.get(ValueLayout.JAVA_BYTE, offset + i + rareOffset2) == rare2
                    && matchesAt(haystack, offset + i, offset + haystackLength)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The first of the eight starts {@code window..window+7} (those whose byte is set in {@code keep}) where the
     * needle occurs, or -1.
     */
    private long firstMatch(MemorySegment haystack, long offset, long haystackLength, long window, long keep) {
        long a = haystack.get(ViewLayout.LAYOUT_LE_LONG, offset + window + rareOffset1) ^ rarePattern1;
        long b = haystack.get(ViewLayout.LAYOUT_LE_LONG, offset + window + rareOffset2) ^ rarePattern2;
        long x = a | b;
        // High bit of byte k set if byte k of x is zero (it may also flag a byte above a true zero: verified).
        long candidates = (x - ONES) & ~x & HIGHS & keep;
        return candidates == 0 ? -1
                : verify(haystack, offset, offset + haystackLength, window, Long.compress(candidates, HIGHS));
    }

    /**
     * The first start {@code window + k} whose bit k is set in {@code lanes} and where the needle occurs, or -1.
     * {@code end} bounds the haystack. Shared by the SWAR screen and the vector screen.
     */
    long verify(MemorySegment haystack, long offset, long end, long window, long lanes) {
        while (lanes != 0) {
            long at = window + Long.numberOfTrailingZeros(lanes);
            if (matchesAt(haystack, offset + at, end)) {
                return at;
            }
            lanes &= lanes - 1;
        }
        return -1;
    }

    int rareOffset1() {
        return rareOffset1;
    }

    int rareOffset2() {
        return rareOffset2;
    }

    byte rareByte1() {
        return needle[rareOffset1];
    }

    byte rareByte2() {
        return needle[rareOffset2];
    }

    /** Whether the needle sits at {@code position}; {@code end} bounds the haystack (the needle fits before it). */
    private boolean matchesAt(MemorySegment haystack, long position, long end) {
        if (length <= 16 && position + 8 <= end) {
            if ((haystack.get(ViewLayout.LAYOUT_LE_LONG, position) & firstMask) != firstWord) {
                return false;
            }
            return length <= 8 || haystack.get(ViewLayout.LAYOUT_LE_LONG, position + length - 8) == lastWord;
        }
        return ByteRanges.equal(haystack, position, needleSegment, 0, length);
    }
}
