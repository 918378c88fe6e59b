package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_BE_LONG;
import static dev.stringview.ViewLayout.LAYOUT_LE_INT;

import dev.stringview.internal.ByteRanges;
import dev.stringview.internal.Hashing;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.Objects;

/**
 * An immutable byte string in the 16-byte view encoding of {@link ViewLayout}: a value of at most 12 bytes lives
 * entirely in two {@code long} fields; a longer one keeps its length and first 4 bytes there plus a reference to
 * the memory holding all of its bytes. It is the key type for hash aggregation, dictionaries and sort runs over
 * string columns: equality and order are decided by length and prefix before any byte is read, and values taken
 * from a {@link ViewColumn} ({@link ViewColumn#view}) or sliced ({@link #slice}) share their bytes.
 *
 * <p>The design follows fjall's {@code byteview} crate (seed 004) with Arrow's 12-byte inline limit, so that a
 * {@code ByteView} and a row of a column have the same two words and the same {@link #hash64() hash}.
 *
 * <p><b>Memory.</b> A {@code ByteView} owns nothing. The bytes of a long value stay in the segment they were read,
 * wrapped or copied into: heap memory for {@link #copyOf(byte[])} and {@link #copyOf(String)}, the caller's
 * allocator for {@link #copyOf(MemorySegment, SegmentAllocator)} and {@link #read}, the column's buffers for
 * {@link ViewColumn#view}. Once the arena behind that segment closes, any access to the bytes throws
 * {@link IllegalStateException}. Inline values (the empty value, and all values of 12 bytes or fewer) hold no
 * memory and stay usable forever. Wrapped memory must not change while a view of it is in use.
 *
 * <p><b>Order.</b> {@link #compareTo} is unsigned lexicographic byte order (UTF-8 code point order), a proper
 * prefix first, the same order as {@link ViewKernels#argsort}.
 */
public final class ByteView implements Comparable<ByteView> {
    /** The empty value; every empty {@code ByteView} this class creates is this instance. */
    public static final ByteView EMPTY = new ByteView(0, 0, null);

    private static final Comparator<ByteView> ORDER = ByteView::compareTo;
    /** Per-thread transfer buffer for streams into off-heap memory ({@link InputStream} can only fill arrays). */
    private static final ThreadLocal<byte[]> TRANSFER = ThreadLocal.withInitial(() -> new byte[8192]);

    /** {@code length | prefix << 32}, or {@code length | inline bytes 0..3 << 32}: view bytes 0..7. */
    private final long word0;
    /** Inline bytes 4..11 (zero-padded), or the byte offset of the value in {@link #data}. */
    private final long word1;
    /** The memory of a long value; null for inline values. */
    private final MemorySegment data;

    private ByteView(long word0, long word1, MemorySegment data) {
        this.word0 = word0;
        this.word1 = word1;
        this.data = data;
    }

    // ------------------------------------------------------------------------------------------ construction

    /** A copy of {@code bytes}, in heap memory when longer than 12 bytes. */
    public static ByteView copyOf(byte[] bytes) {
        if (bytes.length <= INLINE_MAX) {
            return inline(MemorySegment.ofArray(bytes), 0, bytes.length);
        }
        return owned(MemorySegment.ofArray(bytes.clone()));
    }

    /** The UTF-8 encoding of {@code value}, in heap memory when longer than 12 bytes. */
    public static ByteView copyOf(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        return bytes.length <= INLINE_MAX ? inline(MemorySegment.ofArray(bytes), 0, bytes.length)
                : owned(MemorySegment.ofArray(bytes)); // the array is ours alone: no second copy
    }

    /** A copy of the bytes of {@code value} in memory from {@code allocator} (nothing is allocated up to 12 bytes). */
    public static ByteView copyOf(MemorySegment value, SegmentAllocator allocator) {
        int length = checkLength(value.byteSize());
        if (length <= INLINE_MAX) {
            return inline(value, 0, length);
        }
        MemorySegment copy = allocator.allocate(length, 1);
        MemorySegment.copy(value, 0, copy, 0, length);
        return owned(copy);
    }

