package dev.stringview.flink.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.parquet.RowFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
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

/**
 * The {@link ViewBulkFormat} driven as Flink's file source drives it (createReader / readBatch / restoreReader),
 * against a plain on-heap model of the rows written: the filter runs in the source (only passing rows come out),
 * byte-range splits read every row exactly once, and a restore from any checkpointed position gives exactly the
 * rows after it, also with another batch size.
 */
class ViewBulkFormatTest {
    private static final String[] EDGES = {"", "a", "hello world", "hello world!", "hello world!!",
        "0123456789abcdef", "0123456789abcdefg", "héllo", "http://google.com/x", "google"};

    @TempDir
    static java.nio.file.Path dir;
    static java.nio.file.Path file;
    /** The model: id, s (or null), n (or null) per row. */
    static final List<Object[]> model = new ArrayList<>();

    static final RowType FILE_ROW = RowType.of(new LogicalType[] {new BigIntType(false), new VarCharType(
            VarCharType.MAX_LENGTH), new IntType()}, new String[] {"id", "s", "n"});

    @BeforeAll
    static void write() throws IOException {
        MessageType schema = MessageTypeParser.parseMessageType("""
                message t {
                  required int64 id;
                  optional binary s (STRING);
                  optional int32 n;
                }""");
        file = dir.resolve("rows.parquet");
        Random random = new Random(3);
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withConf(new PlainParquetConfiguration()).withType(schema)
                .withCompressionCodec(CompressionCodecName.UNCOMPRESSED).withRowGroupSize(16 * 1024)
                .withPageSize(2 * 1024).withDictionaryEncoding(false).build()) {
            for (int i = 0; i < 6000; i++) {
                Group g = groups.newGroup().append("id", (long) i);
                String s = random.nextInt(9) == 0 ? null : random.nextBoolean() ? EDGES[random.nextInt(EDGES.length)]
                        : "http://" + (random.nextBoolean() ? "google" : "example") + ".com/" + random.nextInt(300);
                Integer n = random.nextInt(7) == 0 ? null : random.nextInt(1000);
                if (s != null) {
                    g.append("s", s);
                }
                if (n != null) {
                    g.append("n", n);
                }
                writer.write(g);
                model.add(new Object[] {(long) i, s, n});
            }
        }
    }

    private static ViewBulkFormat format(RowType produced, RowFilter filter, int batchSize) {
        return new ViewBulkFormat("t", FILE_ROW, produced, filter, new ReadSettings(batchSize, true, true),
                InternalTypeInfo.of(produced));
    }

    private static RowType idAndS() {
        return RowType.of(new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
                new String[] {"id", "s"});
    }

    private static FileSourceSplit split(long offset, long length) throws IOException {
        long size = Files.size(file);
        return new FileSourceSplit("0", new Path(file.toUri()), offset, length, 0, size);
    }

    private static String text(RowData row) {
        return row.getLong(0) + "|" + (row.isNullAt(1) ? "null" : row.getString(1).toString());
    }

    /** Every row of the reader, each with its position. */
    private static List<String> readAll(BulkFormat.Reader<RowData> reader, List<CheckpointedPosition> positions)
            throws IOException {
        List<String> out = new ArrayList<>();
        try (reader) {
            for (BulkFormat.RecordIterator<RowData> batch = reader.readBatch(); batch != null;
                    batch = reader.readBatch()) {
                for (RecordAndPosition<RowData> r = batch.next(); r != null; r = batch.next()) {
                    out.add(text(r.getRecord()));
                    if (positions != null) {
                        positions.add(new CheckpointedPosition(r.getOffset(), r.getRecordSkipCount()));
                    }
                }
                batch.releaseBatch();
            }
        }
        return out;
    }

    private static List<String> expected(java.util.function.Predicate<Object[]> keep) {
        List<String> out = new ArrayList<>();
        for (Object[] row : model) {
            if (keep.test(row)) {
                out.add(row[0] + "|" + row[1]);
            }
        }
        return out;
    }

    @Test
    void onlyRowsWhereTheFilterIsTrueComeOut() throws IOException {
        FilterTranslator translator = new FilterTranslator(Map.of("id", FILE_ROW.getTypeAt(0), "s",
                FILE_ROW.getTypeAt(1), "n", FILE_ROW.getTypeAt(2)));
        FieldReferenceExpression s = new FieldReferenceExpression("s", DataTypes.STRING(), 0, 1);
        FieldReferenceExpression n = new FieldReferenceExpression("n", DataTypes.INT(), 0, 2);
        ResolvedExpression like = CallExpression.permanent(BuiltInFunctionDefinitions.LIKE,
                List.of(s, new ValueLiteralExpression("%google%")), DataTypes.BOOLEAN());
        ResolvedExpression notSmall = CallExpression.permanent(BuiltInFunctionDefinitions.NOT,
                List.of(CallExpression.permanent(BuiltInFunctionDefinitions.LESS_THAN, List.of(n,
                        new ValueLiteralExpression(500)), DataTypes.BOOLEAN())), DataTypes.BOOLEAN());
        RowFilter filter = translator.translateAll(List.of(like, notSmall));
        assertEquals("(s LIKE '%google%') AND (NOT (n < 500))", String.valueOf(filter));
        List<String> got = readAll(format(idAndS(), filter, 500).createReader(new Configuration(),
                split(0, Files.size(file))), null);
        List<String> want = expected(r -> r[1] != null && ((String) r[1]).contains("google") && r[2] != null
                && (Integer) r[2] >= 500);
        assertTrue(want.size() > 100, "too few rows: " + want.size());
        assertEquals(want, got);
    }

    @Test
    void partitionColumnsAndUnknownFunctionsAreLeftToFlink() {
        FilterTranslator translator = new FilterTranslator(Map.of("s", FILE_ROW.getTypeAt(1)));
        FieldReferenceExpression dt = new FieldReferenceExpression("dt", DataTypes.STRING(), 0, 3);
        ResolvedExpression partition = CallExpression.permanent(BuiltInFunctionDefinitions.EQUALS,
                List.of(dt, new ValueLiteralExpression("2024-01-01")), DataTypes.BOOLEAN());
        FieldReferenceExpression s = new FieldReferenceExpression("s", DataTypes.STRING(), 0, 1);
        ResolvedExpression upper = CallExpression.permanent(BuiltInFunctionDefinitions.EQUALS,
                List.of(CallExpression.permanent(BuiltInFunctionDefinitions.UPPER, List.of(s), DataTypes.STRING()),
                        new ValueLiteralExpression("A")), DataTypes.BOOLEAN());
        assertEquals(null, translator.translateAll(List.of(partition, upper)));
    }

    @Test
    void byteRangeSplitsReadEveryRowOnce() throws IOException {
        long size = Files.size(file);
        List<String> all = new ArrayList<>();
        long[] cuts = {0, 1, 4, 5000, 20_000, 33_333, size / 2, size - 8, size};
        for (int i = 0; i + 1 < cuts.length; i++) {
            all.addAll(readAll(format(idAndS(), null, 700).createReader(new Configuration(),
                    split(cuts[i], cuts[i + 1] - cuts[i])), null));
        }
        all.sort(java.util.Comparator.comparingLong(t -> Long.parseLong(t.substring(0, t.indexOf('|')))));
        assertEquals(model.size(), all.size(), "rows read by all splits");
        assertEquals(expected(r -> true), all);
    }

    @Test
    void restoreFromAnyPositionGivesTheRowsAfterIt() throws IOException {
        RowFilter filter = RowFilter.like("s", "%o%");
        FileSourceSplit whole = split(0, Files.size(file));
        List<CheckpointedPosition> positions = new ArrayList<>();
        List<String> rows = readAll(format(idAndS(), filter, 300).createReader(new Configuration(), whole),
                positions);
        assertEquals(expected(r -> r[1] != null && ((String) r[1]).contains("o")), rows);
        Random random = new Random(5);
        for (int t = 0; t < 12; t++) {
            int k = t == 0 ? 0 : t == 1 ? rows.size() - 1 : random.nextInt(rows.size());
            for (int batchSize : new int[] {300, 128, 1000}) {
                FileSourceSplit restored = whole.updateWithCheckpointedPosition(positions.get(k));
                List<String> rest = readAll(format(idAndS(), filter, batchSize).restoreReader(new Configuration(),
                        restored), null);
                assertEquals(rows.subList(k + 1, rows.size()), rest, "k=" + k + " batchSize=" + batchSize
                        + " position=" + positions.get(k));
            }
        }
    }

    @Test
    void countStarReadsNoValues() throws IOException {
        RowType none = RowType.of(new LogicalType[0], new String[0]);
        int rows = 0;
        try (BulkFormat.Reader<RowData> reader = format(none, null, 1000).createReader(new Configuration(),
                split(0, Files.size(file)))) {
            for (BulkFormat.RecordIterator<RowData> batch = reader.readBatch(); batch != null;
                    batch = reader.readBatch()) {
                for (RecordAndPosition<RowData> r = batch.next(); r != null; r = batch.next()) {
                    assertEquals(0, r.getRecord().getArity());
                    rows++;
                }
            }
        }
        assertEquals(model.size(), rows);
    }
}
