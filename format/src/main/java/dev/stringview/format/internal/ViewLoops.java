package dev.stringview.format.internal;

import static dev.stringview.format.internal.Wire.LE_LONG;

import dev.stringview.ViewLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * {@code ColumnDeserializer}'s loops that write a separated block's views from its sizes ({@code int[]}) and its
 * chars (a heap {@code byte[]}, the value at {@code bytes[base]} first) straight into the column's views segment,
 * one per shape of block: values of at most 4, 8 or 12 bytes, a mix with longer ones, and long ones only. Each is a
 * small method of its own (C2 compiles a loop inside the large block reader much worse). Public for
 * {@code ColumnDeserializer}, in the API package; the module does not export this one.
 */
public final class ViewLoops {
    private static final VarHandle BYTES_LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BYTES_LE_INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /**
     * Masks of an inline view built from two overlapping little-endian words of the chars, {@code a} at the
     * value's start and {@code b} four bytes further: word 0 is {@code length | (a << 32) & WORD0_MASKS[length]}
     * (bytes 0..3 of the value), word 1 is {@code b & WORD1_MASKS[length]} (bytes 4..11), so the bytes past the
     * value's end are zero as the Utf8View layout requires. Indexed by the length clipped to 15; 13 to 15 (long
     * values) keep the four prefix bytes. Tables, because a computed mask needs a branch or a select per word
     * (measured slower on random lengths).
     */
    private static final long[] WORD0_MASKS = new long[16];
    private static final long[] WORD1_MASKS = new long[16];

    static {
        for (int length = 0; length < 16; length++) {
            int bytes = Math.min(length, ViewLayout.INLINE_MAX);
            WORD0_MASKS[length] = bytes >= 4 ? 0xFFFF_FFFF_0000_0000L : ((1L << (8 * bytes)) - 1) << 32;
            WORD1_MASKS[length] = bytes <= 4 ? 0 : bytes == ViewLayout.INLINE_MAX ? -1L
                    : (1L << (8 * (bytes - 4))) - 1;
        }
    }

    private ViewLoops() {}

    /**
     * Writes the views of rows {@code [0, rows)} of a block whose values are all 12 bytes or shorter straight into
     * {@code out} from byte {@code outAt} on: the hot loop at small sizes. Per row one size, two overlapping 8-byte
     * loads of the chars ({@code bytes[base..]}; every row here has 12 bytes of chars from its start,
     * {@code ColumnDeserializer.rowsWithWordRoom}), two table masks and two stores: no branch. Plain arrays for the inputs and a
     * small method of its own: over segments inside the large block reader each access kept its checks (about
     * 7 ns a row); the stores into the segment have their checks hoisted here (they follow the row index).
     * Writing the views into a heap chunk and copying it to {@code out} measured slower than storing them here.
     * Returns the offset in the chars of row {@code rows}.
     */
    public static int inline12(int[] sizes, int rows, byte[] bytes, int base, MemorySegment out,
            long outAt) {
        int p = base;
        for (int i = 0; i < rows; i++) {
            int length = sizes[i];
            int mask = length & 15; // 0..12 here
            long word0 = length | ((long) BYTES_LE_LONG.get(bytes, p) << 32) & WORD0_MASKS[mask];
            long word1 = (long) BYTES_LE_LONG.get(bytes, p + 4) & WORD1_MASKS[mask];
            out.set(LE_LONG, outAt + 16L * i, word0);
            out.set(LE_LONG, outAt + 16L * i + 8, word1);
            p += length;
        }
        return p - base;
    }

    /**
     * {@link #inline12} for a block whose values are all 8 bytes or shorter: one 8-byte load per row
     * gives both words (bytes 4..7 are the load's upper half). 1.3x faster than the 12-byte loop in a standalone
     * loop at size 1.
     */
    public static int inline8(int[] sizes, int rows, byte[] bytes, int base, MemorySegment out,
            long outAt) {
        int p = base;
        for (int i = 0; i < rows; i++) {
            int length = sizes[i];
            int mask = length & 15; // 0..8 here
            long word = (long) BYTES_LE_LONG.get(bytes, p);
            out.set(LE_LONG, outAt + 16L * i, length | (word << 32) & WORD0_MASKS[mask]);
            out.set(LE_LONG, outAt + 16L * i + 8, (word >>> 32) & WORD1_MASKS[mask]);
            p += length;
        }
        return p - base;
    }

