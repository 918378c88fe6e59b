package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every parquet-testing data file: flat columns of every type read back equal to parquet-java's reader (string and
 * binary columns as views, the rest as {@link FixedWidthColumn}s); nested columns and encrypted files give a clear
 * {@link UnsupportedParquetException}.
 */
class ParquetTestingConformanceTest {

    static Stream<Path> dataFiles() throws IOException {
        try (Stream<Path> files = Files.list(TestData.dataDir())) {
            return files.filter(p -> p.getFileName().toString().endsWith(".parquet")
                    || p.getFileName().toString().endsWith(".parquet.encrypted")).sorted().toList().stream();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyDataFile() throws IOException {
        return dataFiles().map(path -> DynamicTest.dynamicTest(path.getFileName().toString(), () -> check(path)));
    }

    private static void check(Path path) throws IOException {
        String name = path.getFileName().toString();
        if (name.endsWith(".encrypted")) {
            try (Arena arena = Arena.ofConfined()) {
                UnsupportedParquetException e = assertThrows(UnsupportedParquetException.class,
                        () -> ParquetViewReader.open(path, arena).close());
                assertTrue(e.getMessage().contains("encrypted"), e.getMessage());
                assertTrue(e.getMessage().contains("file=" + name), e.getMessage());
            }
            return;
        }
        MessageType schema = Oracle.schema(path);
        List<String> flat = Oracle.flatByteArrayColumns(schema);
        boolean corruptChecksum = name.contains("corrupt-checksum");
        for (String column : flat) {
            List<byte[]> expected = Oracle.read(path, column);
            if (name.equals("nation.dict-malformed.parquet")) {
                expected = nationExpected(column, expected);
            }
            if (corruptChecksum) {
                CorruptParquetException e = assertThrows(CorruptParquetException.class,
                        () -> Reading.read(path, column));
                assertTrue(e.getMessage().contains("checksum"), e.getMessage());
                assertEqualValues(expected, Reading.read(path, column,
                        ParquetViewOptions.defaults().withChecksumVerification(false)), name + " " + column);
            } else {
                for (int batch : new int[] {1, 7, 1024}) {
                    assertEqualValues(expected, Reading.read(path, column,
                            ParquetViewOptions.defaults().withBatchSize(batch)), name + " " + column
                                    + " batch=" + batch);
                }
            }
        }
        List<String> fixed = FlatOracle.fixedWidthColumns(schema);
        if (name.equals("column_chunk_key_value_metadata.parquet")) {
            // Its row group has 0 rows and chunks whose data_page_offset is 0; the chunk bounds check rejects them.
            for (String column : fixed) {
                CorruptParquetException e = assertThrows(CorruptParquetException.class,
                        () -> FlatOracle.check(path, column, ParquetViewOptions.defaults(), List.of(), name));
                assertTrue(e.getMessage().startsWith("column chunk outside the file's data"), e.getMessage());
                assertTrue(e.getMessage().contains("column=" + column), e.getMessage());
            }
            fixed = List.of();
        }
        for (String column : fixed) {
            // parquet-java cannot decompress this file's empty v2 data page (0 bytes, SNAPPY); its one row is null.
            List<Object> expected = name.equals("datapage_v2_empty_datapage.snappy.parquet")
                    ? java.util.Collections.singletonList(null) : FlatOracle.read(path, column);
            if (name.equals("nation.dict-malformed.parquet")) {
                expected = nationKeys(column, expected);
            }
            if (corruptChecksum) {
                CorruptParquetException e = assertThrows(CorruptParquetException.class,
                        () -> FlatOracle.check(path, column, ParquetViewOptions.defaults(), List.of(), name));
                assertTrue(e.getMessage().contains("checksum"), e.getMessage());
                FlatOracle.check(path, column, ParquetViewOptions.defaults().withChecksumVerification(false),
                        expected, name + " " + column);
            } else {
                for (int batch : new int[] {1, 7, 1024}) {
                    FlatOracle.check(path, column, ParquetViewOptions.defaults().withBatchSize(batch)
                            .withBatchScopedMemory(batch == 7), expected, name + " " + column + " batch=" + batch);
                }
            }
        }
        for (Type field : schema.getFields()) {
            if (flat.contains(field.getName()) || FlatOracle.fixedWidthColumns(schema).contains(field.getName())) {
                continue;
            }
            try (Arena arena = Arena.ofConfined()) {
                UnsupportedParquetException e = assertThrows(UnsupportedParquetException.class,
                        () -> ParquetViewReader.open(path, arena,
                                ParquetViewOptions.defaults().withColumns(field.getName())));
                String expectedReason = !field.isPrimitive() ? "nested column" : "repeated column";
                assertTrue(e.getMessage().startsWith(expectedReason), e.getMessage());
                assertTrue(e.getMessage().contains("column=" + field.getName()), e.getMessage());
            }
        }
    }

    /** TPC-H's nation names, in nation_key order. */
    static final List<String> NATIONS = List.of("ALGERIA", "ARGENTINA", "BRAZIL", "CANADA", "EGYPT", "ETHIOPIA",
            "FRANCE", "GERMANY", "INDIA", "INDONESIA", "IRAN", "IRAQ", "JAPAN", "JORDAN", "KENYA", "MOROCCO",
            "MOZAMBIQUE", "PERU", "CHINA", "ROMANIA", "SAUDI ARABIA", "VIETNAM", "RUSSIA", "UNITED KINGDOM",
            "UNITED STATES");

    /**
     * nation.dict-malformed.parquet was written by parquet-mr before 1.2.9, whose column chunk sizes leave out the
     * dictionary page header (PARQUET-816), so each chunk's data page ends past the chunk. parquet-java's reader
     * then decodes the cut-off dictionary ids as 0 from row 8 on (ALGERIA, ALGERIA, ...). This reader extends the
     * chunk as Arrow C++ does and reads the real TPC-H nation table: row i is dictionary entry i. Rows 0..7 still
     * agree with parquet-java.
     */
    private static List<byte[]> nationExpected(String column, List<byte[]> oracle) throws IOException {
        assertEquals(25, oracle.size());
        if (column.equals("name")) {
            return NATIONS.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList();
        }
        List<byte[]> actual = Reading.read(TestData.dataDir().resolve("nation.dict-malformed.parquet"), column);
        assertEqualValues(oracle.subList(0, 8), actual.subList(0, 8), "nation " + column + " rows 0..7");
        assertEquals(25, actual.stream().map(b -> new String(b, StandardCharsets.UTF_8)).distinct().count(),
                "nation " + column + ": one distinct dictionary entry per row");
        return actual;
    }

    /** TPC-H's region key of each nation, in nation_key order. */
    static final List<Integer> NATION_REGIONS = List.of(0, 1, 1, 1, 4, 0, 3, 3, 2, 2, 4, 4, 2, 4, 0, 0, 0, 1, 2, 3,
            4, 2, 3, 3, 1);

    /**
     * nation.dict-malformed.parquet's integer columns (see {@link #nationExpected}): parquet-java agrees for rows
     * 0..7 only; the real table has nation_key = row and TPC-H's region keys.
     */
    private static List<Object> nationKeys(String column, List<Object> oracle) {
        assertEquals(25, oracle.size());
        List<Object> expected = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            expected.add(column.equals("nation_key") ? i : NATION_REGIONS.get(i));
        }
        assertEquals(oracle.subList(0, 8), expected.subList(0, 8), "nation " + column + " rows 0..7");
        return expected;
    }

    /** int96_from_spark.parquet's values as microseconds since the epoch, as its .md file lists them. */
    @Test
    void int96FromSparkIsReadAsMicroseconds() throws IOException {
        Path path = TestData.dataDir().resolve("int96_from_spark.parquet");
        Long[] expected = {1704141296123456L, 1704070800000000L, 253402225200000000L, 1735599600000000L, null,
            9089380393200000000L};
        try (Arena arena = Arena.ofConfined(); ParquetViewReader reader = ParquetViewReader.open(path, arena)) {
            ViewBatch batch = reader.nextBatch();
            FixedWidthColumn a = batch.fixedWidthColumn("a");
            assertEquals(ParquetType.TimeUnit.MICROS, a.type().unit());
            assertEquals(expected.length, a.rowCount());
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i] == null, a.isNull(i), "row " + i);
                if (expected[i] != null) {
                    assertEquals((long) expected[i], a.getLong(i), "row " + i);
                }
            }
        }
    }

    /** The files whose integer columns ship expected values (DELTA_BINARY_PACKED of every bit width up to 64). */
    @TestFactory
    Stream<DynamicTest> expectCsvIntegerColumns() {
        return Stream.of("delta_binary_packed", "delta_encoding_optional_column", "delta_encoding_required_column")
                .map(base -> DynamicTest.dynamicTest(base, () -> checkIntegerCsv(base)));
    }

    private static void checkIntegerCsv(String base) throws IOException {
        Path parquet = TestData.dataDir().resolve(base + ".parquet");
        List<String> lines = Files.readAllLines(TestData.dataDir().resolve(base + "_expect.csv"));
        MessageType schema = Oracle.schema(parquet);
        List<String> fixed = FlatOracle.fixedWidthColumns(schema);
        assertFalse(fixed.isEmpty(), base + " has integer columns");
        int checked = 0;
        try (Arena arena = Arena.ofConfined(); ParquetViewReader reader = ParquetViewReader.open(parquet, arena,
                ParquetViewOptions.defaults().withColumns(fixed).withBatchSize(37))) {
            int row = 0;
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                for (int i = 0; i < batch.rowCount(); i++, row++) {
                    List<String> cells = parseCsvLine(lines.get(row + 1));
                    for (String column : fixed) {
                        FixedWidthColumn c = batch.fixedWidthColumn(column);
                        String cell = cells.get(schema.getFieldIndex(column));
                        assertEquals(cell, c.isNull(i) ? null : Long.toString(c.getLong(i)),
                                base + " " + column + " row " + row);
                        checked++;
                    }
                }
            }
            assertEquals(lines.size() - 1, row, base + " rows");
        }
        assertTrue(checked > 0);
    }

    static void assertEqualValues(List<byte[]> expected, List<byte[]> actual, String where) {
        assertEquals(expected.size(), actual.size(), where + ": row count");
        for (int i = 0; i < expected.size(); i++) {
            byte[] e = expected.get(i);
            byte[] a = actual.get(i);
            if (e == null || a == null) {
                assertEquals(e == null, a == null, where + ": null at row " + i);
            } else if (!Arrays.equals(e, a)) {
                throw new AssertionError(where + ": row " + i + " expected "
                        + new String(e, StandardCharsets.UTF_8) + " got " + new String(a, StandardCharsets.UTF_8));
            }
        }
    }

    /** The three DELTA_BYTE_ARRAY files that ship expected values. */
    @TestFactory
    Stream<DynamicTest> expectCsvFiles() {
        return Stream.of("delta_byte_array", "delta_encoding_optional_column", "delta_encoding_required_column")
                .map(base -> DynamicTest.dynamicTest(base, () -> checkCsv(base)));
    }

    private static void checkCsv(String base) throws IOException {
        Path parquet = TestData.dataDir().resolve(base + ".parquet");
        List<String> lines = Files.readAllLines(TestData.dataDir().resolve(base + "_expect.csv"));
        List<String> header = parseCsvLine(lines.get(0));
        MessageType schema = Oracle.schema(parquet);
        assertEquals(schema.getFieldCount(), header.size(), base + ": csv columns = schema fields");
        List<String> flat = Oracle.flatByteArrayColumns(schema);
        assertFalse(flat.isEmpty(), base + " has string columns");
        int checked = 0;
        for (String column : flat) {
            int index = schema.getFieldIndex(column);
            assertEquals(normalize(column), normalize(header.get(index)), base + ": csv header at " + index);
            List<byte[]> actual = Reading.read(parquet, column);
            assertEquals(lines.size() - 1, actual.size(), base + " " + column + " rows");
            for (int row = 0; row < actual.size(); row++) {
                String cell = parseCsvLine(lines.get(row + 1)).get(index);
                byte[] value = actual.get(row);
                assertEquals(cell, value == null ? null : new String(value, StandardCharsets.UTF_8),
                        base + " " + column + " row " + row);
                checked++;
            }
        }
        assertTrue(checked > 0);
    }

    private static String normalize(String name) {
        return name.replaceAll("[^A-Za-z0-9_]", "");
    }

    /** One CSV line: quoted cells ("" escapes a quote) are values, an empty unquoted cell is null. */
    static List<String> parseCsvLine(String line) {
        List<String> cells = new ArrayList<>();
        int i = 0;
        while (true) {
            if (i < line.length() && line.charAt(i) == '"') {
                StringBuilder sb = new StringBuilder();
                i++;
                while (true) {
                    char c = line.charAt(i++);
                    if (c == '"') {
                        if (i < line.length() && line.charAt(i) == '"') {
                            sb.append('"');
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        sb.append(c);
                    }
                }
                cells.add(sb.toString());
            } else {
                int comma = line.indexOf(',', i);
                String raw = comma < 0 ? line.substring(i) : line.substring(i, comma);
                cells.add(raw.isEmpty() ? null : raw);
                i = comma < 0 ? line.length() : comma;
            }
            if (i >= line.length()) {
                return cells;
            }
            i++; // the comma
            if (i == line.length()) {
                cells.add(null);
                return cells;
            }
        }
    }

    @Test
    void listsAtLeastTheKnownStringFiles() throws IOException {
        List<String> names = new ArrayList<>();
        for (Path p : dataFiles().toList()) {
            names.add(p.getFileName().toString());
        }
        assertTrue(names.containsAll(List.of("binary.parquet", "delta_length_byte_array.parquet",
                "non_hadoop_lz4_compressed.parquet", "datapage_v2.snappy.parquet")), names.toString());
    }
}
