package dev.stringview.parquet.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * DELTA_BINARY_PACKED values, decoded one miniblock at a time into a small reused array: int32 (the lengths inside
 * DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY, and INT32 columns; miniblock bit widths up to 32) or int64 (INT64
 * columns; bit widths up to 64). {@link #endOf} finds where an encoded stream ends without decoding it, to locate
 * the section that follows. Arithmetic is done in 64 bits and wraps, as the format specifies; int32 values are its
 * low 32 bits, which is the same as wrapping at 32 bits.
 */
final class DeltaBinaryPackedDecoder {
    /** Values per block above this are refused (writers use 128; the format only asks for a multiple of 128). */
    static final int MAX_BLOCK_SIZE = 1 << 16;
    private static final int MAX_MINIBLOCKS = 1 << 10;

    private final MemorySegment data;
    private final long limit;
    private final String what;
    private final long base;
    private long position;
    private final long[] cursor = new long[1]; // position for Uleb128.read, reused to avoid allocation

    private final int blockSize;
    private final int miniblocks;
    private final int valuesPerMiniblock;
    private final int totalCount;
    private final int maxWidth; // 32 for int32 values, 64 for int64
    private int left; // values not returned yet
    private long last;
    private boolean firstPending = true;

    private long minDelta;
    private final int[] widths;
    private int miniblockInBlock; // index of the next miniblock to load in the current block
    private final long[] buffer;
    private int bufferPos;
    private int bufferSize;

    /** An int32 stream. */
    DeltaBinaryPackedDecoder(MemorySegment data, long position, long limit, String what, long base) {
        this(data, position, limit, what, base, false);
    }

    /** An int64 stream if {@code int64}, else an int32 one. */
    DeltaBinaryPackedDecoder(MemorySegment data, long position, long limit, String what, long base, boolean int64) {
        this.maxWidth = int64 ? 64 : 32;
        this.data = data;
        this.limit = limit;
        this.what = what;
        this.base = base;
        this.position = position;
        checkRange(data, position, limit, what);
        long bs = varint();
        long mb = varint();
        long count = varint();
        long first = zigzag(varint());
        checkHeader(bs, mb, count, what);
        this.blockSize = (int) bs;
        this.miniblocks = (int) mb;
        this.valuesPerMiniblock = blockSize / miniblocks;
        this.totalCount = (int) count;
        this.left = totalCount;
        this.last = first;
        this.widths = new int[miniblocks];
        this.buffer = new long[valuesPerMiniblock];
        this.miniblockInBlock = miniblocks; // forces a block header read
    }

    int totalCount() {
        return totalCount;
    }

    int remaining() {
        return left;
    }

    /** Reads {@code count} values into {@code out[offset..]} (their low 32 bits, for an int64 stream). */
    void read(int[] out, int offset, int count) {
        int i = first(count);
        if (i == 1) {
            out[offset] = (int) last;
        }
        while (i < count) {
            int n = nextRun(count - i);
            long value = last;
            long[] buf = buffer;
            int p = bufferPos;
            for (int k = 0; k < n; k++) {
                value += buf[p + k];
                out[offset + i + k] = (int) value;
            }
            endRun(n, value);
            i += n;
        }
    }

    /** Reads {@code count} values into {@code out[offset..]}. */
    void read(long[] out, int offset, int count) {
        int i = first(count);
        if (i == 1) {
            out[offset] = last;
        }
        while (i < count) {
            int n = nextRun(count - i);
            long value = last;
            long[] buf = buffer;
            int p = bufferPos;
            for (int k = 0; k < n; k++) {
                value += buf[p + k];
                out[offset + i + k] = value;
            }
            endRun(n, value);
            i += n;
        }
    }

    /** Checks that {@code count} values are left; returns 1 if the first value is to be returned first, else 0. */
    private int first(int count) {
        if (count > left) {
            throw new CorruptDataException("fewer values than needed in " + what + ": need=" + count + " left=" + left
                    + " totalCount=" + totalCount);
        }
        if (count > 0 && firstPending) {
            firstPending = false;
            left--;
            return 1;
        }
        return 0;
    }

    /** How many of the {@code wanted} values the buffered miniblock gives next, loading one if it is used up. */
    private int nextRun(int wanted) {
        if (bufferPos == bufferSize) {
            loadMiniblock();
        }
        return Math.min(wanted, bufferSize - bufferPos);
    }

    private void endRun(int n, long value) {
        last = value;
        bufferPos += n;
        left -= n;
    }

    /** Loads the next miniblock's deltas (min delta added) into the buffer. */
    private void loadMiniblock() {
        if (miniblockInBlock == miniblocks) {
            minDelta = zigzag(varint());
            if (limit - position < miniblocks) {
                throw new CorruptDataException("block header beyond section in " + what + ": offset=" + (position - base)
                        + " sectionEnd=" + (limit - base));
            }
            for (int m = 0; m < miniblocks; m++) {
                widths[m] = data.get(ValueLayout.JAVA_BYTE, position + m) & 0xFF;
            }
            position += miniblocks;
            miniblockInBlock = 0;
        }
        int width = widths[miniblockInBlock++];
        if (width > maxWidth) {
            throw new CorruptDataException("miniblock bit width above " + maxWidth + " in " + what + ": bitWidth="
                    + width);
        }
        long bytes = (long) valuesPerMiniblock * width / 8;
        int values = valuesPerMiniblock;
        if (bytes > limit - position) {
            // The last miniblock may lack padding: keep the values whose bits are present.
            values = (int) Math.min(values, (limit - position) * 8 / Math.max(1, width));
            bytes = limit - position;
            if (values < Math.min(left, valuesPerMiniblock)) {
                throw new CorruptDataException("miniblock beyond section in " + what + ": offset=" + (position - base) + " bitWidth="
                        + width + " valuesPerMiniblock=" + valuesPerMiniblock + " sectionEnd=" + (limit - base));
            }
        }
        long md = minDelta;
        if (width == 0) {
            for (int k = 0; k < values; k++) {
                buffer[k] = md;
            }
        } else {
            long mask = width == 64 ? -1L : (1L << width) - 1;
            long bit = position * 8;
            long size = data.byteSize();
            for (int k = 0; k < values; k++) {
                long byteIndex = bit >>> 3;
                int shift = (int) (bit & 7);
                long word = BitPacked.wordAt(data, byteIndex, size) >>> shift;
                if (shift + width > 64) { // only widths above 56: the value's top bits are in a ninth byte
                    word |= (long) BitPacked.byteAt(data, byteIndex + 8, size) << (64 - shift);
                }
                buffer[k] = md + (word & mask);
                bit += width;
            }
        }
        position += bytes;
        bufferPos = 0;
        bufferSize = values;
    }

    /** The position just past the encoded stream at {@code position}, found without decoding values. */
    static long endOf(MemorySegment data, long position, long limit, String what, long base) {
        return endOf(data, position, limit, what, base, false);
    }

    /** {@link #endOf} for an int64 stream if {@code int64}. */
    static long endOf(MemorySegment data, long position, long limit, String what, long base, boolean int64) {
        int maxWidth = int64 ? 64 : 32;
        checkRange(data, position, limit, what);
        long[] pos = {position};
        long bs = Uleb128.read(data, pos, limit, 10, "varint", what, base);
        long mb = Uleb128.read(data, pos, limit, 10, "varint", what, base);
        long count = Uleb128.read(data, pos, limit, 10, "varint", what, base);
        Uleb128.read(data, pos, limit, 10, "varint", what, base); // first value
        checkHeader(bs, mb, count, what);
        long vpm = bs / mb;
        long valuesLeft = count - 1;
        while (valuesLeft > 0) {
            Uleb128.read(data, pos, limit, 10, "varint", what, base); // min delta
            long p = pos[0];
            if (limit - p < mb) {
                throw new CorruptDataException("block header beyond section in " + what + ": offset=" + (p - base) + " sectionEnd="
                        + (limit - base));
            }
            long widthsAt = p;
            p += mb;
            for (int m = 0; m < mb && valuesLeft > 0; m++) {
                int width = data.get(ValueLayout.JAVA_BYTE, widthsAt + m) & 0xFF;
                if (width > maxWidth) {
                    throw new CorruptDataException("miniblock bit width above " + maxWidth + " in " + what
                            + ": bitWidth=" + width);
                }
                long bytes = vpm * width / 8;
                if (bytes > limit - p) {
                    long values = width == 0 ? vpm : (limit - p) * 8 / width;
                    if (values < Math.min(valuesLeft, vpm)) {
                        throw new CorruptDataException("miniblock beyond section in " + what + ": offset=" + (p - base) + " bitWidth="
                                + width + " valuesPerMiniblock=" + vpm + " sectionEnd=" + (limit - base));
                    }
                    bytes = limit - p;
                }
                p += bytes;
                valuesLeft -= Math.min(vpm, valuesLeft);
            }
            pos[0] = p;
        }
        return pos[0];
    }

    private static void checkRange(MemorySegment data, long position, long limit, String what) {
        if (position < 0 || limit < position || limit > data.byteSize()) {
            throw new CorruptDataException("section outside page in " + what + ": position=" + position + " limit="
                    + limit + " pageSize=" + data.byteSize());
        }
    }

    private static void checkHeader(long blockSize, long miniblocks, long count, String what) {
        if (blockSize <= 0 || blockSize > MAX_BLOCK_SIZE || blockSize % 128 != 0 || miniblocks <= 0
                || miniblocks > MAX_MINIBLOCKS || blockSize % miniblocks != 0 || (blockSize / miniblocks) % 32 != 0
                || count > Integer.MAX_VALUE) {
            throw new CorruptDataException("bad delta header in " + what + ": blockSize=" + blockSize + " miniblocks="
                    + miniblocks + " totalCount=" + count);
        }
    }

    private long varint() {
        cursor[0] = position;
        long value = Uleb128.read(data, cursor, limit, 10, "varint", what, base);
        position = cursor[0];
        return value;
    }

    private static long zigzag(long n) {
        return (n >>> 1) ^ -(n & 1);
    }
}
