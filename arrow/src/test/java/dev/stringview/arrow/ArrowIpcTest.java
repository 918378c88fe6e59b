package dev.stringview.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.TestData;
import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Arrow IPC: our writer and reader against each other and against Arrow Java's, compressed bodies, forged files. */
class ArrowIpcTest {
    private static final int CASES = 120;

    @TempDir
    Path dir;

    /** Two columns (UTF-8 and binary) per batch, three batches per file, every layout. */
    private static List<ViewTable> batches(Arena arena, long seed, List<List<Layouts.Case>> cases) {
        List<ViewTable> tables = new ArrayList<>();
        for (int b = 0; b < 3; b++) {
            Layouts.Case any = Layouts.randomCase(seed * 31 + b);
            List<byte[]> utf8 = new ArrayList<>();
            List<byte[]> binary = new ArrayList<>();
            java.util.Random random = new java.util.Random(seed + b);
            for (byte[] value : any.model()) {
                utf8.add(value == null ? null : Layouts.value(ViewKind.UTF8, random));
                binary.add(random.nextInt(9) == 0 ? null : Layouts.value(ViewKind.BINARY, random));
            }
            Layouts.Case s = new Layouts.Case(ViewKind.UTF8, any.shape(), utf8, seed * 31 + b);
            Layouts.Case d = new Layouts.Case(ViewKind.BINARY,
                    TestData.Shape.values()[(int) ((seed + b) % TestData.Shape.values().length)], binary,
                    seed * 31 + b);
            cases.add(List.of(s, d));
            tables.add(ViewTable.of(List.of("s", "b"), List.of(Layouts.column(arena, s), Layouts.column(arena, d))));
        }
        return tables;
    }

