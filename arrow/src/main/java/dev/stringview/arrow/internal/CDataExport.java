package dev.stringview.arrow.internal;

import static dev.stringview.arrow.internal.CData.ARRAY;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
import dev.stringview.arrow.ViewTable;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Exports view columns through the C Data Interface. Every exported struct (schema, array, stream, and each child)
 * gets its own automatic arena for what the export allocates (strings, the buffer pointer array, the sizes buffer, a
 * shifted bitmap) and an id in {@code private_data} that finds it in a registry; its release callback, an FFM upcall
 * stub, drops it from the registry once (the GC then frees it) and sets {@code release} to NULL. Automatic rather
 * than shared arenas, because the release may come from any thread and closing a shared arena costs a handshake
 * with every thread (about 40 us here), which would make an export cost more than everything else it does. Nothing in {@code private_data} points into the struct, so a
 * consumer may move it by copying its bytes (spec: "Moving an array").
 */
public final class CDataExport {
    private CDataExport() {}

    /** What one exported struct owns, found through the id in its {@code private_data}. */
    private record Owned(Arena arena, Runnable onRelease, StreamState stream) {}

    private static final Map<Long, Owned> LIVE = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT_ID = new AtomicLong(1);

    private static final MemorySegment RELEASE_SCHEMA;
    private static final MemorySegment RELEASE_ARRAY;
    private static final MemorySegment RELEASE_STREAM;
    private static final MemorySegment GET_SCHEMA;
    private static final MemorySegment GET_NEXT;
    private static final MemorySegment GET_LAST_ERROR;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            MethodType release = MethodType.methodType(void.class, MemorySegment.class);
            MethodType get = MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class);
            RELEASE_SCHEMA = upcall(lookup.findStatic(CDataExport.class, "releaseSchema", release), CData.RELEASE);
            RELEASE_ARRAY = upcall(lookup.findStatic(CDataExport.class, "releaseArray", release), CData.RELEASE);
            RELEASE_STREAM = upcall(lookup.findStatic(CDataExport.class, "releaseStream", release), CData.RELEASE);
            GET_SCHEMA = upcall(lookup.findStatic(CDataExport.class, "getSchema", get), CData.GET);
            GET_NEXT = upcall(lookup.findStatic(CDataExport.class, "getNext", get), CData.GET);
            GET_LAST_ERROR = upcall(lookup.findStatic(CDataExport.class, "getLastError",
                    MethodType.methodType(MemorySegment.class, MemorySegment.class)), CData.GET_LAST_ERROR);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static MemorySegment upcall(MethodHandle target, FunctionDescriptor descriptor) {
        return Linker.nativeLinker().upcallStub(target, descriptor, Arena.global());
    }

    /** Number of exported structs not yet released (for tests and leak checks). */
    public static int liveExports() {
        return LIVE.size();
    }

    private static long register(Arena arena, Runnable onRelease, StreamState stream) {
        long id = NEXT_ID.getAndIncrement();
        LIVE.put(id, new Owned(arena, onRelease, stream));
        return id;
    }

    // ----------------------------------------------------------------------------------------------- schema

    public static void exportColumnSchema(MemorySegment out, String name, ViewKind kind) {
        MemorySegment schema = out.reinterpret(CData.SCHEMA.byteSize());
        Arena arena = Arena.ofAuto();
        fillSchema(schema, arena, kind == ViewKind.UTF8 ? "vu" : "vz", name, CData.FLAG_NULLABLE,
                MemorySegment.NULL, 0);
    }

    public static void exportTableSchema(MemorySegment out, List<String> names, List<ViewKind> kinds) {
        MemorySegment schema = out.reinterpret(CData.SCHEMA.byteSize());
        Arena arena = Arena.ofAuto();
        int n = names.size();
        MemorySegment children = arena.allocate(ADDRESS, Math.max(n, 1));
        for (int i = 0; i < n; i++) {
            MemorySegment child = arena.allocate(CData.SCHEMA);
            exportColumnSchema(child, names.get(i), kinds.get(i));
            children.setAtIndex(ADDRESS, i, child);
        }
        fillSchema(schema, arena, "+s", "", 0, children, n);
    }

    private static void fillSchema(MemorySegment schema, Arena arena, String format, String name, long flags,
            MemorySegment children, long childCount) {
        schema.set(ADDRESS, CData.SCHEMA_FORMAT, arena.allocateFrom(format));
        schema.set(ADDRESS, CData.SCHEMA_NAME, arena.allocateFrom(name));
        schema.set(ADDRESS, CData.SCHEMA_METADATA, MemorySegment.NULL);
        schema.set(JAVA_LONG, CData.SCHEMA_FLAGS, flags);
        schema.set(JAVA_LONG, CData.SCHEMA_N_CHILDREN, childCount);
        schema.set(ADDRESS, CData.SCHEMA_CHILDREN, childCount == 0 ? MemorySegment.NULL : children);
        schema.set(ADDRESS, CData.SCHEMA_DICTIONARY, MemorySegment.NULL);
        schema.set(ADDRESS, CData.SCHEMA_PRIVATE_DATA, MemorySegment.ofAddress(register(arena, null, null)));
        schema.set(ADDRESS, CData.SCHEMA_RELEASE, RELEASE_SCHEMA);
    }

    // ------------------------------------------------------------------------------------------------ array

    /**
     * Fills {@code out} with a {@code vu}/{@code vz} array over the column's memory: buffers are validity (NULL
     * when no row is null), views, the data buffers, then the int64 sizes of the data buffers.
     */
    public static void exportColumnArray(MemorySegment out, ViewColumn column, Runnable onRelease) {
        MemorySegment array = out.reinterpret(ARRAY.byteSize());
        Arena arena = Arena.ofAuto();
        int dataBuffers = column.bufferCount();
        MemorySegment buffers = arena.allocate(ADDRESS, 3 + dataBuffers);
        MemorySegment validity = Validity.of(column, arena);
        buffers.setAtIndex(ADDRESS, 0, validity == null ? MemorySegment.NULL : addressable(validity, arena));
        buffers.setAtIndex(ADDRESS, 1, addressable(column.views(), arena));
        MemorySegment sizes = arena.allocate(JAVA_LONG, Math.max(dataBuffers, 1));
        for (int b = 0; b < dataBuffers; b++) {
            MemorySegment buffer = column.buffer(b);
            buffers.setAtIndex(ADDRESS, 2 + b, addressable(buffer, arena));
            sizes.setAtIndex(JAVA_LONG, b, buffer.byteSize());
        }
        buffers.setAtIndex(ADDRESS, 2 + dataBuffers, sizes);
        fillArray(array, arena, column.size(), column.nullCount(), 3 + dataBuffers, buffers, MemorySegment.NULL,
                0, onRelease);
    }

    /** Fills {@code out} with a struct array ({@code +s}) whose children are the table's columns. */
    public static void exportTableArray(MemorySegment out, ViewTable table, Runnable onRelease) {
        MemorySegment array = out.reinterpret(ARRAY.byteSize());
        Arena arena = Arena.ofAuto();
        int n = table.columnCount();
        MemorySegment children = arena.allocate(ADDRESS, Math.max(n, 1));
        int exported = 0;
        try {
            for (; exported < n; exported++) {
                MemorySegment child = arena.allocate(ARRAY);
                exportColumnArray(child, table.column(exported), null);
                children.setAtIndex(ADDRESS, exported, child);
            }
        } catch (RuntimeException | Error e) {
            for (int i = 0; i < exported; i++) {
                releaseArray(children.getAtIndex(ADDRESS, i));
            }
            throw e;
        }
        MemorySegment buffers = arena.allocate(ADDRESS, 1); // the struct's validity: NULL, no struct-level nulls
        fillArray(array, arena, table.rowCount(), 0, 1, buffers, children, n, onRelease);
    }

    private static void fillArray(MemorySegment array, Arena arena, long length, long nullCount, long bufferCount,
            MemorySegment buffers, MemorySegment children, long childCount, Runnable onRelease) {
        array.set(JAVA_LONG, CData.ARRAY_LENGTH, length);
        array.set(JAVA_LONG, CData.ARRAY_NULL_COUNT, nullCount);
        array.set(JAVA_LONG, CData.ARRAY_OFFSET, 0);
        array.set(JAVA_LONG, CData.ARRAY_N_BUFFERS, bufferCount);
        array.set(JAVA_LONG, CData.ARRAY_N_CHILDREN, childCount);
        array.set(ADDRESS, CData.ARRAY_BUFFERS, buffers);
        array.set(ADDRESS, CData.ARRAY_CHILDREN, childCount == 0 ? MemorySegment.NULL : children);
        array.set(ADDRESS, CData.ARRAY_DICTIONARY, MemorySegment.NULL);
        array.set(ADDRESS, CData.ARRAY_PRIVATE_DATA, MemorySegment.ofAddress(register(arena, onRelease, null)));
        array.set(ADDRESS, CData.ARRAY_RELEASE, RELEASE_ARRAY);
    }

    /** The segment itself if it has an address, else (an on-heap segment) a copy in {@code arena}. */
    private static MemorySegment addressable(MemorySegment segment, Arena arena) {
        if (segment.isNative()) {
            return segment;
        }
        MemorySegment copy = arena.allocate(Math.max(segment.byteSize(), 1), 16);
        MemorySegment.copy(segment, 0, copy, 0, segment.byteSize());
        return copy;
    }

    // ---------------------------------------------------------------------------------------------- release

    /** release of an ArrowSchema we exported: children first, then our arena; never throws (it is an upcall). */
    static void releaseSchema(MemorySegment pointer) {
        release(pointer, CData.SCHEMA.byteSize(), CData.SCHEMA_RELEASE, CData.SCHEMA_N_CHILDREN,
                CData.SCHEMA_CHILDREN, CData.SCHEMA_PRIVATE_DATA);
    }

    static void releaseArray(MemorySegment pointer) {
        release(pointer, ARRAY.byteSize(), CData.ARRAY_RELEASE, CData.ARRAY_N_CHILDREN, CData.ARRAY_CHILDREN,
                CData.ARRAY_PRIVATE_DATA);
    }

    private static void release(MemorySegment pointer, long size, long releaseAt, long childCountAt,
            long childrenAt, long privateAt) {
        try {
            MemorySegment struct = pointer.reinterpret(size);
            if (struct.get(ADDRESS, releaseAt).address() == 0) {
                return; // released already: the spec's marker, so a second call does nothing
            }
            long childCount = struct.get(JAVA_LONG, childCountAt);
            MemorySegment children = CData.at(struct.get(ADDRESS, childrenAt), 8 * childCount);
            for (long i = 0; i < childCount; i++) {
                // A child the consumer moved out has release == NULL here, and is released on its own.
                CData.releaseIfLive(children.getAtIndex(ADDRESS, i).reinterpret(size), releaseAt);
            }
            struct.set(ADDRESS, releaseAt, MemorySegment.NULL);
            free(struct.get(ADDRESS, privateAt).address());
        } catch (Throwable t) {
            report(t);
        }
    }

    private static void free(long id) {
        Owned owned = LIVE.remove(id);
        if (owned == null) {
            return;
        }
        // Dropping the registry's reference frees the automatic arena at the next GC.
        if (owned.onRelease() != null) {
            owned.onRelease().run();
        }
    }

    /** An upcall must not throw (the JVM would exit): failures are printed once and swallowed. */
    private static void report(Throwable t) {
        try {
            System.err.println("stringview-arrow: C Data release callback failed: " + t);
        } catch (Throwable ignored) {
            // nothing left to do
        }
    }

    // ----------------------------------------------------------------------------------------------- stream

    /** A stream's producer side: the schema, the batches still to come, and the last error message. */
    private static final class StreamState {
        final List<String> names;
        final List<ViewKind> kinds;
        final Iterator<ViewTable> batches;
        final Arena errors = Arena.ofAuto();
        MemorySegment lastError = MemorySegment.NULL;
        int batchIndex;

        StreamState(List<String> names, List<ViewKind> kinds, Iterator<ViewTable> batches) {
            this.names = names;
            this.kinds = kinds;
            this.batches = batches;
        }

        synchronized int fail(int code, Throwable t) {
            String message = t.getMessage() == null ? t.toString() : t.getMessage();
            lastError = errors.allocateFrom(message);
            return code;
        }
    }

    /**
     * Fills {@code out} with a stream of struct arrays over {@code batches}. The consumer calls get_next from its
     * own thread(s), one call at a time; each batch must match the names and kinds.
     */
    public static void exportStream(MemorySegment out, List<String> names, List<ViewKind> kinds,
            Iterator<ViewTable> batches, Runnable onRelease) {
        if (names.size() != kinds.size() || names.isEmpty()) {
            throw new IllegalArgumentException("stream schema: names=" + names.size() + " kinds=" + kinds.size());
        }
        MemorySegment stream = out.reinterpret(CData.STREAM.byteSize());
        StreamState state = new StreamState(List.copyOf(names), List.copyOf(kinds), batches);
        long id = register(state.errors, onRelease, state);
        stream.set(ADDRESS, CData.STREAM_GET_SCHEMA, GET_SCHEMA);
        stream.set(ADDRESS, CData.STREAM_GET_NEXT, GET_NEXT);
        stream.set(ADDRESS, CData.STREAM_GET_LAST_ERROR, GET_LAST_ERROR);
        stream.set(ADDRESS, CData.STREAM_PRIVATE_DATA, MemorySegment.ofAddress(id));
        stream.set(ADDRESS, CData.STREAM_RELEASE, RELEASE_STREAM);
    }

    private static StreamState state(MemorySegment streamPointer) {
        MemorySegment stream = streamPointer.reinterpret(CData.STREAM.byteSize());
        if (stream.get(ADDRESS, CData.STREAM_RELEASE).address() == 0) {
            return null;
        }
        Owned owned = LIVE.get(stream.get(ADDRESS, CData.STREAM_PRIVATE_DATA).address());
        return owned == null ? null : owned.stream();
    }

    static int getSchema(MemorySegment streamPointer, MemorySegment out) {
        StreamState state = null;
        try {
            state = state(streamPointer);
            if (state == null) {
                return CData.EINVAL;
            }
            exportTableSchema(out, state.names, state.kinds);
            return 0;
        } catch (Throwable t) {
            return state == null ? CData.EIO : state.fail(CData.EIO, t);
        }
    }

    static int getNext(MemorySegment streamPointer, MemorySegment out) {
        StreamState state = null;
        try {
            state = state(streamPointer);
            if (state == null) {
                return CData.EINVAL;
            }
            synchronized (state) {
                if (!state.batches.hasNext()) {
                    MemorySegment array = out.reinterpret(ARRAY.byteSize());
                    array.set(ADDRESS, CData.ARRAY_RELEASE, MemorySegment.NULL); // end of stream
                    return 0;
                }
                ViewTable batch = state.batches.next();
                int index = state.batchIndex++;
                if (!batch.names().equals(state.names)) {
                    throw new IllegalArgumentException("batch does not match the stream schema: batch=" + index
                            + " names=" + batch.names() + " expected=" + state.names);
                }
                for (int c = 0; c < batch.columnCount(); c++) {
                    if (batch.column(c).kind() != state.kinds.get(c)) {
                        throw new IllegalArgumentException("batch does not match the stream schema: batch=" + index
                                + " column=" + state.names.get(c) + " kind=" + batch.column(c).kind() + " expected="
                                + state.kinds.get(c));
                    }
                }
                exportTableArray(out, batch, null);
                return 0;
            }
        } catch (Throwable t) {
            return state == null ? CData.EIO : state.fail(CData.EIO, t);
        }
    }

    static MemorySegment getLastError(MemorySegment streamPointer) {
        try {
            StreamState state = state(streamPointer);
            if (state == null) {
                return MemorySegment.NULL;
            }
            synchronized (state) {
                return state.lastError;
            }
        } catch (Throwable t) {
            return MemorySegment.NULL;
        }
    }

    static void releaseStream(MemorySegment pointer) {
        try {
            MemorySegment stream = pointer.reinterpret(CData.STREAM.byteSize());
            if (stream.get(ADDRESS, CData.STREAM_RELEASE).address() == 0) {
                return;
            }
            stream.set(ADDRESS, CData.STREAM_RELEASE, MemorySegment.NULL);
            free(stream.get(ADDRESS, CData.STREAM_PRIVATE_DATA).address());
        } catch (Throwable t) {
            report(t);
        }
    }
}
