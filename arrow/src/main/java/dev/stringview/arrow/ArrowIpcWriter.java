package dev.stringview.arrow;

import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
import dev.stringview.arrow.internal.ArrowBufs;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ViewVarBinaryVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ArrowWriter;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes view tables as an Arrow IPC file or stream of Utf8View / BinaryView columns (with the record batches'
 * {@code variadicBufferCounts}), uncompressed; with a {@link Schema}, also fixed-width columns of any Arrow
 * fixed-width type (Bool, Int, FloatingPoint, Date, Time, Timestamp, Decimal, FixedSizeBinary), given as their
 * Arrow buffers ({@link FixedWidth}). Each batch is written straight from the columns' memory (wrapped as
 * {@code ArrowBuf}s, see {@link ArrowVectors#toVector}); after {@link #write} returns, the writer keeps no reference
 * to it, so its arena may close. Arrow Java's writer needs
 * {@code --add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED}. Not thread-safe.
 */
public final class ArrowIpcWriter implements AutoCloseable {
    private final List<String> names;
    /** Per column: its view kind, or null for a fixed-width column. */
    private final List<ViewKind> kinds;
    private final BufferAllocator allocator;
    private final VectorSchemaRoot root;
    private final ArrowWriter writer;
    private int batches;
    private long rows;
    private boolean closed;

    /**
     * The buffers of one batch of a fixed-width column, in Arrow's layout for its field's type: {@code values}
     * ({@code rowCount * byteWidth} bytes, or {@code ceil(rowCount / 8)} for Bool) and the validity bitmap, null
     * when {@code nullCount} is 0. Written from where they are, uncopied.
     */
    public record FixedWidth(MemorySegment values, MemorySegment validity, int nullCount) {
        public FixedWidth {
            Objects.requireNonNull(values, "values");
            if (nullCount < 0 || (nullCount > 0 && validity == null)) {
                throw new IllegalArgumentException("nulls without a validity bitmap: nullCount=" + nullCount);
            }
        }
    }

    private ArrowIpcWriter(List<String> names, List<ViewKind> kinds, BufferAllocator allocator,
            WritableByteChannel out, ArrowIpc.Format format) throws IOException {
        this(viewSchema(names, kinds), allocator, out, format);
    }

    private static Schema viewSchema(List<String> names, List<ViewKind> kinds) {
        if (names.size() != kinds.size() || names.isEmpty()) {
            throw new IllegalArgumentException("writer schema: names=" + names.size() + " kinds=" + kinds.size());
        }
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            fields.add(Field.nullable(names.get(i), kinds.get(i) == ViewKind.UTF8 ? ArrowType.Utf8View.INSTANCE
                    : ArrowType.BinaryView.INSTANCE));
        }
        return new Schema(fields);
    }

    private ArrowIpcWriter(Schema schema, BufferAllocator allocator, WritableByteChannel out,
            ArrowIpc.Format format) throws IOException {
        if (schema.getFields().isEmpty()) {
            throw new IllegalArgumentException("writer schema: fields=0");
        }
        List<String> fieldNames = new ArrayList<>();
        List<ViewKind> fieldKinds = new ArrayList<>();
        List<FieldVector> vectors = new ArrayList<>();
        try {
            for (Field field : schema.getFields()) {
                FieldVector vector = field.createVector(allocator);
                vectors.add(vector);
                fieldNames.add(field.getName());
                if (vector instanceof BaseVariableWidthViewVector) {
                    fieldKinds.add(vector instanceof ViewVarCharVector ? ViewKind.UTF8 : ViewKind.BINARY);
                } else if (vector instanceof BaseFixedWidthVector) {
                    fieldKinds.add(null);
                } else {
                    throw new IllegalArgumentException("field is neither a view nor a fixed-width type: field="
                            + field.getName() + " type=" + field.getType());
                }
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        this.names = List.copyOf(fieldNames);
        this.kinds = java.util.Collections.unmodifiableList(fieldKinds);
        this.allocator = allocator;
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
     * A writer of the IPC file format whose columns are {@code schema}'s fields: Utf8View / BinaryView fields take
     * {@link ViewColumn}s, fixed-width ones {@link FixedWidth} buffers ({@link #write(int, List)}).
     *
     * @throws IllegalArgumentException for a field of another type (nested, offset-based strings)
     */
    public static ArrowIpcWriter file(WritableByteChannel out, Schema schema, BufferAllocator allocator)
            throws IOException {
        return new ArrowIpcWriter(schema, allocator, out, ArrowIpc.Format.FILE);
    }

    /** {@link #file(WritableByteChannel, Schema, BufferAllocator)} in the IPC stream format. */
    public static ArrowIpcWriter stream(WritableByteChannel out, Schema schema, BufferAllocator allocator)
            throws IOException {
        return new ArrowIpcWriter(schema, allocator, out, ArrowIpc.Format.STREAM);
    }

    /**
     * Writes {@code batch} as one record batch.
     *
     * @throws IllegalArgumentException if its names or kinds differ from the writer's
     */
    public void write(ViewTable batch) throws IOException {
        if (!batch.names().equals(names)) {
            throw new IllegalArgumentException("batch does not match the writer's schema: batch=" + batches
                    + " names=" + batch.names() + " expected=" + names);
        }
        write(batch.rowCount(), batch.columns());
    }

    /**
     * Writes one record batch of {@code rowCount} rows: per field, in order, a {@link ViewColumn} (view fields) or
     * {@link FixedWidth} buffers (fixed-width fields).
     *
     * @throws IllegalArgumentException if a column does not fit its field or holds fewer rows or bytes than needed
     */
    public void write(int rowCount, List<?> columns) throws IOException {
        if (closed) {
            throw new IllegalStateException("writer is closed: batchesWritten=" + batches);
        }
        if (columns.size() != names.size() || rowCount < 0) {
            throw new IllegalArgumentException("batch does not match the writer's schema: batch=" + batches
                    + " columns=" + columns.size() + " fields=" + names.size() + " rows=" + rowCount);
        }
        try {
            for (int i = 0; i < names.size(); i++) {
                Object column = columns.get(i);
                FieldVector vector = root.getVector(i);
                if (kinds.get(i) != null) {
                    if (!(column instanceof ViewColumn views) || views.kind() != kinds.get(i)
                            || views.size() != rowCount) {
                        throw new IllegalArgumentException("batch does not match the writer's schema: batch="
                                + batches + " column=" + names.get(i) + " got=" + describe(column) + " expected="
                                + kinds.get(i) + " rows=" + rowCount);
                    }
                    ArrowVectors.load((BaseVariableWidthViewVector) vector, views, allocator);
                } else {
                    if (!(column instanceof FixedWidth fixed)) {
                        throw new IllegalArgumentException("batch does not match the writer's schema: batch="
                                + batches + " column=" + names.get(i) + " got=" + describe(column) + " expected="
                                + vector.getField().getType());
                    }
                    loadFixed((BaseFixedWidthVector) vector, fixed, rowCount);
                }
            }
            root.setRowCount(rowCount);
            writer.writeBatch();
        } finally {
            for (FieldVector vector : root.getFieldVectors()) {
                vector.clear(); // drop the wrapped buffers: the batch's arena may close once we return
            }
        }
        batches++;
        rows += rowCount;
    }

    private static String describe(Object column) {
        return column instanceof ViewColumn v ? v.kind() + "(rows=" + v.size() + ")"
                : column == null ? "null" : column.getClass().getSimpleName();
    }

    /** Points {@code vector} at {@code fixed}'s buffers, after checking that they hold {@code rowCount} rows. */
    private void loadFixed(BaseFixedWidthVector vector, FixedWidth fixed, int rowCount) {
        long valueBytes = vector instanceof BitVector ? (rowCount + 7L) / 8
                : (long) rowCount * vector.getTypeWidth();
        long validityBytes = (rowCount + 7L) / 8;
        if (fixed.values().byteSize() < valueBytes || fixed.nullCount() > rowCount
                || (fixed.validity() != null && fixed.validity().byteSize() < validityBytes)) {
            throw new IllegalArgumentException("fixed-width buffers smaller than the batch: column="
                    + vector.getName() + " rows=" + rowCount + " valueBytes=" + fixed.values().byteSize()
                    + " needed=" + valueBytes + " validityBytes="
                    + (fixed.validity() == null ? 0 : fixed.validity().byteSize()) + " nullCount="
                    + fixed.nullCount());
        }
        List<ArrowBuf> buffers = new ArrayList<>(2);
        try {
            buffers.add(fixed.validity() == null || fixed.nullCount() == 0 ? allocator.getEmpty()
                    : ArrowBufs.wrap(allocator, fixed.validity().asSlice(0, validityBytes)));
            buffers.add(ArrowBufs.wrap(allocator, fixed.values().asSlice(0, valueBytes)));
            vector.loadFieldBuffers(new ArrowFieldNode(rowCount, fixed.nullCount()), buffers);
        } finally {
            for (ArrowBuf buf : buffers) {
                buf.close(); // the vector holds its own references now
            }
        }
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