    /**
     * {@link #inline12} for a block whose values are all 4 bytes or shorter: word 1 is zero, word 0 one
     * load and one mask. 1.5x faster than the 12-byte loop in a standalone loop at size 1.
     *
     * <p>The chars are read through a heap segment over the array ({@code chars}, always of that one kind, so
     * this code never sees a native chars segment), not the array's {@code VarHandle}: 63 against 75 µs for
     * 65,535 one-byte rows in a standalone loop, 1.31x faster for the whole size-1 block read side by side. In
     * C2's code of the array version the array's limit was spilled to the stack and compared once a row, and the
     * loop ran out of registers; the same change made the 8- and 12-byte loops 0.90x-0.98x as fast, so they keep
     * the array (SerializationSideBySide, 2026-11-24, docs/benchmarks.md at d935f94).
     */
    public static int inline4(int[] sizes, int rows, MemorySegment chars, int base, MemorySegment out,
            long outAt) {
        long p = base;
        for (int i = 0; i < rows; i++) {
            int length = sizes[i];
            long word = chars.get(LE_LONG, p);
            out.set(LE_LONG, outAt + 16L * i, length | (word << 32) & WORD0_MASKS[length & 15]);
            out.set(LE_LONG, outAt + 16L * i + 8, 0L);
            p += length;
        }
        return (int) (p - base);
    }

    /**
     * {@link #inline12} for a block with values longer than 12 bytes: such a value's view is its length,
     * its first four bytes, {@code bufferIndex} and its offset in the block's buffer (the chars, kept as one
     * segment). A branch on the length: computing both forms for every row and selecting measured 1.1x slower
     * at size 64, where the branch always goes one way. Word 1 of a long value is carried as in {@link #allLong}
     * instead of {@code bufferIndex | (p - base) << 32} (a subtract, an or and a spilled {@code base} a row).
     */
    public static int mixed(int[] sizes, int rows, byte[] bytes, int base, int bufferIndex,
            MemorySegment out, long outAt) {
        int p = base;
        long word1Long = bufferIndex & 0xFFFF_FFFFL; // a long value's word 1 at the current offset
        for (int i = 0; i < rows; i++) {
            int length = sizes[i];
            long word0;
            long word1;
            if (length <= ViewLayout.INLINE_MAX) {
                word0 = length | ((long) BYTES_LE_LONG.get(bytes, p) << 32) & WORD0_MASKS[length & 15];
                word1 = (long) BYTES_LE_LONG.get(bytes, p + 4) & WORD1_MASKS[length & 15];
            } else {
                word0 = length | ((long) (int) BYTES_LE_INT.get(bytes, p) << 32);
                word1 = word1Long;
            }
            out.set(LE_LONG, outAt + 16L * i, word0);
            out.set(LE_LONG, outAt + 16L * i + 8, word1);
            p += length;
            word1Long += (long) length << 32;
        }
        return p - base;
    }

