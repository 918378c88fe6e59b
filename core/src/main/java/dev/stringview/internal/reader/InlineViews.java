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
 * Utf8View layout requires for inline values (bytes past the value's end are zero). {@link #build} and
 * {@link #buildTestingAscii} take sizes up to 12; {@link #buildTestingAsciiUpTo4} takes sizes up to 4 (word 1 of
 * every view is zero) and {@link #buildTestingAsciiUpTo8} sizes up to 8 (word 1's upper half is zero); each is
 * faster where a caller knows that bound, e.g. from a pass over the sizes.
 *
 * <p>On CPUs with 512-bit vectors and a JVM started with {@code --add-modules jdk.incubator.vector}, calls take a
 * Vector API form (16 rows a step, one byte expand of a 64-byte window of chars per 4 rows; AVX-512 VBMI2) once the
 * application has called {@code ViewKernels.warmUp()}; until then, without the module, or under
 * {@code -Dstringview.vectorization=false}, a scalar loop writes the same views (docs/decisions/001 and 015). The
 * vector form is warmed over native views and over native chars or chars in a heap {@code byte[]}: it runs fastest
 * when callers pass those (heap segments work, at the cost of a recompilation that slows later native calls too);
 * chars that are on the heap go to the entry over a {@code byte[]}.
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

    /**
     * {@link #buildTestingAscii} for values of at most 4 bytes, whose views are {@code length | bytes << 32} and a
     * zero word 1 (seed 003's sizes 1 and 2, and any block a caller's pass over the sizes has found that short):
     * the vector form loads each 16 rows' chars (at most 64 bytes) once and places them with one byte expand,
     * where {@link #buildTestingAscii} loads a window per 4 rows. The same views, return value and bounds.
     *
     * @throws IllegalArgumentException naming the row, when a size is outside [0, 4] (views of the rows before it
     *     may have been written)
     * @throws IndexOutOfBoundsException as {@link #build} does
     */
    public static long buildTestingAsciiUpTo4(int[] sizes, int from, int count, MemorySegment chars,
            long charsOffset, MemorySegment views, long viewsOffset) {
        checkRanges(sizes, from, count, chars, charsOffset, views, viewsOffset);
        Vectorization.InlineViewScan vector = Vectorization.inlineViews();
        if (vector != null) {
            return vector.buildUpTo4(sizes, from, count, chars, charsOffset, views, viewsOffset);
        }
        return InlineViewLoop.buildTestingAscii(sizes, from, count, chars, charsOffset, views, viewsOffset, 4);
    }

    /**
     * {@link #buildTestingAscii} for values of at most 8 bytes, whose views are {@code length | bytes 0..3 << 32}
     * and {@code bytes 4..7} (word 1's upper half zero; seed 003's sizes 4 and 8, lengths 3..5 and 6..10 of which
     * a block's longest is at most 8 for size 4): the vector form loads one 64-byte chars window per 8 rows and
     * places its values with one byte expand, where {@link #buildTestingAscii} loads a window per 4 rows. The same
     * views, return value and bounds.
     *
     * @throws IllegalArgumentException naming the row, when a size is outside [0, 8] (views of the rows before it
     *     may have been written)
     * @throws IndexOutOfBoundsException as {@link #build} does
     */
    public static long buildTestingAsciiUpTo8(int[] sizes, int from, int count, MemorySegment chars,
            long charsOffset, MemorySegment views, long viewsOffset) {
        checkRanges(sizes, from, count, chars, charsOffset, views, viewsOffset);
        Vectorization.InlineViewScan vector = Vectorization.inlineViews();
        if (vector != null) {
            return vector.buildUpTo8(sizes, from, count, chars, charsOffset, views, viewsOffset);
        }
        return InlineViewLoop.buildTestingAscii(sizes, from, count, chars, charsOffset, views, viewsOffset, 8);
    }

    /**
     * {@link #buildTestingAscii}, {@link #buildTestingAsciiUpTo8} or {@link #buildTestingAsciiUpTo4}, as
     * {@code maxSize} is 12, 8 or 4, over chars in a heap array: row {@code from}'s value starts at
     * {@code chars[charsOffset]}. The vector form loads its windows with array loads, so a reader whose chars are
     * on the heap (its input's own array, a stream's buffer) passes them where they are instead of copying them
     * into native memory: the segment form is compiled for native chars, and a heap segment among its calls would
     * slow every later call (see docs/serialization.md). Its windows may read bytes of the array past the last
     * value, never past the array's end; only the values' bytes reach the views and the ASCII test.
     *
     * @throws IllegalArgumentException naming the row, when a size is outside [0, maxSize], or when
     *     {@code maxSize} is not 4, 8 or 12
     * @throws IndexOutOfBoundsException as {@link #build} does, the chars' end being the array's
     */
    public static long buildTestingAscii(int[] sizes, int from, int count, byte[] chars, int charsOffset,
            MemorySegment views, long viewsOffset, int maxSize) {
        if (maxSize != 4 && maxSize != 8 && maxSize != ViewLayout.INLINE_MAX) {
            throw new IllegalArgumentException("maxSize=" + maxSize + " expected=4,8,12");
        }
        MemorySegment heapChars = MemorySegment.ofArray(chars);
        checkRanges(sizes, from, count, heapChars, charsOffset, views, viewsOffset);
        Vectorization.InlineViewScan vector = Vectorization.inlineViews();
        if (vector != null) {
            return vector.buildFromArray(sizes, from, count, chars, charsOffset, views, viewsOffset, maxSize);
        }
        return InlineViewLoop.buildTestingAscii(sizes, from, count, heapChars, charsOffset, views, viewsOffset,
                maxSize);
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