    /**
     * A view of the bytes of {@code value} without copying them (values of 12 bytes or fewer are copied into the
     * view, as the encoding requires). The caller keeps {@code value} alive and unchanged while the view is used.
     */
    public static ByteView wrap(MemorySegment value) {
        return wrap(value, 0, checkLength(value.byteSize()));
    }

    /** A view of {@code length} bytes at {@code offset} of {@code segment}, without copying; see {@link #wrap(MemorySegment)}. */
    public static ByteView wrap(MemorySegment segment, long offset, int length) {
        Objects.checkFromIndexSize(offset, length, segment.byteSize());
        if (length <= INLINE_MAX) {
            return inline(segment, offset, length);
        }
        if (offset > Integer.MAX_VALUE) { // keep the offset within the view's int32 field
            return owned(segment.asSlice(offset, length));
        }
        return new ByteView(word0(length, segment.get(LAYOUT_LE_INT, offset)), offset, segment);
    }

    /**
     * Reads a value of exactly {@code length} bytes from {@code channel} straight into memory from
     * {@code allocator}: no intermediate buffer, and no allocation at all for 12 bytes or fewer.
     *
     * @throws EOFException naming the field and both counts if the channel ends early
     */
    public static ByteView read(ReadableByteChannel channel, int length, SegmentAllocator allocator)
            throws IOException {
        checkReadLength(length);
        if (length == 0) {
            return EMPTY;
        }
        if (length <= INLINE_MAX) {
            byte[] small = TRANSFER.get();
            fill(channel, ByteBuffer.wrap(small, 0, length), length);
            return inline(MemorySegment.ofArray(small), 0, length);
        }
        MemorySegment target = allocator.allocate(length, 1);
        fill(channel, target.asByteBuffer(), length);
        return owned(target);
    }

    /**
     * Reads a value of exactly {@code length} bytes from {@code in} into memory from {@code allocator}. When that
     * memory is a heap {@code byte[]} the stream reads straight into it; otherwise the bytes pass through a
     * per-thread 8 KiB transfer buffer ({@link InputStream} can only fill arrays). Nothing is allocated for
     * 12 bytes or fewer.
     *
     * @throws EOFException naming the field and both counts if the stream ends early
     */
    public static ByteView read(InputStream in, int length, SegmentAllocator allocator) throws IOException {
        checkReadLength(length);
        if (length == 0) {
            return EMPTY;
        }
        if (length <= INLINE_MAX) {
            byte[] small = TRANSFER.get();
            readFully(in, small, 0, length, length, 0);
            return inline(MemorySegment.ofArray(small), 0, length);
        }
        MemorySegment target = allocator.allocate(length, 1);
        if (target.heapBase().orElse(null) instanceof byte[] array && target.address() <= Integer.MAX_VALUE
                && target.address() + length <= array.length) {
            readFully(in, array, (int) target.address(), length, length, 0);
        } else {
            byte[] transfer = TRANSFER.get();
            long done = 0;
            while (done < length) {
                int n = (int) Math.min(transfer.length, length - done);
                readFully(in, transfer, 0, n, length, done);
                MemorySegment.copy(transfer, 0, target, ValueLayout.JAVA_BYTE, done, n);
                done += n;
            }
        }
        return owned(target);
    }

    /** The value at {@code row} of {@code column}'s row words; called by {@link ViewColumn#view}. */
    static ByteView ofRow(long word0, long word1, MemorySegment[] buffers) {
        int length = (int) word0;
        if (length == 0) {
            return EMPTY;
        }
        if (length <= INLINE_MAX) {
            return new ByteView(word0, word1, null);
        }
        return new ByteView(word0, word1 >>> 32, buffers[(int) word1]);
    }

    // ------------------------------------------------------------------------------------------------ access

    /** Length in bytes. */
    public int length() {
        return (int) word0;
    }

