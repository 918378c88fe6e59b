package dev.stringview.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.format.FormatTestData.Lengths;
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
    static void inlineViewsSettled() throws InterruptedException {
        FormatTestData.awaitInlineViews();
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
