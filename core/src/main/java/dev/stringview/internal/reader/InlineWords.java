package dev.stringview.internal.reader;

import dev.stringview.ViewLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The two view words of an inline value (at most 12 bytes) from its bytes: what core's builders and
 * {@code ByteView} compute, and what a reader that writes views itself (seed 003's separated format) needs.
 * Word 0 is {@code length | bytes 0..3 << 32}, word 1 bytes 4..11, zero past the value's end (ViewLayout).
 *
 * <p>Not API: the package is exported only to the reader modules ({@code dev.stringview.format},
 * {@code dev.stringview.parquet}).
 */
public final class InlineWords {
    private static final long[] LOW_MASKS = new long[ViewLayout.INLINE_MAX + 1];
    private static final long[] HIGH_MASKS = new long[ViewLayout.INLINE_MAX + 1];

    static {
        for (int n = 0; n <= ViewLayout.INLINE_MAX; n++) {
            LOW_MASKS[n] = n >= Long.BYTES ? -1L : (1L << (8 * n)) - 1;
            HIGH_MASKS[n] = n <= Long.BYTES ? 0 : (1L << (8 * (n - Long.BYTES))) - 1;
        }
    }

    private InlineWords() {}

    /**
     * Bytes 0..7 of the {@code length}-byte value at {@code offset} of {@code source} as a little-endian long,
     * zero past the value's end: the low half of an inline view's 12 bytes. One word load when 8 bytes of the
     * segment are there (bytes past the value are masked off), byte by byte only at the segment's very end.
     */
    public static long inlineLow(MemorySegment source, long offset, int length) {
        if (offset + Long.BYTES <= source.byteSize()) {
            return source.get(ViewLayout.LAYOUT_LE_LONG, offset) & inlineLowMask(length);
        }
        return gather(source, offset, Math.min(length, Long.BYTES));
    }

    /**
     * Bytes 8..11 of the {@code length}-byte value at {@code offset} of {@code source} in the low 32 bits, zero
     * past the value's end (and zero for values of 8 bytes or fewer): the high part of an inline view's 12 bytes.
     */
    public static long inlineHigh(MemorySegment source, long offset, int length) {
        if (offset + ViewLayout.INLINE_MAX <= source.byteSize()) {
            return source.get(ViewLayout.LAYOUT_LE_INT, offset + Long.BYTES) & inlineHighMask(length);
        }
        return gather(source, offset + Long.BYTES, Math.max(length - Long.BYTES, 0));
    }

    /** View word 0 of an inline value: {@code length | bytes 0..3 << 32}, from {@link #inlineLow}. */
    public static long inlineWord0(int length, long low) {
        return (length & 0xFFFF_FFFFL) | (low << 32);
    }

    /** View word 1 of an inline value: bytes 4..11, from {@link #inlineLow} and {@link #inlineHigh}. */
    public static long inlineWord1(long low, long high) {
        return (low >>> 32) | (high << 32);
    }

    /**
     * The mask that keeps bytes 0..7 of a value of {@code length} (0 to 12) bytes in a little-endian word loaded
     * at its start (a table: a computed mask with a branch would mispredict on random lengths).
     */
    public static long inlineLowMask(int length) {
        return LOW_MASKS[length];
    }

    /** The mask that keeps bytes 8..11 of a value of {@code length} (0 to 12) bytes in an int loaded at byte 8. */
    public static long inlineHighMask(int length) {
        return HIGH_MASKS[length];
    }

    /** Up to 8 bytes at {@code offset}, little-endian, read one by one (the tail of a segment). */
    private static long gather(MemorySegment source, long offset, int count) {
        long word = 0;
        for (int i = 0; i < count; i++) {
            word |= (source.get(ValueLayout.JAVA_BYTE, offset + i) & 0xFFL) << (i << 3);
        }
        return word;
    }
}
