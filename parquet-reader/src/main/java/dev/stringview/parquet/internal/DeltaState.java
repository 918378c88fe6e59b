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

    private final ReadMemory memory;
    private final long maxBytes;
    MemorySegment previous = MemorySegment.NULL;
    long previousOffset;
    int previousLength;

    private Arena blockArena;
    private MemorySegment block;
    private long blockUsed;

    DeltaState(ReadMemory memory, long maxBytes) {
        this.memory = memory;
        this.maxBytes = maxBytes;
    }

    void reset() {
        previous = MemorySegment.NULL;
        previousOffset = 0;
        previousLength = 0;
    }

    /**
     * The block to write {@code bytes} more bytes into; {@link #blockUsed()} tells where they go. A block that is
     * replaced is retired, which keeps it readable until the next batch: {@link #previous} may still point there.
     */
    MemorySegment reserve(long bytes) {
        if (bytes > maxBytes) {
            throw new CorruptDataException("rebuilt values larger than the page limit: bytes=" + bytes
                    + " maxPageBytes=" + maxBytes);
        }
        if (block == null || block.byteSize() - blockUsed < bytes) {
            memory.retire(blockArena);
            blockArena = memory.openBuffer();
            block = blockArena.allocate(Math.min(maxBytes, Math.max(MIN_BLOCK, bytes)), 8);
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

    /** Retires the current block (its column chunk is done). */
    void close() {
        memory.retire(blockArena);
        blockArena = null;
        block = null;
        previous = MemorySegment.NULL;
    }
}
