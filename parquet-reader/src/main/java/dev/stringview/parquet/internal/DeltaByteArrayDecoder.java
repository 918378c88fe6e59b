package dev.stringview.parquet.internal;

import dev.stringview.parquet.PageInfo.PageViews;
import java.lang.foreign.MemorySegment;

/**
 * DELTA_BYTE_ARRAY (incremental encoding): prefix lengths, then suffixes as DELTA_LENGTH_BYTE_ARRAY. Value
 * {@code i} is the first {@code prefix[i]} bytes of value {@code i - 1} followed by suffix {@code i}, so the
 * values do not exist anywhere as such: each one is written once, back to back, into a block from the read's memory,
 * and the views point there. The previous value survives page boundaries within the chunk (PARQUET-246).
 */
final class DeltaByteArrayDecoder extends ValueDecoder {
    private final int[] prefixes;
    private final int[] suffixes;
    private final DeltaState state;
    private DeltaBinaryPackedDecoder prefixDecoder;
    private DeltaBinaryPackedDecoder suffixDecoder;
    private long position;

    DeltaByteArrayDecoder(MemorySegment buffer, long base, long start, long end, boolean validateUtf8,
            int[] scratchA, int[] scratchB, DeltaState state) {
        super(buffer, base, start, end, validateUtf8);
        this.prefixes = scratchA;
        this.suffixes = scratchB;
        this.state = state;
    }

    @Override
    void decode(ViewSink sink, int row, int count) {
        if (prefixDecoder == null) {
            prefixDecoder = new DeltaBinaryPackedDecoder(buffer, start, end, "prefix lengths", base);
            long suffixStart = DeltaBinaryPackedDecoder.endOf(buffer, start, end, "prefix lengths", base);
            suffixDecoder = new DeltaBinaryPackedDecoder(buffer, suffixStart, end, "suffix lengths", base);
            position = DeltaBinaryPackedDecoder.endOf(buffer, suffixStart, end, "suffix lengths", base);
        }
        int done = 0;
        while (done < count) {
            int n = Math.min(prefixes.length, count - done);
            prefixDecoder.read(prefixes, 0, n);
            suffixDecoder.read(suffixes, 0, n);
            // First pass: check every length and size the block.
            long total = 0;
            long previousLength = state.previousLength;
            long p = position;
            for (int k = 0; k < n; k++) {
                int prefix = prefixes[k];
                int suffix = suffixes[k];
                if (prefix < 0 || prefix > previousLength) {
                    decoded += done + k;
                    throw new CorruptDataException("prefix longer than the previous value: valueIndex=" + decoded
                            + " prefix=" + prefix + " previousLength=" + previousLength);
                }
                if (suffix < 0 || suffix > end - p) {
                    decoded += done + k;
                    throw beyondPage("suffix beyond page", p, suffix);
                }
                long length = (long) prefix + suffix;
                if (length > Integer.MAX_VALUE) {
                    throw new CorruptDataException("value longer than int32: valueIndex=" + (decoded + done + k)
                            + " length=" + length);
                }
                total += length;
                previousLength = length;
                p += suffix;
            }
            MemorySegment block = state.reserve(total);
            long offset = state.blockUsed();
            long runStart = offset;
            if (offset + total > Integer.MAX_VALUE) {
                throw new CorruptDataException("rebuilt values beyond int32 offsets: offset=" + offset + " bytes="
                        + total);
            }
            int bufferIndex = -1;
            long blockSize = block.byteSize();
            for (int k = 0; k < n; k++) {
                int prefix = prefixes[k];
                int suffix = suffixes[k];
                if (prefix > 0) {
                    MemorySegment.copy(state.previous, state.previousOffset, block, offset, prefix);
                }
                if (suffix > 0) {
                    MemorySegment.copy(buffer, position, block, offset + prefix, suffix);
                }
                int length = prefix + suffix;
                int r = row + done + k;
                if (length <= 12) {
                    sink.putInline(r, block, offset, length, blockSize);
                } else {
                    if (bufferIndex < 0) {
                        bufferIndex = sink.bufferIndex(block);
                    }
                    sink.putLong(r, length, block.get(ViewSink.LE_INT, offset), bufferIndex, offset);
                }
                state.previous = block;
                state.previousOffset = offset;
                state.previousLength = length;
                position += suffix;
                offset += length;
                prefixes[k] = length; // lengths of the rebuilt values, for validation
            }
            state.advance(total);
            if (validateUtf8) {
                Utf8Check.contiguous(block, runStart, prefixes, n, decoded + done, runStart);
            }
            done += n;
        }
        decoded += count;
    }

    @Override
    PageViews views(PageViews bufferViews) {
        return PageViews.MATERIALIZED;
    }
}
