package dev.stringview.parquet.internal;

import java.lang.foreign.MemorySegment;

/**
 * Heap scratch for the fixed-width decoders that go through PLAIN values ({@link ByteStreamSplitDecoder},
 * {@link DeltaFixedDecoder}, {@link ViewsToFixedDecoder}): allocated once per column chunk reader, on first use,
 * and shared by its pages, so that decoding allocates nothing per page or value.
 */
final class FixedScratch {
    private long[] longs;
    private int[] ints;
    private byte[] stream;
    private long[] plain;
    private MemorySegment plainSegment;
    private byte[] interleaved;
    private MemorySegment interleavedSegment;

    /** {@link FixedDecoder#STEP} longs. */
    long[] longs() {
        if (longs == null) {
            longs = new long[FixedDecoder.STEP];
        }
        return longs;
    }

    /** {@link FixedDecoder#STEP} ints. */
    int[] ints() {
        if (ints == null) {
            ints = new int[FixedDecoder.STEP];
        }
        return ints;
    }

    /** {@link FixedDecoder#STEP} bytes. */
    byte[] stream() {
        if (stream == null) {
            stream = new byte[FixedDecoder.STEP];
        }
        return stream;
    }

    /** At least {@code bytes} bytes, with {@link #interleavedSegment} over them. */
    byte[] interleaved(int bytes) {
        if (interleaved == null || interleaved.length < bytes) {
            interleaved = new byte[bytes];
            interleavedSegment = MemorySegment.ofArray(interleaved);
        }
        return interleaved;
    }

    /** The segment over the array {@link #interleaved} returned last. */
    MemorySegment interleavedSegment() {
        return interleavedSegment;
    }

    /** A heap segment of at least {@code bytes} bytes (a multiple of 8). */
    MemorySegment plain(long bytes) {
        if (plain == null || (long) plain.length * 8 < bytes) {
            plain = new long[(int) ((bytes + 7) / 8)];
            plainSegment = MemorySegment.ofArray(plain);
        }
        return plainSegment;
    }
}
