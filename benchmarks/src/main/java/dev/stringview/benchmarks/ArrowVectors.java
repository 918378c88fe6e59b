package dev.stringview.benchmarks;

import dev.stringview.ViewColumn;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ForeignAllocation;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.holders.NullableViewVarCharHolder;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

/**
 * The Arrow Java 19 peers, through public APIs only.
 *
 * <ul>
 *   <li>{@link VarCharVector}: the offsets buffer and the data buffer read directly ({@code ArrowBuf.getInt},
 *   one offset load per row), bytes compared with {@link ByteFunctionHelpers} (Arrow's memcmp, 8 bytes at a
 *   time). Its layout is contiguous by definition: whatever the heap, the bytes are copied into row order.</li>
 *   <li>{@link ViewVarCharVector}: built over this library's own views and heap without copying
 *   ({@code wrapForeignAllocation}), so it holds the very same bytes; read with
 *   {@code get(row, NullableViewVarCharHolder)}, Arrow's zero-copy accessor (its {@code getDataPointer} ignores
 *   the offset of long values in 19.0.0, see docs/arrow-java-notes.md), then the same comparisons. Arrow Java has
 *   no public kernel that uses the view's inlined prefix: that is what this library adds.</li>
 * </ul>
 * Neither vector has nulls here; like the view kernels, the loops check that once, not per row. Forks run with
 * {@code -Darrow.enable_unsafe_memory_access=true}, Arrow's documented setting that turns its bounds checks off,
 * the fastest configuration it offers.
 */
final class ArrowVectors {
    private ArrowVectors() {}

    static VarCharVector varChar(BufferAllocator allocator, StringHeap data) {
        VarCharVector vector = new VarCharVector("s", allocator);
        long total = 0;
        for (int length : data.lengths) {
            total += length;
        }
        vector.allocateNew(Math.max(1, total), data.rows);
        byte[] scratch = new byte[64];
        for (int row = 0; row < data.rows; row++) {
            int length = data.lengths[row];
            MemorySegment.copy(data.heap, java.lang.foreign.ValueLayout.JAVA_BYTE, data.offsets[row], scratch, 0, length);
            vector.setSafe(row, scratch, 0, length);
        }
        vector.setValueCount(data.rows);
        return vector;
    }

    /** A view vector over {@code column}'s views and buffers, sharing their memory (no copy). */
    static ViewVarCharVector viewVarChar(BufferAllocator allocator, ViewColumn column) {
        ViewVarCharVector vector = new ViewVarCharVector("s", allocator);
        ArrowBuf validity = allocator.getEmpty();
        ArrowBuf views = wrap(allocator, column.views());
        List<ArrowBuf> buffers = new java.util.ArrayList<>();
        buffers.add(validity);
        buffers.add(views);
        for (int i = 0; i < column.bufferCount(); i++) {
            buffers.add(wrap(allocator, column.buffer(i)));
        }
        try {
            vector.loadFieldBuffers(new ArrowFieldNode(column.size(), 0), buffers);
            vector.setValueCount(column.size());
        } finally {
            for (ArrowBuf buffer : buffers) {
                buffer.close(); // the vector took its own references
            }
        }
        return vector;
    }

    static ArrowBuf wrap(BufferAllocator allocator, MemorySegment segment) {
        return allocator.wrapForeignAllocation(new ForeignAllocation(segment.byteSize(), segment.address()) {
            @Override
            protected void release0() {
                // the arena owns the memory
            }
        });
    }

    static ArrowBuf constant(BufferAllocator allocator, byte[] bytes) {
        ArrowBuf buffer = allocator.buffer(Math.max(1, bytes.length));
        buffer.setBytes(0, bytes);
        return buffer;
    }

    // ------------------------------------------------------------------------------------- VarCharVector

    static int count(VarCharVector vector, Kernel kernel, ArrowBuf k, int klen) {
        if (vector.getNullCount() != 0) {
            throw new IllegalStateException("peer kernels expect no nulls: nullCount=" + vector.getNullCount());
        }
        ArrowBuf offsets = vector.getOffsetBuffer();
        ArrowBuf data = vector.getDataBuffer();
        int n = vector.getValueCount();
        int count = 0;
        int start = offsets.getInt(0);
        switch (kernel) {
            case EQUAL -> {
                for (int row = 0; row < n; row++) {
                    int end = offsets.getInt((long) (row + 1) * 4);
                    if (end - start == klen && ByteFunctionHelpers.equal(data, start, end, k, 0, klen) == 1) {
                        count++;
                    }
                    start = end;
                }
            }
            case LESS_THAN -> {
                for (int row = 0; row < n; row++) {
                    int end = offsets.getInt((long) (row + 1) * 4);
                    if (ByteFunctionHelpers.compare(data, start, end, k, 0, klen) < 0) {
                        count++;
                    }
                    start = end;
                }
            }
            case STARTS_WITH -> {
                for (int row = 0; row < n; row++) {
                    int end = offsets.getInt((long) (row + 1) * 4);
                    if (end - start >= klen && ByteFunctionHelpers.equal(data, start, start + klen, k, 0, klen) == 1) {
                        count++;
                    }
                    start = end;
                }
            }
            case CONTAINS -> {
                for (int row = 0; row < n; row++) {
                    int end = offsets.getInt((long) (row + 1) * 4);
                    if (end - start >= klen && Search.indexOf(data, start, end, k, klen) >= 0) {
                        count++;
                    }
                    start = end;
                }
            }
        }
        return count;
    }

    // --------------------------------------------------------------------------------- ViewVarCharVector

    static int count(ViewVarCharVector vector, Kernel kernel, ArrowBuf k, int klen) {
        if (vector.getNullCount() != 0) {
            throw new IllegalStateException("peer kernels expect no nulls: nullCount=" + vector.getNullCount());
        }
        NullableViewVarCharHolder h = new NullableViewVarCharHolder();
        int n = vector.getValueCount();
        int count = 0;
        switch (kernel) {
            case EQUAL -> {
                for (int row = 0; row < n; row++) {
                    vector.get(row, h);
                    if (h.end - h.start == klen && ByteFunctionHelpers.equal(h.buffer, h.start, h.end, k, 0, klen) == 1) {
                        count++;
                    }
                }
            }
            case LESS_THAN -> {
                for (int row = 0; row < n; row++) {
                    vector.get(row, h);
                    if (ByteFunctionHelpers.compare(h.buffer, h.start, h.end, k, 0, klen) < 0) {
                        count++;
                    }
                }
            }
            case STARTS_WITH -> {
                for (int row = 0; row < n; row++) {
                    vector.get(row, h);
                    if (h.end - h.start >= klen
                            && ByteFunctionHelpers.equal(h.buffer, h.start, h.start + klen, k, 0, klen) == 1) {
                        count++;
                    }
                }
            }
            case CONTAINS -> {
                for (int row = 0; row < n; row++) {
                    vector.get(row, h);
                    if (h.end - h.start >= klen && Search.indexOf(h.buffer, h.start, h.end, k, klen) >= 0) {
                        count++;
                    }
                }
            }
        }
        return count;
    }
}
