package dev.stringview.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ViewVarBinaryVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.util.ValueVectorUtility;
import org.junit.jupiter.api.Test;

class ArrowVectorsTest {
    private static final int CASES = 400;

    @Test
    void viewColumnsRoundTripThroughArrowJavaWithoutCopying() {
        for (long seed = 1; seed <= CASES; seed++) {
            Layouts.Case c = Layouts.randomCase(seed);
            try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined()) {
                ViewColumn column = Layouts.column(arena, c);
                ViewColumn back;
                try (BaseVariableWidthViewVector vector = ArrowVectors.toVector(column, "s", allocator)) {
                    assertEquals(c.kind() == ViewKind.UTF8 ? ViewVarCharVector.class : ViewVarBinaryVector.class,
                            vector.getClass(), c.toString());
                    if (column.size() > 0) {
                        assertEquals(column.views().address(), vector.getDataBuffer().memoryAddress(), c.toString());
                    }
                    for (int b = 0; b < column.bufferCount(); b++) {
                        assertEquals(column.buffer(b).byteSize() == 0 ? vector.getDataBuffers().get(b).memoryAddress()
                                : column.buffer(b).address(), vector.getDataBuffers().get(b).memoryAddress(),
                                c + " buffer=" + b);
                    }
                    ValueVectorUtility.validateFull(vector);
                    for (int row = 0; row < c.model().size(); row++) {
                        assertArrayEquals(c.model().get(row), vector.get(row), c + " row=" + row);
                    }
                    back = ArrowVectors.fromVector(vector, arena);
                    if (column.size() > 0) {
                        assertEquals(column.views().address(), back.views().address(), c.toString());
                    }
                }
                // The vector is closed: the column still reads, because its buffers kept a reference until the
                // arena closes.
                Layouts.assertColumn(c, back);
            }
        }
    }

    @Test
    void offsetVectorsBecomeViewsIntoTheirDataBuffer() {
        for (long seed = 1; seed <= CASES; seed++) {
            Layouts.Case c = Layouts.randomCase(seed);
            try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined()) {
                for (FieldVector vector : offsetVectors(c, allocator)) {
                    try (vector) {
                        ViewColumn column = ArrowVectors.fromVector(vector, arena);
                        vector.close();
                        Layouts.assertColumn(c, column);
                        assertEquals(1, column.bufferCount(), c.toString());
                    }
                }
            }
        }
    }

    @Test
    void longValuesOfAnOffsetVectorPointIntoItsDataBuffer() {
        try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined();
                VarCharVector vector = new VarCharVector("s", allocator)) {
            vector.allocateNew();
            vector.setSafe(0, "a long value of thirty bytes!!".getBytes(StandardCharsets.UTF_8));
            vector.setNull(1);
            vector.setSafe(2, "short".getBytes(StandardCharsets.UTF_8));
            vector.setValueCount(3);
            ViewColumn column = ArrowVectors.fromVector(vector, arena);
            assertEquals(vector.getDataBuffer().memoryAddress(), column.buffer(0).address());
            assertEquals(vector.getDataBuffer().memoryAddress(), column.segment(0).address());
            assertNull(column.string(1));
            assertEquals("short", column.string(2));
        }
    }

    @Test
    void tablesRoundTripThroughVectorSchemaRoot() {
        try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined()) {
            ViewTable table = ViewTable.of(List.of("url", "blob"), List.of(
                    ViewColumns.ofStrings(arena, "https://example.com/a/long/path", null, "é"),
                    ViewColumns.ofBytes(arena, new byte[] {(byte) 0xFF}, new byte[17], null)));
            ViewTable back;
            try (VectorSchemaRoot root = ArrowVectors.toRoot(table, allocator)) {
                assertEquals(3, root.getRowCount());
                assertEquals("url", root.getSchema().getFields().get(0).getName());
                back = ArrowVectors.fromRoot(root, arena);
            }
            assertEquals(List.of("url", "blob"), back.names());
            assertEquals("https://example.com/a/long/path", back.column("url").string(0));
            assertTrue(back.column("blob").isNull(2));
            assertArrayEquals(new byte[17], back.column("blob").bytes(1));
        }
    }

    @Test
    void forgedViewsAreRejectedNamingColumnRowAndField() {
        String[] fields = {"bufferIndex", "offset", "prefix", "padding", "length", "utf8"};
        for (String field : fields) {
            try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined();
                    ViewVarCharVector vector = new ViewVarCharVector("s", allocator)) {
                vector.allocateNew();
                vector.setSafe(0, "ok".getBytes(StandardCharsets.UTF_8));
                vector.setSafe(1, "a value longer than twelve".getBytes(StandardCharsets.UTF_8));
                vector.setSafe(2, "inline".getBytes(StandardCharsets.UTF_8));
                vector.setValueCount(3);
                Forgery.forge(vector.getDataBuffer().memoryAddress(), field);
                ArrowDataException e = assertThrows(ArrowDataException.class,
                        () -> ArrowVectors.fromVector(vector, arena), field);
                assertTrue(e.getMessage().startsWith("column=s row="), e.getMessage());
                assertTrue(e.getMessage().contains("field=" + field), e.getMessage());
                // The trusted path does not look, and every access stays bounds-checked.
                ArrowVectors.fromVectorUnchecked(vector, arena);
            }
        }
    }

    @Test
    void decreasingOffsetsAndInvalidUtf8InOffsetVectorsAreRejected() {
        try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined();
                VarCharVector vector = new VarCharVector("s", allocator)) {
            vector.allocateNew();
            vector.setSafe(0, "abc".getBytes(StandardCharsets.UTF_8));
            vector.setSafe(1, new byte[] {(byte) 0xC3});
            vector.setValueCount(2);
            ArrowDataException utf8 = assertThrows(ArrowDataException.class, () -> ArrowVectors.fromVector(vector, arena));
            assertTrue(utf8.getMessage().contains("row=1 field=utf8"), utf8.getMessage());
            vector.getOffsetBuffer().setInt(4, 1 << 24);
            ArrowDataException offsets = assertThrows(ArrowDataException.class,
                    () -> ArrowVectors.fromVector(vector, arena));
            assertTrue(offsets.getMessage().contains("row=0 field=offsets start=0 end=16777216 dataBytes="), offsets.getMessage());
        }
    }

    private static List<FieldVector> offsetVectors(Layouts.Case c, BufferAllocator allocator) {
        FieldVector small = c.kind() == ViewKind.UTF8 ? new VarCharVector("s", allocator) : new VarBinaryVector("s", allocator);
        FieldVector large = c.kind() == ViewKind.UTF8 ? new LargeVarCharVector("s", allocator)
                : new LargeVarBinaryVector("s", allocator);
        for (FieldVector vector : List.of(small, large)) {
            vector.allocateNew();
            for (int row = 0; row < c.model().size(); row++) {
                byte[] value = c.model().get(row);
                if (value == null) {
                    ((org.apache.arrow.vector.BaseValueVector) vector).getValidityBuffer(); // stays 0: null
                    setNull(vector, row);
                } else {
                    set(vector, row, value);
                }
            }
            vector.setValueCount(c.model().size());
        }
        return List.of(small, large);
    }

    private static void set(FieldVector vector, int row, byte[] value) {
        switch (vector) {
            case VarCharVector v -> v.setSafe(row, value);
            case VarBinaryVector v -> v.setSafe(row, value);
            case LargeVarCharVector v -> v.setSafe(row, value);
            case LargeVarBinaryVector v -> v.setSafe(row, value);
            default -> throw new AssertionError(vector);
        }
    }

    private static void setNull(FieldVector vector, int row) {
        switch (vector) {
            case VarCharVector v -> v.setNull(row);
            case VarBinaryVector v -> v.setNull(row);
            case LargeVarCharVector v -> v.setNull(row);
            case LargeVarBinaryVector v -> v.setNull(row);
            default -> throw new AssertionError(vector);
        }
    }
}
