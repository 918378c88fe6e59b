package dev.stringview.arrow;

import dev.stringview.ViewKind;
import java.io.IOException;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ViewVarBinaryVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ArrowWriter;

/**
 * Writes view tables as an Arrow IPC file or stream of Utf8View / BinaryView columns (with the record batches'
 * {@code variadicBufferCounts}), uncompressed. Each batch is written straight from the columns' memory (wrapped as
 * {@code ArrowBuf}s, see {@link ArrowVectors#toVector}); after {@link #write} returns, the writer keeps no reference
 * to it, so its arena may close. Arrow Java's writer needs
 * {@code --add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED}. Not thread-safe.
 */
public final class ArrowIpcWriter implements AutoCloseable {
    private final List<String> names;
    private final List<ViewKind> kinds;
    private final BufferAllocator allocator;
    private final VectorSchemaRoot root;
    private final ArrowWriter writer;
    private int batches;
    private long rows;
    private boolean closed;

    private ArrowIpcWriter(List<String> names, List<ViewKind> kinds, BufferAllocator allocator,
            WritableByteChannel out, ArrowIpc.Format format) throws IOException {
        if (names.size() != kinds.size() || names.isEmpty()) {
            throw new IllegalArgumentException("writer schema: names=" + names.size() + " kinds=" + kinds.size());
        }
        this.names = List.copyOf(names);
        this.kinds = List.copyOf(kinds);
        this.allocator = allocator;
        List<FieldVector> vectors = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            vectors.add(kinds.get(i) == ViewKind.UTF8 ? new ViewVarCharVector(names.get(i), allocator)
                    : new ViewVarBinaryVector(names.get(i), allocator));
        }
        this.root = new VectorSchemaRoot(vectors);
        try {
            this.writer = format == ArrowIpc.Format.FILE ? new ArrowFileWriter(root, null, out)
                    : new ArrowStreamWriter(root, null, out);
            writer.start();
        } catch (IOException | RuntimeException e) {
            root.close();
            throw e;
        }
    }

    /** A writer of the IPC file format to {@code out}, with columns {@code names} of {@code kinds}. */
    public static ArrowIpcWriter file(WritableByteChannel out, List<String> names, List<ViewKind> kinds,
            BufferAllocator allocator) throws IOException {
        return new ArrowIpcWriter(names, kinds, allocator, out, ArrowIpc.Format.FILE);
    }

    /** A writer of the IPC stream format to {@code out}. */
    public static ArrowIpcWriter stream(WritableByteChannel out, List<String> names, List<ViewKind> kinds,
            BufferAllocator allocator) throws IOException {
        return new ArrowIpcWriter(names, kinds, allocator, out, ArrowIpc.Format.STREAM);
    }

    /**
     * Writes {@code batch} as one record batch.
     *
     * @throws IllegalArgumentException if its names or kinds differ from the writer's
     */
    public void write(ViewTable batch) throws IOException {
        if (closed) {
            throw new IllegalStateException("writer is closed: batchesWritten=" + batches);
        }
        if (!batch.names().equals(names)) {
            throw new IllegalArgumentException("batch does not match the writer's schema: batch=" + batches
                    + " names=" + batch.names() + " expected=" + names);
        }
        try {
            for (int i = 0; i < names.size(); i++) {
                if (batch.column(i).kind() != kinds.get(i)) {
                    throw new IllegalArgumentException("batch does not match the writer's schema: batch=" + batches
                            + " column=" + names.get(i) + " kind=" + batch.column(i).kind() + " expected="
                            + kinds.get(i));
                }
                ArrowVectors.load((BaseVariableWidthViewVector) root.getVector(i), batch.column(i), allocator);
            }
            root.setRowCount(batch.rowCount());
            writer.writeBatch();
        } finally {
            for (FieldVector vector : root.getFieldVectors()) {
                vector.clear(); // drop the wrapped buffers: the batch's arena may close once we return
            }
        }
        batches++;
        rows += batch.rowCount();
    }

    /** Record batches written so far. */
    public int batchesWritten() {
        return batches;
    }

    /** Rows written so far. */
    public long rowsWritten() {
        return rows;
    }

    /** Ends the file (footer) or stream (end-of-stream marker) and closes the channel. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            writer.end();
            writer.close();
        } finally {
            root.close();
        }
    }
}
