package dev.stringview.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.format.FormatTestData.Lengths;
import dev.stringview.format.internal.CharsGather;
import dev.stringview.format.FormatTestData.Model;
import dev.stringview.format.FormatTestData.Nulls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every format x codec x layout of nulls and lengths x block size x input kind reads back the on-heap model.
 * Cases come from a fixed-seed {@link Random}; seed and case are in every message.
 */
class RoundTripTest {
    @BeforeAll
    static void inlineViewsWarm() {
        FormatTestData.warmUpInlineViews();
    }

    private static final long SEED = 0x5EED_0003L;
    private static final int[] BLOCK_ROWS = {1, 7, 8, 64, 1000, ColumnSerializer.DEFAULT_BLOCK_ROWS};

    static List<ColumnSerializer> serializers() {
        return List.of(ColumnSerializer.of(ColumnFormat.SEPARATED, ColumnCodec.NONE),
                ColumnSerializer.of(ColumnFormat.SEPARATED, ColumnCodec.LZ4),
                ColumnSerializer.of(ColumnFormat.SEPARATED, ColumnCodec.LIGHTWEIGHT),
                ColumnSerializer.of(ColumnFormat.SIZE_PREFIX, ColumnCodec.NONE),
                ColumnSerializer.of(ColumnFormat.SIZE_PREFIX, ColumnCodec.LZ4));
    }

