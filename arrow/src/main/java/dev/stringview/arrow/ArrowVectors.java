package dev.stringview.arrow;

import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
import dev.stringview.ViewLayout;
import dev.stringview.arrow.internal.ArrowBufs;
import dev.stringview.arrow.internal.OffsetViews;
import dev.stringview.arrow.internal.Validity;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ViewVarBinaryVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

/**
 * The Arrow Java bridge: view columns to {@code ViewVarCharVector} / {@code ViewVarBinaryVector} and back, without
 * copying string bytes either way.
 *
 * <p><b>To Arrow</b> ({@link #toVector}, {@link #toRoot}): the vector's buffers are the column's own memory,
 * wrapped with {@code BufferAllocator.wrapForeignAllocation}. Closing the vector never frees it; the column's arena
 * does. <em>The vector must not be used after that arena closes</em>: Arrow reads its buffers through raw
 * addresses, without the liveness checks of {@link MemorySegment}. Nor may it be written to (Arrow vectors are
 * mutable; the column is not). Only a validity bitmap that starts mid-byte (a {@link ViewColumn#slice}) is copied,
 * into {@code allocator}.
 *
 * <p><b>From Arrow</b> ({@link #fromVector}, {@link #fromRoot}): the column's segments point into the vector's
 * {@code ArrowBuf}s, each of which gains a reference that is released when the caller's {@code arena} closes. The
 * vector may therefore be closed (or reloaded by an IPC reader) before the arena; the allocator must not be closed
 * before it. From a view vector nothing is copied; from {@code VarCharVector}, {@code LargeVarCharVector},
 * {@code VarBinaryVector} and {@code LargeVarBinaryVector} only the 16-byte views are built, in {@code arena}, and
 * long values point into the vector's data buffer. Validation (the default) checks every non-null view as
 * {@link dev.stringview.ViewColumns#fromViews} does, or the offsets and UTF-8 of an offsets vector, before the
 * column is returned; the unchecked variants skip that for trusted producers (memory safety does not depend on it:
 * every access stays bounds-checked).
 */
public final class ArrowVectors {
    private ArrowVectors() {}

    /**
     * A {@code ViewVarCharVector} (UTF-8) or {@code ViewVarBinaryVector} (binary) named {@code name} over the
     * column's memory. The caller closes the vector; the column's arena must stay open while it is used.
     */
    public static BaseVariableWidthViewVector toVector(ViewColumn column, String name, BufferAllocator allocator) {
        Objects.requireNonNull(name, "name");
        BaseVariableWidthViewVector vector = column.kind() == ViewKind.UTF8
                ? new ViewVarCharVector(name, allocator) : new ViewVarBinaryVector(name, allocator);
        try {
            load(vector, column, allocator);
        } catch (RuntimeException | Error e) {
            vector.close();
            throw e;
        }
        return vector;
    }

    /**
     * Points {@code vector} (an empty or loaded view vector) at {@code column}'s memory, dropping what it held.
     * Used to refill the vectors of a {@link VectorSchemaRoot} batch after batch (IPC writing).
     */
    static void load(BaseVariableWidthViewVector vector, ViewColumn column, BufferAllocator allocator) {
        boolean utf8 = vector instanceof ViewVarCharVector;
        if (utf8 != (column.kind() == ViewKind.UTF8)) {
            throw new IllegalArgumentException("column kind does not match the vector: field=" + vector.getName()
                    + " kind=" + column.kind() + " vector=" + vector.getClass().getSimpleName());
        }
        List<ArrowBuf> buffers = new ArrayList<>(2 + column.bufferCount());
        try {
            try (Arena scratch = Arena.ofConfined()) {
                MemorySegment validity = Validity.of(column, scratch);
                if (validity == null) {
                    buffers.add(allocator.getEmpty());
                } else if (column.validityBitOffset() % 8 == 0) {
                    buffers.add(ArrowBufs.wrap(allocator, validity)); // a byte slice of the column's own bitmap
                } else {
                    buffers.add(ArrowBufs.copy(allocator, validity)); // shifted into scratch memory: Arrow gets a copy
                }
            }
            buffers.add(ArrowBufs.wrap(allocator, column.views()));
            for (int i = 0; i < column.bufferCount(); i++) {
                buffers.add(ArrowBufs.wrap(allocator, column.buffer(i)));
            }
            vector.loadFieldBuffers(new ArrowFieldNode(column.size(), column.nullCount()), buffers);
        } finally {
            for (ArrowBuf buf : buffers) {
                buf.close(); // the vector holds its own references now
            }
        }
    }

