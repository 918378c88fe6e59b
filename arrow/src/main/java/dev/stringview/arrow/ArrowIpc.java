package dev.stringview.arrow;

import dev.stringview.ViewColumn;
import dev.stringview.arrow.internal.IpcCodecs;
import dev.stringview.arrow.internal.IpcFrameCheck;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reading Arrow IPC files and streams into view columns (writing: {@link ArrowIpcWriter}).
 *
 * <p>Arrow Java's IPC classes do the framing (messages, footer, body buffers, decompression); stringview validates
 * every view of every batch before anything reads a value, because Arrow Java 19 trusts the buffer indices and
 * offsets it reads (arrow-java#1217). Utf8View and BinaryView columns become columns over the batch's buffers
 * (nothing copied); Utf8, LargeUtf8, Binary and LargeBinary columns become views into their data buffer (only the
 * views are built). Bodies compressed with LZ4_FRAME or ZSTD, as pyarrow writes them, are decompressed into
 * {@code allocator}'s memory.
 *
 * <p><b>Memory.</b> Each returned column holds references to the batch's {@code ArrowBuf}s until {@code arena}
 * closes, so it stays readable after the reader moves on or closes; {@code allocator} must not be closed before
 * {@code arena}. Reading a large file that way keeps every batch's body alive; {@link ViewTableReader#nextInto}
 * puts each batch in an arena of its own, which the caller closes before the next, so Arrow reuses the memory.
 * The columns are readable from the threads their arena allows; a reader is for one thread at a time.
 */
public final class ArrowIpc {
    private ArrowIpc() {}

    /** The two IPC formats. */
    public enum Format {
        /** The random-access file format: {@code ARROW1} magic, then a stream, then a footer. */
        FILE,
        /** The streaming format: messages, each starting with the 0xFFFFFFFF continuation marker. */
        STREAM
    }

    private static final byte[] FILE_MAGIC = "ARROW1".getBytes(StandardCharsets.US_ASCII);

    /** The IPC format of {@code path} by its first bytes, or empty if it is neither (a Parquet file, say). */
    public static Optional<Format> detect(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer head = ByteBuffer.allocate(8);
            while (head.hasRemaining() && channel.read(head) > 0) {
                // read up to 8 bytes
            }
            return detect(head.array(), head.position());
        }
    }

    static Optional<Format> detect(byte[] head, int length) {
        if (length >= 6 && java.util.Arrays.equals(head, 0, 6, FILE_MAGIC, 0, 6)) {
            return Optional.of(Format.FILE);
        }
        if (length >= 8 && head[0] == -1 && head[1] == -1 && head[2] == -1 && head[3] == -1) {
            return Optional.of(Format.STREAM);
        }
        return Optional.empty();
    }

    /** Reads every column of the IPC file or stream at {@code path} (see {@link #open(Path, List, BufferAllocator, Arena)}). */
    public static ViewTableReader open(Path path, BufferAllocator allocator, Arena arena) throws IOException {
        return open(path, List.of(), allocator, arena);
    }

    /**
     * Reads the IPC file or stream at {@code path}, recognized by its magic bytes.
     *
     * @param columns the columns to read, in this order, or empty for all; every one must be a string or binary
     *     column
     * @throws ArrowDataException if the file is not Arrow IPC, a column is missing or of another type; later, from
     *     the reader, naming batch, column, row and field of the first invalid view
     */
    public static ViewTableReader open(Path path, List<String> columns, BufferAllocator allocator, Arena arena)
            throws IOException {
        Format format = detect(path).orElseThrow(() -> new ArrowDataException("not an Arrow IPC file or stream: file="
                + path + " (no ARROW1 magic, no 0xFFFFFFFF continuation marker)"));
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        String where = "file=" + path.getFileName() + " ";
        ViewTableReader result;
        ArrowReader reader;
        try {
            IpcCodecs.ReaderCodecs codecs = IpcCodecs.factory();
            reader = format == Format.FILE
                    ? new ArrowFileReader(channel, allocator, codecs)
                    : new ArrowStreamReader(channel, allocator, codecs);
            result = reader(reader, codecs, columns, arena, where);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        // Every batch's framing is checked before Arrow Java reads it, which leaks what it allocated for a
        // malformed one (IpcFrameCheck).
        try {
            Schema schema = reader.getVectorSchemaRoot().getSchema();
            if (reader instanceof ArrowFileReader file) {
                IpcFrameCheck.checkFileBlocks(channel, file.getRecordBlocks(), schema);
            } else {
                IpcFrameCheck.checkStream(channel, 0, schema);
            }
        } catch (IllegalArgumentException e) {
            result.close();
            throw new ArrowDataException(where + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            result.close();
            throw e;
        }
        return result;
    }

    /** Reads an IPC stream from {@code in} (closed with the reader). */
    public static ViewTableReader openStream(InputStream in, List<String> columns, BufferAllocator allocator,
            Arena arena) throws IOException {
        IpcCodecs.ReaderCodecs codecs = IpcCodecs.factory();
        return reader(new ArrowStreamReader(Channels.newChannel(in), allocator, codecs), codecs, columns, arena, "");
    }

    private static ViewTableReader reader(ArrowReader reader, IpcCodecs.ReaderCodecs codecs, List<String> columns,
            Arena arena, String where) throws IOException {
        List<Integer> selected = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try {
            VectorSchemaRoot root;
            try {
                root = reader.getVectorSchemaRoot();
            } catch (IOException | RuntimeException e) {
                throw new ArrowDataException(where + "cannot read the schema: " + e.getMessage(), e);
            }
            // The file format loads its dictionaries with the schema.
            RuntimeException failure = codecs.takeFailure();
            if (failure != null) {
                throw new ArrowDataException(where + "cannot read the dictionaries: " + failure.getMessage(), failure);
            }
            List<Field> fields = root.getSchema().getFields();
            List<String> wanted = columns.isEmpty() ? fields.stream().map(Field::getName).toList() : columns;
            for (String name : wanted) {
                int index = -1;
                for (int i = 0; i < fields.size(); i++) {
                    if (fields.get(i).getName().equals(name)) {
                        index = i;
                        break;
                    }
                }
                if (index < 0) {
                    throw new ArrowDataException(where + "no such column: column=" + name + " columns="
                            + fields.stream().map(Field::getName).toList());
                }
                ArrowType type = fields.get(index).getType();
                if (!isStringOrBinary(type)) {
                    throw new ArrowDataException(where + "not a string or binary column: column=" + name + " type="
                            + type);
                }
                selected.add(index);
                names.add(name);
            }
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
        return new ViewTableReader(new IpcSource(reader, codecs, selected, names, where), arena);
    }

    static boolean isStringOrBinary(ArrowType type) {
        return switch (type.getTypeID()) {
            case Utf8, LargeUtf8, Utf8View, Binary, LargeBinary, BinaryView -> true;
            default -> false;
        };
    }

    /** Batches of an {@link ArrowReader}, each validated into views. */
    private static final class IpcSource implements ViewTableReader.Source {
        private final ArrowReader reader;
        private final IpcCodecs.ReaderCodecs codecs;
        private final List<Integer> selected;
        private final List<String> names;
        private final String where;
        private int batch;

        IpcSource(ArrowReader reader, IpcCodecs.ReaderCodecs codecs, List<Integer> selected, List<String> names,
                String where) {
            this.reader = reader;
            this.codecs = codecs;
            this.selected = selected;
            this.names = names;
            this.where = where;
        }

        @Override
        public ViewTable read(Arena arena) throws IOException {
            String here = where + "batch=" + batch + " ";
            boolean loaded;
            try {
                loaded = reader.loadNextBatch();
            } catch (IOException | RuntimeException e) {
                throw new ArrowDataException(here + "cannot load the record batch: " + e, e);
            }
            // A buffer that failed to decompress was loaded empty, so that the batch's buffers all have an owner
            // (the reader's root) that frees them; the batch is not read.
            RuntimeException failure = codecs.takeFailure();
            if (failure != null) {
                throw new ArrowDataException(here + "cannot load the record batch: " + failure.getMessage(), failure);
            }
            if (!loaded) {
                return null;
            }
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            List<ViewColumn> columns = new ArrayList<>(selected.size());
            for (int i = 0; i < selected.size(); i++) {
                FieldVector vector = root.getVector(selected.get(i));
                if (vector.getValueCount() != root.getRowCount()) {
                    throw new ArrowDataException(here + "column=" + names.get(i) + " rows=" + vector.getValueCount()
                            + " batchRows=" + root.getRowCount());
                }
                columns.add(ArrowVectors.fromVector(vector, arena, true, here + "column=" + names.get(i)));
            }
            batch++;
            return ViewTable.of(names, columns);
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }
}
