package dev.stringview.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.ViewPredicates;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ViewVarBinaryVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.util.Text;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;

/**
 * The C Data bridge against real peers in this JVM: Arrow Java's own (JNI) {@code arrow-c-data} in both
 * directions, DuckDB scanning our exported stream, and DuckDB producing {@code vu} that we import.
 */
class PeerTest {
    private static final int CASES = 150;

    private static MemorySegment at(long address) {
        return MemorySegment.ofAddress(address);
    }

    @Test
    void arrowJavaImportsOurColumnsAndReleasesThemOnce() {
        for (long seed = 1; seed <= CASES; seed++) {
            Layouts.Case c = Layouts.randomCase(seed);
            AtomicInteger released = new AtomicInteger();
            try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined();
                    ArrowSchema schema = ArrowSchema.allocateNew(allocator);
                    ArrowArray array = ArrowArray.allocateNew(allocator)) {
                ViewColumn column = Layouts.column(arena, c);
                ArrowCData.exportColumn(column, "s", at(schema.memoryAddress()), at(array.memoryAddress()),
                        released::incrementAndGet);
                try (FieldVector vector = Data.importVector(allocator, array, schema, null)) {
                    assertEquals(c.kind() == ViewKind.UTF8 ? ViewVarCharVector.class : ViewVarBinaryVector.class,
                            vector.getClass(), c.toString());
                    assertEquals(c.model().size(), vector.getValueCount(), c.toString());
                    for (int row = 0; row < c.model().size(); row++) {
                        assertArrayEquals(c.model().get(row), bytes(vector.getObject(row)), c + " row=" + row);
                    }
                    assertEquals(0, released.get(), c.toString());
                }
                assertEquals(1, released.get(), "released once when Arrow Java closes the vector: " + c);
            }
        }
    }

    private static byte[] bytes(Object value) {
        return value == null ? null : value instanceof Text text ? text.copyBytes() : (byte[]) value;
    }

    @Test
    void weImportArrowJavasExportsOfEveryStringType() {
        for (long seed = 1; seed <= CASES; seed++) {
            Layouts.Case c = Layouts.randomCase(seed);
            try (BufferAllocator allocator = new RootAllocator()) {
                for (FieldVector vector : vectors(c, allocator)) {
                    try (vector; Arena arena = Arena.ofConfined();
                            ArrowSchema schema = ArrowSchema.allocateNew(allocator);
                            ArrowArray array = ArrowArray.allocateNew(allocator)) {
                        Data.exportVector(allocator, vector, null, array, schema);
                        ViewColumn column = ArrowCData.importColumn(at(schema.memoryAddress()),
                                at(array.memoryAddress()), arena);
                        vector.close(); // the import holds Arrow's buffers through the exported array
                        Layouts.assertColumn(c, column);
                    }
                }
                // RootAllocator.close throws if the producer's release was not called.
            }
        }
    }

    private static List<FieldVector> vectors(Layouts.Case c, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>();
        if (c.kind() == ViewKind.UTF8) {
            ViewVarCharVector views = new ViewVarCharVector("s", allocator);
            VarCharVector small = new VarCharVector("s", allocator);
            LargeVarCharVector large = new LargeVarCharVector("s", allocator);
            views.allocateNew();
            small.allocateNew();
            large.allocateNew();
            for (int row = 0; row < c.model().size(); row++) {
                byte[] value = c.model().get(row);
                if (value == null) {
                    views.setNull(row);
                    small.setNull(row);
                    large.setNull(row);
                } else {
                    growViews(views, row);
                    views.setSafe(row, value);
                    small.setSafe(row, value);
                    large.setSafe(row, value);
                }
            }
            vectors.addAll(List.of(views, small, large));
        } else {
            ViewVarBinaryVector views = new ViewVarBinaryVector("s", allocator);
            VarBinaryVector small = new VarBinaryVector("s", allocator);
            views.allocateNew();
            small.allocateNew();
            for (int row = 0; row < c.model().size(); row++) {
                byte[] value = c.model().get(row);
                if (value == null) {
                    views.setNull(row);
                    small.setNull(row);
                } else {
                    growViews(views, row);
                    views.setSafe(row, value);
                    small.setSafe(row, value);
                }
            }
            vectors.addAll(List.of(views, small));
        }
        for (FieldVector vector : vectors) {
            vector.setValueCount(c.model().size());
        }
        return vectors;
    }

    /** Arrow 19's setSafe may under-size the view buffer for an empty value (docs/arrow-java-notes.md, bug 4). */
    private static void growViews(org.apache.arrow.vector.BaseVariableWidthViewVector views, int row) {
        while (views.getDataBuffer().capacity() < 16L * (row + 1)) {
            views.reallocViewBuffer();
        }
    }

    /** URL-like values, some containing "google", with nulls and edge lengths, in several batches. */
    static List<ViewTable> urls(Arena arena, long seed, int batches, int rows) {
        Random random = new Random(seed);
        String[] hosts = {"google.com", "www.google.de", "example.org", "g.co", "yandex.ru", "googl", "GOOGLE.com"};
        List<ViewTable> tables = new ArrayList<>();
        for (int b = 0; b < batches; b++) {
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8);
            for (int row = 0; row < rows; row++) {
                int kind = random.nextInt(10);
                if (kind == 0) {
                    builder.appendNull();
                } else if (kind == 1) {
                    builder.append("google".substring(0, random.nextInt(7)));
                } else {
                    builder.append("https://" + hosts[random.nextInt(hosts.length)] + "/"
                            + "é".repeat(random.nextInt(3)) + Integer.toString(random.nextInt(1 << 20), 36));
                }
            }
            tables.add(ViewTable.of("url", builder.build()));
        }
        return tables;
    }

    @Test
    void duckDbScansOurStreamAndCountsWhatOurKernelsCount() throws Exception {
        try (Arena arena = Arena.ofShared(); BufferAllocator allocator = new RootAllocator();
                Connection connection = DriverManager.getConnection("jdbc:duckdb:");
                ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            List<ViewTable> batches = urls(arena, 42, 5, 3000);
            int expected = 0;
            int expectedRows = 0;
            for (ViewTable batch : batches) {
                expected += ViewPredicates.like("%google%").count(batch.column("url"));
                expectedRows += batch.rowCount();
            }
            assertTrue(expected > 1000, "expected=" + expected);
            AtomicInteger released = new AtomicInteger();
            ArrowCData.exportStream(List.of("url"), List.of(ViewKind.UTF8), batches.iterator(),
                    at(stream.memoryAddress()), released::incrementAndGet);
            connection.unwrap(DuckDBConnection.class).registerArrowStream("hits", stream);
            try (Statement statement = connection.createStatement();
                    ResultSet result = statement.executeQuery(
                            "SELECT count(*) FILTER (WHERE url LIKE '%google%'), count(*) FROM hits")) {
                assertTrue(result.next());
                assertEquals(expected, result.getInt(1));
                assertEquals(expectedRows, result.getInt(2));
            }
            assertEquals(1, released.get(), "DuckDB released the stream once");
        }
    }

    @Test
    void duckDbProducesViewsThatWeImportWithoutCopying() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = connection.createStatement();
                Arena arena = Arena.ofConfined()) {
            statement.execute("SET produce_arrow_string_view=true");
            statement.execute("SET arrow_output_version='1.4'");
            try (ResultSet result = statement.executeQuery("SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE "
                    + "repeat('ab', i % 11) || 'é' || i END AS s FROM range(5000) t(i)")) {
                long address = rawArrowStream(connection, result, 1024);
                int row = 0;
                int batches = 0;
                try (ViewTableReader reader = ArrowCData.importStream(at(address), arena)) {
                    while (reader.hasNext()) {
                        ViewColumn column = reader.next().column("s");
                        batches++;
                        for (int r = 0; r < column.size(); r++, row++) {
                            String expected = row % 7 == 0 ? null : "ab".repeat(row % 11) + "é" + row;
                            assertEquals(expected, column.string(r), "row=" + row);
                        }
                    }
                }
                assertEquals(5000, row);
                assertTrue(batches >= 5, "batches=" + batches);
            }
        }
    }

    /**
     * The {@code ArrowArrayStream*} DuckDB fills for a result. {@code DuckDBResultSet.arrowExportStream} would hand
     * it to arrow-c-data's JNI importer; the native method it calls returns the raw struct, which is what a pure-FFM
     * consumer needs.
     */
    static long rawArrowStream(Connection connection, ResultSet result, long batchSize) throws Exception {
        Class<?> nativeClass = Class.forName("org.duckdb.DuckDBNative");
        Method stream = nativeClass.getDeclaredMethod("duckdb_jdbc_arrow_stream", ByteBuffer.class, ByteBuffer.class,
                long.class);
        stream.setAccessible(true);
        Field resultRef = result.getClass().getDeclaredField("resultRef");
        resultRef.setAccessible(true);
        Field connRef = DuckDBConnection.class.getDeclaredField("connRef");
        connRef.setAccessible(true);
        return (long) stream.invoke(null, resultRef.get(result), connRef.get(connection.unwrap(DuckDBConnection.class)),
                batchSize);
    }

}