    /** A validated view column over {@code vector}'s buffers (see the class comment); {@code arena} owns the views. */
    public static ViewColumn fromVector(FieldVector vector, Arena arena) {
        return fromVector(vector, arena, true, "column=" + vector.getName());
    }

    /** {@link #fromVector} without the per-view checks, for trusted producers. */
    public static ViewColumn fromVectorUnchecked(FieldVector vector, Arena arena) {
        return fromVector(vector, arena, false, "column=" + vector.getName());
    }

    static ViewColumn fromVector(FieldVector vector, Arena arena, boolean validate, String where) {
        int rows = vector.getValueCount();
        int nulls = vector.getNullCount();
        MemorySegment validity = nulls == 0 ? null
                : ArrowBufs.segment(vector.getValidityBuffer(), (rows + 7) / 8, arena, where + " field=validity");
        if (vector instanceof BaseVariableWidthViewVector views) {
            ViewKind kind = vector instanceof ViewVarCharVector ? ViewKind.UTF8 : ViewKind.BINARY;
            MemorySegment viewSegment = ArrowBufs.segment(views.getDataBuffer(), (long) rows * ViewLayout.VIEW_SIZE,
                    arena, where + " field=views rows=" + rows);
            List<MemorySegment> data = new ArrayList<>();
            List<ArrowBuf> dataBuffers = views.getDataBuffers();
            for (int i = 0; i < dataBuffers.size(); i++) {
                ArrowBuf buf = dataBuffers.get(i);
                data.add(ArrowBufs.segment(buf, buf.capacity(), arena, where + " bufferIndex=" + i));
            }
            return OffsetViews.views(kind, rows, viewSegment, validity, data, validate, where);
        }
        if (vector instanceof BaseVariableWidthVector offsets) {
            ViewKind kind = vector instanceof VarCharVector ? ViewKind.UTF8 : ViewKind.BINARY;
            return fromOffsets(kind, rows, offsets.getOffsetBuffer(), 4, offsets.getDataBuffer(), validity, arena,
                    validate, where);
        }
        if (vector instanceof BaseLargeVariableWidthVector offsets) {
            ViewKind kind = vector instanceof LargeVarCharVector ? ViewKind.UTF8 : ViewKind.BINARY;
            return fromOffsets(kind, rows, offsets.getOffsetBuffer(), 8, offsets.getDataBuffer(), validity, arena,
                    validate, where);
        }
        throw new IllegalArgumentException("not a string or binary vector: " + where + " type="
                + vector.getField().getType());
    }

    private static ViewColumn fromOffsets(ViewKind kind, int rows, ArrowBuf offsets, int width, ArrowBuf data,
            MemorySegment validity, Arena arena, boolean validate, String where) {
        MemorySegment offsetSegment = rows == 0 ? MemorySegment.NULL
                : ArrowBufs.segment(offsets, (long) (rows + 1) * width, arena, where + " field=offsets rows=" + rows);
        MemorySegment dataSegment = ArrowBufs.segment(data, data.capacity(), arena, where + " field=data");
        return OffsetViews.build(kind, rows, offsetSegment, width == 8, 0, dataSegment, validity, arena, validate,
                where);
    }

    /**
     * A root with one view vector per column of {@code table}, over the table's memory (see {@link #toVector}).
     * The caller closes the root.
     */
    public static VectorSchemaRoot toRoot(ViewTable table, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(table.columnCount());
        try {
            for (int i = 0; i < table.columnCount(); i++) {
                vectors.add(toVector(table.column(i), table.names().get(i), allocator));
            }
        } catch (RuntimeException | Error e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(vectors);
    }

    /**
     * The string and binary vectors of {@code root} as a validated table (see {@link #fromVector}).
     *
     * @throws IllegalArgumentException naming the first column of another type
     */
    public static ViewTable fromRoot(VectorSchemaRoot root, Arena arena) {
        return fromRoot(root, arena, true, "");
    }

    /** {@link #fromRoot} without the per-view checks, for trusted producers. */
    public static ViewTable fromRootUnchecked(VectorSchemaRoot root, Arena arena) {
        return fromRoot(root, arena, false, "");
    }

    static ViewTable fromRoot(VectorSchemaRoot root, Arena arena, boolean validate, String where) {
        List<String> names = new ArrayList<>();
        List<ViewColumn> columns = new ArrayList<>();
        for (FieldVector vector : root.getFieldVectors()) {
            names.add(vector.getName());
            columns.add(fromVector(vector, arena, validate, where + "column=" + vector.getName()));
        }
        return ViewTable.of(names, columns);
    }
}
