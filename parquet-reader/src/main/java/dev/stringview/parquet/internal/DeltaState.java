package dev.stringview.parquet.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * What DELTA_BYTE_ARRAY decoding carries from page to page within a column chunk: the previous value (the first
 * value of a page may share a prefix with the last one of the page before, PARQUET-246) and the block that
 * rebuilt values are written into.
 */
final class DeltaState {
    private static final long MIN_BLOCK = 64 * 1024;

    private final Arena arena;
    private final long maxBytes;
    MemorySegment previous = MemorySegment.NULL;
    long previousOffset;
    int previousLength;

    private MemorySegment block;
    private long blockUsed;

    DeltaState(Arena arena, long maxBytes) {
        this.arena = arena;
        this.maxBytes = maxBytes;
    }

    void reset() {
        previous = MemorySegment.NULL;
        previousOffset = 0;
        previousLength = 0;
    }

    /** The block to write {@code bytes} more bytes into; {@link #blockUsed()} tells where they go. */
    MemorySegment reserve(long bytes) {
        if (bytes > maxBytes) {
            throw new CorruptDataException("rebuilt values larger than the page limit: bytes=" + bytes
                    + " maxPageBytes=" + maxBytes);
        }
        if (block == null || block.byteSize() - blockUsed < bytes) {
            block = arena.allocate(Math.min(maxBytes, Math.max(MIN_BLOCK, bytes)), 8);
            blockUsed = 0;
        }
        return block;
    }

    long blockUsed() {
        return blockUsed;
    }

    void advance(long bytes) {
        blockUsed += bytes;
    }
}
