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
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * <p><b>Memory.</b> A {@code ByteView} owns nothing. The bytes of a long value stay where they were read,
 * wrapped or copied into, and that memory is one of two kinds:
 * <ul>
 *   <li>a heap {@code byte[]}, held directly (no {@link MemorySegment} object): {@link #copyOf(byte[])},
 *       {@link #copyOf(String)}, {@link #wrap} of a writable heap {@code byte[]} segment, and {@link #read} or
 *       {@link #copyOf(MemorySegment, SegmentAllocator)} when the allocator hands out heap {@code byte[]} memory.
 *       The garbage collector frees it once no view (and nothing else) refers to the array.</li>
 *   <li>a segment: native or mapped memory, read-only heap segments, heap segments over other array types and
 *       the buffers of {@link ViewColumn#view}. The bytes live as long as that segment's arena; once it closes,
 *       any access to the bytes throws {@link IllegalStateException}.</li>
 * </ul>
 * Inline values (the empty value, and all values of 12 bytes or fewer) hold no memory and stay usable forever.
 * Wrapped memory must not change while a view of it is in use.
 *
 * <p><b>Hash.</b> A long value made by copying ({@link #copyOf(byte[])}, {@link #copyOf(String)},
 * {@link #copyOf(MemorySegment, SegmentAllocator)}: the keys a map keeps) computes its {@link #hashCode()} once,
 * while the copied bytes are still in cache, and keeps it in the upper half of the second word, which for a long
 * value otherwise holds only the 32-bit offset of the bytes in their memory. Such a hash stays readable after the
 * memory's arena closes. A copy that an allocator placed inside a larger heap array (a slicing allocator over a
 * {@code byte[]}) keeps none: a kept hash on an array-backed value means that the array holds exactly the value,
 * which lets {@link #equals} and {@link #compareTo} take two such values as whole arrays. Values that share
 * memory ({@link #wrap}, {@link #slice}, {@link ViewColumn#view}) and values read from streams compute it on each
 * call, from the bytes; {@link #hash64()} always does.
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
    /** Largest chunk a long value passes through a thread's transfer array on its way into off-heap memory. */
    private static final int TRANSFER_MAX = 8192;
    /**
     * Transfer arrays of stream reads ({@link InputStream} can only fill arrays), one per slot, a slot per thread id
     * modulo the table's size: a read takes its slot's array only when the slot's owner id is its own thread's,
     * else it puts a new one there. A {@link ThreadLocal} lookup measured slower per 8-byte read (decision record
     * 014).
     */
    private static final Transfer[] TRANSFERS = new Transfer[128];
    /** Offset bits of {@link #word1} for a long value; the upper 32 bits keep a copy's {@link #hashCode()}. */
    private static final long OFFSET_MASK = 0xFFFF_FFFFL;

    private static final VarHandle LE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** {@code length | prefix << 32}, or {@code length | inline bytes 0..3 << 32}: view bytes 0..7. */
    private final long word0;
    /**
     * Inline bytes 4..11 (zero-padded); or, for a long value, the byte offset of the value in {@link #data} in the
     * low 32 bits (unsigned, at most {@code Integer.MAX_VALUE} from {@link #wrap}, any int32 from a column row) and
     * the {@link #hashCode()} computed at construction in the high 32 bits (0: none; see the class comment).
     * Every reader of the offset masks with {@link #OFFSET_MASK}.
     */
    private final long word1;
    /** The memory of a long value: a {@code byte[]} or a {@link MemorySegment}; null for inline values. */
    private final Object data;

    private ByteView(long word0, long word1, Object data) {
        this.word0 = word0;
        this.word1 = word1;
        this.data = data;
    }

    // ------------------------------------------------------------------------------------------ construction

    /** A copy of {@code bytes}, in a heap {@code byte[]} of its own when longer than 12 bytes. */
    public static ByteView copyOf(byte[] bytes) {
        if (bytes.length <= INLINE_MAX) {
            return inline(bytes, 0, bytes.length);
        }
        return ofOwnArray(bytes.clone());
    }

    /** The UTF-8 encoding of {@code value}, in a heap {@code byte[]} of its own when longer than 12 bytes. */
    public static ByteView copyOf(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        return bytes.length <= INLINE_MAX ? inline(bytes, 0, bytes.length)
                : ofOwnArray(bytes); // the array is ours alone: no second copy
    }

    /** A copy of the bytes of {@code value} in memory from {@code allocator} (nothing is allocated up to 12 bytes). */
    public static ByteView copyOf(MemorySegment value, SegmentAllocator allocator) {
        int length = checkLength(value.byteSize());
        if (length <= INLINE_MAX) {
            return inline(value, 0, length);
        }
        MemorySegment copy = allocator.allocate(length, 1);
        MemorySegment.copy(value, 0, copy, 0, length);
        ByteView view = ofMemory(copy, 0, length);
        // A kept hash on an array-backed value promises an array of exactly the value (see #equalLong): memory
        // inside a larger heap array (a slicing allocator over a byte[]) keeps no hash.
        return view.data instanceof byte[] array && (view.word1 != 0 || array.length != length) ? view
                : view.withHash();
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
        return ofMemory(segment, offset, length);
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
            byte[] small = transfer(INLINE_MAX).bytes();
            fill(channel, ByteBuffer.wrap(small, 0, length), length);
            return inline(small, 0, length);
        }
        MemorySegment target = allocator.allocate(length, 1);
        fill(channel, target.asByteBuffer(), length);
        return ofMemory(target, 0, length);
    }

    /**
     * Reads a value of exactly {@code length} bytes from {@code in} into memory from {@code allocator}. When that
     * memory is a heap {@code byte[]} the stream reads straight into it and the view keeps the array (not the
     * segment); otherwise the bytes pass through a transfer array owned by the calling thread, at most 8 KiB at a
     * time ({@link InputStream} can only fill arrays). Values of 12 bytes or fewer go straight into the view's two
     * words: nothing is allocated but the view.
     *
     * @throws EOFException naming the field and both counts if the stream ends early
     */
    public static ByteView read(InputStream in, int length, SegmentAllocator allocator) throws IOException {
        checkReadLength(length);
        if (length == 0) {
            return EMPTY;
        }
        if (length <= INLINE_MAX) {
            return readInline(in, length);
        }
        MemorySegment target = allocator.allocate(length, 1);
        if (!target.isNative() && target.heapBase().orElse(null) instanceof byte[] array) {
            return readIntoArray(in, array, target.address(), length);
        }
        if (length > TRANSFER_MAX) {
            return readInChunks(in, target, length);
        }
        // One chunk, the common case, as a straight line: no loop, the array sized to the value (measured
        // against the chunk loop, decision record 014).
        byte[] transfer = transfer(length).bytes();
        readFully(in, transfer, 0, length, length, 0);
        MemorySegment.copy(transfer, 0, target, ValueLayout.JAVA_BYTE, 0, length);
        return new ByteView(word0(length, (int) LE_INT.get(transfer, 0)), 0, target);
    }

    /** {@link #read(InputStream, int, SegmentAllocator)} of a long value into heap memory: straight into its array. */
    private static ByteView readIntoArray(InputStream in, byte[] array, long address, int length) throws IOException {
        int offset = Math.toIntExact(address);
        Objects.checkFromIndexSize(offset, length, array.length);
        readFully(in, array, offset, length, length, 0);
        return ofArray(array, offset, length);
    }

    /**
     * {@link #read(InputStream, int, SegmentAllocator)} of a value over {@link #TRANSFER_MAX} bytes into a segment
     * that is not a heap {@code byte[]}: through the thread's transfer array, {@link #TRANSFER_MAX} bytes at a time.
     */
    private static ByteView readInChunks(InputStream in, MemorySegment target, int length) throws IOException {
        byte[] transfer = transfer(TRANSFER_MAX).bytes();
        int prefix = 0;
        long done = 0;
        while (done < length) {
            int n = (int) Math.min(transfer.length, length - done);
            readFully(in, transfer, 0, n, length, done);
            if (done == 0) {
                prefix = (int) LE_INT.get(transfer, 0);
            }
            MemorySegment.copy(transfer, 0, target, ValueLayout.JAVA_BYTE, done, n);
            done += n;
        }
        return new ByteView(word0(length, prefix), 0, target);
    }

    /**
     * A value of {@code length} (1 to 12) bytes from {@code in}, through the thread's transfer array into the
     * two words. Each length reads with a literal count, so that when the stream's {@code read} is compiled into
     * this method (a hot stream of one class, as a {@code ByteArrayInputStream}) its {@code System.arraycopy} has
     * a known small count and C2 copies with plain moves. With a count known only at run time the copy goes to
     * the JDK's arraycopy stub, which on AVX-512 writes a copy of under 32 bytes with masked stores; a load cannot
     * take its bytes from a masked store and waits until the store has reached the cache (decision record 014).
     * Lengths a
     * stream never gets are never compiled.
     */
    private static ByteView readInline(InputStream in, int length) throws IOException {
        byte[] small = transfer(INLINE_MAX).bytes();
        return switch (length) {
            case 1 -> readUpTo8(in, small, 1);
            case 2 -> readUpTo8(in, small, 2);
            case 3 -> readUpTo8(in, small, 3);
            case 4 -> readUpTo8(in, small, 4);
            case 5 -> readUpTo8(in, small, 5);
            case 6 -> readUpTo8(in, small, 6);
            case 7 -> readUpTo8(in, small, 7);
            case 8 -> readUpTo8(in, small, 8);
            case 9 -> readOver8(in, small, 9);
            case 10 -> readOver8(in, small, 10);
            case 11 -> readOver8(in, small, 11);
            case 12 -> readOver8(in, small, 12);
            default -> throw new IllegalArgumentException("not an inline length: length=" + length + " min=1 max="
                    + INLINE_MAX);
        };
    }

    /**
     * {@link #readInline} of {@code count} (1 to 8, a literal at every call) bytes. C2 copies at most 8 elements
     * of a known count as that many single-byte moves, so the word is built from single-byte loads: C2 matches
     * each with its store and uses the copied byte without a memory round trip, where one 8-byte load over
     * eight 1-byte stores would wait for them to reach the cache.
     */
    private static ByteView readUpTo8(InputStream in, byte[] small, int count) throws IOException {
        readFully(in, small, 0, count, count, 0);
        long low = 0;
        for (int i = 0; i < count; i++) {
            low |= (small[i] & 0xFFL) << (8 * i);
        }
        return new ByteView(InlineWords.inlineWord0(count, low), InlineWords.inlineWord1(low, 0), null);
    }

    /**
     * {@link #readInline} of {@code count} (9 to 12, a literal at every call) bytes. With the count known C2 does
     * not call the stub, and the word loads no longer wait (measured, decision record 014).
     */
    private static ByteView readOver8(InputStream in, byte[] small, int count) throws IOException {
        readFully(in, small, 0, count, count, 0);
        return inline(small, 0, count);
    }

    /**
     * The calling thread's transfer array, at least {@code capacity} (at most {@link #TRANSFER_MAX}) bytes long.
     * A slot's {@link Transfer} is immutable and its array is only ever used by the thread whose id it names (ids
     * are never reused), so no two threads share an array even through a data race on the slot; a thread that
     * finds another's (or none) puts a new one there. Threads whose ids share a slot take turns replacing it, each
     * then allocating once per read: correct, only slower. Nothing refers to a {@link Thread}, so a finished
     * thread leaves at most its array behind. The stream a read calls must not call {@code ByteView.read} of the
     * same thread between filling the array and returning (no stream of the JDK does).
     */
    private static Transfer transfer(int capacity) {
        long id = Thread.currentThread().threadId();
        Transfer own = TRANSFERS[(int) id & (TRANSFERS.length - 1)];
        return own != null && own.owner == id && own.bytes.length >= capacity ? own : newTransfer(id, capacity);
    }

    /** {@link #transfer}'s new array for thread {@code id}, put in its slot. */
    private static Transfer newTransfer(long id, int capacity) {
        int slot = (int) id & (TRANSFERS.length - 1);
        Transfer old = TRANSFERS[slot];
        int grown = old != null && old.owner == id ? Math.min(TRANSFER_MAX, 2 * old.bytes.length) : 0;
        // 16 bytes cover every inline read (12), so most threads make one array for those.
        Transfer own = new Transfer(id, new byte[Math.max(Math.max(16, capacity), grown)]);
        TRANSFERS[slot] = own;
        return own;
    }

    /** A transfer array and the id of the one thread that uses it. */
    private record Transfer(long owner, byte[] bytes) {}

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
        if (data instanceof byte[] array) {
            return array[(int) word1 + index];
        }
        return ((MemorySegment) data).get(ValueLayout.JAVA_BYTE, offset() + index);
    }

    /** A new array holding the bytes. */
    public byte[] toByteArray() {
        if (data instanceof byte[] array) {
            int offset = (int) word1;
            return Arrays.copyOfRange(array, offset, offset + length());
        }
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
        } else if (data instanceof byte[] array) {
            MemorySegment.copy(array, (int) word1, target, ValueLayout.JAVA_BYTE, offset, length);
        } else {
            MemorySegment.copy((MemorySegment) data, offset(), target, offset, length);
        }
    }

    /**
     * The bytes as a read-only segment: a slice of the backing memory for a long value (no copy; over the
     * {@code byte[]} itself for heap-backed values), a small heap segment for an inline one.
     */
    public MemorySegment segment() {
        if (data == null) {
            return MemorySegment.ofArray(toByteArray()).asReadOnly();
        }
        return data().asSlice(offset(), length()).asReadOnly();
    }

    /** The bytes decoded as UTF-8 (malformed sequences become U+FFFD). */
    @Override
    public String toString() {
        if (data instanceof byte[] array) {
            return new String(array, (int) word1, length(), StandardCharsets.UTF_8);
        }
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
        if (data instanceof byte[] array) {
            int start = (int) word1 + from;
            return sliceLength <= INLINE_MAX ? inline(array, start, sliceLength) : ofArray(array, start, sliceLength);
        }
        return wrap((MemorySegment) data, offset() + from, sliceLength);
    }

    // ------------------------------------------------------------------------------------ equality and order

    // equals, hashCode and compareTo keep only their word checks in the method body and call out for the bytes:
    // small enough for C2 to inline them into HashMap.getNode and the sort loops (a 300-byte equals was not).

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
        return hash != 0 ? hash : Long.hashCode(hashLong(offset()));
    }

    /** The 64-bit hash of the bytes, equal to {@link ViewColumn#hash} of a row holding the same bytes. */
    public long hash64() {
        if (data == null) {
            return Hashing.hashInline(word0, word1);
        }
        return hashLong(offset());
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
     * use {@link #sort(ByteView[])}, which compares no pairs: on 1M URL-like keys it takes a fraction of the time of
     * {@code Arrays.sort(values, comparator())}, whose compares read past the shared start of the keys (every
     * segment read checked) again and again ({@code ByteViewBenchmark.sort*}, decision record 012).
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
            Object data = value.data;
            if (data == null) { // inline: only at depth 0, from the two words
                high[at] = ViewOrder.inlineKeyHigh(w0, w1);
                low[at] = ViewOrder.inlineKeyLow(w1);
            } else if (data instanceof byte[] array) {
                int offset = (int) w1;
                high[at] = chunk(array, offset, length, depth);
                low[at] = length - depth > 8 ? chunk(array, offset, length, depth + 8) : 0;
            } else {
                MemorySegment segment = (MemorySegment) data;
                long offset = w1 & OFFSET_MASK;
                high[at] = ViewOrder.chunk(segment, offset, length, depth);
                low[at] = length - depth > 8 ? ViewOrder.chunk(segment, offset, length, depth + 8) : 0;
            }
            tail[at] = KeyRounds.tail(length, depth, item);
        }
    }

    /**
     * Bytes {@code [depth, depth + 8)} of a long value in {@code array} at {@code offset}, big-endian, zero-padded
     * past its end ({@link ViewOrder#chunk} of an array): a word past the end is read as the word ending at the
     * last byte, shifted up, so nothing outside the value is read.
     */
    private static long chunk(byte[] array, int offset, int length, int depth) {
        if (depth + Long.BYTES <= length) {
            return (long) BE_LONG.get(array, offset + depth);
        }
        long last = (long) BE_LONG.get(array, offset + length - Long.BYTES);
        return last << (8 * (depth + Long.BYTES - length));
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

    /**
     * The backing memory of a long value as a segment (over the whole {@code byte[]} for heap-backed values, so
     * that {@link #word1()} is the offset in it and values of one array are one buffer), null for an inline one.
     */
    MemorySegment data() {
        return data == null ? null : data instanceof byte[] array ? MemorySegment.ofArray(array) : (MemorySegment) data;
    }

    /** The byte offset of a long value in its memory. */
    private long offset() {
        return word1 & OFFSET_MASK;
    }

    /** {@link Hashing#hashBytes} of this long value's bytes at {@code offset}. */
    private long hashLong(long offset) {
        if (data instanceof byte[] array) {
            return Hashing.hashBytes(array, (int) offset, length());
        }
        return Hashing.hashBytes((MemorySegment) data, offset, length());
    }

    /**
     * {@link #equals} of two long values of one length (at least 13) and one prefix: the bytes after it decide.
     * Only the common case stays here, where C2 inlines it into {@code HashMap.getNode}: two values with one kept
     * hash ({@code copyOf}: the map's key and a probe that found it) in arrays. Every array-backed value that
     * keeps a hash owns an array of exactly its bytes at offset 0 (the copying factories make sure of it), so
     * one compare of word 1 (both hashes and both offsets), a test that a hash is kept and the two array type
     * checks leave whole-array equality, a C2 intrinsic expanded inline as {@code String.equals}' is, which
     * checks the lengths itself. Every other pair goes to {@link #equalLongSlow}.
     */
    private boolean equalLong(ByteView that) {
        long w1 = word1;
        if (w1 == that.word1 && keepsHash(w1) && data instanceof byte[] a && that.data instanceof byte[] b) {
            return Arrays.equals(a, b);
        }
        return equalLongSlow(that);
    }

    /**
     * {@link #equalLong} of every other pair: kept hashes that differ decide at once; arrays compare as whole
     * arrays when both hold exactly the value (one hash kept, one not), else their ranges after the prefix; the
     * same memory and offset is equal; an array against a segment compares in words, two segments by mismatch.
     */
    private boolean equalLongSlow(ByteView that) {
        long w1 = word1;
        long thatW1 = that.word1;
        int hash = (int) (w1 >>> 32);
        int thatHash = (int) (thatW1 >>> 32);
        if (hash != thatHash && hash != 0 && thatHash != 0) {
            return false; // both hashes kept, and they differ (equal in a map lookup: one compare)
        }
        int length = (int) word0;
        Object thatData = that.data;
        if (data instanceof byte[] a && thatData instanceof byte[] b) {
            if (((w1 | thatW1) & OFFSET_MASK) == 0 && a.length == length && b.length == length) {
                // Two arrays of exactly these bytes (a copy against a heap read of one value): whole-array
                // equality is a C2 intrinsic expanded inline; the range form below checks both ranges and
                // then calls the vectorizedMismatch stub (decision record 014).
                return Arrays.equals(a, b);
            }
            int from = (int) w1;
            int thatFrom = (int) thatW1;
            return Arrays.equals(a, from + 4, from + length, b, thatFrom + 4, thatFrom + length);
        }
        long offset = w1 & OFFSET_MASK;
        long thatOffset = thatW1 & OFFSET_MASK;
        if (data == thatData && offset == thatOffset) {
            return true; // the same bytes
        }
        if (data instanceof byte[] a) {
            return equalTail(a, (int) offset, (MemorySegment) thatData, thatOffset, length);
        }
        if (thatData instanceof byte[] b) {
            return equalTail(b, (int) thatOffset, (MemorySegment) data, offset, length);
        }
        return ByteRanges.equal((MemorySegment) data, offset + 4, (MemorySegment) thatData, thatOffset + 4,
                length - 4);
    }

    /**
     * This long value with its {@link #hashCode()} in the upper half of word 1: called by the copying factories
     * on the value they just made (the first object does not escape), so the hash is part of a final field.
     */
    /**
     * Whether a long value's second word keeps its {@link #hashCode()} (its upper half is not 0): for an
     * array-backed value, the promise that the array holds exactly its bytes at offset 0 (see the class comment).
     */
    private static boolean keepsHash(long word1) {
        return (word1 & ~OFFSET_MASK) != 0;
    }

    private ByteView withHash() {
        int hash = Long.hashCode(hashLong(offset()));
        return new ByteView(word0, offset() | ((long) hash << 32), data);
    }

    /** {@link #compareTo} once the prefixes are equal. */
    private int compareAfterPrefix(ByteView other) {
        int lengthA = length();
        int lengthB = other.length();
        if (data instanceof byte[] a && other.data instanceof byte[] b) {
            if (keepsHash(word1) && keepsHash(other.word1)) {
                // Both keep a hash, so both arrays hold exactly their value (see #equalLong): whole-array order,
                // without offsets or range checks. Its mismatch search (the JDK's vectorizedMismatch stub, 32
                // bytes a step) beat the word loop below on URL-like keys whose common run is 20-40 bytes
                // (decision record 014).
                return Arrays.compareUnsigned(a, b);
            }
            // Both long and in arrays, one at an offset or in a longer array (slices, slab copies): one word loop
            // from byte 4, bytes 4..11 being its first word; the checks of the general path below are not needed.
            return compareArrays(a, (int) word1, lengthA, b, (int) other.word1, lengthB);
        }
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
        // Both long, not both arrays, bytes 0..11 equal: the rest decides, from byte 12 on.
        if (data instanceof byte[] a) {
            return compareTail(a, (int) offsetA, lengthA, (MemorySegment) other.data, offsetB, lengthB);
        }
        if (other.data instanceof byte[] b) {
            return -compareTail(b, (int) offsetB, lengthB, (MemorySegment) data, offsetA, lengthA);
        }
        return compareTail((MemorySegment) data, offsetA, lengthA, (MemorySegment) other.data, offsetB, lengthB);
    }

    /** Bytes 4..11 as an unsigned big-endian long. */
    private long middleWord() {
        if (data == null) {
            return Long.reverseBytes(word1);
        }
        if (data instanceof byte[] array) {
            return (long) BE_LONG.get(array, (int) word1 + 4);
        }
        return ((MemorySegment) data).get(LAYOUT_BE_LONG, offset() + 4);
    }

    /**
     * Whether bytes 4..length of two long values of one length (at least 13) are equal, one in an array and one
     * in a segment: the last 8 bytes first, then 8-byte words from byte 4 two at a time, their differences ORed
     * into one word with one branch per pair (the last pair may overlap the last word: the bytes are the same).
     * Each segment read is checked (bounds, arena liveness); a branch per word measured slower on
     * {@code ByteViewBenchmark}'s URL keys (decision record 014).
     */
    private static boolean equalTail(byte[] a, int aOffset, MemorySegment b, long bOffset, int length) {
        Objects.checkFromIndexSize(aOffset, length, a.length);
        Objects.checkFromIndexSize(bOffset, length, b.byteSize());
        int last = length - Long.BYTES;
        long diff = (long) LE_LONG.get(a, aOffset + last) ^ b.get(ViewLayout.LAYOUT_LE_LONG, bOffset + last);
        int i = 4;
        for (; i + Long.BYTES < last; i += 2 * Long.BYTES) { // both words end before the last word starts
            diff |= ((long) LE_LONG.get(a, aOffset + i) ^ b.get(ViewLayout.LAYOUT_LE_LONG, bOffset + i))
                    | ((long) LE_LONG.get(a, aOffset + i + Long.BYTES)
                            ^ b.get(ViewLayout.LAYOUT_LE_LONG, bOffset + i + Long.BYTES));
            if (diff != 0) {
                return false;
            }
        }
        if (i < last) {
            diff |= (long) LE_LONG.get(a, aOffset + i) ^ b.get(ViewLayout.LAYOUT_LE_LONG, bOffset + i);
        }
        return diff == 0;
    }

    /**
     * Order of two long values whose bytes 0..11 are equal, one in an array: big-endian words from byte 12; the
     * last word of the common length is read overlapping (bytes before 12 are equal, so it stays exact).
     */
    private static int compareTail(byte[] a, int aOffset, int aLength, MemorySegment b, long bOffset, int bLength) {
        Objects.checkFromIndexSize(aOffset, aLength, a.length);
        Objects.checkFromIndexSize(bOffset, bLength, b.byteSize());
        int common = Math.min(aLength, bLength);
        int last = common - Long.BYTES;
        for (int i = INLINE_MAX; i < last; i += Long.BYTES) {
            long x = (long) BE_LONG.get(a, aOffset + i);
            long y = b.get(LAYOUT_BE_LONG, bOffset + i);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        long x = (long) BE_LONG.get(a, aOffset + last);
        long y = b.get(LAYOUT_BE_LONG, bOffset + last);
        return x != y ? Long.compareUnsigned(x, y) : Integer.compare(aLength, bLength);
    }

    /**
     * Order of two long values in arrays whose first 4 bytes (the prefix) are equal: big-endian words from byte 4,
     * two at a time with one branch for both (keys that share a prefix, as URLs, paths and ids do, usually
     * differ 16 to 40 bytes in), then the last word of the common length read overlapping (bytes before it are
     * equal, so it stays exact). This loop is compiled inline into the sort; {@code Arrays.compareUnsigned} ranges
     * check both ranges and call the vectorizedMismatch stub, which pays off only for long common runs.
     */
    private static int compareArrays(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength) {
        Objects.checkFromIndexSize(aOffset, aLength, a.length);
        Objects.checkFromIndexSize(bOffset, bLength, b.length);
        int common = Math.min(aLength, bLength); // at least 13: both are long values
        int last = common - Long.BYTES;
        int i = 4;
        for (; i + Long.BYTES < last; i += 2 * Long.BYTES) { // both words end before the last word starts
            long x0 = (long) BE_LONG.get(a, aOffset + i);
            long y0 = (long) BE_LONG.get(b, bOffset + i);
            long x1 = (long) BE_LONG.get(a, aOffset + i + Long.BYTES);
            long y1 = (long) BE_LONG.get(b, bOffset + i + Long.BYTES);
            if (((x0 ^ y0) | (x1 ^ y1)) != 0) {
                return x0 != y0 ? Long.compareUnsigned(x0, y0) : Long.compareUnsigned(x1, y1);
            }
        }
        if (i < last) {
            long x = (long) BE_LONG.get(a, aOffset + i);
            long y = (long) BE_LONG.get(b, bOffset + i);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        long x = (long) BE_LONG.get(a, aOffset + last);
        long y = (long) BE_LONG.get(b, bOffset + last);
        return x != y ? Long.compareUnsigned(x, y) : Integer.compare(aLength, bLength);
    }

    /** {@link #compareTail(byte[], int, int, MemorySegment, long, int)} with both values in segments. */
    private static int compareTail(MemorySegment a, long aOffset, int aLength, MemorySegment b, long bOffset,
            int bLength) {
        int common = Math.min(aLength, bLength);
        int last = common - Long.BYTES;
        for (int i = INLINE_MAX; i < last; i += Long.BYTES) {
            long x = a.get(LAYOUT_BE_LONG, aOffset + i);
            long y = b.get(LAYOUT_BE_LONG, bOffset + i);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        long x = a.get(LAYOUT_BE_LONG, aOffset + last);
        long y = b.get(LAYOUT_BE_LONG, bOffset + last);
        return x != y ? Long.compareUnsigned(x, y) : Integer.compare(aLength, bLength);
    }

    private byte inlineByte(int index) {
        return (byte) (index < 4 ? word0 >>> (32 + 8 * index) : word1 >>> (8 * (index - 4)));
    }

    /**
     * A long value of exactly the bytes of {@code array}, which no one else holds, with its hash kept: one object,
     * and {@link #equalLong} can compare two such values as whole arrays.
     */
    private static ByteView ofOwnArray(byte[] array) {
        int length = array.length;
        long hash = Long.hashCode(Hashing.hashBytes(array, 0, length)) & 0xFFFF_FFFFL;
        return new ByteView(word0(length, (int) LE_INT.get(array, 0)), hash << 32, array);
    }

    /** A long value in {@code array} at {@code offset}; the array is the view's memory from now on. */
    private static ByteView ofArray(byte[] array, int offset, int length) {
        return new ByteView(word0(length, (int) LE_INT.get(array, offset)), offset & OFFSET_MASK, array);
    }

    /**
     * A long value at {@code offset} of {@code memory}: held as its {@code byte[]} when the segment is a writable
     * heap {@code byte[]} segment (equality, order and hashing then run on the array), else as the segment.
     */
    private static ByteView ofMemory(MemorySegment memory, long offset, int length) {
        if (memory.heapBase().orElse(null) instanceof byte[] array) {
            return ofArray(array, Math.toIntExact(memory.address() + offset), length);
        }
        return ofSegment(memory, offset, length);
    }

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

    /** An inline value of {@code length} (0 to 12) bytes at {@code offset} of {@code array}. */
    private static ByteView inline(byte[] array, int offset, int length) {
        if (length == 0) {
            return EMPTY;
        }
        Objects.checkFromIndexSize(offset, length, array.length);
        long lo;
        long hi;
        if (offset + INLINE_MAX <= array.length) { // one word and one int, bytes past the value masked off
            lo = (long) LE_LONG.get(array, offset) & InlineWords.inlineLowMask(length);
            hi = ((int) LE_INT.get(array, offset + Long.BYTES) & 0xFFFF_FFFFL) & InlineWords.inlineHighMask(length);
        } else {
            return inline(MemorySegment.ofArray(array), offset, length);
        }
        return new ByteView(InlineWords.inlineWord0(length, lo), InlineWords.inlineWord1(lo, hi), null);
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