    @Test
    void everyFormatCodecAndLayoutRoundTrips(@TempDir Path dir) throws IOException {
        Random random = new Random(SEED);
        ColumnDeserializer deserializer = ColumnDeserializer.create();
        int c = 0;
        for (ColumnSerializer base : serializers()) {
            for (Lengths lengths : Lengths.values()) {
                for (Nulls nulls : Nulls.values()) {
                    for (int repeat = 0; repeat < 2; repeat++, c++) {
                        ViewKind kind = random.nextBoolean() ? ViewKind.UTF8 : ViewKind.BINARY;
                        int rows = random.nextInt(8) == 0 ? 0 : 1 + random.nextInt(random.nextBoolean() ? 20 : 2000);
                        int blockRows = BLOCK_ROWS[random.nextInt(BLOCK_ROWS.length)];
                        ColumnSerializer serializer = base.withBlockRows(blockRows);
                        Model model = FormatTestData.model(random, kind, lengths, nulls, rows);
                        String where = "seed=" + SEED + " case=" + c + " format=" + serializer.format() + " codec="
                                + serializer.codec() + " lengths=" + lengths + " nulls=" + nulls + " blockRows="
                                + blockRows + " " + model.describe();
                        try (Arena arena = Arena.ofConfined()) {
                            ViewColumn column = FormatTestData.column(arena, model);
                            byte[] bytes = FormatTestData.serialize(serializer, column);
                            int input = random.nextInt(5);
                            ViewColumn back = switch (input) {
                                case 0 -> deserializer.read(MemorySegment.ofArray(bytes), arena);
                                // native input (as a mapped file): its chars reach the view loop through a copy
                                case 4 -> deserializer.read(arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes), arena);
                                case 1 -> deserializer.read(new ByteArrayInputStream(bytes), arena);
                                case 2 -> deserializer.read(Channels.newChannel(new ByteArrayInputStream(bytes)), arena);
                                default -> {
                                    Path file = dir.resolve("c" + c + ".svcl");
                                    Files.write(file, bytes);
                                    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                                        yield deserializer.read(channel, arena);
                                    }
                                }
                            };
                            FormatTestData.assertMatches(model, back, where + " input=" + input);
                            assertEquals(Optional.of(serializer.format()), probe(dir, bytes), where);
                        }
                    }
                }
            }
        }
    }

    /**
     * The writer copies long values that lie one after another in one buffer as one run; columns whose long values
     * do not (rows in reverse or shuffled order, rows of two columns alternating over two sets of buffers, each row
     * twice over the same bytes, null rows whose views are real long views) must write every value's own bytes.
     */
    @Test
    void longValuesOutOfBufferOrderRoundTrip() throws IOException {
        Random random = new Random(SEED + 1);
        ColumnDeserializer deserializer = ColumnDeserializer.create();
        Lengths[] shapes = {Lengths.EDGE, Lengths.ASCENDING, Lengths.RUNS, Lengths.WIDE, Lengths.LONG};
        String[] orders = {"reverse", "shuffle", "alternate", "twice"};
        for (int c = 0; c < 48; c++) {
            try (Arena arena = Arena.ofConfined()) {
                int rows = 1 + random.nextInt(random.nextBoolean() ? 20 : 600);
                Lengths lengths = shapes[random.nextInt(shapes.length)];
                Model a = FormatTestData.model(random, ViewKind.BINARY, lengths, Nulls.NONE, rows);
                Model b = FormatTestData.model(random, ViewKind.BINARY, lengths, Nulls.NONE, rows);
                ViewColumn columnA = FormatTestData.column(arena, a);
                ViewColumn columnB = FormatTestData.column(arena, b);
                String order = orders[c % orders.length];
                int n = order.equals("twice") ? 2 * rows : rows;
                MemorySegment views = arena.allocate(16L * n, 16);
                MemorySegment validity = arena.allocate((n + 7) / 8);
                List<byte[]> expected = new java.util.ArrayList<>(n);
                List<Integer> shuffled = new java.util.ArrayList<>(java.util.stream.IntStream.range(0, rows).boxed()
                        .toList());
                java.util.Collections.shuffle(shuffled, random);
                for (int row = 0; row < n; row++) {
                    int source = switch (order) {
                        case "reverse" -> rows - 1 - row;
                        case "shuffle" -> shuffled.get(row);
                        case "twice" -> row / 2;
                        default -> row;
                    };
                    boolean fromB = order.equals("alternate") && (row & 1) == 1;
                    ViewColumn from = fromB ? columnB : columnA;
                    long w0 = from.views().get(ValueLayout.JAVA_LONG_UNALIGNED, 16L * source);
                    long w1 = from.views().get(ValueLayout.JAVA_LONG_UNALIGNED, 16L * source + 8);
                    if (fromB && (int) w0 > 12) {
                        w1 += columnA.bufferCount(); // B's buffers follow A's
                    }
                    views.set(ValueLayout.JAVA_LONG_UNALIGNED, 16L * row, w0);
                    views.set(ValueLayout.JAVA_LONG_UNALIGNED, 16L * row + 8, w1);
                    boolean isNull = random.nextInt(8) == 0;
                    if (!isNull) {
                        validity.set(ValueLayout.JAVA_BYTE, row >>> 3,
                                (byte) (validity.get(ValueLayout.JAVA_BYTE, row >>> 3) | (1 << (row & 7))));
                    }
                    expected.add(isNull ? null : (fromB ? b : a).values().get(source));
                }
                List<MemorySegment> buffers = new java.util.ArrayList<>(FormatTestData.buffers(columnA));
                buffers.addAll(FormatTestData.buffers(columnB));
                ViewColumn column = ViewColumns.fromViews(ViewKind.BINARY, n, views, validity, buffers);
                Model model = new Model(ViewKind.BINARY, expected);
                for (ColumnSerializer base : serializers()) {
                    int blockRows = BLOCK_ROWS[random.nextInt(BLOCK_ROWS.length)];
                    ColumnSerializer serializer = base.withBlockRows(blockRows);
                    String where = "seed=" + (SEED + 1) + " case=" + c + " order=" + order + " lengths=" + lengths
                            + " format=" + serializer.format() + " codec=" + serializer.codec() + " blockRows="
                            + blockRows + " " + model.describe();
                    byte[] bytes = FormatTestData.serialize(serializer, column);
                    FormatTestData.assertMatches(model, deserializer.read(MemorySegment.ofArray(bytes), arena), where);
                }
            }
        }
    }

    /**
     * Runs of long values of {@link CharsGather#DIRECT_RUN_MIN} bytes or more go to the channel straight from the
     * column's buffer; shorter runs, inline values and varints are staged. The bytes must not depend on it: a column
     * whose long values lie in row order (runs, around the threshold: one byte under, at, over, several times it)
     * writes exactly what the same values write from a buffer in reverse order (no run longer than one value),
     * through an output stream and through a channel that takes at most 777 bytes a call, and reads back the model.
     */
    @Test
    void longRunsWrittenStraightFromTheBufferMatchTheStagedBytes() throws IOException {
        Random random = new Random(SEED + 2);
        ColumnDeserializer deserializer = ColumnDeserializer.create();
        int min = CharsGather.DIRECT_RUN_MIN;
        int[] totals = {min - 1, min, min + 1, 3 * min + 7};
        for (int c = 0; c < 16; c++) {
            ViewKind kind = c % 2 == 0 ? ViewKind.BINARY : ViewKind.UTF8;
            List<byte[]> values = new java.util.ArrayList<>();
            for (int piece = 0; piece < 6; piece++) {
                int remaining = totals[random.nextInt(totals.length)];
                while (remaining > 200) {
                    int length = 13 + random.nextInt(88);
                    values.add(value(random, kind, length));
                    remaining -= length;
                    if (random.nextInt(50) == 0) {
                        values.add(new byte[0]); // an empty value inside a run does not end it
                    }
                }
                values.add(value(random, kind, remaining / 2));
                values.add(value(random, kind, remaining - remaining / 2));
                switch (random.nextInt(5)) {
                    case 0 -> values.add(value(random, kind, 1 + random.nextInt(12)));
                    case 1 -> values.add(null);
                    case 2 -> values.add(value(random, kind, min + 13 + random.nextInt(1000))); // one value alone
                    default -> { } // the next run continues this one in the buffer
                }
            }
            Model model = new Model(kind, values);
            try (Arena arena = Arena.ofConfined()) {
                ViewColumn inOrder = FormatTestData.column(arena, model);
                ViewColumn reversed = FormatTestData.column(arena, new Model(kind, values.reversed()));
                int n = values.size();
                MemorySegment views = arena.allocate(16L * n, 16);
                for (int row = 0; row < n; row++) {
                    MemorySegment.copy(reversed.views(), 16L * (n - 1 - row), views, 16L * row, 16);
                }
                MemorySegment validity = arena.allocate((n + 7) / 8);
                for (int row = 0; row < n; row++) {
                    if (values.get(row) != null) {
                        validity.set(ValueLayout.JAVA_BYTE, row >>> 3,
                                (byte) (validity.get(ValueLayout.JAVA_BYTE, row >>> 3) | (1 << (row & 7))));
                    }
                }
                ViewColumn scattered = ViewColumns.fromViews(kind, n, views, validity,
                        FormatTestData.buffers(reversed));
                for (ColumnSerializer base : serializers()) {
                    int blockRows = BLOCK_ROWS[random.nextInt(BLOCK_ROWS.length)];
                    ColumnSerializer serializer = base.withBlockRows(blockRows);
                    String where = "seed=" + (SEED + 2) + " case=" + c + " format=" + serializer.format() + " codec="
                            + serializer.codec() + " blockRows=" + blockRows + " " + model.describe();
                    byte[] direct = FormatTestData.serialize(serializer, inOrder);
                    assertArrayEquals(FormatTestData.serialize(serializer, scattered), direct, where);
                    java.io.ByteArrayOutputStream trickled = new java.io.ByteArrayOutputStream();
                    long written = serializer.write(inOrder, new java.nio.channels.WritableByteChannel() {
                        @Override
                        public int write(java.nio.ByteBuffer source) {
                            int k = Math.min(777, source.remaining());
                            byte[] part = new byte[k];
                            source.get(part);
                            trickled.writeBytes(part);
                            return k;
                        }

                        @Override
                        public boolean isOpen() {
                            return true;
                        }

                        @Override
                        public void close() {}
                    });
                    assertEquals(direct.length, written, where);
                    assertArrayEquals(direct, trickled.toByteArray(), where);
                    FormatTestData.assertMatches(model, deserializer.read(MemorySegment.ofArray(direct), arena), where);
                }
            }
        }
    }

    private static byte[] value(Random random, ViewKind kind, int length) {
        return kind == ViewKind.UTF8 ? FormatTestData.utf8(random, length) : FormatTestData.binary(random, length);
    }

    @Test
    void blocksOfInlineValuesNeedNoBufferAndLongValuesShareOneBufferPerBlock() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn inline = ViewColumns.ofStrings(arena, "a", "bb", "", null, "twelve bytes");
            ViewColumn mixed = ViewColumns.ofStrings(arena, "a", "a value over twelve bytes", null, "another long one!");
            for (ColumnSerializer serializer : serializers()) {
                byte[] a = FormatTestData.serialize(serializer.withBlockRows(2), inline);
                byte[] b = FormatTestData.serialize(serializer.withBlockRows(2), mixed);
                ViewColumn readInline = ColumnDeserializer.create().read(MemorySegment.ofArray(a), arena);
                ViewColumn readMixed = ColumnDeserializer.create().read(MemorySegment.ofArray(b), arena);
                if (serializer.format() == ColumnFormat.SEPARATED) {
                    assertEquals(0, readInline.bufferCount(), serializer.format() + " " + serializer.codec());
                }
                // Blocks {"a", long} and {null, long}: one chars segment per block, values not copied one by one.
                assertEquals(2, readMixed.bufferCount(), serializer.format() + " " + serializer.codec());
                assertEquals(serializer.format() == ColumnFormat.SEPARATED ? 1 : 3,
                        readMixed.segment(1).address() - readMixed.buffer(0).address(),
                        "offset of row 1 in block 0's stream (size-prefix: after \"a\" and two 1-byte lengths)");
                for (int row = 0; row < mixed.size(); row++) {
                    assertEquals(mixed.string(row), readMixed.string(row));
                }
            }
        }
    }

    @Test
    void outputStreamAndChannelWriteTheSameBytesAndStreamsLeaveWhatFollows() throws IOException {
        Random random = new Random(SEED + 1);
        try (Arena arena = Arena.ofConfined()) {
            Model model = FormatTestData.model(random, ViewKind.UTF8, Lengths.WIDE, Nulls.SOME, 500);
            ViewColumn column = FormatTestData.column(arena, model);
            for (ColumnSerializer serializer : serializers()) {
                byte[] viaStream = FormatTestData.serialize(serializer, column);
                java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
                serializer.write(column, Channels.newChannel(sink));
                assertArrayEquals(viaStream, sink.toByteArray());
                // Two columns back to back in one stream: each read stops at its column's end.
                sink.write(viaStream);
                InputStream in = new ByteArrayInputStream(sink.toByteArray());
                FormatTestData.assertMatches(model, ColumnDeserializer.create().read(in, arena), "first");
                FormatTestData.assertMatches(model, ColumnDeserializer.create().read(in, arena), "second");
                assertEquals(-1, in.read());
            }
        }
    }

    @Test
    void lightweightIsForTheSeparatedFormatOnly() {
        assertThrows(IllegalArgumentException.class,
                () -> ColumnSerializer.of(ColumnFormat.SIZE_PREFIX, ColumnCodec.LIGHTWEIGHT));
        assertThrows(IllegalArgumentException.class,
                () -> ColumnSerializer.of(ColumnFormat.SEPARATED, ColumnCodec.NONE).withBlockRows(0));
    }

    @Test
    void typeNamesAndVersionsAreTheSeedsScheme() {
        assertEquals("String", ColumnFormat.SIZE_PREFIX.typeName());
        assertEquals("StringV2", ColumnFormat.SEPARATED.typeName());
        assertEquals(Optional.of(ColumnFormat.SEPARATED), ColumnFormat.of(2, "StringV2"));
        assertEquals(Optional.empty(), ColumnFormat.of(1, "StringV2"));
    }

    private static Optional<ColumnFormat> probe(Path dir, byte[] bytes) throws IOException {
        Path file = Files.createTempFile(dir, "probe", ".svcl");
        Files.write(file, bytes);
        return ColumnFormat.probe(file);
    }
}
