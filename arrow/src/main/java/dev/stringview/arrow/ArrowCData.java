package dev.stringview.arrow;

import static java.lang.foreign.ValueLayout.ADDRESS;

import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
import dev.stringview.arrow.internal.CData;
import dev.stringview.arrow.internal.CDataExport;
import dev.stringview.arrow.internal.CDataImport;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * The Arrow C Data Interface (and C Stream Interface) for view columns, in pure FFM: no JNI library, no
 * {@code arrow-c-data}. The structs are {@code struct ArrowSchema}, {@code struct ArrowArray} and
 * {@code struct ArrowArrayStream} of the spec; pass them as segments at their address (for example
 * {@code MemorySegment.ofAddress(arrowArray.memoryAddress())} for Arrow Java's structs, or the ones from
 * {@link #allocateSchema}, {@link #allocateArray}, {@link #allocateStream}). The JVM needs
 * {@code --enable-native-access} for this module (or {@code ALL-UNNAMED} on the class path): the bridge reads
 * raw pointers and makes upcalls.
 *
 * <p><b>Export</b> ({@code vu} / {@code vz}, or a struct {@code +s} of them for a table): the consumer reads the
 * column's own memory; buffers are validity (NULL when no row is null), views, the data buffers, then the
 * {@code int64} sizes of the data buffers, so {@code n_buffers = 3 + data buffers}. What the export allocates
 * (strings, pointer arrays, sizes, in an automatic arena of its own) is let go by the release callback, an upcall
 * stub that never lets an exception escape and does nothing when called again, and then reclaimed by the garbage
 * collector. <em>The column's memory must stay valid until the consumer calls release</em>: the consumer reads it
 * through raw addresses, from any thread, without the arena's checks. The optional {@code onRelease} runs then
 * (once), on the thread that calls release, for example to close the column's arena (which must then be a shared
 * one unless the consumer releases on the owner thread).
 *
 * <p><b>Import</b>: the array is moved (the caller's struct is marked released) and validated: buffer count,
 * null buffers, sizes, every non-null view ({@link dev.stringview.ViewColumns#fromViews}) or the offsets and UTF-8
 * of {@code u}/{@code z}/{@code U}/{@code Z}, which become views over the imported data buffer (only views are
 * built). {@code ArrowArray.offset} is honoured. The producer's release is called exactly once: when
 * {@code arena} closes (on the thread that closes it), or before the exception if the array is rejected. The
 * imported column is readable until then, from the threads {@code arena} allows; the views built for offsets
 * arrays are allocated in {@code arena}. The schema is released once read. The structs of {@link #allocateSchema},
 * {@link #allocateArray} and {@link #allocateStream} live in the caller's arena.
 */
public final class ArrowCData {
    private ArrowCData() {}

    /** A zeroed {@code struct ArrowSchema} (72 bytes) in {@code arena}. */
    public static MemorySegment allocateSchema(Arena arena) {
        return arena.allocate(CData.SCHEMA);
    }

    /** A zeroed {@code struct ArrowArray} (80 bytes) in {@code arena}. */
    public static MemorySegment allocateArray(Arena arena) {
        return arena.allocate(CData.ARRAY);
    }

    /** A zeroed {@code struct ArrowArrayStream} (40 bytes) in {@code arena}. */
    public static MemorySegment allocateStream(Arena arena) {
        return arena.allocate(CData.STREAM);
    }

    /** Whether a struct's {@code release} is NULL (released, or moved away). Works for all three structs. */
    public static boolean isReleased(MemorySegment struct, StructKind kind) {
        long at = switch (kind) {
            case SCHEMA -> CData.SCHEMA_RELEASE;
            case ARRAY -> CData.ARRAY_RELEASE;
            case STREAM -> CData.STREAM_RELEASE;
        };
        return struct.reinterpret(at + 8).get(ADDRESS, at).address() == 0;
    }

    /** The three structs of the interface. */
    public enum StructKind { SCHEMA, ARRAY, STREAM }

    /** Exports {@code column} as field {@code name}: its schema ({@code vu}/{@code vz}) and its array. */
    public static void exportColumn(ViewColumn column, String name, MemorySegment schemaOut, MemorySegment arrayOut,
            Runnable onRelease) {
        Objects.requireNonNull(name, "name");
        CDataExport.exportColumnSchema(schemaOut, name, column.kind());
        try {
            CDataExport.exportColumnArray(arrayOut, column, onRelease);
        } catch (RuntimeException | Error e) {
            release(schemaOut);
            throw e;
        }
    }

    /** Exports {@code table} as a struct ({@code +s}) of {@code vu}/{@code vz} children, one per column. */
    public static void exportTable(ViewTable table, MemorySegment schemaOut, MemorySegment arrayOut,
            Runnable onRelease) {
        CDataExport.exportTableSchema(schemaOut, table.names(), kinds(table));
        try {
            CDataExport.exportTableArray(arrayOut, table, onRelease);
        } catch (RuntimeException | Error e) {
            release(schemaOut);
            throw e;
        }
    }

    private static void release(MemorySegment schema) {
        MemorySegment struct = schema.reinterpret(CData.SCHEMA.byteSize());
        CData.callRelease(struct.get(ADDRESS, CData.SCHEMA_RELEASE), struct);
    }

    /**
     * Exports the batches as an {@code ArrowArrayStream} of struct arrays with columns {@code names} of
     * {@code kinds}. The consumer pulls batches from its own thread, so the columns' segments must be readable
     * from any thread (a shared or global arena). Each batch must stay valid until the consumer releases that
     * batch's array; {@code onRelease} runs when the consumer releases the stream. A batch that does not match the
     * schema, or an iterator that throws, becomes the stream's error (get_next returns EIO and get_last_error
     * the message).
     */
    public static void exportStream(List<String> names, List<ViewKind> kinds, Iterator<ViewTable> batches,
            MemorySegment streamOut, Runnable onRelease) {
        CDataExport.exportStream(streamOut, names, kinds, batches, onRelease);
    }

    /** {@link #exportStream(List, List, Iterator, MemorySegment, Runnable)} with the schema of {@code first}. */
    public static void exportStream(ViewTable first, Iterator<ViewTable> rest, MemorySegment streamOut,
            Runnable onRelease) {
        Iterator<ViewTable> all = new Iterator<>() {
            private boolean firstTaken;

            @Override
            public boolean hasNext() {
                return !firstTaken || rest.hasNext();
            }

            @Override
            public ViewTable next() {
                if (!firstTaken) {
                    firstTaken = true;
                    return first;
                }
                return rest.next();
            }
        };
        exportStream(first.names(), kinds(first), all, streamOut, onRelease);
    }

    private static List<ViewKind> kinds(ViewTable table) {
        return table.columns().stream().map(ViewColumn::kind).toList();
    }

    /** Imports one array ({@code vu}, {@code vz}, {@code u}, {@code z}, {@code U}, {@code Z}), validated. */
    public static ViewColumn importColumn(MemorySegment schema, MemorySegment array, Arena arena) {
        return importColumn(schema, array, arena, true);
    }

    /** {@link #importColumn} without the per-view checks (struct fields, buffers and bounds are still checked). */
    public static ViewColumn importColumnUnchecked(MemorySegment schema, MemorySegment array, Arena arena) {
        return importColumn(schema, array, arena, false);
    }

    private static ViewColumn importColumn(MemorySegment schema, MemorySegment array, Arena arena, boolean validate) {
        return CDataImport.importColumn(readSchemaOrRelease(schema, array), array, arena, validate);
    }

    /** Imports a struct array ({@code +s}) of string or binary columns as a table, validated. */
    public static ViewTable importTable(MemorySegment schema, MemorySegment array, Arena arena) {
        return CDataImport.importTable(readSchemaOrRelease(schema, array), array, arena, true, "");
    }

    /** Reads (and releases) {@code schema}; if it is rejected, releases {@code array} too before rethrowing. */
    private static CDataImport.Field readSchemaOrRelease(MemorySegment schema, MemorySegment array) {
        try {
            return CDataImport.readSchema(schema);
        } catch (RuntimeException e) {
            releaseQuietly(array);
            throw e;
        }
    }

    private static void releaseQuietly(MemorySegment arrayPointer) {
        try {
            CData.releaseIfLive(arrayPointer.reinterpret(CData.ARRAY.byteSize()), CData.ARRAY_RELEASE);
        } catch (RuntimeException ignored) {
            // the schema's error is the one to report
        }
    }

    /**
     * Takes over {@code stream} (its release is set to NULL) and reads its batches, each validated and imported as
     * {@link #importTable} does, into {@code arena}. Closing the reader releases the producer's stream once.
     */
    public static ViewTableReader importStream(MemorySegment stream, Arena arena) {
        return new ViewTableReader(CStreamSource.open(stream), arena);
    }

    /** The consumer side of a moved {@code ArrowArrayStream}. */
    private static final class CStreamSource implements ViewTableReader.Source {
        private final MemorySegment stream;
        private final MemorySegment scratch;
        private final CDataImport.Field schema;
        private int batch;
        private boolean released;

        private CStreamSource(Arena holder, MemorySegment stream, CDataImport.Field schema) {
            this.stream = stream;
            this.scratch = holder.allocate(CData.ARRAY);
            this.schema = schema;
        }

        static CStreamSource open(MemorySegment pointer) {
            MemorySegment source = pointer.reinterpret(CData.STREAM.byteSize());
            if (source.get(ADDRESS, CData.STREAM_RELEASE).address() == 0) {
                throw new ArrowDataException("ArrowArrayStream already released: release=NULL");
            }
            Arena holder = Arena.ofAuto(); // freed by the GC once the reader is unreachable
            MemorySegment stream = holder.allocate(CData.STREAM);
            stream.copyFrom(source);
            source.set(ADDRESS, CData.STREAM_RELEASE, MemorySegment.NULL);
            try {
                MemorySegment schema = holder.allocate(CData.SCHEMA);
                int rc = CData.callGet(stream.get(ADDRESS, CData.STREAM_GET_SCHEMA), stream, schema);
                if (rc != 0) {
                    throw new ArrowDataException("stream get_schema failed: errno=" + rc + " error="
                            + lastError(stream));
                }
                CDataImport.Field field = CDataImport.readSchema(schema);
                return new CStreamSource(holder, stream, field);
            } catch (RuntimeException | Error e) {
                releaseStream(stream);
                throw e;
            }
        }

        private static String lastError(MemorySegment stream) {
            MemorySegment function = stream.get(ADDRESS, CData.STREAM_GET_LAST_ERROR);
            return function.address() == 0 ? null : CData.string(CData.callGetLastError(function, stream));
        }

        private static void releaseStream(MemorySegment stream) {
            CData.releaseIfLive(stream, CData.STREAM_RELEASE);
        }

        @Override
        public ViewTable read(Arena arena) {
            if (released) {
                return null;
            }
            scratch.fill((byte) 0);
            int rc = CData.callGet(stream.get(ADDRESS, CData.STREAM_GET_NEXT), stream, scratch);
            if (rc != 0) {
                throw new ArrowDataException("stream get_next failed: batch=" + batch + " errno=" + rc + " error="
                        + lastError(stream));
            }
            if (scratch.get(ADDRESS, CData.ARRAY_RELEASE).address() == 0) {
                return null; // end of stream
            }
            return CDataImport.importTable(schema, scratch, arena, true, "batch=" + batch++ + " ");
        }

        @Override
        public void close() {
            if (!released) {
                released = true;
                releaseStream(stream);
            }
        }
    }
}
