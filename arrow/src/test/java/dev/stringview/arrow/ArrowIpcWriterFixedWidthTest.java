package dev.stringview.arrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ArrowIpcWriter} with a {@link Schema}: fixed-width buffers beside view columns, read back by Arrow Java's
 * own reader equal to an on-heap model; buffers that do not fit their field are refused naming the column.
 */
class ArrowIpcWriterFixedWidthTest {
    static final Schema SCHEMA = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true)),
            Field.nullable("flag", ArrowType.Bool.INSTANCE), Field.nullable("s", ArrowType.Utf8View.INSTANCE)));

    @TempDir
    Path dir;

    @Test
    void fixedWidthBuffersBesideViews() throws IOException {
        Path file = dir.resolve("fixed.arrow");
        Random random = new Random(5);
        int[] sizes = {1, 7, 64, 65, 1000};
        long[][] ids = new long[sizes.length][];
        boolean[][] idNull = new boolean[sizes.length][];
        boolean[][] flags = new boolean[sizes.length][];
        try (BufferAllocator allocator = new RootAllocator();
                FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                ArrowIpcWriter writer = ArrowIpcWriter.file(out, SCHEMA, allocator)) {
            for (int b = 0; b < sizes.length; b++) {
                int n = sizes[b];
                ids[b] = new long[n];
                idNull[b] = new boolean[n];
                flags[b] = new boolean[n];
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment values = arena.allocate(8L * n, 8);
                    MemorySegment validity = arena.allocate((n + 63) / 64 * 8L, 8);
                    MemorySegment bits = arena.allocate((n + 63) / 64 * 8L, 8);
                    int nulls = 0;
                    ViewColumnBuilder strings = ViewColumns.builder(arena, ViewKind.UTF8);
                    for (int i = 0; i < n; i++) {
                        ids[b][i] = random.nextLong();
                        idNull[b][i] = random.nextInt(5) == 0;
                        flags[b][i] = random.nextBoolean();
                        values.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, ids[b][i]);
                        if (idNull[b][i]) {
                            nulls++;
                        } else {
                            setBit(validity, i);
                        }
                        if (flags[b][i]) {
                            setBit(bits, i);
                        }
                        strings.append("r" + i);
                    }
                    ViewColumn s = strings.build();
                    writer.write(n, List.of(new ArrowIpcWriter.FixedWidth(values, nulls == 0 ? null : validity, nulls),
                            new ArrowIpcWriter.FixedWidth(bits, null, 0), s));
                }
            }
        }
        try (BufferAllocator allocator = new RootAllocator();
                FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
                ArrowFileReader reader = new ArrowFileReader(in, allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            assertEquals(SCHEMA, root.getSchema());
            for (int b = 0; b < sizes.length; b++) {
                assertTrue(reader.loadNextBatch());
                assertEquals(sizes[b], root.getRowCount());
                BigIntVector id = (BigIntVector) root.getVector(0);
                BitVector flag = (BitVector) root.getVector(1);
                ViewVarCharVector s = (ViewVarCharVector) root.getVector(2);
                for (int i = 0; i < sizes[b]; i++) {
                    assertEquals(idNull[b][i], id.isNull(i), "batch " + b + " row " + i);
                    if (!idNull[b][i]) {
                        assertEquals(ids[b][i], id.get(i), "batch " + b + " row " + i);
                    }
                    assertEquals(flags[b][i] ? 1 : 0, flag.get(i), "batch " + b + " row " + i);
                    assertEquals("r" + i, s.getObject(i).toString());
                }
            }
        }
    }

    @Test
    void buffersThatDoNotFitTheirFieldAreRefused() throws IOException {
        try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined();
                FileChannel out = FileChannel.open(dir.resolve("bad.arrow"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                ArrowIpcWriter writer = ArrowIpcWriter.file(out, SCHEMA, allocator)) {
            ViewColumn s = ViewColumns.ofStrings(arena, "a", "b");
            MemorySegment bits = arena.allocate(8, 8);
            IllegalArgumentException small = assertThrows(IllegalArgumentException.class, () -> writer.write(2,
                    List.of(new ArrowIpcWriter.FixedWidth(arena.allocate(8), null, 0),
                            new ArrowIpcWriter.FixedWidth(bits, null, 0), s)));
            assertTrue(small.getMessage().contains("column=id rows=2 valueBytes=8 needed=16"), small.getMessage());
            IllegalArgumentException swapped = assertThrows(IllegalArgumentException.class, () -> writer.write(2,
                    List.of(s, new ArrowIpcWriter.FixedWidth(bits, null, 0), s)));
            assertTrue(swapped.getMessage().contains("column=id"), swapped.getMessage());
            assertThrows(IllegalArgumentException.class, () -> new ArrowIpcWriter.FixedWidth(bits, null, 1));
            assertThrows(IllegalArgumentException.class, () -> ArrowIpcWriter.file(out, new Schema(List.of(
                    Field.nullable("v", ArrowType.Utf8.INSTANCE))), allocator));
            assertEquals(0, writer.batchesWritten());
        }
    }

    private static void setBit(MemorySegment bits, int i) {
        bits.set(ValueLayout.JAVA_BYTE, i >>> 3, (byte) (bits.get(ValueLayout.JAVA_BYTE, i >>> 3) | (1 << (i & 7))));
    }
}
