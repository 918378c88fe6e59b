package dev.stringview.flink.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.flink.internal.StringFilter.Leaf;
import dev.stringview.flink.internal.StringFilter.Op;
import dev.stringview.parquet.ChunkBounds;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row-group skipping by statistics: never skips a row group where the filter is TRUE on some row (random row
 * groups against the compiled kernels over the same values, exact bounds), and really skips on clustered files.
 */
class RowGroupStatisticsTest {
    /** 0/1/11/12/13/15/16/17 bytes, non-ASCII, bytes >= 0x80 first, '%' and '_'. */
    static final String[] VALUES = {"", "a", "abcdefghijk", "abcdefghijkl", "abcdefghijklm", "abcdefghijklmno",
        "abcdefghijklmnop", "abcdefghijklmnopq", "abd", "b", "héllo", "日本語", "ééé", "zz", "100%", "a_b", "\u00ff"};

    @TempDir
    static Path dir;

    @Test
    void neverSkipsARowGroupWithARowWhereTheFilterIsTrue() {
        Random random = new Random(20261123L);
        int skipped = 0;
        int checked = 0;
        for (int round = 0; round < 3000; round++) {
            List<String> values = new ArrayList<>();
            int n = 1 + random.nextInt(6);
            int nullOneIn = random.nextInt(4) == 0 ? 1 : 4;
            for (int i = 0; i < n; i++) {
                values.add(random.nextInt(nullOneIn) == 0 ? null : value(random));
            }
            StringFilter filter = filter(random, 2);
            boolean anyTrue;
            try (Arena arena = Arena.ofConfined()) {
                ViewColumnBuilder b = ViewColumns.builder(arena, ViewKind.UTF8);
                for (String v : values) {
                    if (v == null) {
                        b.appendNull();
                    } else {
                        b.append(v);
                    }
                }
                ViewColumn column = b.build();
                anyTrue = filter.compile(List.of("s")).select(List.of(column), n, new int[n]) > 0;
            }
            boolean may = RowGroupStatistics.mayBeTrue(filter, Map.of("s", exactStats(values)));
            assertTrue(may || !anyTrue, "skipped a row group with a match: values=" + values + " filter=" + filter);
            skipped += may ? 0 : 1;
            checked++;
        }
        assertTrue(skipped > checked / 10, "statistics skip: skipped=" + skipped + " checked=" + checked);
        // Unknown statistics (no bounds, unknown nulls) never skip a value predicate.
        assertTrue(RowGroupStatistics.mayBeTrue(leaf(Op.EQ, "x"), Map.of("s", new ChunkBounds(null, null, -1, 5))));
        assertTrue(RowGroupStatistics.mayBeTrue(leaf(Op.EQ, "x"), Map.of()));
    }

    static ChunkBounds exactStats(List<String> values) {
        byte[] min = null;
        byte[] max = null;
        long nulls = 0;
        for (String v : values) {
            if (v == null) {
                nulls++;
                continue;
            }
            byte[] b = v.getBytes(StandardCharsets.UTF_8);
            min = min == null || Arrays.compareUnsigned(b, min) < 0 ? b : min;
            max = max == null || Arrays.compareUnsigned(b, max) > 0 ? b : max;
        }
        return new ChunkBounds(min, max, nulls, values.size());
    }

    static String value(Random random) {
        String v = VALUES[random.nextInt(VALUES.length)];
        return random.nextInt(3) == 0 && !v.isEmpty() ? v.substring(0, random.nextInt(v.length())) : v;
    }

    static Leaf leaf(Op op, String... constants) {
        return new Leaf("s", op, Arrays.stream(constants).map(c -> c.getBytes(StandardCharsets.UTF_8)).toList(),
                null);
    }

    static StringFilter filter(Random random, int depth) {
        int kind = random.nextInt(depth > 0 ? 12 : 10);
        String c = value(random);
        return switch (kind) {
            case 0 -> leaf(Op.EQ, c);
            case 1 -> leaf(Op.NE, c);
            case 2 -> leaf(random.nextBoolean() ? Op.LT : Op.LE, c);
            case 3 -> leaf(random.nextBoolean() ? Op.GT : Op.GE, c);
            case 4 -> leaf(Op.IN, c, value(random));
            case 5 -> leaf(Op.LIKE, c.replace("%", "").replace("_", "") + "%");
            case 6 -> leaf(Op.LIKE, random.nextBoolean() ? c : "%" + c);
            case 7 -> new Leaf("s", Op.LIKE, List.of(("\\%" + c + "_%").getBytes(StandardCharsets.UTF_8)), '\\');
            case 8 -> leaf(random.nextBoolean() ? Op.IS_NULL : Op.IS_NOT_NULL);
            case 9 -> leaf(Op.LIKE, c.isEmpty() ? "_" : c.substring(0, 1) + "_" + c.substring(1));
            case 10 -> new StringFilter.And(List.of(filter(random, depth - 1), filter(random, depth - 1)));
            default -> new StringFilter.Or(List.of(filter(random, depth - 1), filter(random, depth - 1)));
        };
    }

    @Test
    void aClusteredFileGetsSplitsOnlyForTheRowGroupsThatMayMatch() throws IOException {
        Path file = dir.resolve("clustered.parquet");
        MessageType schema = MessageTypeParser.parseMessageType(
                "message t { required int64 id; optional binary s (STRING); }");
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        int rows = 4000;
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withConf(new PlainParquetConfiguration()).withType(schema).withRowGroupRowCountLimit(500)
                .withPageRowCountLimit(100).build()) {
            for (int i = 0; i < rows; i++) {
                Group g = groups.newGroup().append("id", (long) i);
                if (i % 9 != 0) {
                    g.append("s", String.format("key-%05d", i));
                }
                writer.write(g);
            }
        }
        RowType rowType = RowType.of(new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
                new String[] {"id", "s"});
        TableLayout layout = TableLayout.resolve("t", file.toString(), rowType);
        int[] projection = {0, 1};
        assertEquals(8, new ViewInputFormat(layout, projection, null, 100, true).createInputSplits(2).length);
        assertEquals(1, splits(layout, leaf(Op.EQ, "key-01234")));
        assertEquals(0, splits(layout, leaf(Op.EQ, "nowhere")));
        assertEquals(2, splits(layout, leaf(Op.LIKE, "key-01%")), "key-01000 .. key-01999: row groups 2 and 3");
        assertEquals(3, splits(layout, leaf(Op.LT, "key-01400")));
        assertEquals(2, splits(layout, new StringFilter.Or(List.of(leaf(Op.EQ, "key-00001"),
                leaf(Op.IN, "key-03999", "zzz")))));
        assertEquals(8, splits(layout, leaf(Op.LIKE, "%-01%")), "a leading wildcard proves nothing");
        assertEquals(8, splits(layout, leaf(Op.IS_NULL)));
    }

    private static int splits(TableLayout layout, StringFilter filter) {
        return new ViewInputFormat(layout, new int[] {0, 1}, filter, 100, true).createInputSplits(2).length;
    }
}
