package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_BE_LONG;
import static dev.stringview.ViewLayout.LAYOUT_LE_INT;

import dev.stringview.internal.ByteRanges;
import dev.stringview.internal.Hashing;
import dev.stringview.internal.KeyRounds;
import dev.stringview.internal.reader.InlineWords;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
 * <p><b>Memory.</b> A {@code ByteView} owns nothing. The bytes of a long value stay in the {@link MemorySegment}
 * they were read, wrapped or copied into: a heap segment over a {@code byte[]} of their own for
 * {@link #copyOf(byte[])} and {@link #copyOf(String)}, the allocator's memory for
 * {@link #copyOf(MemorySegment, SegmentAllocator)} and {@link #read}, the caller's for {@link #wrap}, a column's
 * buffer for {@link ViewColumn#view}. The bytes live as long as that memory: the garbage collector frees a heap
 * array once nothing refers to it, and once an arena closes any access to the bytes in it throws
 * {@link IllegalStateException}. Inline values (the empty value, and all values of 12 bytes or fewer) hold no
 * memory and stay usable forever. Wrapped memory must not change while a view of it is in use.
 *
 * <p><b>Hash.</b> A long value made by copying ({@code copyOf}: the keys a map keeps) computes its
 * {@link #hashCode()} once, while the copied bytes are still in cache, and keeps it in the upper half of the
 * second word, which for a long value otherwise holds only the 32-bit offset of the bytes in their memory. Such a
 * hash stays readable after the memory's arena closes, and two values whose kept hashes differ are unequal without
 * a byte read. Values that share memory ({@link #wrap}, {@link #slice}, {@link ViewColumn#view}) and values read
 * from streams compute it on each call, from the bytes; {@link #hash64()} always does.
 *
 * <p><b>Threads.</b> A {@code ByteView} is immutable: every field is {@code final} (the hash is computed before
 * construction, never cached afterwards), so values may be shared between threads like {@link String}s, even
 * through a data race. Reading the bytes of a long value held in a segment needs that segment to be accessible
 * from the reading thread (not a confined arena's, from another thread).
 *
 * <p><b>Order.</b> {@link #compareTo} is unsigned lexicographic byte order (UTF-8 code point order), a proper
 * prefix first, the same order as {@link ViewKernels#argsort}. {@link #sort(ByteView[])} sorts an array of values in
 * that order with {@code argsort}'s radix sort of normalized keys, without comparing pairs.
 */
public final class ByteView implements Comparable<ByteView> {
    /** The empty value; every empty {@code ByteView} this class creates is this instance. */
    public static final ByteView EMPTY = new ByteView(0, 0, null);

    private static final Comparator<ByteView> ORDER = ByteView::compareTo;
    /** Largest chunk a stream read of a long value into memory that is not a heap array goes through at once. */
    private static final int CHUNK_MAX = 8192;
    /** Offset bits of {@link #word1} for a long value; the upper 32 bits keep a copy's {@link #hashCode()}. */
    private static final long OFFSET_MASK = 0xFFFF_FFFFL;

    /** {@code length | prefix << 32}, or {@code length | inline bytes 0..3 << 32}: view bytes 0..7. */
    private final long word0;
    /**
     * Inline bytes 4..11 (zero-padded); or, for a long value, the byte offset of the value in {@link #data} in the
     * low 32 bits (unsigned) and the {@link #hashCode()} computed at construction in the high 32 bits (0: none;
     * see the class comment). Every reader of the offset masks with {@link #OFFSET_MASK}.
     */
    private final long word1;
    /** The memory of a long value; null for inline values. */
    private final MemorySegment data;

    private ByteView(long word0, long word1, MemorySegment data) {
        this.word0 = word0;
        this.word1 = word1;
        this.data = data;
    }

    // ------------------------------------------------------------------------------------------ construction

    /** A copy of {@code bytes}, in a heap {@code byte[]} of its own when longer than 12 bytes. */
    public static ByteView copyOf(byte[] bytes) {
        return copyOfOwnArray(bytes.clone());
    }

    /** The UTF-8 encoding of {@code value}, in a heap {@code byte[]} of its own when longer than 12 bytes. */
    public static ByteView copyOf(String value) {
        return copyOfOwnArray(value.getBytes(StandardCharsets.UTF_8)); // the array is ours alone: no second copy
    }

    /** A copy of the bytes of {@code value} in memory from {@code allocator} (nothing is allocated up to 12 bytes). */
    public static ByteView copyOf(MemorySegment value, SegmentAllocator allocator) {
        int length = checkLength(value.byteSize());
        if (length <= INLINE_MAX) {
            return inline(value, 0, length);
        }
        MemorySegment copy = allocator.allocate(length, 1);
        MemorySegment.copy(value, 0, copy, 0, length);
        return ofSegment(copy, 0, length).withHash();
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
        return ofSegment(segment, offset, length);
    }

    /**
     * Reads a value of exactly {@code length} bytes from {@code channel} straight into memory from
     * {@code allocator}: no intermediate buffer, and no allocation from it for 12 bytes or fewer.
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
            byte[] small = new byte[length];
            fill(channel, ByteBuffer.wrap(small), length);
            return inline(small, length);
        }
        MemorySegment target = allocator.allocate(length, 1);
        fill(channel, target.asByteBuffer(), length);
        return ofSegment(target, 0, length);
    }

    /**
     * Reads a value of exactly {@code length} bytes from {@code in} into memory from {@code allocator}. When that
     * memory is a heap {@code byte[]} the stream reads straight into it; otherwise the bytes pass through an array
     * of at most 8 KiB made for the call ({@link InputStream} can only fill arrays). Values of 12 bytes or fewer
     * go into the view's two words and take nothing from the allocator.
     *
     * @throws EOFException naming the field and both counts if the stream ends early
     */
    public static ByteView read(InputStream in, int length, SegmentAllocator allocator) throws IOException {
        checkReadLength(length);
        if (length == 0) {
            return EMPTY;
        }
        if (length <= INLINE_MAX) {
            byte[] small = new byte[length];
            readFully(in, small, 0, length, length, 0);
            return inline(small, length);
        }
        MemorySegment target = allocator.allocate(length, 1);
        if (!target.isNative() && target.heapBase().orElse(null) instanceof byte[] array) {
            int offset = Math.toIntExact(target.address());
            Objects.checkFromIndexSize(offset, length, array.length);
            readFully(in, array, offset, length, length, 0);
        } else {
            byte[] chunk = new byte[Math.min(length, CHUNK_MAX)];
            for (long done = 0; done < length; ) {
                int n = (int) Math.min(chunk.length, length - done);
                readFully(in, chunk, 0, n, length, done);
                MemorySegment.copy(chunk, 0, target, ValueLayout.JAVA_BYTE, done, n);
                done += n;
            }
        }
        return ofSegment(target, 0, length);
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
        // The column's word1 is bufferIndex | offset << 32: the offset moves to the low half, no hash kept.
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
        return data.get(ValueLayout.JAVA_BYTE, offset() + index);
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
            MemorySegment.copy(data, offset(), target, offset, length);
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
        return data.asSlice(offset(), length()).asReadOnly();
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
     * that of the slice. The slice keeps no hash (see the class comment).
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
            lo &= InlineWords.inlineLowMask(sliceLength);
            hi &= InlineWords.inlineHighMask(sliceLength);
            long w0 = InlineWords.inlineWord0(sliceLength, lo);
            long w1 = InlineWords.inlineWord1(lo, hi);
            return new ByteView(w0, w1, null);
        }
        return wrap(data, offset() + from, sliceLength);
    }

    // ------------------------------------------------------------------------------------ equality and order

    // equals, hashCode and compareTo keep only their word checks in the method body and call out for the bytes:
    // small enough for C2 to inline them into HashMap.getNode and the sort loops.

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof ByteView that) || word0 != that.word0) {
            return false; // length or prefix differs
        }
        return data == null ? word1 == that.word1 : equalLong(that); // word 0 equal: both inline or both long
    }

    /**
     * {@code (int)} of {@link #hash64()} folded: equal bytes give equal hash codes wherever they are stored. A
     * long value made by copying returns the hash it computed then (see the class comment); an inline value mixes
     * its two words.
     */
    @Override
    public int hashCode() {
        if (data == null) {
            return Long.hashCode(Hashing.hashInline(word0, word1));
        }
        int hash = (int) (word1 >>> 32);
        // A copy whose hash folds to 0 recomputes it on every call, as String does without hashIsZero.
        return hash != 0 ? hash : Long.hashCode(hashLong());
    }

    /** The 64-bit hash of the bytes, equal to {@link ViewColumn#hash} of a row holding the same bytes. */
    public long hash64() {
        if (data == null) {
            return Hashing.hashInline(word0, word1);
        }
        return hashLong();
    }

    /** Unsigned lexicographic order of the bytes; the prefixes decide without reading memory when they differ. */
    @Override
    public int compareTo(ByteView other) {
        int prefixA = Integer.reverseBytes((int) (word0 >>> 32));
        int prefixB = Integer.reverseBytes((int) (other.word0 >>> 32));
        if (prefixA != prefixB) {
            return Integer.compareUnsigned(prefixA, prefixB);
        }
        return compareAfterPrefix(other);
    }

    /**
     * The natural order ({@link #compareTo}) as a {@link Comparator}, for sorted maps and merges. To sort an array
     * use {@link #sort(ByteView[])}, which compares no pairs and reads each value's bytes once per 16 it needs.
     */
    public static Comparator<ByteView> comparator() {
        return ORDER;
    }

    /** {@link #sort(ByteView[], int, int)} of the whole array. */
    public static void sort(ByteView[] values) {
        sort(values, 0, values.length);
    }

    /**
     * Sorts {@code values[from, to)} in place, ascending in {@link #compareTo} order (unsigned bytewise), stable:
     * equal values keep their order in the array.
     *
     * <p>No comparison callback: the normalized-key radix sort of {@link ViewKernels#argsort}, with the same
     * rounds. One pass over the values in array order writes each one's bytes 0..15 as two big-endian words
     * (from its two words when inline, from its memory when long) and its length clipped to "ends within these 16
     * bytes, or goes on"; a stable MSD radix sort orders them; only runs still tied that go on past 16 bytes are
     * keyed again by bytes 16..31, and so on. The values are put in their new order once, at the end.
     *
     * <p>Nulls are rejected (as {@code Arrays.sort} with the natural order does): a {@code ByteView} array is a key
     * array, not a column, and there is no order between a missing key and the empty value to choose for the
     * caller. Every element is checked, and every long value's memory read, before any is moved, so when this
     * throws (a null, or {@link IllegalStateException} for a value whose arena has closed) the array is unchanged.
     *
     * @throws NullPointerException naming the index if an element in the range is null
     * @throws IndexOutOfBoundsException if {@code [from, to)} is not a range of the array
     */
    public static void sort(ByteView[] values, int from, int to) {
        Objects.checkFromToIndex(from, to, values.length);
        // The range's values as they were: keys are read from it, and it gives the values for the new order.
        ByteView[] items = Arrays.copyOfRange(values, from, to);
        int count = items.length;
        long[] high = new long[count];
        long[] low = new long[count];
        long[] tail = new long[count];
        ArrayKeys keys = new ArrayKeys(items);
        for (int i = 0; i < count; i++) {
            if (items[i] == null) {
                throw new NullPointerException("null value in the array to sort: index=" + (from + i) + " from="
                        + from + " to=" + to);
            }
            keys.roundKey(i, 0, high, low, tail, i);
        }
        if (count < 2) {
            return;
        }
        KeyRounds.sort(keys, high, low, tail, count, count, count);
        for (int i = 0; i < count; i++) {
            values[from + i] = items[(int) tail[i]];
        }
    }

    /** The sort keys ({@link KeyRounds}) of an array's values, item {@code i} being {@code values[i]}. */
    private record ArrayKeys(ByteView[] values) implements KeyRounds.KeySource {
        @Override
        public void roundKey(int item, int depth, long[] high, long[] low, long[] tail, int at) {
            ByteView value = values[item];
            long w0 = value.word0;
            long w1 = value.word1;
            int length = (int) w0;
            MemorySegment data = value.data;
            if (data == null) { // inline: only at depth 0, from the two words
                high[at] = ViewOrder.inlineKeyHigh(w0, w1);
                low[at] = ViewOrder.inlineKeyLow(w1);
            } else {
                long offset = w1 & OFFSET_MASK;
                high[at] = ViewOrder.chunk(data, offset, length, depth);
                low[at] = length - depth > 8 ? ViewOrder.chunk(data, offset, length, depth + 8) : 0;
            }
            tail[at] = KeyRounds.tail(length, depth, item);
        }
    }

    // ------------------------------------------------------------------------------------------- internals

    /** Word 1 as a view in a column with this value's memory as buffer {@code bufferIndex} would hold it. */
    long viewWord1(int bufferIndex) {
        return data == null ? word1 : (bufferIndex & 0xFFFF_FFFFL) | (offset() << 32);
    }

    /** Inline bytes 4..11 of an inline value, the byte offset in {@link #data()} of a long one (without the kept hash). */
    long word1() {
        return data == null ? word1 : offset();
    }

    /** The backing memory of a long value ({@link #word1()} is the offset in it), null for an inline one. */
    MemorySegment data() {
        return data;
    }

    /** The byte offset of a long value in its memory. */
    private long offset() {
        return word1 & OFFSET_MASK;
    }

    /** {@link Hashing#hashBytes} of this long value's bytes. */
    private long hashLong() {
        return Hashing.hashBytes(data, offset(), length());
    }

    /**
     * {@link #equals} of two long values of one length (at least 13) and one prefix: kept hashes that differ
     * decide at once, the same memory and offset is equal, else the bytes after the prefix decide.
     */
    private boolean equalLong(ByteView that) {
        long w1 = word1;
        long thatW1 = that.word1;
        int hash = (int) (w1 >>> 32);
        int thatHash = (int) (thatW1 >>> 32);
        if (hash != thatHash && hash != 0 && thatHash != 0) {
            return false; // both hashes kept, and they differ
        }
        long offset = w1 & OFFSET_MASK;
        long thatOffset = thatW1 & OFFSET_MASK;
        if (data == that.data && offset == thatOffset) {
            return true; // the same bytes
        }
        return ByteRanges.equal(data, offset + 4, that.data, thatOffset + 4, (int) word0 - 4);
    }

    /** This long value with its {@link #hashCode()} in the upper half of word 1 (see the class comment). */
    private ByteView withHash() {
        int hash = Long.hashCode(hashLong());
        return new ByteView(word0, offset() | ((long) hash << 32), data);
    }

    /** {@link #compareTo} once the prefixes are equal. */
    private int compareAfterPrefix(ByteView other) {
        int lengthA = length();
        int lengthB = other.length();
        // Bytes 4..11 as one big-endian word, from the view for an inline value and from memory for a long one:
        // zero padding of an inline value compares like its end, and a long value has at least 13 bytes, so 8
        // bytes after its prefix are always there.
        long middleA = middleWord();
        long middleB = other.middleWord();
        if (middleA != middleB) {
            return Long.compareUnsigned(middleA, middleB);
        }
        if (data == null || other.data == null) {
            return Integer.compare(lengthA, lengthB); // the shorter is inline and ends inside the equal 12 bytes
        }
        long offsetA = offset();
        long offsetB = other.offset();
        if (data == other.data && offsetA == offsetB) {
            return Integer.compare(lengthA, lengthB);
        }
        // Both long, bytes 0..11 equal: the rest decides, from byte 12 on.
        return ByteRanges.compare(data, offsetA + INLINE_MAX, lengthA - INLINE_MAX, other.data,
                offsetB + INLINE_MAX, lengthB - INLINE_MAX);
    }

    /** Bytes 4..11 as an unsigned big-endian long. */
    private long middleWord() {
        if (data == null) {
            return Long.reverseBytes(word1);
        }
        return data.get(LAYOUT_BE_LONG, offset() + 4);
    }

    private byte inlineByte(int index) {
        return (byte) (index < 4 ? word0 >>> (32 + 8 * index) : word1 >>> (8 * (index - 4)));
    }

    /** A copy whose bytes are exactly {@code array}, which no one else holds: inline, or long with its hash kept. */
    private static ByteView copyOfOwnArray(byte[] array) {
        if (array.length <= INLINE_MAX) {
            return inline(array, array.length);
        }
        return ofSegment(MemorySegment.ofArray(array), 0, array.length).withHash();
    }

    /** A long value at {@code offset} of {@code segment}, which is the view's memory from now on. */
    private static ByteView ofSegment(MemorySegment segment, long offset, int length) {
        if (offset > Integer.MAX_VALUE) { // keep the offset within the view's int32 field
            return new ByteView(word0(length, segment.get(LAYOUT_LE_INT, offset)), 0, segment.asSlice(offset, length));
        }
        return new ByteView(word0(length, segment.get(LAYOUT_LE_INT, offset)), offset, segment);
    }

    private static ByteView inline(MemorySegment source, long offset, int length) {
        if (length == 0) {
            return EMPTY;
        }
        long lo = InlineWords.inlineLow(source, offset, length);
        long hi = InlineWords.inlineHigh(source, offset, length);
        return new ByteView(InlineWords.inlineWord0(length, lo), InlineWords.inlineWord1(lo, hi), null);
    }

    /** An inline value of the first {@code length} (0 to 12) bytes of {@code array}. */
    private static ByteView inline(byte[] array, int length) {
        return inline(MemorySegment.ofArray(array), 0, length);
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
