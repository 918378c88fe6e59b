package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every parquet-testing bad_data file: reading all its columns fails with a {@link ParquetViewException} whose
 * message names the file (and, for page-level damage, column, row group and page), never with another
 * exception, a crash or a hang.
 */
class BadDataTest {

    static List<Path> badFiles() throws IOException {
        try (Stream<Path> files = Files.list(TestData.badDataDir())) {
            return files.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyBadFileFailsCleanly() throws IOException {
        return badFiles().stream().map(path -> DynamicTest.dynamicTest(path.getFileName().toString(), () -> {
            if (path.getFileName().toString().equals("ARROW-GH-43605.parquet")) {
                // Dictionary ids of bit width 0 (a crash in Arrow C++, apache/arrow#43605) are valid: all ids are 0.
                // Its one column is an integer column, read as parquet-java reads it.
                MessageType schema = Oracle.schema(path);
                List<String> fixed = FlatOracle.fixedWidthColumns(schema);
                assertEquals(schema.getFieldCount(), fixed.size(), "only fixed-width columns");
                for (String column : fixed) {
                    FlatOracle.check(path, column, ParquetViewOptions.defaults(), FlatOracle.read(path, column),
                            path.getFileName() + " " + column);
                }
                return;
            }
            ParquetViewException e = assertThrows(ParquetViewException.class, () -> readAll(path));
            String message = e.getMessage();
            assertTrue(message.contains("file=" + path.getFileName()), message);
            if (e.page() >= 0) {
                assertTrue(message.contains(" column=" + e.column()) && message.contains(" rowGroup=" + e.rowGroup())
                        && message.contains(" page=" + e.page()), message);
            }
        }));
    }

    /**
     * Reads every column the reader supports, one at a time. A file without any gets the unsupported-column
     * error for its first field, the clean answer for it.
     */
    static void readAll(Path path) throws IOException {
        if (readAllColumns(path, ParquetViewOptions.defaults())) {
            throw new AssertionError("every column read without error: " + path.getFileName());
        }
    }

    /** Reads every readable column; returns true if there was at least one, throws on the first error. */
    static boolean readAllColumns(Path path, ParquetViewOptions options) throws IOException {
        List<ParquetColumn> columns;
        List<String> fields;
        try (Arena arena = Arena.ofConfined(); ParquetViewReader reader = ParquetViewReader.open(path, arena, options)) {
            columns = reader.columns();
            fields = reader.fieldNames();
        }
        if (columns.isEmpty()) {
            try (Arena arena = Arena.ofConfined()) {
                ParquetViewReader.open(path, arena, options.withColumns(fields.get(0))).close();
            }
            throw new AssertionError("opening the unsupported column did not fail: " + path.getFileName());
        }
        for (ParquetColumn column : columns) {
            try (Arena arena = Arena.ofConfined();
                    ParquetViewReader reader = ParquetViewReader.open(path, arena,
                            options.withColumns(column.name()))) {
                for (ViewBatch b = reader.nextBatch(); b != null; b = reader.nextBatch()) {
                    if (b.isFixedWidth(0)) {
                        FixedWidthColumn c = b.fixedWidthColumn(0);
                        for (int row = 0; row < c.rowCount(); row++) {
                            if (!c.isNull(row) && c.type().physical() != ParquetType.Physical.BOOLEAN) {
                                c.getBytes(row); // every row's value is in the values buffer
                            }
                        }
                    } else {
                        Reading.checkWellFormed(b.column(0));
                    }
                }
            }
        }
        return true;
    }
}