    /**
     * {@link #mixed} for a block whose values are all longer than 12 bytes ({@code SizeCodec.Summary.allLong}):
     * per row its length, its 4-byte prefix and word 1, with no branch. Word 0 is two stores: the 8 bytes that
     * start four bytes before the value, stored as they are (their upper half is the prefix), then the length
     * stored as 4 bytes over their lower half. That replaced {@code length | word & 0xFFFF_FFFF_0000_0000} (a mask
     * constant that C2 rematerialized every row for want of registers, an and, an or and a sign extension) with one
     * more store: 0.83-0.92x the time at sizes 16 and 32, level at 64 (SeparatedLoopsSideBySide 7 65535 16, 32 and
     * 64, rows {@code viewsAllLong3Stores} against {@code viewsAllLongMasked}, 2026-11-24, docs/serialization.md).
     * The first row, which may start at the chars' first byte, loads its 4 bytes alone. The 8-byte load never
     * leaves the chars: the 4 bytes before a value belong to the previous one (every value has more than 12), and
     * the 4 from its start to itself. The chars are read through a heap segment over the array ({@code chars},
     * always of that one kind, as in {@link #inline4}), not the array's {@code VarHandle}, with which C2 unrolled
     * the loop by two and spilled a size to the stack each row (hsdis; either way the chars' bound is one compare
     * a row against a spilled limit, as the offset is a running sum): 0.74-0.86x the time of the 4-byte array load
     * at sizes 16 to 64 ({@code viewsAllLongArray}). Word 1 ({@code bufferIndex | offset << 32}) is carried from
     * row to row, the length added to its upper half: computed from the index instead
     * ({@code (bufferIndex - (base << 32)) + (p << 32)}), the loop ran as fast in the harness but 1.15x slower
     * inside the reader, where C2 folded the two parts back into a subtract of the spilled {@code base} per row
     * (SerializationSideBySide 64); stored as two 4-byte stores (buffer index, running offset) it ran 1.0-1.2x
     * the time of the carried word ({@code viewsAllLong4Stores}). Returns the offset in the chars of row
     * {@code rows}.
     */
    public static int allLong(int[] sizes, int rows, MemorySegment chars, int base, int bufferIndex,
            MemorySegment out, long outAt) {
        if (rows == 0) {
            return 0;
        }
        long word1 = bufferIndex & 0xFFFF_FFFFL; // offset 0
        out.set(LE_LONG, outAt, sizes[0] | (long) chars.get(Wire.LE_INT, base) << 32);
        out.set(LE_LONG, outAt + 8, word1);
        long before = base + sizes[0] - 4; // 4 bytes before row 1's value
        word1 += (long) sizes[0] << 32;
        for (int i = 1; i < rows; i++) {
            int length = sizes[i];
            out.set(LE_LONG, outAt + 16L * i, chars.get(LE_LONG, before)); // bytes 4..7: the prefix
            out.set(Wire.LE_INT, outAt + 16L * i, length); // bytes 0..3: the length, over the previous value's end
            out.set(LE_LONG, outAt + 16L * i + 8, word1);
            before += length;
            word1 += (long) length << 32; // offsets stay below 2^31: no carry out of the upper half
        }
        return (int) (before + 4 - base);
    }

    /**
     * {@link #allLong} reading the sizes from the block's raw sizes stream where it arrived ({@code rawSizes},
     * {@code 4 * rows} bytes of little-endian ints in a heap segment over a {@code byte[]}, always of that one kind),
     * so that a block read from a segment copies no sizes into an {@code int[]}
     * ({@code SizeCodec.summarize(MemorySegment, int)} summarizes them there). Returns the offset in the chars of
     * row {@code rows}.
     */
    public static int allLongRawSizes(MemorySegment rawSizes, int rows, MemorySegment chars, int base,
            int bufferIndex, MemorySegment out, long outAt) {
        if (rows == 0) {
            return 0;
        }
        long word1 = bufferIndex & 0xFFFF_FFFFL; // offset 0
        int first = rawSizes.get(Wire.LE_INT, 0);
        out.set(LE_LONG, outAt, first | (long) chars.get(Wire.LE_INT, base) << 32);
        out.set(LE_LONG, outAt + 8, word1);
        long before = base + first - 4; // 4 bytes before row 1's value
        word1 += (long) first << 32;
        for (int i = 1; i < rows; i++) {
            int length = rawSizes.get(Wire.LE_INT, 4L * i);
            out.set(LE_LONG, outAt + 16L * i, chars.get(LE_LONG, before)); // bytes 4..7: the prefix
            out.set(Wire.LE_INT, outAt + 16L * i, length); // bytes 0..3: the length
            out.set(LE_LONG, outAt + 16L * i + 8, word1);
            before += length;
            word1 += (long) length << 32;
        }
        return (int) (before + 4 - base);
    }
}
