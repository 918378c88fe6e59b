package dev.stringview.parquet.internal;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.format.BloomFilterHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.io.api.Binary;

/**
 * Probes a column chunk's split-block bloom filter (Parquet's only kind: BLOCK algorithm, XXH64 hash, stored
 * uncompressed; format spec BloomFilter.md) for constants, straight from the memory-mapped file. A bloom filter
 * has false positives and no false negatives, so "none of the constants is in it" proves that no value of the
 * chunk equals any of them. Anything unexpected (no filter, an unknown algorithm, a header or bitset that does
 * not fit the file) proves nothing, and the row group is read.
 */
public final class BloomFilters {
    private BloomFilters() {}

    /**
     * Whether the bloom filter at {@code offset} (from the chunk's metadata; negative when there is none) holds
     * none of {@code probes}. Only bytes before {@code dataEnd} (where the footer starts) are read.
     */
    public static boolean excludeAll(MemorySegment file, long dataEnd, long offset, List<byte[]> probes) {
        if (offset < 4 || offset >= dataEnd) {
            return false;
        }
        return excludeAll(file.asSlice(offset, dataEnd - offset), probes);
    }

    /**
     * Whether the bloom filter that starts at the first byte of {@code bytes} (its header, then its bitset, maybe
     * followed by other bytes) holds none of {@code probes}. False if {@code bytes} ends before the bitset does.
     */
    public static boolean excludeAll(MemorySegment filterBytes, List<byte[]> probes) {
        if (probes.isEmpty()) {
            return false;
        }
        long dataEnd = filterBytes.byteSize();
        try {
            SegmentInputStream in = new SegmentInputStream(filterBytes, 0, dataEnd);
            BloomFilterHeader header = Util.readBloomFilterHeader(in);
            if (!header.getAlgorithm().isSetBLOCK() || !header.getHash().isSetXXHASH()
                    || !header.getCompression().isSetUNCOMPRESSED()) {
                return false;
            }
            int bytes = header.getNumBytes();
            if (bytes < BlockSplitBloomFilter.LOWER_BOUND_BYTES || bytes > BlockSplitBloomFilter.UPPER_BOUND_BYTES
                    || bytes % 32 != 0 || bytes > dataEnd - in.position()) {
                return false;
            }
            byte[] bitset = filterBytes.asSlice(in.position(), bytes).toArray(ValueLayout.JAVA_BYTE);
            BlockSplitBloomFilter filter = new BlockSplitBloomFilter(bitset);
            for (byte[] probe : probes) {
                if (filter.findHash(filter.hash(Binary.fromConstantByteArray(probe)))) {
                    return false;
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false; // an unreadable filter proves nothing
        }
    }

    /** The size of a bloom filter's header at the start of {@code bytes} plus its bitset, or -1 if unreadable. */
    public static long size(MemorySegment bytes) {
        try {
            SegmentInputStream in = new SegmentInputStream(bytes, 0, bytes.byteSize());
            BloomFilterHeader header = Util.readBloomFilterHeader(in);
            return in.position() + header.getNumBytes();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