    public boolean isEmpty() {
        return (int) word0 == 0;
    }

    /** Whether the bytes live in the view itself (12 bytes or fewer): such a value holds no memory. */
    public boolean isInline() {
        return data == null;
    }

    /** The byte at {@code index}. */
    public byte byteAt(int index) {
        Objects.checkIndex(index, length());
        if (data == null) {
            return inlineByte(index);
        }
        return data.get(ValueLayout.JAVA_BYTE, word1 + index);
    }

    /** A new array holding the bytes. */
    public byte[] toByteArray() {
        byte[] out = new byte[length()];
        copyTo(MemorySegment.ofArray(out), 0);
        return out;
    }

    /** Copies the bytes to {@code target} at {@code offset}. */
    public void copyTo(MemorySegment target, long offset) {
        int length = length();
        if (data == null) {
            Objects.checkFromIndexSize(offset, length, target.byteSize());
            for (int i = 0; i < length; i++) {
                target.set(ValueLayout.JAVA_BYTE, offset + i, inlineByte(i));
            }
        } else {
            MemorySegment.copy(data, word1, target, offset, length);
        }
    }

    /**
     * The bytes as a read-only segment: a slice of the backing memory for a long value (no copy), a small heap
     * segment for an inline one.
     */
    public MemorySegment segment() {
        if (data == null) {
            return MemorySegment.ofArray(toByteArray()).asReadOnly();
        }
        return data.asSlice(word1, length()).asReadOnly();
    }

    /** The bytes decoded as UTF-8 (malformed sequences become U+FFFD). */
    @Override
    public String toString() {
        return new String(toByteArray(), StandardCharsets.UTF_8);
    }

    /** View word 0 (bytes 0..7 of the 16-byte view, little-endian): {@code length | prefix << 32}. */
    public long word0() {
        return word0;
    }

    // ---------------------------------------------------------------------------------------------- slicing

    /**
     * Bytes {@code [from, to)} without copying: a long result shares this value's memory at the right offset
     * (also when this value is itself a slice), a result of 12 bytes or fewer becomes inline, and the prefix is
     * that of the slice.
     */
    public ByteView slice(int from, int to) {
        int length = length();
        Objects.checkFromToIndex(from, to, length);
        if (from == 0 && to == length) {
            return this;
        }
        int sliceLength = to - from;
        if (data == null) {
            if (sliceLength == 0) {
                return EMPTY;
            }
            // The 12 inline bytes as a 96-bit little-endian number (bytes 0..7 in lo, 8..11 in hi), shifted
            // right by the slice's start and cut to its length: word arithmetic, no byte loop.
            long lo = (word0 >>> 32) | (word1 << 32);
            long hi = word1 >>> 32;
            int shift = from << 3;
            if (shift >= 64) {
                lo = hi >>> (shift - 64);
                hi = 0;
            } else if (shift > 0) {
                lo = (lo >>> shift) | (hi << (64 - shift));
                hi >>>= shift;
            }
            lo &= ViewLayout.inlineLowMask(sliceLength);
            hi &= ViewLayout.inlineHighMask(sliceLength);
            long w0 = ViewLayout.inlineWord0(sliceLength, lo);
            long w1 = ViewLayout.inlineWord1(lo, hi);
            return new ByteView(w0, w1, null);
        }
        return wrap(data, word1 + from, sliceLength);
    }

