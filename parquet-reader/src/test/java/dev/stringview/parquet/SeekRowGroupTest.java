package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stringview.ViewColumn;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ParquetViewReader#seekRowGroup}: reading starts at the chosen row group, with the right values and rows. */
class SeekRowGroupTest {
    @TempDir
    static Path dir;
    static Path file;
    static List<String> values = new ArrayList<>();

    @BeforeAll
    static void write() throws IOException {
        file = dir.resolve("groups.parquet");
        MessageType schema = MessageTypeParser.parseMessageType("message m { optional binary s (STRING); }");
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withConf(new PlainParquetConfiguration()).withType(schema)
                .withCodecFactory(new TestCodecs()).withCompressionCodec(CompressionCodecName.SNAPPY)
                .withRowGroupRowCountLimit(1000).withPageRowCountLimit(300).build()) {
            for (int i = 0; i < 4500; i++) {
                String value = i % 7 == 0 ? null : "value-" + i + "-" + "x".repeat(i % 17);
                values.add(value);
                Group group = groups.newGroup();
                if (value != null) {
                    group.add("s", value);
                }
                writer.write(group);
            }
        }
    }

    @Test
    void readsFromTheChosenRowGroupOn() throws IOException {
        for (boolean batchScoped : new boolean[] {false, true}) {
            for (int target = 0; target < 5; target++) {
                try (Arena arena = Arena.ofConfined();
                        ParquetViewReader reader = ParquetViewReader.open(file, arena, ParquetViewOptions.defaults()
                                .withBatchSize(128).withBatchScopedMemory(batchScoped))) {
                    assertEquals(5, reader.rowGroupCount());
                    if (target == 3) {
                        reader.nextBatch(); // a seek after reading part of an earlier row group
                    }
                    reader.seekRowGroup(target);
                    long expectedRow = 1000L * target;
                    for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                        assertEquals(expectedRow, batch.firstRow(), "target=" + target);
                        assertEquals((int) (expectedRow / 1000), batch.rowGroup(), "target=" + target);
                        ViewColumn column = batch.column("s");
                        for (int r = 0; r < batch.rowCount(); r++) {
                            String expected = values.get((int) expectedRow + r);
                            assertEquals(expected, column.isNull(r) ? null : column.string(r),
                                    "target=" + target + " row=" + (expectedRow + r));
                        }
                        expectedRow += batch.rowCount();
                    }
                    assertEquals(4500, expectedRow, "target=" + target);
                }
            }
        }
    }

    @Test
    void refusesToMoveBackOrOutOfTheFile() throws IOException {
        try (Arena arena = Arena.ofConfined(); ParquetViewReader reader = ParquetViewReader.open(file, arena)) {
            assertThrows(IllegalArgumentException.class, () -> reader.seekRowGroup(5));
            assertThrows(IllegalArgumentException.class, () -> reader.seekRowGroup(-1));
            reader.seekRowGroup(2);
            reader.nextBatch();
            IllegalArgumentException back = assertThrows(IllegalArgumentException.class,
                    () -> reader.seekRowGroup(1));
            assertEquals("cannot seek to row group: file=groups.parquet rowGroup=1 rowGroups=5 currentRowGroup=2",
                    back.getMessage());
            assertThrows(IllegalArgumentException.class, () -> reader.seekRowGroup(2));
            reader.seekRowGroup(4);
            int rows = 0;
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                rows += batch.rowCount();
            }
            assertEquals(500, rows);
            assertNull(reader.nextBatch());
        }
    }
}