    private Path write(List<ViewTable> tables, ArrowIpc.Format format, BufferAllocator allocator) throws IOException {
        Path file = dir.resolve(format == ArrowIpc.Format.FILE ? "t.arrow" : "t.arrows");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
                ArrowIpcWriter writer = format == ArrowIpc.Format.FILE
                        ? ArrowIpcWriter.file(channel, List.of("s", "b"), List.of(ViewKind.UTF8, ViewKind.BINARY),
                                allocator)
                        : ArrowIpcWriter.stream(channel, List.of("s", "b"), List.of(ViewKind.UTF8, ViewKind.BINARY),
                                allocator)) {
            for (ViewTable table : tables) {
                writer.write(table);
            }
            assertEquals(tables.size(), writer.batchesWritten());
        }
        return file;
    }

    @Test
    void viewTablesRoundTripThroughIpcFilesAndStreams() throws IOException {
        for (long seed = 1; seed <= CASES; seed++) {
            for (ArrowIpc.Format format : ArrowIpc.Format.values()) {
                try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined()) {
                    List<List<Layouts.Case>> cases = new ArrayList<>();
                    Path file;
                    try (Arena source = Arena.ofConfined()) {
                        file = write(batches(source, seed, cases), format, allocator);
                    }
                    assertEquals(format, ArrowIpc.detect(file).orElseThrow());
                    int batch = 0;
                    try (ViewTableReader reader = ArrowIpc.open(file, allocator, arena)) {
                        while (reader.hasNext()) {
                            ViewTable table = reader.next();
                            Layouts.assertColumn(cases.get(batch).get(0), table.column("s"));
                            Layouts.assertColumn(cases.get(batch).get(1), table.column("b"));
                            batch++;
                        }
                    }
                    assertEquals(3, batch, "seed=" + seed + " format=" + format);
                }
            }
        }
    }

    @Test
    void batchesReadIntoTheirOwnArenasAreFreedWhenThoseClose() throws IOException {
        try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined()) {
            List<List<Layouts.Case>> cases = new ArrayList<>();
            Path file;
            try (Arena source = Arena.ofConfined()) {
                file = write(batches(source, 11, cases), ArrowIpc.Format.FILE, allocator);
            }
            try (ViewTableReader reader = ArrowIpc.open(file, allocator, arena)) {
                assertTrue(reader.hasNext()); // batch 0 is read into the reader's arena
                long held = 0;
                for (int batch = 0; batch < 3; batch++) {
                    ViewColumn column;
                    try (Arena batchArena = Arena.ofConfined()) {
                        ViewTable table = reader.nextInto(batchArena);
                        Layouts.assertColumn(cases.get(batch).get(0), table.column("s"));
                        Layouts.assertColumn(cases.get(batch).get(1), table.column("b"));
                        column = table.column("s");
                        if (batch == 0) {
                            held = allocator.getAllocatedMemory();
                        }
                    }
                    if (batch > 0 && column.size() > 0) {
                        ViewColumn closed = column;
                        assertThrows(IllegalStateException.class, () -> closed.string(0), "batch=" + batch);
                    }
                }
                assertEquals(null, reader.nextInto(arena));
                assertFalse(reader.hasNext());
                assertEquals(3, reader.batchesRead());
                assertTrue(held > 0);
            }
        }
    }

    @Test
    void arrowJavaReadsOurFiles() throws IOException {
        for (long seed = 1; seed <= CASES / 2; seed++) {
            try (BufferAllocator allocator = new RootAllocator()) {
                List<List<Layouts.Case>> cases = new ArrayList<>();
                Path file;
                try (Arena source = Arena.ofConfined()) {
                    file = write(batches(source, seed, cases), ArrowIpc.Format.FILE, allocator);
                }
                try (FileChannel channel = FileChannel.open(file);
                        ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
                    int batch = 0;
                    while (reader.loadNextBatch()) {
                        VectorSchemaRoot root = reader.getVectorSchemaRoot();
                        for (int col = 0; col < 2; col++) {
                            Layouts.Case c = cases.get(batch).get(col);
                            FieldVector vector = root.getVector(col);
                            for (int row = 0; row < c.model().size(); row++) {
                                Object value = vector.getObject(row);
                                byte[] bytes = value == null ? null
                                        : value instanceof Text text ? text.copyBytes() : (byte[]) value;
                                assertArrayEquals(c.model().get(row), bytes, c + " row=" + row);
                            }
                        }
                        batch++;
                    }
                    assertEquals(3, batch);
                }
            }
        }
    }

    /** A file of Utf8, LargeUtf8, Binary and LargeBinary columns written by Arrow Java, optionally compressed. */
    private Path arrowJavaFile(BufferAllocator allocator, Layouts.Case c, List<byte[]> binary,
            CompressionUtil.CodecType codec) throws IOException {
        VarCharVector utf8 = new VarCharVector("utf8", allocator);
        LargeVarCharVector largeUtf8 = new LargeVarCharVector("large_utf8", allocator);
        VarBinaryVector bin = new VarBinaryVector("binary", allocator);
        LargeVarBinaryVector largeBin = new LargeVarBinaryVector("large_binary", allocator);
        Path file = dir.resolve("java-" + codec + ".arrow");
        try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(utf8, largeUtf8, bin, largeBin));
                FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
                ArrowFileWriter writer = new ArrowFileWriter(root, null, channel, Map.of(), IpcOption.DEFAULT,
                        codec == CompressionUtil.CodecType.NO_COMPRESSION ? CompressionCodec.Factory.INSTANCE
                                : CommonsCompressionFactory.INSTANCE, codec)) {
            writer.start();
            for (int batch = 0; batch < 2; batch++) {
                root.allocateNew();
                for (int row = 0; row < c.model().size(); row++) {
                    byte[] value = c.model().get(row);
                    if (value != null) {
                        utf8.setSafe(row, value);
                        largeUtf8.setSafe(row, value);
                    }
                    if (binary.get(row) != null) {
                        bin.setSafe(row, binary.get(row));
                        largeBin.setSafe(row, binary.get(row));
                    }
                }
                root.setRowCount(c.model().size());
                writer.writeBatch();
            }
            writer.end();
        }
        return file;
    }

    @Test
    void offsetColumnsFromArrowJavaBecomeViewsAlsoWhenCompressed() throws IOException {
        for (long seed = 1; seed <= CASES / 2; seed++) {
            Layouts.Case c = Layouts.randomCase(seed);
            c = new Layouts.Case(ViewKind.UTF8, c.shape(), c.kind() == ViewKind.UTF8 ? c.model()
                    : Layouts.randomCase(seed + 1000).model().stream().map(v -> v == null ? null
                            : new String(v, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8)).toList(), seed);
            java.util.Random random = new java.util.Random(seed);
            List<byte[]> binary = new ArrayList<>();
            for (int i = 0; i < c.model().size(); i++) {
                binary.add(random.nextInt(6) == 0 ? null : Layouts.value(ViewKind.BINARY, random));
            }
            Layouts.Case b = new Layouts.Case(ViewKind.BINARY, c.shape(), binary, seed);
            for (CompressionUtil.CodecType codec : CompressionUtil.CodecType.values()) {
                try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined()) {
                    Path file = arrowJavaFile(allocator, c, binary, codec);
                    int batches = 0;
                    try (ViewTableReader reader = ArrowIpc.open(file, allocator, arena)) {
                        for (ViewTable table : (Iterable<ViewTable>) () -> reader) {
                            Layouts.assertColumn(c, table.column("utf8"));
                            Layouts.assertColumn(c, table.column("large_utf8"));
                            Layouts.assertColumn(b, table.column("binary"));
                            Layouts.assertColumn(b, table.column("large_binary"));
                            batches++;
                        }
                    }
                    assertEquals(2, batches, "seed=" + seed + " codec=" + codec);
                }
            }
        }
    }

    @Test
    void aForgedViewFailsNamingFileBatchColumnRowAndField() throws IOException {
        for (String field : List.of("bufferIndex", "offset", "prefix", "padding", "length", "utf8")) {
            try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined()) {
                ViewColumn good = ViewColumns.ofStrings(arena, "ok", "a value longer than twelve", "inline");
                MemorySegment views = arena.allocate(48, 16);
                views.copyFrom(good.views());
                Forgery.forge(views.address(), field);
                ViewColumn forged = ViewColumns.fromViewsUnchecked(ViewKind.UTF8, 3, views, null,
                        List.of(good.buffer(0)));
                Path file = dir.resolve("forged.arrow");
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
                        ArrowIpcWriter writer = ArrowIpcWriter.file(channel, List.of("s"), List.of(ViewKind.UTF8),
                                allocator)) {
                    writer.write(ViewTable.of("s", good));
                    writer.write(ViewTable.of("s", forged));
                }
                try (ViewTableReader reader = ArrowIpc.open(file, allocator, arena)) {
                    assertEquals("inline", reader.next().column("s").string(2));
                    ArrowDataException e = assertThrows(ArrowDataException.class, reader::next);
                    assertTrue(e.getMessage().startsWith("file=forged.arrow batch=1 column=s row="), e.getMessage());
                    assertTrue(e.getMessage().contains("field=" + field), e.getMessage());
                }
            }
        }
    }

    @Test
    void truncatedFilesAndStreamsFailCleanly() throws IOException {
        try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined()) {
            List<ViewTable> tables = batches(arena, 7, new ArrayList<>());
            for (ArrowIpc.Format format : ArrowIpc.Format.values()) {
                Path file = write(tables, format, allocator);
                byte[] bytes = Files.readAllBytes(file);
                for (int cut : new int[] {bytes.length - 3, bytes.length / 2, 9}) {
                    Path truncated = dir.resolve("truncated-" + cut);
                    Files.write(truncated, java.util.Arrays.copyOf(bytes, cut));
                    ArrowDataException e = assertThrows(ArrowDataException.class, () -> {
                        try (ViewTableReader reader = ArrowIpc.open(truncated, allocator, arena)) {
                            while (reader.hasNext()) {
                                reader.next();
                            }
                        }
                    }, format + " cut=" + cut);
                    assertTrue(e.getMessage().startsWith("file=truncated-" + cut + " "), e.getMessage());
                }
            }
        }
    }

    @Test
    void aWrongVariadicBufferCountFailsCleanly() throws IOException {
        for (long claimed : new long[] {0, 2, 5}) {
            try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined()) {
                Path file = dir.resolve("variadic-" + claimed + ".arrows");
                Schema schema = new Schema(List.of(Field.nullable("s", ArrowType.Utf8View.INSTANCE)));
                ViewColumn column = ViewColumns.ofStrings(arena, "ok", "a value longer than twelve");
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                        WriteChannel out = new WriteChannel(channel)) {
                    MessageSerializer.serialize(out, schema);
                    ArrowBuf validity = allocator.getEmpty();
                    ArrowBuf views = copy(allocator, column.views());
                    ArrowBuf data = copy(allocator, column.buffer(0));
                    try (ArrowRecordBatch batch = new ArrowRecordBatch(2, List.of(new ArrowFieldNode(2, 0)),
                            List.of(validity, views, data), NoCompressionCodec.DEFAULT_BODY_COMPRESSION,
                            List.of(claimed), true)) {
                        MessageSerializer.serialize(out, batch);
                    } finally {
                        views.close();
                        data.close();
                    }
                    ArrowStreamWriter.writeEndOfStream(out, IpcOption.DEFAULT);
                }
                ArrowDataException e = assertThrows(ArrowDataException.class, () -> {
                    try (ViewTableReader reader = ArrowIpc.open(file, allocator, arena)) {
                        reader.next();
                    }
                }, "claimed=" + claimed);
                assertTrue(e.getMessage().startsWith("file=variadic-" + claimed + ".arrows batch=0 "), e.getMessage());
                assertFalse(e.getMessage().isBlank());
            }
        }
    }

    private static ArrowBuf copy(BufferAllocator allocator, MemorySegment segment) {
        ArrowBuf buf = allocator.buffer(segment.byteSize());
        buf.setBytes(0, segment.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        buf.writerIndex(segment.byteSize());
        return buf;
    }

    @Test
    void nonStringColumnsAndOtherFilesAreNamed() throws IOException {
        Path parquet = dir.resolve("x.parquet");
        Files.write(parquet, "PAR1 not arrow".getBytes(StandardCharsets.US_ASCII));
        try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined()) {
            ArrowDataException notArrow = assertThrows(ArrowDataException.class,
                    () -> ArrowIpc.open(parquet, allocator, arena));
            assertTrue(notArrow.getMessage().startsWith("not an Arrow IPC file or stream: file="),
                    notArrow.getMessage());
            Path file = dir.resolve("ints.arrow");
            org.apache.arrow.vector.IntVector ints = new org.apache.arrow.vector.IntVector("n", allocator);
            VarCharVector strings = new VarCharVector("s", allocator);
            try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(ints, strings));
                    FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    ArrowFileWriter writer = new ArrowFileWriter(root, null, channel)) {
                root.allocateNew();
                ints.setSafe(0, 5);
                strings.setSafe(0, "five".getBytes(StandardCharsets.UTF_8));
                root.setRowCount(1);
                writer.start();
                writer.writeBatch();
                writer.end();
            }
            ArrowDataException wrongType = assertThrows(ArrowDataException.class,
                    () -> ArrowIpc.open(file, allocator, arena));
            assertEquals("file=ints.arrow not a string or binary column: column=n type=Int(32, true)",
                    wrongType.getMessage());
            try (ViewTableReader reader = ArrowIpc.open(file, List.of("s"), allocator, arena)) {
                assertEquals("five", reader.next().column("s").string(0));
                assertFalse(reader.hasNext());
            }
            ArrowDataException missing = assertThrows(ArrowDataException.class,
                    () -> ArrowIpc.open(file, List.of("t"), allocator, arena));
            assertEquals("file=ints.arrow no such column: column=t columns=[n, s]", missing.getMessage());
        }
    }
}
