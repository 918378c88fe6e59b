package dev.stringview.internal.reader;

import dev.stringview.ViewLayout;
import dev.stringview.internal.InlineViewLoop;
import dev.stringview.internal.Vectorization;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Builds the views of values of at most 12 bytes (inline views) from their sizes and their concatenated bytes:
 * the step every reader of a "sizes + chars" layout takes (seed 003's separated column format, Parquet's
 * DELTA_LENGTH_BYTE_ARRAY pages). Nothing is allocated and no value is copied except into its own view, as the
 * Utf8View layout requires for inline values (bytes past the value's end are zero).
 *
 * <p>One scalar loop, and on CPUs with 512-bit vectors (AVX-512 VBMI2) a Vector API twin (16 rows a step, one
 * byte expand of a 64-byte window of chars per 4 rows) once {@code ViewKernels.warmUp()} has run (decision record
 * 001); both write the same views. The vector form is warmed over native chars and views: it runs fastest when
 * callers pass those.
 *
 * <p><b>Memory.</b> Both segments are the caller's: the calls read {@code chars} and write {@code views} on the
 * calling thread during the call only, and keep no reference to either.
 *
 * <p>Not API: the package is exported only to the reader modules ({@code dev.stringview.format},
 * {@code dev.stringview.parquet}).
 */
public final class InlineViews {
    private InlineViews() {}

    /**
     * Writes the views of rows {@code [from, from + count)} of {@code sizes} to {@code views}, row {@code from}'s
     * at byte {@code viewsOffset} and the others after it (16 bytes each); row {@code from}'s value starts at byte
     * {@code charsOffset} of {@code chars} and each next row's where the previous one ends. Returns the offset in
     * {@code chars} after the last row's value.
     *
     * <p>No read reaches past the end of {@code chars}, so it may be sized exactly.
     *
     * @throws IllegalArgumentException naming the row, when a size is outside [0, 12] (views of the rows before it
     *     may have been written)
     * @throws IndexOutOfBoundsException when the ranges do not fit {@code sizes}, {@code views} or {@code chars}
     *     (the last naming the row whose value would end past the chars' end)
     */
    public static long build(int[] sizes, int from, int count, MemorySegment chars, long charsOffset,
            MemorySegment views, long viewsOffset) {
        long end = buildTestingAscii(sizes, from, count, chars, charsOffset, views, viewsOffset);
        return end < 0 ? ~end : end;
    }

    /**
     * {@link #build}, which also tells whether every byte of the values is ASCII (below 0x80), as a reader of UTF-8
     * needs before it validates them: returns the offset in {@code chars} after the last row's value when every
     * byte is, else that offset's complement {@code ~offset} (negative). The test is a by-product of building the
     * views (the vector form ORs the value bytes it has placed), not a pass of its own over the chars.
     *
     * @throws IllegalArgumentException as {@link #build} does
     * @throws IndexOutOfBoundsException as {@link #build} does
     */
    public static long buildTestingAscii(int[] sizes, int from, int count, MemorySegment chars, long charsOffset,
            MemorySegment views, long viewsOffset) {
        checkRanges(sizes, from, count, chars, charsOffset, views, viewsOffset);
        Vectorization.InlineViewScan vector = Vectorization.inlineViews();
        if (vector != null) {
            return vector.build(sizes, from, count, chars, charsOffset, views, viewsOffset);
        }
        return InlineViewLoop.buildTestingAscii(sizes, from, count, chars, charsOffset, views, viewsOffset);
    }

    private static void checkRanges(int[] sizes, int from, int count, MemorySegment chars, long charsOffset,
            MemorySegment views, long viewsOffset) {
        Objects.checkFromIndexSize(from, count, sizes.length);
        if (charsOffset < 0 || charsOffset > chars.byteSize()) {
            throw new IndexOutOfBoundsException("charsOffset=" + charsOffset + " charsBytes=" + chars.byteSize());
        }
        if (viewsOffset < 0 || viewsOffset > views.byteSize() - (long) ViewLayout.VIEW_SIZE * count) {
            throw new IndexOutOfBoundsException("viewsOffset=" + viewsOffset + " rows=" + count + " viewsBytes="
                    + views.byteSize());
        }
    }

    /**
     * Whether {@link #build} takes its vector form now (it is chosen for this JVM and warm); a caller choosing
     * between this and a loop of its own tuned for another memory layout asks once per call.
     */
    public static boolean vectorized() {
        return Vectorization.inlineViews() != null;
    }
}
