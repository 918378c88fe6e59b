package dev.stringview.arrow.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The structs of the Arrow C Data Interface and C Stream Interface, as the spec declares them
 * (https://arrow.apache.org/docs/format/CDataInterface.html, CStreamInterface.html), with the byte offsets of
 * their fields. Pointers are 8 bytes: the interface is only defined for the platform ABI, and FFM's
 * {@link ValueLayout#ADDRESS} gives it.
 */
public final class CData {
    private CData() {}

    /** {@code struct ArrowSchema}: 72 bytes. */
    public static final StructLayout SCHEMA = MemoryLayout.structLayout(
            ADDRESS.withName("format"),
            ADDRESS.withName("name"),
            ADDRESS.withName("metadata"),
            JAVA_LONG.withName("flags"),
            JAVA_LONG.withName("n_children"),
            ADDRESS.withName("children"),
            ADDRESS.withName("dictionary"),
            ADDRESS.withName("release"),
            ADDRESS.withName("private_data")).withName("ArrowSchema");

    public static final long SCHEMA_FORMAT = offset(SCHEMA, "format");
    public static final long SCHEMA_NAME = offset(SCHEMA, "name");
    public static final long SCHEMA_METADATA = offset(SCHEMA, "metadata");
    public static final long SCHEMA_FLAGS = offset(SCHEMA, "flags");
    public static final long SCHEMA_N_CHILDREN = offset(SCHEMA, "n_children");
    public static final long SCHEMA_CHILDREN = offset(SCHEMA, "children");
    public static final long SCHEMA_DICTIONARY = offset(SCHEMA, "dictionary");
    public static final long SCHEMA_RELEASE = offset(SCHEMA, "release");
    public static final long SCHEMA_PRIVATE_DATA = offset(SCHEMA, "private_data");

    /** {@code ARROW_FLAG_NULLABLE}: the field may hold nulls. */
    public static final long FLAG_NULLABLE = 2;

    /** {@code struct ArrowArray}: 80 bytes. */
    public static final StructLayout ARRAY = MemoryLayout.structLayout(
            JAVA_LONG.withName("length"),
            JAVA_LONG.withName("null_count"),
            JAVA_LONG.withName("offset"),
            JAVA_LONG.withName("n_buffers"),
            JAVA_LONG.withName("n_children"),
            ADDRESS.withName("buffers"),
            ADDRESS.withName("children"),
            ADDRESS.withName("dictionary"),
            ADDRESS.withName("release"),
            ADDRESS.withName("private_data")).withName("ArrowArray");

    public static final long ARRAY_LENGTH = offset(ARRAY, "length");
    public static final long ARRAY_NULL_COUNT = offset(ARRAY, "null_count");
    public static final long ARRAY_OFFSET = offset(ARRAY, "offset");
    public static final long ARRAY_N_BUFFERS = offset(ARRAY, "n_buffers");
    public static final long ARRAY_N_CHILDREN = offset(ARRAY, "n_children");
    public static final long ARRAY_BUFFERS = offset(ARRAY, "buffers");
    public static final long ARRAY_CHILDREN = offset(ARRAY, "children");
    public static final long ARRAY_DICTIONARY = offset(ARRAY, "dictionary");
    public static final long ARRAY_RELEASE = offset(ARRAY, "release");
    public static final long ARRAY_PRIVATE_DATA = offset(ARRAY, "private_data");

    /** {@code struct ArrowArrayStream}: 40 bytes. */
    public static final StructLayout STREAM = MemoryLayout.structLayout(
            ADDRESS.withName("get_schema"),
            ADDRESS.withName("get_next"),
            ADDRESS.withName("get_last_error"),
            ADDRESS.withName("release"),
            ADDRESS.withName("private_data")).withName("ArrowArrayStream");

    public static final long STREAM_GET_SCHEMA = offset(STREAM, "get_schema");
    public static final long STREAM_GET_NEXT = offset(STREAM, "get_next");
    public static final long STREAM_GET_LAST_ERROR = offset(STREAM, "get_last_error");
    public static final long STREAM_RELEASE = offset(STREAM, "release");
    public static final long STREAM_PRIVATE_DATA = offset(STREAM, "private_data");

    /** {@code void (*release)(struct ArrowSchema*)}, and the same for ArrowArray and ArrowArrayStream. */
    public static final FunctionDescriptor RELEASE = FunctionDescriptor.ofVoid(ADDRESS);
    /** {@code int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out)}, and get_next alike. */
    public static final FunctionDescriptor GET = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
    /** {@code const char* (*get_last_error)(struct ArrowArrayStream*)}. */
    public static final FunctionDescriptor GET_LAST_ERROR = FunctionDescriptor.of(ADDRESS, ADDRESS);

    /** errno values the stream interface returns (POSIX numbering, as Arrow C++ uses). */
    public static final int EINVAL = 22;
    public static final int EIO = 5;

    private static final MethodHandle CALL_RELEASE = Linker.nativeLinker().downcallHandle(RELEASE);
    private static final MethodHandle CALL_GET = Linker.nativeLinker().downcallHandle(GET);
    private static final MethodHandle CALL_GET_LAST_ERROR = Linker.nativeLinker().downcallHandle(GET_LAST_ERROR);

    private static long offset(StructLayout layout, String field) {
        return layout.byteOffset(MemoryLayout.PathElement.groupElement(field));
    }

    /** Calls a C release callback on {@code struct}. */
    public static void callRelease(MemorySegment function, MemorySegment struct) {
        try {
            CALL_RELEASE.invokeExact(function, struct);
        } catch (Throwable t) {
            throw new IllegalStateException("release callback failed: " + t, t);
        }
    }

    /** Calls {@code struct}'s release callback (at offset {@code releaseAt}) unless it is NULL (released). */
    public static void releaseIfLive(MemorySegment struct, long releaseAt) {
        MemorySegment function = struct.get(ADDRESS, releaseAt);
        if (function.address() != 0) {
            callRelease(function, struct);
        }
    }

    /** Calls a stream's get_schema or get_next. */
    public static int callGet(MemorySegment function, MemorySegment stream, MemorySegment out) {
        try {
            return (int) CALL_GET.invokeExact(function, stream, out);
        } catch (Throwable t) {
            throw new IllegalStateException("stream callback failed: " + t, t);
        }
    }

    /** Calls a stream's get_last_error. */
    public static MemorySegment callGetLastError(MemorySegment function, MemorySegment stream) {
        try {
            return (MemorySegment) CALL_GET_LAST_ERROR.invokeExact(function, stream);
        } catch (Throwable t) {
            throw new IllegalStateException("get_last_error failed: " + t, t);
        }
    }

    /** {@code pointer} as a segment of {@code bytes}; null pointers stay {@link MemorySegment#NULL}. */
    public static MemorySegment at(MemorySegment pointer, long bytes) {
        return pointer.address() == 0 ? MemorySegment.NULL : pointer.reinterpret(bytes);
    }

    /** The NUL-terminated string at {@code pointer}, or null. */
    public static String string(MemorySegment pointer) {
        return pointer.address() == 0 ? null : pointer.reinterpret(Integer.MAX_VALUE).getString(0);
    }

    static {
        if (SCHEMA.byteSize() != 72 || ARRAY.byteSize() != 80 || STREAM.byteSize() != 40
                || SCHEMA_RELEASE != 56 || ARRAY_RELEASE != 64 || STREAM_RELEASE != 24) {
            throw new ExceptionInInitializerError("unexpected C Data struct layout on this platform");
        }
    }
}
