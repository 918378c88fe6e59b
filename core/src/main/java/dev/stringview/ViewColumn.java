package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_INT;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;
import static dev.stringview.ViewLayout.OFFSET_INLINE;
import static dev.stringview.ViewLayout.VIEW_SIZE;

import dev.stringview.internal.Bits;
import dev.stringview.internal.ByteRanges;
import dev.stringview.internal.Hashing;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable column of Utf8View / BinaryView values: one segment of 16-byte views (see {@link ViewLayout}),
 * the data buffers the long values point into, and an optional validity bitmap in Arrow bit order.
 *
 * <p><b>Memory.</b> A column owns nothing and frees nothing. Its segments belong to the arenas of whoever made them
 * (a builder's allocator, a reader's arena, the caller of {@link ViewColumns#fromViews}), and whoever owns such an
 * arena frees them by closing it; after that, any access throws {@link IllegalStateException}. What the accessors
 * return ({@link #views}, {@link #buffer}, {@link #validity}, {@link #segment}) are read-only slices of those
 * segments, valid exactly as long, and so are the bytes of a long value's {@link #view}; {@link #bytes} and
 * {@link #string} are heap copies. Operations that produce new views ({@link #take}, {@link #compact},
 * {@link ViewColumns#concat}) take the allocator to put them in; {@link #take} and {@link #slice} share this
 * column's data buffers, so their result is valid only as long as those are.
 *
 * <p><b>Threads.</b> A column never changes after construction, so any number of threads may read it at once,
 * provided its segments may be accessed from those threads (a shared or global arena, not a confined one).
 *
 * <p><b>Nulls.</b> Accessors return {@code null} for null rows; predicate kernels never match a null row.
 */
public final class ViewColumn {
    private final ViewKind kind;
    private final int size;
    private final MemorySegment views;
    private final MemorySegment[] buffers;
    private final MemorySegment validity; // null when every row is valid
    private final long validityOffset;
    private final int nullCount;

    ViewColumn(ViewKind kind, int size, MemorySegment views, MemorySegment[] buffers, MemorySegment validity,
            long validityOffset) {
        this.kind = Objects.requireNonNull(kind, "kind");
        if (size < 0) {
            throw new IllegalArgumentException("negative row count: size=" + size);
        }
        if (views.byteSize() < (long) size * VIEW_SIZE) {
            throw new IllegalArgumentException("views segment too small: size=" + size + " needBytes="
                    + (long) size * VIEW_SIZE + " viewBytes=" + views.byteSize());
        }
        if (validity != null && validity.byteSize() * 8 < validityOffset + size) {
            throw new IllegalArgumentException("validity bitmap too small: size=" + size + " bitOffset="
                    + validityOffset + " bitmapBytes=" + validity.byteSize());
        }
        this.size = size;
        this.views = views.asSlice(0, (long) size * VIEW_SIZE);
        this.buffers = buffers;
        this.validity = validity;
        this.validityOffset = validityOffset;
        this.nullCount = validity == null ? 0 : (int) (size - Bits.countSet(validity, validityOffset, size));
    }

    // ---------------------------------------------------------------------------------------------- shape

    public ViewKind kind() {
        return kind;
    }

    /** Number of rows. */
    public int size() {
        return size;
    }

    public int nullCount() {
        return nullCount;
    }

    /** The views, {@code 16 * size()} bytes, read-only. */
    public MemorySegment views() {
        return views.asReadOnly();
    }

    public int bufferCount() {
        return buffers.length;
    }

    /** Data buffer {@code index}, read-only. */
    public MemorySegment buffer(int index) {
        Objects.checkIndex(index, buffers.length);
        return buffers[index].asReadOnly();
    }

    /** The validity bitmap (Arrow bit order, 1 = valid) if the column has one; see {@link #validityBitOffset()}. */
    public Optional<MemorySegment> validity() {
        return Optional.ofNullable(validity).map(MemorySegment::asReadOnly);
    }

    /** Bit of {@link #validity()} that holds row 0 (non-zero after {@link #slice}). */
    public long validityBitOffset() {
        return validityOffset;
    }

    // --------------------------------------------------------------------------------------------- access

    public boolean isNull(int row) {
        Objects.checkIndex(row, size);
        return !isValid(row);
    }

    /** Length in bytes of the value at {@code row} (0 for a null row's zeroed view, whatever it holds otherwise). */
    public int length(int row) {
        Objects.checkIndex(row, size);
        return views.get(LAYOUT_LE_INT, (long) row * VIEW_SIZE);
    }

    /** The value's bytes as a zero-copy read-only slice of the view (inline) or the data buffer, or null for a null row. */
    public MemorySegment segment(int row) {
        Objects.checkIndex(row, size);
        if (!isValid(row)) {
            return null;
        }
        long w0 = word0(row);
        long w1 = word1(row);
        int length = (int) w0;
        return dataSegment(row, w0, w1).asSlice(dataOffset(row, w0, w1), length).asReadOnly();
    }

    /**
     * The value at {@code row} as a {@link ByteView} without copying (a long value keeps pointing into this
     * column's data buffer), or null for a null row. The view lives as long as that buffer's arena.
     */
    public ByteView view(int row) {
        Objects.checkIndex(row, size);
        if (!isValid(row)) {
            return null;
        }
        return ByteView.ofRow(word0(row), word1(row), buffers);
    }

    /** A copy of the value's bytes, or null for a null row. */
    public byte[] bytes(int row) {
        MemorySegment value = segment(row);
        return value == null ? null : value.toArray(ValueLayout.JAVA_BYTE);
    }

    /** The value decoded as UTF-8 (malformed bytes of a binary column become U+FFFD), or null for a null row. */
    public String string(int row) {
        byte[] value = bytes(row);
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    /**
     * Whether {@code row} holds the same value as {@code otherRow} of {@code other}: both null, or both non-null
     * with equal bytes (SQL {@code IS NOT DISTINCT FROM}). The buffers are read only when length and prefix agree.
     */
    public boolean valueEquals(int row, ViewColumn other, int otherRow) {
        Objects.checkIndex(row, size);
        Objects.checkIndex(otherRow, other.size);
        boolean valid = isValid(row);
        if (valid != other.isValid(otherRow)) {
            return false;
        }
        return !valid || Rows.equal(this, row, other, otherRow);
    }

    /** 64-bit hash of the value: equal bytes give equal hashes in any column and any buffer. Null rows hash to 0. */
    public long hash(int row) {
        Objects.checkIndex(row, size);
        if (!isValid(row)) {
            return 0;
        }
        long w0 = word0(row);
        long w1 = word1(row);
        int length = (int) w0;
        if (length <= INLINE_MAX) {
            return Hashing.hashInline(w0, w1);
        }
        return Hashing.hashBytes(buffers[(int) w1], w1 >>> 32, length);
    }

    // -------------------------------------------------------------------------------- copy-free operations

    /**
     * The rows {@code rows[0..count)} in that order (take, or filter by a selection). Only the 16-byte views
     * (and validity bits) are copied into {@code allocator}; the data buffers are shared.
     */
    public ViewColumn take(SegmentAllocator allocator, int[] rows, int count) {
        Objects.checkFromIndexSize(0, count, rows.length);
        MemorySegment out = allocator.allocate((long) count * VIEW_SIZE, VIEW_SIZE);
        MemorySegment outValidity = nullCount == 0 ? null : Bits.allocateCleared(allocator, count);
        for (int i = 0; i < count; i++) {
            int row = rows[i];
            if (row < 0 || row >= size) {
                throw new IndexOutOfBoundsException("take: position=" + i + " row=" + row + " size=" + size);
            }
            long at = (long) i * VIEW_SIZE;
            boolean valid = isValid(row);
            // A null row gets the zero view (the empty value), whatever the source view held.
            out.set(LAYOUT_LE_LONG, at, valid ? word0(row) : 0);
            out.set(LAYOUT_LE_LONG, at + 8, valid ? word1(row) : 0);
            if (valid && outValidity != null) {
                Bits.set(outValidity, i);
            }
        }
        return new ViewColumn(kind, count, out, buffers, outValidity, 0);
    }

    /** Rows {@code [from, from + length)} without copying anything: views, bitmap and buffers are shared. */
    public ViewColumn slice(int from, int length) {
        Objects.checkFromIndexSize(from, length, size);
        return new ViewColumn(kind, length, views.asSlice((long) from * VIEW_SIZE, (long) length * VIEW_SIZE),
                buffers, validity, validityOffset + from);
    }

    // ------------------------------------------------------------------------------------------ compaction

    /**
     * Whether {@link #compact} would pay: the buffers hold at least twice the bytes the views reference and
     * compaction would free at least 16 KiB. The factor follows arrow-rs' coalesce (copy when buffers exceed
     * 2x the referenced bytes); the floor follows Polars' {@code maybe_gc}, which leaves small savings alone.
     * Call it before keeping a column past the life of its source (caching, shuffling, writing out), typically
     * after a selective {@link #take}: the survivors then pin whole pages of bytes nobody references.
     */
    public boolean shouldCompact() {
        long buffered = bufferBytes();
        long referenced = referencedBytes();
        return buffered >= 2 * referenced && buffered - referenced >= 16 * 1024;
    }

    /**
     * A copy of this column whose long values sit in new, exactly sized buffers holding only the referenced
     * bytes. Views that point at the same bytes (same buffer, offset and length) keep sharing one copy.
     */
    public ViewColumn compact(SegmentAllocator allocator) {
        ViewColumn inOrder = compactInOrder(allocator);
        return inOrder != null ? inOrder : compactDeduplicating(allocator);
    }

    /**
     * The common case of {@link #compact}, or null if it does not apply: every long value starts at or after the
     * end of the long values before it in the same buffer (as builders, Parquet pages and IPC writers lay them
     * out, also after a slice). No two views then share or overlap bytes, so nothing needs deduplicating, and the
     * values that follow each other in a buffer (the next starts where the last ended) are copied as one run with a
     * single {@code MemorySegment.copy}: one copy per page part rather than one per value. The new buffers hold
     * the values in row order, so each new offset is the running total, computed again in the views pass.
     */
    private ViewColumn compactInOrder(SegmentAllocator allocator) {
        long[] lastEnd = new long[buffers.length]; // per source buffer: end of the last long value seen in it
        long[] runs = new long[3 * 8]; // per run: source (buffer | offset << 32), target (buffer | offset << 32), length
        int runCount = 0;
        List<Long> bufferSizes = new ArrayList<>();
        long used = 0;
        int runBuffer = -1;
        long runEnd = 0;
        for (int row = 0; row < size; row++) {
            long w0 = word0(row);
            int length = (int) w0;
            if (length <= INLINE_MAX || !isValid(row)) {
                continue;
            }
            long w1 = word1(row);
            int buffer = (int) w1;
            long offset = w1 >>> 32;
            if (offset < lastEnd[buffer]) {
                return null; // before or inside bytes already placed: shared or overlapping values
            }
            lastEnd[buffer] = offset + length;
            boolean newTarget = used + length > Integer.MAX_VALUE; // offsets are int32: start another buffer
            if (newTarget) {
                bufferSizes.add(used);
                used = 0;
            }
            if (!newTarget && buffer == runBuffer && offset == runEnd) {
                runs[3 * runCount - 1] += length; // extends the current run
            } else {
                if (3 * runCount + 3 > runs.length) {
                    runs = java.util.Arrays.copyOf(runs, 2 * runs.length);
                }
                runs[3 * runCount] = w1;
                runs[3 * runCount + 1] = bufferSizes.size() | (used << 32);
                runs[3 * runCount + 2] = length;
                runCount++;
                runBuffer = buffer;
            }
            runEnd = offset + length;
            used += length;
        }
        if (used > 0) {
            bufferSizes.add(used);
        }
        MemorySegment[] newBuffers = copyMoves(allocator, bufferSizes, runs, runCount);
        MemorySegment out = allocator.allocate((long) size * VIEW_SIZE, VIEW_SIZE);
        MemorySegment outValidity = nullCount == 0 ? null : Bits.allocateCleared(allocator, size);
        int targetBuffer = 0;
        long targetOffset = 0;
        for (int row = 0; row < size; row++) {
            long at = (long) row * VIEW_SIZE;
            boolean valid = isValid(row);
            long w0 = valid ? word0(row) : 0;
            long w1 = valid ? word1(row) : 0;
            int length = (int) w0;
            if (length > INLINE_MAX) { // the same placement rule as the first pass
                if (targetOffset + length > Integer.MAX_VALUE) {
                    targetBuffer++;
                    targetOffset = 0;
                }
                w1 = targetBuffer | (targetOffset << 32);
                targetOffset += length;
            }
            out.set(LAYOUT_LE_LONG, at, w0);
            out.set(LAYOUT_LE_LONG, at + 8, w1);
            if (valid && outValidity != null) {
                Bits.set(outValidity, row);
            }
        }
        return new ViewColumn(kind, size, out, newBuffers, outValidity, 0);
    }

    /**
     * Allocates buffers of {@code sizes} and carries out the first {@code count} moves, each three longs: source
     * location ({@code buffer | offset << 32}), target location (the same, in the new buffers) and length.
     */
    private MemorySegment[] copyMoves(SegmentAllocator allocator, List<Long> sizes, long[] moves, int count) {
        MemorySegment[] newBuffers = new MemorySegment[sizes.size()];
        for (int b = 0; b < newBuffers.length; b++) {
            newBuffers[b] = allocator.allocate(sizes.get(b), 1);
        }
        for (int m = 0; m < count; m++) {
            long source = moves[3 * m];
            long target = moves[3 * m + 1];
            MemorySegment.copy(buffers[(int) source], source >>> 32, newBuffers[(int) target], target >>> 32,
                    moves[3 * m + 2]);
        }
        return newBuffers;
    }

    /** {@link #compact} of any column: each distinct (buffer, offset, length) is found in a map and copied once. */
    private ViewColumn compactDeduplicating(SegmentAllocator allocator) {
        // Pass 1: give every distinct (buffer, offset, length) of a long value its place in the new buffers.
        LongLongMap placed = new LongLongMap();
        List<Long> bufferSizes = new ArrayList<>();
        long[] moves = new long[16]; // per distinct value: source location, target location, length
        int distinct = 0;
        long used = 0;
        for (int row = 0; row < size; row++) {
            long w0 = word0(row);
            int length = (int) w0;
            if (length <= INLINE_MAX || !isValid(row)) {
                continue;
            }
            long w1 = word1(row);
            if (placed.get(w1, length) >= 0) {
                continue;
            }
            if (used + length > Integer.MAX_VALUE) { // offsets are int32: start another buffer
                bufferSizes.add(used);
                used = 0;
            }
            long target = bufferSizes.size() | (used << 32);
            used += length;
            placed.put(w1, length, target);
            if (3 * distinct + 3 > moves.length) {
                moves = java.util.Arrays.copyOf(moves, 2 * moves.length);
            }
            moves[3 * distinct] = w1;
            moves[3 * distinct + 1] = target;
            moves[3 * distinct + 2] = length;
            distinct++;
        }
        if (used > 0) {
            bufferSizes.add(used);
        }
        // Pass 2: exactly sized buffers, each distinct value copied once.
        MemorySegment[] newBuffers = copyMoves(allocator, bufferSizes, moves, distinct);
        // Pass 3: the views, pointing at the new places.
        MemorySegment out = allocator.allocate((long) size * VIEW_SIZE, VIEW_SIZE);
        MemorySegment outValidity = nullCount == 0 ? null : Bits.allocateCleared(allocator, size);
        for (int row = 0; row < size; row++) {
            long at = (long) row * VIEW_SIZE;
            boolean valid = isValid(row);
            long w0 = valid ? word0(row) : 0;
            long w1 = valid ? word1(row) : 0;
            if ((int) w0 > INLINE_MAX) {
                w1 = placed.get(w1, (int) w0);
            }
            out.set(LAYOUT_LE_LONG, at, w0);
            out.set(LAYOUT_LE_LONG, at + 8, w1);
            if (valid && outValidity != null) {
                Bits.set(outValidity, row);
            }
        }
        return new ViewColumn(kind, size, out, newBuffers, outValidity, 0);
    }

    /** Open-addressing map from a view's location word and length to a new location word; no boxing. */
    private static final class LongLongMap {
        private long[] keys = new long[64];
        private int[] lengths = new int[64];
        private long[] values = new long[64];
        private boolean[] used = new boolean[64];
        private int count;

        long get(long key, int length) {
            int mask = keys.length - 1;
            for (int i = slot(key) & mask; used[i]; i = (i + 1) & mask) {
                if (keys[i] == key && lengths[i] == length) {
                    return values[i];
                }
            }
            return -1;
        }

        void put(long key, int length, long value) {
            if (2 * (count + 1) > keys.length) {
                grow();
            }
            int mask = keys.length - 1;
            int i = slot(key) & mask;
            while (used[i]) {
                i = (i + 1) & mask;
            }
            used[i] = true;
            keys[i] = key;
            lengths[i] = length;
            values[i] = value;
            count++;
        }

        private void grow() {
            long[] oldKeys = keys;
            int[] oldLengths = lengths;
            long[] oldValues = values;
            boolean[] oldUsed = used;
            int capacity = oldKeys.length * 2;
            keys = new long[capacity];
            lengths = new int[capacity];
            values = new long[capacity];
            used = new boolean[capacity];
            count = 0;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldUsed[i]) {
                    put(oldKeys[i], oldLengths[i], oldValues[i]);
                }
            }
        }

        private static int slot(long key) {
            return (int) Hashing.fmix64(key);
        }
    }

    // ---------------------------------------------------------------------------------------- accounting

    /** Bytes taken by the views: 16 per row. */
    public long viewBytes() {
        return (long) size * VIEW_SIZE;
    }

    /** Bytes of all data buffers this column references, used or not. */
    public long bufferBytes() {
        long total = 0;
        for (MemorySegment buffer : buffers) {
            total += buffer.byteSize();
        }
        return total;
    }

    /** Bytes of buffer data the non-null long values point at (a value referenced twice counts twice). */
    public long referencedBytes() {
        long total = 0;
        for (int row = 0; row < size; row++) {
            int length = (int) word0(row);
            if (length > INLINE_MAX && isValid(row)) {
                total += length;
            }
        }
        return total;
    }

    @Override
    public String toString() {
        return "ViewColumn[kind=" + kind + " size=" + size + " nulls=" + nullCount + " buffers=" + buffers.length
                + " bufferBytes=" + bufferBytes() + "]";
    }

    // ----------------------------------------------------------------------- package-private kernel access

    boolean isValid(int row) {
        return validity == null || Bits.get(validity, validityOffset + row);
    }

    /**
     * Bit {@code i} set when row {@code selection[base + i]} ({@code i < count <= 64}) is valid, or row
     * {@code base + i} when {@code selection} is null; all {@code count} bits when the column has no nulls.
     */
    long validBits(int[] selection, int base, int count) {
        if (selection == null) {
            return validBits(base, count);
        }
        if (validity == null) {
            return -1L >>> (Long.SIZE - count); // base indexes the selection, not the column: no row range to check
        }
        long valid = 0;
        for (int i = 0; i < count; i++) {
            valid |= (isValid(selection[base + i]) ? 1L : 0L) << i;
        }
        return valid;
    }

    /**
     * The validity of rows {@code from .. from + count - 1} ({@code 1 <= count <= 64}) as one word: bit {@code i} is
     * set when row {@code from + i} is not null, the bits above {@code count} are clear. A column without nulls gives
     * all {@code count} bits set. Engines use it to build a whole null bitmap a word at a time instead of calling
     * {@link #isNull} per row. Reads one little-endian word of the Arrow bitmap (and the byte after it when the bits
     * start mid-byte) where the bitmap holds them, else bit by bit.
     *
     * @throws IndexOutOfBoundsException if {@code count} is not in 1..64 or the rows are not all in the column
     */
    public long validBits(int from, int count) {
        if (count < 1 || count > Long.SIZE || from < 0 || from > size - count) {
            throw new IndexOutOfBoundsException("rows out of range: from=" + from + " count=" + count + " size="
                    + size);
        }
        long keep = -1L >>> (Long.SIZE - count);
        if (validity == null) {
            return keep;
        }
        long bit = validityOffset + from;
        long at = bit >>> 3;
        int shift = (int) (bit & 7);
        if (at + Long.BYTES < validity.byteSize()) { // the word and the byte after it are in the bitmap
            long low = validity.get(LAYOUT_LE_LONG, at) >>> shift;
            long high = (validity.get(ValueLayout.JAVA_BYTE, at + Long.BYTES) & 0xFFL) << (Long.SIZE - shift);
            return (shift == 0 ? low : low | high) & keep;
        }
        long bits = 0;
        for (int i = 0; i < count; i++) {
            bits |= (isValid(from + i) ? 1L : 0L) << i;
        }
        return bits;
    }

    boolean hasNulls() {
        return nullCount != 0;
    }

    /** {@code length | prefix << 32} (or the first 4 inline bytes) of {@code row}'s view. */
    long word0(int row) {
        return views.get(LAYOUT_LE_LONG, (long) row * VIEW_SIZE);
    }

    /** {@code bufferIndex | offset << 32} of a long value, or inline bytes 4..11 of a short one. */
    long word1(int row) {
        return views.get(LAYOUT_LE_LONG, (long) row * VIEW_SIZE + 8);
    }

    MemorySegment viewSegment() {
        return views;
    }

    MemorySegment[] bufferArray() {
        return buffers;
    }

    MemorySegment validityBitmap() {
        return validity;
    }

    /** The segment holding {@code row}'s bytes: the views themselves for inline values, else its data buffer. */
    MemorySegment dataSegment(int row, long w0, long w1) {
        return (int) w0 <= INLINE_MAX ? views : buffers[(int) w1];
    }

    /** Where {@code row}'s bytes start in {@link #dataSegment}. */
    long dataOffset(int row, long w0, long w1) {
        return (int) w0 <= INLINE_MAX ? (long) row * VIEW_SIZE + OFFSET_INLINE : w1 >>> 32;
    }

    /** Row-level comparisons shared by {@link ViewColumn} and the kernels. */
    static final class Rows {
        private Rows() {}

        /** Byte equality of two non-null rows, reading buffers only when length and prefix agree. */
        static boolean equal(ViewColumn a, int rowA, ViewColumn b, int rowB) {
            long a0 = a.word0(rowA);
            if (a0 != b.word0(rowB)) {
                return false;
            }
            long a1 = a.word1(rowA);
            long b1 = b.word1(rowB);
            int length = (int) a0;
            if (length <= INLINE_MAX) {
                return a1 == b1;
            }
            MemorySegment bufA = a.buffers[(int) a1];
            MemorySegment bufB = b.buffers[(int) b1];
            if (bufA == bufB && a1 == b1) {
                return true; // same bytes: no need to read them
            }
            return ByteRanges.equal(bufA, (a1 >>> 32) + 4, bufB, (b1 >>> 32) + 4, length - 4);
        }
    }
}
