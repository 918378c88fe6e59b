package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_INT;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;
import static dev.stringview.ViewLayout.VIEW_SIZE;

import dev.stringview.internal.Bits;
import dev.stringview.internal.ByteRanges;
import dev.stringview.internal.Hashing;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Appends values and builds a {@link ViewColumn}. Get one from {@link ViewColumns#builder}.
 *
 * <p>Short values (at most 12 bytes) go into the view. Long values are copied into data blocks taken from the
 * caller's allocator; blocks start at 8 KiB and double up to 2 MiB (the arrow-rs policy), a value longer than
 * the next block gets a block of its own, and no block is allocated while every value is inline. Views and the
 * validity bits are gathered on the heap and copied into the allocator once, by {@link #build()}, so a growing
 * view array never strands memory in an arena.
 *
 * <p>Bytes that already sit in a segment can be referenced instead of copied: {@link #adoptBuffer} registers the
 * segment as a data buffer and {@link #appendView} adds a view into it. The Parquet adapter builds views over
 * pages this way.
 *
 * <p><b>Memory.</b> Everything the builder allocates comes from the allocator given to {@link ViewColumns#builder};
 * the builder frees nothing. Data blocks it has taken stay allocated until the allocator's owner frees them (an
 * arena's close), also when {@link #build()} is never called. The built column is valid until that arena closes
 * and, when it holds adopted buffers or values appended without copying ({@link #append(ByteView)},
 * {@link #appendFrom}), until their memory is freed too; that memory stays its owner's.
 *
 * <p>A builder is for one thread and one column: after {@link #build()} it refuses further calls.
 */
public final class ViewColumnBuilder {
    static final int FIRST_BLOCK_SIZE = 8 * 1024;
    static final int MAX_BLOCK_SIZE = 2 * 1024 * 1024;

    private final SegmentAllocator allocator;
    private final ViewKind kind;
    private boolean validateUtf8 = true;
    private DedupTable dedup;

    private long[] words = new long[32]; // two little-endian view words per row
    private long[] validBits; // null until the first null row
    private int size;

    private final List<MemorySegment> buffers = new ArrayList<>();
    private final Map<MemorySegment, Integer> adopted = new HashMap<>();
    private MemorySegment block;
    private int blockIndex = -1;
    private long blockUsed;
    private int nextBlockSize = FIRST_BLOCK_SIZE;

    private final MemorySegment scratch = MemorySegment.ofArray(new long[2]);
    private MemorySegment[] remapSource; // buffers of the column appendFrom last copied from
    private int[] remap;
    private boolean built;

    ViewColumnBuilder(SegmentAllocator allocator, ViewKind kind) {
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    // ------------------------------------------------------------------------------------------- settings

    /**
     * Store each distinct long value once: a repeated value of more than 12 bytes gets a view pointing at its
     * first copy. Costs a hash of every long value and a table of {@code 8 bytes x rows}.
     */
    public ViewColumnBuilder withDedup(boolean enabled) {
        checkNotBuilt();
        if (enabled && dedup == null) {
            dedup = new DedupTable();
            for (int row = 0; row < size; row++) {
                if (isValidRow(row) && (int) words[2 * row] > INLINE_MAX) {
                    dedup.add(row, hashOfRow(row));
                }
            }
        } else if (!enabled) {
            dedup = null;
        }
        return this;
    }

    /** For UTF-8 columns: check appended bytes are well-formed UTF-8 (the default). Turn off only for trusted input. */
    public ViewColumnBuilder withUtf8Validation(boolean enabled) {
        checkNotBuilt();
        this.validateUtf8 = enabled;
        return this;
    }

    /** Reserve room for this many rows of views up front. */
    public ViewColumnBuilder withExpectedRows(int rows) {
        checkNotBuilt();
        ensureRows(rows);
        return this;
    }

    // ------------------------------------------------------------------------------------------- appending

    public int size() {
        return size;
    }

    public ViewKind kind() {
        return kind;
    }

    /** Appends the UTF-8 encoding of {@code value}, or a null row if {@code value} is null. */
    public ViewColumnBuilder append(String value) {
        if (value == null) {
            return appendNull();
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        return appendCopy(MemorySegment.ofArray(bytes), 0, bytes.length, false);
    }

    /** Appends a copy of {@code value}, or a null row if {@code value} is null. */
    public ViewColumnBuilder append(byte[] value) {
        if (value == null) {
            return appendNull();
        }
        return appendCopy(MemorySegment.ofArray(value), 0, value.length, validateUtf8);
    }

    /** Appends a copy of {@code length} bytes of {@code value} from {@code offset}. */
    public ViewColumnBuilder append(byte[] value, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, value.length);
        return appendCopy(MemorySegment.ofArray(value), offset, length, validateUtf8);
    }

    /** Appends a copy of the bytes of {@code value} (any segment: heap, native or mapped), or a null row if null. */
    public ViewColumnBuilder append(MemorySegment value) {
        if (value == null) {
            return appendNull();
        }
        return appendCopy(value, 0, checkedLength(value.byteSize()), validateUtf8);
    }

    /**
     * Appends {@code value} without copying its bytes, or a null row if {@code value} is null: an inline value's
     * two words become the view, and a long value's memory is adopted as a data buffer (see {@link #adoptBuffer};
     * values sharing one segment share one buffer). The caller keeps that memory alive while the column is used.
     *
     * @throws ViewFormatException if the column is UTF-8, validation is on and the bytes are not UTF-8
     */
    public ViewColumnBuilder append(ByteView value) {
        checkNotBuilt();
        if (value == null) {
            return appendNull();
        }
        MemorySegment data = value.data();
        if (data == null) {
            if (validateUtf8 && kind == ViewKind.UTF8) {
                checkUtf8(MemorySegment.ofArray(value.toByteArray()), 0, value.length(), true);
            }
            pushValid(value.word0(), value.word1());
            return this;
        }
        checkUtf8(data, value.word1(), value.length(), validateUtf8);
        pushValid(value.word0(), value.viewWord1(adoptBuffer(data)));
        return this;
    }

    public ViewColumnBuilder appendNull() {
        checkNotBuilt();
        ensureRows(size + 1);
        if (validBits == null) {
            validBits = new long[Math.max(1, (words.length / 2 + 63) >>> 6)];
            for (int row = 0; row < size; row++) {
                Bits.set(validBits, row);
            }
        }
        words[2 * size] = 0;
        words[2 * size + 1] = 0;
        size++;
        return this;
    }

    /**
     * Registers {@code buffer} as a data buffer without copying it and returns its buffer index for
     * {@link #appendView}. Adopting an equal segment again returns the same index. The caller keeps the buffer
     * alive for as long as the built column is used.
     */
    public int adoptBuffer(MemorySegment buffer) {
        checkNotBuilt();
        Objects.requireNonNull(buffer, "buffer");
        Integer known = adopted.get(buffer);
        if (known != null) {
            return known;
        }
        int index = buffers.size();
        buffers.add(buffer);
        adopted.put(buffer, index);
        return index;
    }

    /**
     * Appends a view of {@code length} bytes at {@code offset} of data buffer {@code bufferIndex} (adopted or
     * not) without copying them. A value of at most 12 bytes is copied into the view, as the layout requires.
     *
     * @throws IndexOutOfBoundsException if the buffer index or the byte range is out of range
     * @throws ViewFormatException if the column is UTF-8, validation is on and the bytes are not UTF-8
     */
    public ViewColumnBuilder appendView(int bufferIndex, long offset, int length) {
        checkNotBuilt();
        if (bufferIndex < 0 || bufferIndex >= buffers.size()) {
            throw new IndexOutOfBoundsException("appendView: row=" + size + " bufferIndex=" + bufferIndex
                    + " buffers=" + buffers.size());
        }
        MemorySegment buffer = buffers.get(bufferIndex);
        if (length < 0 || offset < 0 || offset + length > buffer.byteSize()) {
            throw new IndexOutOfBoundsException("appendView: row=" + size + " bufferIndex=" + bufferIndex
                    + " offset=" + offset + " length=" + length + " bufferSize=" + buffer.byteSize());
        }
        if (length <= INLINE_MAX) {
            return appendCopy(buffer, offset, length, validateUtf8);
        }
        if (offset > Integer.MAX_VALUE) {
            throw new IndexOutOfBoundsException("appendView: offset beyond int32 view field: row=" + size
                    + " bufferIndex=" + bufferIndex + " offset=" + offset);
        }
        checkUtf8(buffer, offset, length, validateUtf8);
        long w0 = (length & 0xFFFF_FFFFL) | ((long) buffer.get(LAYOUT_LE_INT, offset) << 32);
        pushValid(w0, (bufferIndex & 0xFFFF_FFFFL) | (offset << 32));
        return this;
    }

    /**
     * Appends row {@code row} of {@code source}: the 16-byte view is copied, and a long value keeps pointing at
     * its bytes in the source's buffer, which this builder adopts.
     */
    public ViewColumnBuilder appendFrom(ViewColumn source, int row) {
        checkNotBuilt();
        Objects.checkIndex(row, source.size());
        if (!source.isValid(row)) {
            return appendNull();
        }
        long w0 = source.word0(row);
        long w1 = source.word1(row);
        int length = (int) w0;
        boolean checkUtf8 = kind == ViewKind.UTF8 && source.kind() != ViewKind.UTF8 && validateUtf8;
        if (checkUtf8) {
            checkUtf8(source.dataSegment(row, w0, w1), source.dataOffset(row, w0, w1), length, true);
        }
        if (length > INLINE_MAX) {
            MemorySegment[] sourceBuffers = source.bufferArray();
            if (sourceBuffers != remapSource) {
                remapSource = sourceBuffers;
                remap = new int[sourceBuffers.length];
                Arrays.fill(remap, -1);
            }
            int sourceIndex = (int) w1;
            int index = remap[sourceIndex];
            if (index < 0) {
                index = adoptBuffer(sourceBuffers[sourceIndex]);
                remap[sourceIndex] = index;
            }
            w1 = (w1 & 0xFFFF_FFFF_0000_0000L) | index;
        }
        pushValid(w0, w1);
        return this;
    }

    /**
     * Builds the column: views (and the bitmap, if any row is null) are copied into segments from the
     * allocator; data blocks and adopted buffers become the column's buffers. The builder is spent afterwards.
     */
    public ViewColumn build() {
        checkNotBuilt();
        built = true;
        MemorySegment views = allocator.allocate((long) size * VIEW_SIZE, VIEW_SIZE);
        MemorySegment.copy(words, 0, views, LAYOUT_LE_LONG, 0, 2 * size);
        MemorySegment validity = null;
        if (validBits != null) {
            long bytes = Bits.bytesFor(size);
            validity = allocator.allocate(bytes, 8);
            MemorySegment.copy(validBits, 0, validity, LAYOUT_LE_LONG, 0, (int) (bytes / 8));
        }
        return new ViewColumn(kind, size, views, buffers.toArray(MemorySegment[]::new), validity, 0);
    }

    // ------------------------------------------------------------------------------------------- internals

    private ViewColumnBuilder appendCopy(MemorySegment source, long offset, int length, boolean checkUtf8) {
        checkNotBuilt();
        checkUtf8(source, offset, length, checkUtf8);
        if (length <= INLINE_MAX) {
            // Gather the inline bytes through a zeroed 16-byte scratch view (the padding must be zero).
            scratch.fill((byte) 0);
            MemorySegment.copy(source, offset, scratch, ViewLayout.OFFSET_INLINE, length);
            long w0 = scratch.get(LAYOUT_LE_LONG, 0) | length;
            pushValid(w0, scratch.get(LAYOUT_LE_LONG, 8));
            return this;
        }
        long w0 = (length & 0xFFFF_FFFFL) | ((long) source.get(LAYOUT_LE_INT, offset) << 32);
        long hash = 0;
        if (dedup != null) {
            hash = Hashing.hashBytes(source, offset, length);
            int earlier = dedup.find(hash, w0, source, offset, length);
            if (earlier >= 0) {
                pushValid(w0, words[2 * earlier + 1]);
                return this;
            }
        }
        long location = copyIntoBlock(source, offset, length);
        if (dedup != null) {
            dedup.add(size, hash);
        }
        pushValid(w0, location);
        return this;
    }

    /** Copies a long value into the current block (or a block of its own) and returns {@code index | offset << 32}. */
    private long copyIntoBlock(MemorySegment source, long offset, int length) {
        if (length > nextBlockSize && (block == null || blockUsed + length > block.byteSize())) {
            MemorySegment own = allocator.allocate(length, 1);
            MemorySegment.copy(source, offset, own, 0, length);
            buffers.add(own);
            return buffers.size() - 1;
        }
        if (block == null || blockUsed + length > block.byteSize()) {
            block = allocator.allocate(nextBlockSize, 1);
            buffers.add(block);
            blockIndex = buffers.size() - 1;
            blockUsed = 0;
            nextBlockSize = Math.min(2 * nextBlockSize, MAX_BLOCK_SIZE);
        }
        MemorySegment.copy(source, offset, block, blockUsed, length);
        long location = blockIndex | (blockUsed << 32);
        blockUsed += length;
        return location;
    }

    private void checkUtf8(MemorySegment source, long offset, int length, boolean check) {
        if (check && kind == ViewKind.UTF8) {
            long bad = Utf8.firstInvalid(source, offset, length);
            if (bad >= 0) {
                throw new ViewFormatException(size, "utf8", "byteOffset=" + bad + " length=" + length);
            }
        }
    }

    private void pushValid(long w0, long w1) {
        ensureRows(size + 1);
        words[2 * size] = w0;
        words[2 * size + 1] = w1;
        if (validBits != null) {
            Bits.set(validBits, size);
        }
        size++;
    }

    private void ensureRows(int rows) {
        if (rows < 0) {
            throw new IllegalStateException("column too large: rows=" + rows);
        }
        if (2L * rows > words.length) {
            long capacity = Math.max(2L * rows, 2L * words.length);
            if (capacity > Integer.MAX_VALUE - 8) {
                capacity = Integer.MAX_VALUE - 8;
                if (2L * rows > capacity) {
                    throw new IllegalStateException("column too large: rows=" + rows);
                }
            }
            words = Arrays.copyOf(words, (int) capacity);
        }
        if (validBits != null && (rows + 63) >>> 6 > validBits.length) {
            validBits = Arrays.copyOf(validBits, Math.max((rows + 63) >>> 6, 2 * validBits.length));
        }
    }

    private boolean isValidRow(int row) {
        return validBits == null || Bits.get(validBits, row);
    }

    private long hashOfRow(int row) {
        long w1 = words[2 * row + 1];
        return Hashing.hashBytes(buffers.get((int) w1), w1 >>> 32, (int) words[2 * row]);
    }

    private static int checkedLength(long length) {
        if (length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("value longer than a view can describe: length=" + length
                    + " max=" + Integer.MAX_VALUE);
        }
        return (int) length;
    }

    private void checkNotBuilt() {
        if (built) {
            throw new IllegalStateException("builder already built its column: rows=" + size);
        }
    }

    /** Open-addressing table of row numbers keyed by value hash, for {@link #withDedup}. */
    private final class DedupTable {
        private int[] rows = new int[1024];
        private long[] hashes = new long[1024];
        private int count;

        DedupTable() {
            Arrays.fill(rows, -1);
        }

        int find(long hash, long w0, MemorySegment source, long offset, int length) {
            int mask = rows.length - 1;
            for (int i = (int) hash & mask; rows[i] >= 0; i = (i + 1) & mask) {
                int row = rows[i];
                if (hashes[i] == hash && words[2 * row] == w0) {
                    long w1 = words[2 * row + 1];
                    if (ByteRanges.equal(buffers.get((int) w1), w1 >>> 32, source, offset, length)) {
                        return row;
                    }
                }
            }
            return -1;
        }

        void add(int row, long hash) {
            if (2 * (count + 1) > rows.length) {
                int[] oldRows = rows;
                long[] oldHashes = hashes;
                rows = new int[oldRows.length * 2];
                hashes = new long[oldRows.length * 2];
                Arrays.fill(rows, -1);
                count = 0;
                for (int i = 0; i < oldRows.length; i++) {
                    if (oldRows[i] >= 0) {
                        add(oldRows[i], oldHashes[i]);
                    }
                }
            }
            int mask = rows.length - 1;
            int i = (int) hash & mask;
            while (rows[i] >= 0) {
                i = (i + 1) & mask;
            }
            rows[i] = row;
            hashes[i] = hash;
            count++;
        }
    }
}
