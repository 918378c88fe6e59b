package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stringview.ViewColumn;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/** Test files for the source tests, and reading every value of a reader into plain arrays. */
final class SourceFiles {
    private SourceFiles() {}

    static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message m { optional binary a (STRING); "
            + "required binary b; optional binary c (STRING); optional binary d (STRING); }");
    static final int[] EDGE_LENGTHS = {0, 1, 11, 12, 13, 15, 16, 17, 40};

    /**
     * {@code rows} rows in row groups of {@code groupRows}: {@code a} UTF-8 of the edge lengths with non-ASCII
     * characters and nulls, {@code b} binary with bytes >= 0x80, {@code c} a few repeated values (dictionary),
     * {@code d} long values, so chunks of one row group lie far apart. {@code extraMetadata} bytes of key-value
     * metadata make the footer that much larger.
     */
    static Path write(Path dir, String name, int rows, int groupRows, CompressionCodecName codec, int extraMetadata,
            long seed) throws IOException {
        Path path = dir.resolve(name + ".parquet");
        Files.deleteIfExists(path);
        Random random = new Random(seed);
        ExampleParquetWriter.Builder builder = ExampleParquetWriter.builder(new LocalOutputFile(path))
                .withConf(new PlainParquetConfiguration()).withType(SCHEMA).withCodecFactory(new TestCodecs())
                .withCompressionCodec(codec).withPageRowCountLimit(97).withPageSize(4096)
                .withRowGroupRowCountLimit(groupRows);
        if (extraMetadata > 0) {
            builder = builder.withExtraMetaData(Map.of("padding", "x".repeat(extraMetadata)));
        }
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer = builder.build()) {
            for (int row = 0; row < rows; row++) {
                Group g = groups.newGroup();
                if (random.nextInt(5) != 0) {
                    int length = EDGE_LENGTHS[random.nextInt(EDGE_LENGTHS.length)];
                    StringBuilder sb = new StringBuilder();
                    while (sb.toString().getBytes(StandardCharsets.UTF_8).length < length) {
                        sb.append(random.nextInt(4) == 0 ? "é" : random.nextInt(9) == 0 ? "😀" : "k");
                    }
                    g.add("a", sb.toString());
                }
                byte[] b = new byte[EDGE_LENGTHS[random.nextInt(EDGE_LENGTHS.length)]];
                random.nextBytes(b);
                g.add("b", Binary.fromConstantByteArray(b));
                if (random.nextInt(7) != 0) {
                    g.add("c", "category-" + random.nextInt(5));
                }
                g.add("d", "https://example.com/" + "p".repeat(random.nextInt(200)) + row);
                writer.write(g);
            }
        }
        return path;
    }

    /** Every value of every projected column, per column, row by row (null for a null). */
    static List<List<byte[]>> readAll(ParquetViewReader reader) throws IOException {
        List<List<byte[]>> columns = new ArrayList<>();
        for (int c = 0; c < reader.columns().size(); c++) {
            columns.add(new ArrayList<>());
        }
        long next = 0;
        for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
            assertEquals(next, batch.firstRow(), "batches are consecutive");
            next += batch.rowCount();
            for (int c = 0; c < columns.size(); c++) {
                if (batch.isFixedWidth(c)) {
                    FixedWidthColumn column = batch.fixedWidthColumn(c);
                    for (int row = 0; row < column.rowCount(); row++) {
                        columns.get(c).add(column.isNull(row) ? null : fixedBytes(column, row));
                    }
                    continue;
                }
                ViewColumn column = batch.column(c);
                Reading.checkWellFormed(column);
                for (int row = 0; row < column.size(); row++) {
                    columns.get(c).add(column.isNull(row) ? null : column.bytes(row));
                }
            }
        }
        if (!columns.isEmpty()) {
            assertEquals(reader.rowCount(), next, "every row read");
        }
        return columns;
    }

    /** A fixed-width value's bytes as stored in the values buffer (a boolean as one byte 0 or 1). */
    static byte[] fixedBytes(FixedWidthColumn column, int row) {
        if (column.type().physical() == ParquetType.Physical.BOOLEAN) {
            return new byte[] {(byte) (column.getBoolean(row) ? 1 : 0)};
        }
        int width = column.type().byteWidth();
        return column.values().asSlice((long) row * width, width).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    /** Every value of {@code path}'s {@code columns} read through the memory mapping, the reference. */
    static List<List<byte[]>> readMapped(Path path, String... columns) throws IOException {
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(path, arena,
                        ParquetViewOptions.defaults().withColumns(columns))) {
            return readAll(reader);
        }
    }

    static void assertSameValues(List<List<byte[]>> expected, List<List<byte[]>> actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": columns");
        for (int c = 0; c < expected.size(); c++) {
            assertEquals(expected.get(c).size(), actual.get(c).size(), what + ": rows of column " + c);
            for (int row = 0; row < expected.get(c).size(); row++) {
                assertArrayEquals(expected.get(c).get(row), actual.get(c).get(row),
                        what + ": column=" + c + " row=" + row);
            }
        }
    }
}
