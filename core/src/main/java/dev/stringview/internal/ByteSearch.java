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
    }

    private int rank(int position) {
        return RANK[needle[position] & 0xFF];
    }

    public int needleLength() {
        return length;
    }

    /** Position of the first occurrence of the needle within {@code [offset, offset + length)}, relative to offset, or -1. */
    public long indexOf(MemorySegment haystack, long offset, long haystackLength) {
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
        while (candidates != 0) {
            long at = window + (Long.numberOfTrailingZeros(candidates) >>> 3);
            if (matchesAt(haystack, offset + at, offset + haystackLength)) {
                return at;
            }
            candidates &= candidates - 1;
        }
        return -1;
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