    // ------------------------------------------------------------------------------------ equality and order

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof ByteView that) || word0 != that.word0) {
            return false; // length or prefix differs
        }
        if (data == null) {
            return word1 == that.word1;
        }
        if (data == that.data && word1 == that.word1) {
            return true; // the same bytes
        }
        return ByteRanges.equal(data, word1 + 4, that.data, that.word1 + 4, length() - 4);
    }

    /** {@code (int)} of {@link #hash64()} folded: equal bytes give equal hash codes wherever they are stored. */
    @Override
    public int hashCode() {
        return Long.hashCode(hash64());
    }

    /** The 64-bit hash of the bytes, equal to {@link ViewColumn#hash} of a row holding the same bytes. */
    public long hash64() {
        if (data == null) {
            return Hashing.hashInline(word0, word1);
        }
        return Hashing.hashBytes(data, word1, length());
    }

    /** Unsigned lexicographic order of the bytes; the prefixes decide without reading memory when they differ. */
    @Override
    public int compareTo(ByteView other) {
        int prefixA = Integer.reverseBytes((int) (word0 >>> 32));
        int prefixB = Integer.reverseBytes((int) (other.word0 >>> 32));
        if (prefixA != prefixB) {
            return Integer.compareUnsigned(prefixA, prefixB);
        }
        int lengthA = length();
        int lengthB = other.length();
        if (data == null || other.data == null) {
            // Bytes 4..11 as one big-endian word: zero padding of an inline value compares like its end, and a
            // long value has at least 13 bytes, so 8 bytes after its prefix are always there.
            int c = Long.compareUnsigned(middleWord(), other.middleWord());
            return c != 0 ? c : Integer.compare(lengthA, lengthB);
        }
        if (data == other.data && word1 == other.word1) {
            return Integer.compare(lengthA, lengthB);
        }
        return ByteRanges.compare(data, word1 + 4, lengthA - 4, other.data, other.word1 + 4, lengthB - 4);
    }

    /** The natural order ({@link #compareTo}) as a {@link Comparator}, for sorting and sorted maps. */
    public static Comparator<ByteView> comparator() {
        return ORDER;
    }

    // ------------------------------------------------------------------------------------------- internals

    /** Word 1 as a view in a column with this value's memory as buffer {@code bufferIndex} would hold it. */
    long viewWord1(int bufferIndex) {
        return data == null ? word1 : (bufferIndex & 0xFFFF_FFFFL) | (word1 << 32);
    }

    long word1() {
        return word1;
    }

    /** The backing memory of a long value, null for an inline one. */
    MemorySegment data() {
        return data;
    }

    /** Bytes 4..11 as an unsigned big-endian long. */
    private long middleWord() {
        return data == null ? Long.reverseBytes(word1) : data.get(LAYOUT_BE_LONG, word1 + 4);
    }

    private byte inlineByte(int index) {
        return (byte) (index < 4 ? word0 >>> (32 + 8 * index) : word1 >>> (8 * (index - 4)));
    }

    private static ByteView owned(MemorySegment bytes) {
        return new ByteView(word0((int) bytes.byteSize(), bytes.get(LAYOUT_LE_INT, 0)), 0, bytes);
    }

    private static ByteView inline(MemorySegment source, long offset, int length) {
        if (length == 0) {
            return EMPTY;
        }
        long lo = ViewLayout.inlineLow(source, offset, length);
        long hi = ViewLayout.inlineHigh(source, offset, length);
        return new ByteView(ViewLayout.inlineWord0(length, lo), ViewLayout.inlineWord1(lo, hi), null);
    }

    private static long word0(int length, int prefix) {
        return (length & 0xFFFF_FFFFL) | ((long) prefix << 32);
    }

    private static int checkLength(long length) {
        if (length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("value longer than a view can describe: length=" + length
                    + " max=" + Integer.MAX_VALUE);
        }
        return (int) length;
    }

    private static void checkReadLength(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative value length: length=" + length);
        }
    }

    private static void fill(ReadableByteChannel channel, ByteBuffer target, int length) throws IOException {
        while (target.hasRemaining()) {
            if (channel.read(target) < 0) {
                throw new EOFException("stream ended inside a value: field=value length=" + length + " read="
                        + target.position());
            }
        }
    }

    private static void readFully(InputStream in, byte[] array, int offset, int count, int length, long before)
            throws IOException {
        int done = 0;
        while (done < count) {
            int n = in.read(array, offset + done, count - done);
            if (n < 0) {
                throw new EOFException("stream ended inside a value: field=value length=" + length + " read="
                        + (before + done));
            }
            done += n;
        }
    }
}
