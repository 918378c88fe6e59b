package dev.stringview.arrow.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ForeignAllocation;

/** Moving memory between {@link MemorySegment}s and {@link ArrowBuf}s without copying it. */
public final class ArrowBufs {
    private ArrowBufs() {}

    /**
     * An {@link ArrowBuf} over {@code segment}'s memory. Arrow accounts it to {@code allocator} but never frees it:
     * releasing the last reference runs an empty {@link ForeignAllocation#release0()}; the segment's arena keeps
     * ownership. An on-heap segment has no address, so it is copied into {@code allocator}'s memory instead.
     * The caller closes the returned buffer once a vector has taken its own reference.
     */
    public static ArrowBuf wrap(BufferAllocator allocator, MemorySegment segment) {
        long size = segment.byteSize();
        if (size == 0) {
            return allocator.getEmpty();
        }
        if (!segment.isNative()) {
            ArrowBuf copy = copy(allocator, segment);
            copy.writerIndex(size);
            return copy;
        }
        ArrowBuf buf = allocator.wrapForeignAllocation(new ForeignAllocation(size, segment.address()) {
            @Override
            protected void release0() {
                // The memory belongs to the segment's arena, which frees it when it closes.
            }
        });
        buf.writerIndex(size);
        return buf;
    }

    /** A new buffer from {@code allocator} holding a copy of {@code segment}'s bytes (writer index left at 0). */
    public static ArrowBuf copy(BufferAllocator allocator, MemorySegment segment) {
        long size = segment.byteSize();
        ArrowBuf buf = allocator.buffer(size);
        MemorySegment.copy(segment, 0, MemorySegment.ofAddress(buf.memoryAddress()).reinterpret(size), 0, size);
        return buf;
    }

    /**
     * A segment of the first {@code bytes} of {@code buf}, valid until {@code arena} closes. The buffer gains a
     * reference now and loses it when the arena closes, so Arrow cannot free the memory under the segment even if
     * the vector that held it is closed first.
     *
     * @throws IllegalArgumentException if the buffer holds fewer than {@code bytes} bytes
     */
    public static MemorySegment segment(ArrowBuf buf, long bytes, Arena arena, String where) {
        if (bytes > buf.capacity()) {
            throw new dev.stringview.arrow.ArrowDataException(where + " bufferBytes=" + buf.capacity()
                    + " needBytes=" + bytes);
        }
        if (bytes == 0) {
            return MemorySegment.NULL;
        }
        buf.getReferenceManager().retain();
        return MemorySegment.ofAddress(buf.memoryAddress())
                .reinterpret(bytes, arena, ignored -> buf.getReferenceManager().release());
    }
}
