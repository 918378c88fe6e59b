package dev.stringview.parquet.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Parquet's RLE / bit-packing hybrid over {@code [position, limit)} of a segment: definition levels and
 * dictionary ids. Runs are decoded on demand, a group of 8 bit-packed values at a time; a forged run length
 * costs nothing until values are asked for, and every read is checked against the section's end.
 */
final class HybridDecoder {

    private final MemorySegment data;
    private final long limit;
    private final int bitWidth;
    private final long mask;
    private final String what;
    private final long base;
    private long position;
    private final long[] cursor = new long[1]; // position for Uleb128.read, reused to avoid allocation

    // current run
    private boolean rle;
    private long runLeft; // values left in the current run
    private int rleValue;
    private long packedBitStart; // bit offset (from data[0]) of the next bit-packed value

    HybridDecoder(MemorySegment data, long position, long limit, int bitWidth, String what, long base) {
        if (bitWidth < 0 || bitWidth > 32) {
            throw new CorruptDataException("bit width out of range in " + what + ": bitWidth=" + bitWidth);
        }
        if (position < 0 || limit < position || limit > data.byteSize()) {
            throw new CorruptDataException("section outside page in " + what + ": position=" + position + " limit="
                    + limit + " pageSize=" + data.byteSize());
        }
        this.data = data;
        this.position = position;
        this.limit = limit;
        this.bitWidth = bitWidth;
        this.mask = bitWidth == 32 ? 0xFFFF_FFFFL : (1L << bitWidth) - 1;
        this.what = what;
        this.base = base;
    }

    /**
     * The ids of a dictionary-encoded data page's values section {@code [start, end)}: one byte of bit width, then
     * the hybrid runs.
     */
    static HybridDecoder dictionaryIds(MemorySegment buffer, long start, long end, long base) {
        if (start >= end) {
            throw new CorruptDataException("dictionary ids missing: valueIndex=0 pageSize=" + (end - base));
        }
        int bitWidth = buffer.get(ValueLayout.JAVA_BYTE, start) & 0xFF;
        if (bitWidth > 32) {
            throw new CorruptDataException("dictionary id bit width above 32: bitWidth=" + bitWidth);
        }
        return new HybridDecoder(buffer, start + 1, end, bitWidth, "dictionary ids", base);
    }

    /** Reads {@code count} values into {@code out[offset..]}. */
    void read(int[] out, int offset, int count) {
        int done = 0;
        while (done < count) {
            if (runLeft == 0) {
                nextRun();
            }
            int n = (int) Math.min(runLeft, count - done);
            if (rle) {
                Arrays.fill(out, offset + done, offset + done + n, rleValue);
            } else {
                unpack(out, offset + done, n);
            }
            runLeft -= n;
            done += n;
        }
    }

    /**
     * Reads {@code count} definition levels of a flat optional column (0 = null, 1 = value) and sets bit
     * {@code row + i} of {@code validBits} for every value. Returns the number of values (non-null rows).
     */
    int readValidity(long[] validBits, int row, int count, int[] scratch) {
        int done = 0;
        int valid = 0;
        while (done < count) {
            if (runLeft == 0) {
                nextRun();
            }
            int n = (int) Math.min(runLeft, count - done);
            if (rle) {
                if (rleValue == 1) {
                    setRange(validBits, row + done, n);
                    valid += n;
                } else if (rleValue != 0) {
                    throw new CorruptDataException("level above the maximum in " + what + ": level=" + rleValue
                            + " maxLevel=1 valueIndex=" + done);
                }
                runLeft -= n;
                done += n;
            } else {
                n = Math.min(n, scratch.length);
                unpack(scratch, 0, n);
                for (int i = 0; i < n; i++) {
                    int level = scratch[i];
                    if (level == 1) {
                        int bit = row + done + i;
                        validBits[bit >>> 6] |= 1L << bit;
                        valid++;
                    } else if (level != 0) {
                        throw new CorruptDataException("level above the maximum in " + what + ": level=" + level
                                + " maxLevel=1 valueIndex=" + (done + i));
                    }
                }
                runLeft -= n;
                done += n;
            }
        }
        return valid;
    }

    static void setRange(long[] bits, int from, int count) {
        int end = from + count;
        int i = from;
        while (i < end && (i & 63) != 0) {
            bits[i >>> 6] |= 1L << i;
            i++;
        }
        while (i + 64 <= end) {
            bits[i >>> 6] = -1L;
            i += 64;
        }
        while (i < end) {
            bits[i >>> 6] |= 1L << i;
            i++;
        }
    }

    private void nextRun() {
        if (position >= limit) {
            throw new CorruptDataException("runs end before the values do in " + what + ": sectionEnd=" + (limit - base));
        }
        long header = readVarint();
        if ((header & 1) == 0) {
            long count = header >>> 1;
            if (count == 0) {
                throw new CorruptDataException("empty RLE run in " + what + ": offset=" + (position - base));
            }
            int bytes = (bitWidth + 7) >>> 3;
            if (limit - position < bytes) {
                throw new CorruptDataException("RLE run value beyond section in " + what + ": offset=" + (position - base)
                        + " valueBytes=" + bytes + " sectionEnd=" + (limit - base));
            }
            long value = 0;
            for (int i = 0; i < bytes; i++) {
                value |= (long) (data.get(ValueLayout.JAVA_BYTE, position + i) & 0xFF) << (8 * i);
            }
            position += bytes;
            if ((value & ~mask) != 0) {
                throw new CorruptDataException("RLE value wider than bit width in " + what + ": value=" + value
                        + " bitWidth=" + bitWidth);
            }
            rle = true;
            rleValue = (int) value;
            runLeft = count;
        } else {
            long groups = header >>> 1;
            if (groups == 0) {
                throw new CorruptDataException("empty bit-packed run in " + what + ": offset=" + (position - base));
            }
            long bytes = groups * bitWidth; // 8 values of bitWidth bits per group
            long values = groups * 8;
            long available = limit - position;
            if (bytes > available) {
                // The last run may be cut short of its padding: keep the values whose bits are all present.
                values = bitWidth == 0 ? values : available * 8 / bitWidth;
                bytes = available;
                if (values == 0) {
                    throw new CorruptDataException("bit-packed run beyond section in " + what + ": offset=" + (position - base)
                            + " groups=" + groups + " bitWidth=" + bitWidth + " sectionEnd=" + (limit - base));
                }
            }
            rle = false;
            runLeft = values;
            packedBitStart = position * 8;
            position += bytes;
        }
    }

    private void unpack(int[] out, int offset, int n) {
        long bit = packedBitStart;
        int width = bitWidth;
        if (width == 0) {
            Arrays.fill(out, offset, offset + n, 0);
            return;
        }
        long size = data.byteSize();
        for (int i = 0; i < n; i++) {
            long byteIndex = bit >>> 3;
            long word = BitPacked.wordAt(data, byteIndex, size);
            out[offset + i] = (int) ((word >>> (bit & 7)) & mask);
            bit += width;
        }
        packedBitStart = bit;
    }

    private long readVarint() {
        cursor[0] = position;
        long value = Uleb128.read(data, cursor, limit, 5, "run header varint", what, base);
        position = cursor[0];
        return value;
    }
}
