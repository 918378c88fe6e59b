package dev.stringview.arrow.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
import dev.stringview.ViewLayout;
import dev.stringview.arrow.ArrowDataException;
import dev.stringview.arrow.ViewTable;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Imports C Data arrays and streams as view columns. An imported array is moved (its bytes copied into memory of
 * ours, the source's {@code release} set to NULL, as the spec's "Moving an array" describes); the producer's release
 * is called exactly once, when the caller's arena closes, or at once if the array is rejected. Schemas are read and
 * released straight away. Every buffer becomes a segment of the size the spec implies, scoped to the caller's arena.
 */
public final class CDataImport {
    private CDataImport() {}

    /** A field of an imported schema. */
    public record Field(String format, String name, List<Field> children) {}

    /** Reads and releases {@code schemaPointer}. */
    public static Field readSchema(MemorySegment schemaPointer) {
        MemorySegment schema = schemaPointer.reinterpret(CData.SCHEMA.byteSize());
        MemorySegment release = schema.get(ADDRESS, CData.SCHEMA_RELEASE);
        if (release.address() == 0) {
            throw new ArrowDataException("ArrowSchema already released: release=NULL");
        }
        try {
            return field(schema, 0);
        } finally {
            CData.callRelease(release, schema);
        }
    }

    private static Field field(MemorySegment schema, int depth) {
        String format = CData.string(schema.get(ADDRESS, CData.SCHEMA_FORMAT));
        String name = CData.string(schema.get(ADDRESS, CData.SCHEMA_NAME));
        if (format == null) {
            throw new ArrowDataException("ArrowSchema without format: name=" + name + " format=NULL");
        }
        long n = schema.get(JAVA_LONG, CData.SCHEMA_N_CHILDREN);
        if (n < 0 || n > 1 << 16 || depth > 1) {
            throw new ArrowDataException("ArrowSchema children: name=" + name + " n_children=" + n + " depth=" + depth);
        }
        MemorySegment children = CData.at(schema.get(ADDRESS, CData.SCHEMA_CHILDREN), 8 * n);
        if (n > 0 && children.address() == 0) {
            throw new ArrowDataException("ArrowSchema children pointer is NULL: name=" + name + " n_children=" + n);
        }
        List<Field> fields = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            fields.add(field(children.getAtIndex(ADDRESS, i).reinterpret(CData.SCHEMA.byteSize()), depth + 1));
        }
        return new Field(format, name == null ? "" : name, List.copyOf(fields));
    }

    /**
     * Moves {@code arrayPointer}'s struct into memory of ours and arranges for the producer's release to run once,
     * when {@code arena} closes. Returns the moved struct and the hook that releases it early.
     */
    private static Moved move(MemorySegment arrayPointer, Arena arena) {
        MemorySegment source = arrayPointer.reinterpret(CData.ARRAY.byteSize());
        if (source.get(ADDRESS, CData.ARRAY_RELEASE).address() == 0) {
            throw new ArrowDataException("ArrowArray already released: release=NULL");
        }
        Arena holder = Arena.ofAuto(); // freed by the GC: a shared arena's close costs a thread handshake
        MemorySegment moved = holder.allocate(CData.ARRAY);
        moved.copyFrom(source);
        source.set(ADDRESS, CData.ARRAY_RELEASE, MemorySegment.NULL);
        Moved result = new Moved(moved, holder, new AtomicBoolean());
        try {
            MemorySegment.ofAddress(moved.address()).reinterpret(1, arena, ignored -> result.release());
        } catch (RuntimeException e) {
            result.release();
            throw e;
        }
        return result;
    }

    private record Moved(MemorySegment array, Arena holder, AtomicBoolean released) {
        void release() {
            if (released.compareAndSet(false, true)) {
                CData.releaseIfLive(array, CData.ARRAY_RELEASE);
            }
        }
    }

    /** Imports one array of format vu, vz, u, z, U or Z. */
    public static ViewColumn importColumn(Field field, MemorySegment arrayPointer, Arena arena, boolean validate) {
        Moved moved = move(arrayPointer, arena);
        try {
            return column(field, moved.array(), 0, -1, arena, validate, "column=" + field.name());
        } catch (RuntimeException | Error e) {
            moved.release();
            throw e;
        }
    }

    /** Imports a struct array ({@code +s}) of such children. */
    public static ViewTable importTable(Field field, MemorySegment arrayPointer, Arena arena, boolean validate,
            String where) {
        Moved moved = move(arrayPointer, arena);
        try {
            return table(field, moved.array(), arena, validate, where);
        } catch (RuntimeException | Error e) {
            moved.release();
            throw e;
        }
    }

    private static ViewTable table(Field field, MemorySegment array, Arena arena, boolean validate, String where) {
        if (!field.format().equals("+s")) {
            throw new ArrowDataException(where + "unsupported top-level format: format=" + field.format()
                    + " expected=+s");
        }
        long length = array.get(JAVA_LONG, CData.ARRAY_LENGTH);
        long offset = array.get(JAVA_LONG, CData.ARRAY_OFFSET);
        long nullCount = array.get(JAVA_LONG, CData.ARRAY_NULL_COUNT);
        long n = array.get(JAVA_LONG, CData.ARRAY_N_CHILDREN);
        checkShape(where + "struct", length, offset);
        if (n != field.children().size()) {
            throw new ArrowDataException(where + "struct n_children=" + n + " schemaChildren="
                    + field.children().size());
        }
        MemorySegment buffers = CData.at(array.get(ADDRESS, CData.ARRAY_BUFFERS), 8);
        if (nullCount != 0 && buffers.address() != 0 && buffers.get(ADDRESS, 0).address() != 0) {
            throw new ArrowDataException(where + "struct-level nulls are not supported: null_count=" + nullCount);
        }
        MemorySegment children = CData.at(array.get(ADDRESS, CData.ARRAY_CHILDREN), 8 * n);
        if (n > 0 && children.address() == 0) {
            throw new ArrowDataException(where + "struct children pointer is NULL: n_children=" + n);
        }
        List<String> names = new ArrayList<>();
        List<ViewColumn> columns = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Field child = field.children().get(i);
            MemorySegment childArray = children.getAtIndex(ADDRESS, i).reinterpret(CData.ARRAY.byteSize());
            names.add(child.name());
            // A struct's offset slices its children too (spec: "the offset ... of the parent").
            columns.add(column(child, childArray, offset, length, arena, validate, where + "column=" + child.name()));
        }
        return ViewTable.of(names, columns);
    }

    private static void checkShape(String where, long length, long offset) {
        if (length < 0 || offset < 0 || length > Integer.MAX_VALUE || offset > Long.MAX_VALUE / 32 - length) {
            throw new ArrowDataException(where + " bad length or offset: length=" + length + " offset=" + offset);
        }
    }

    /**
     * @param parentOffset rows of this array the parent skips; {@code parentLength} the rows it keeps (-1: all)
     */
    private static ViewColumn column(Field field, MemorySegment array, long parentOffset, long parentLength,
            Arena arena, boolean validate, String where) {
        String format = field.format();
        boolean views = format.equals("vu") || format.equals("vz");
        boolean offsets = format.equals("u") || format.equals("z") || format.equals("U") || format.equals("Z");
        if (!views && !offsets) {
            throw new ArrowDataException(where + " unsupported format: format=" + format
                    + " supported=vu,vz,u,z,U,Z");
        }
        if (array.get(ADDRESS, CData.ARRAY_RELEASE).address() == 0) {
            throw new ArrowDataException(where + " ArrowArray already released: release=NULL");
        }
        if (array.get(ADDRESS, CData.ARRAY_DICTIONARY).address() != 0
                || array.get(JAVA_LONG, CData.ARRAY_N_CHILDREN) != 0) {
            throw new ArrowDataException(where + " unexpected children or dictionary: format=" + format
                    + " n_children=" + array.get(JAVA_LONG, CData.ARRAY_N_CHILDREN));
        }
        ViewKind kind = format.equals("vu") || format.equalsIgnoreCase("u") ? ViewKind.UTF8 : ViewKind.BINARY;
        long ownLength = array.get(JAVA_LONG, CData.ARRAY_LENGTH);
        long ownOffset = array.get(JAVA_LONG, CData.ARRAY_OFFSET);
        long nullCount = array.get(JAVA_LONG, CData.ARRAY_NULL_COUNT);
        long nBuffers = array.get(JAVA_LONG, CData.ARRAY_N_BUFFERS);
        checkShape(where, ownLength, ownOffset);
        long length = parentLength < 0 ? ownLength : parentLength;
        if (parentOffset + length > ownLength) {
            throw new ArrowDataException(where + " child shorter than its struct: length=" + ownLength
                    + " structOffset=" + parentOffset + " structLength=" + length);
        }
        long first = ownOffset + parentOffset;
        long total = first + length;
        if (views ? nBuffers < 3 : nBuffers != 3) {
            throw new ArrowDataException(where + " wrong buffer count: format=" + format + " n_buffers=" + nBuffers
                    + (views ? " expected>=3 (validity, views, data..., sizes)" : " expected=3"));
        }
        MemorySegment buffers = CData.at(array.get(ADDRESS, CData.ARRAY_BUFFERS), 8 * nBuffers);
        if (buffers.address() == 0) {
            throw new ArrowDataException(where + " null buffer: buffers=NULL n_buffers=" + nBuffers);
        }
        MemorySegment validity = null;
        MemorySegment validityPointer = buffers.getAtIndex(ADDRESS, 0);
        if (nullCount != 0 && length > 0) {
            if (validityPointer.address() == 0) {
                if (nullCount > 0) {
                    throw new ArrowDataException(where + " null buffer: buffer=0 (validity) null_count=" + nullCount);
                }
            } else {
                MemorySegment bitmap = validityPointer.reinterpret((total + 7) / 8, arena, null);
                validity = Validity.fromBit(bitmap, first, length, arena);
            }
        }
        if (views) {
            int dataBuffers = (int) (nBuffers - 3);
            MemorySegment viewPointer = buffers.getAtIndex(ADDRESS, 1);
            if (viewPointer.address() == 0 && length > 0) {
                throw new ArrowDataException(where + " null buffer: buffer=1 (views) length=" + length);
            }
            MemorySegment viewSegment = length == 0 ? MemorySegment.NULL
                    : viewPointer.reinterpret(total * ViewLayout.VIEW_SIZE, arena, null)
                            .asSlice(first * ViewLayout.VIEW_SIZE, length * ViewLayout.VIEW_SIZE);
            MemorySegment sizesPointer = buffers.getAtIndex(ADDRESS, nBuffers - 1);
            if (sizesPointer.address() == 0 && dataBuffers > 0) {
                throw new ArrowDataException(where + " null buffer: buffer=" + (nBuffers - 1)
                        + " (variadic sizes) dataBuffers=" + dataBuffers);
            }
            MemorySegment sizes = dataBuffers == 0 ? MemorySegment.NULL : sizesPointer.reinterpret(8L * dataBuffers);
            List<MemorySegment> data = new ArrayList<>(dataBuffers);
            for (int b = 0; b < dataBuffers; b++) {
                long size = sizes.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 8L * b);
                MemorySegment pointer = buffers.getAtIndex(ADDRESS, 2 + b);
                if (size < 0) {
                    throw new ArrowDataException(where + " negative buffer size: bufferIndex=" + b + " size=" + size);
                }
                if (pointer.address() == 0 && size > 0) {
                    throw new ArrowDataException(where + " null buffer: buffer=" + (2 + b) + " bufferIndex=" + b
                            + " size=" + size);
                }
                data.add(size == 0 ? MemorySegment.NULL : pointer.reinterpret(size, arena, null));
            }
            return OffsetViews.views(kind, (int) length, viewSegment, validity, data, validate, where);
        }
        boolean large = Character.isUpperCase(format.charAt(0));
        int width = large ? 8 : 4;
        MemorySegment offsetPointer = buffers.getAtIndex(ADDRESS, 1);
        MemorySegment dataPointer = buffers.getAtIndex(ADDRESS, 2);
        if (length == 0) {
            return OffsetViews.build(kind, 0, MemorySegment.NULL, large, 0, MemorySegment.NULL, null, arena, validate,
                    where);
        }
        if (offsetPointer.address() == 0) {
            throw new ArrowDataException(where + " null buffer: buffer=1 (offsets) length=" + length);
        }
        MemorySegment offsetSegment = offsetPointer.reinterpret((total + 1) * width, arena, null);
        long dataBytes = large ? offsetSegment.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, total * 8)
                : offsetSegment.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, total * 4);
        if (dataBytes < 0) {
            throw new ArrowDataException(where + " field=offsets lastOffset=" + dataBytes);
        }
        if (dataPointer.address() == 0 && dataBytes > 0) {
            throw new ArrowDataException(where + " null buffer: buffer=2 (data) lastOffset=" + dataBytes);
        }
        MemorySegment data = dataBytes == 0 ? MemorySegment.NULL : dataPointer.reinterpret(dataBytes, arena, null);
        return OffsetViews.build(kind, (int) length, offsetSegment, large, first, data, validity, arena, validate,
                where);
    }
}
