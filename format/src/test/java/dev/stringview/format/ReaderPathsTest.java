package dev.stringview.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
import dev.stringview.format.FormatTestData.Model;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The paths the readers take by the shape of a block, each against the on-heap model: blocks of only inline values
 * (no buffer), ASCII chars streams (no UTF-8 start pass) and non-ASCII ones, values whose bytes end the input
 * array (the byte-by-byte tail of the view loop), edge lengths, nulls and many blocks. Fixed seeds, printed in
 * every message.
 */
class ReaderPathsTest {
    @BeforeAll
    static void inlineViewsWarm() {
        FormatTestData.warmUpInlineViews();
    }

    private static final long SEED = 0x5EED_0013L;
    private static final int[] LENGTHS = {0, 1, 11, 12, 13, 15, 16, 17};

    enum Bytes { ASCII, UTF8, BINARY_HIGH }

    @Test
    void everyEdgeLengthReadsBackAsTheLastValueOfTheInput() throws IOException {
        Random random = new Random(SEED);
        try (Arena arena = Arena.ofConfined()) {
            for (ColumnSerializer serializer : RoundTripTest.serializers()) {
                for (Bytes bytes : Bytes.values()) {
                    for (int last : LENGTHS) {
                        for (int before : new int[] {0, 1, 5, 40}) {
                            List<byte[]> values = new ArrayList<>();
                            for (int i = 0; i < before; i++) {
                                values.add(value(random, bytes, LENGTHS[random.nextInt(LENGTHS.length)]));
                            }
                            values.add(value(random, bytes, last)); // its bytes are the input's last bytes
                            Model model = new Model(kind(bytes), values);
                            String where = "seed=" + SEED + " format=" + serializer.format() + " codec="
                                    + serializer.codec() + " bytes=" + bytes + " last=" + last + " before=" + before;
                            FormatTestData.readEveryWay(serializer.withBlockRows(1 + random.nextInt(8)), model, arena, where);
                        }
                    }
                }
            }
        }
    }

    @Test
    void blocksOfOnlyInlineValuesHaveNoBufferWhateverTheirBytes() throws IOException {
        Random random = new Random(SEED + 1);
        try (Arena arena = Arena.ofConfined()) {
            for (ColumnSerializer base : RoundTripTest.serializers()) {
                if (base.format() != ColumnFormat.SEPARATED) {
                    continue;
                }
                for (Bytes bytes : Bytes.values()) {
                    for (boolean nulls : new boolean[] {false, true}) {
                        List<byte[]> values = new ArrayList<>();
                        int rows = 1 + random.nextInt(3000);
                        for (int i = 0; i < rows; i++) {
                            values.add(nulls && random.nextInt(4) == 0 ? null
                                    : value(random, bytes, random.nextInt(13)));
                        }
                        Model model = new Model(kind(bytes), values);
                        int blockRows = 1 + random.nextInt(600);
                        ColumnSerializer serializer = base.withBlockRows(blockRows);
                        String where = "seed=" + (SEED + 1) + " codec=" + base.codec() + " bytes=" + bytes + " nulls="
                                + nulls + " rows=" + rows + " blockRows=" + blockRows;
                        for (ViewColumn back : FormatTestData.readEveryWay(serializer, model, arena, where)) {
                            assertEquals(0, back.bufferCount(), where);
                        }
                    }
                }
            }
        }
    }

    /**
     * Blocks by their longest size, which picks the reader's builder: at most 4 bytes, {@code InlineViews}' up-to-4
     * form when the vector form is warm (the reader's own {@code inline4} loop in the scalar-views run); at most 8,
     * its up-to-8 form ({@code inline8}); at most 12, its general form ({@code inline12}); longer, the reader's
     * loops with a buffer. Rows 1..70 and around 1024 per block (one or two blocks and a row), lengths mixed 0..1,
     * 0..2, 0..4, 0..8, 0..12, 0..4 with a few of 13-17, 0..8 with a few of 9-12 (refused by the up-to-8 form),
     * seed 003's sizes 4 and 8 (3..5, 6..10), and uniform 1, 2, 4, 5-8, 6-8, 8, 12; ASCII, UTF-8 and binary bytes
     * of 0x80 and above, with and without nulls; every codec and both formats.
     */
    @Test
    void blocksByTheirLongestSize() throws IOException {
        Random random = new Random(SEED + 3);
        List<Integer> blockSizes = new ArrayList<>();
        for (int n = 1; n <= 70; n++) {
            blockSizes.add(n);
        }
        blockSizes.addAll(List.of(1023, 1024, 1025, 4097));
        try (Arena arena = Arena.ofConfined()) {
            for (int blockRows : blockSizes) {
                for (int shape = 0; shape < 16; shape++) {
                    Bytes bytes = Bytes.values()[random.nextInt(Bytes.values().length)];
                    boolean nulls = random.nextInt(3) == 0;
                    int rows = blockRows * (1 + random.nextInt(2)) + random.nextInt(2);
                    List<byte[]> values = new ArrayList<>();
                    for (int i = 0; i < rows; i++) {
                        int length = switch (shape) {
                            case 0 -> random.nextInt(2);
                            case 1 -> random.nextInt(3);
                            case 2 -> random.nextInt(5);
                            case 3 -> 1;
                            case 4 -> 2;
                            case 5 -> 4;
                            case 6 -> random.nextInt(9); // the class up to 8 bytes, then up to 12 and longer
                            case 7 -> 5 + random.nextInt(4);
                            case 8 -> random.nextInt(13);
                            case 9 -> 12;
                            case 10 -> 3 + random.nextInt(3);
                            case 11 -> 6 + random.nextInt(3);
                            case 12 -> 8;
                            case 13 -> random.nextInt(16) == 0 ? 9 + random.nextInt(4) : random.nextInt(9);
                            case 14 -> 6 + random.nextInt(5);
                            default -> random.nextInt(8) == 0 ? 13 + random.nextInt(5) : random.nextInt(5);
                        };
                        values.add(nulls && random.nextInt(5) == 0 ? null : value(random, bytes, length));
                    }
                    Model model = new Model(kind(bytes), values);
                    ColumnSerializer serializer = RoundTripTest.serializers().get(random.nextInt(
                            RoundTripTest.serializers().size())).withBlockRows(blockRows);
                    String where = "seed=" + (SEED + 3) + " format=" + serializer.format() + " codec="
                            + serializer.codec() + " bytes=" + bytes + " nulls=" + nulls + " shape=" + shape
                            + " rows=" + rows + " blockRows=" + blockRows;
                    for (ViewColumn back : FormatTestData.readEveryWay(serializer, model, arena, where)) {
                        if (shape < 15) {
                            assertEquals(0, back.bufferCount(), where);
                        }
                    }
                }
            }
        }
    }

    /**
     * A block of values of at most 4 (or 8) bytes with one value that is not UTF-8 (a 0xFF byte) names its block,
     * row and field, with that row first, last, or on either side of an 8-row half step's or a 16-row step's
     * edge; read as binary, the same block reads back as it is.
     */
    @Test
    void aBadValueInABlockOfValuesOfAtMostFourOrEightBytesIsNamed() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            for (int longest : new int[] {4, 8}) {
                for (int rows : new int[] {8, 9, 16, 17, 33, 64, 1000}) {
                    for (int bad : new int[] {0, 7, 8, 15, 16, rows - 1}) {
                        if (bad >= rows) {
                            continue;
                        }
                        byte[][] values = new byte[rows][];
                        for (int i = 0; i < rows; i++) {
                            values[i] = ascii("abcd".repeat(2).substring(0, 1 + i % longest));
                        }
                        values[bad] = new byte[] {'x', (byte) 0xFF};
                        ViewColumn column = dev.stringview.ViewColumns.ofBytes(arena, values);
                        ColumnSerializer serializer = ColumnSerializer.of(ColumnFormat.SEPARATED, ColumnCodec.NONE)
                                .withBlockRows(rows);
                        byte[] bytes = FormatTestData.serialize(serializer, column);
                        bytes[7 + ColumnFormat.SEPARATED.typeName().length()] = 0; // claim UTF-8
                        CorruptColumnException e = assertThrows(CorruptColumnException.class,
                                () -> ColumnDeserializer.create().read(MemorySegment.ofArray(bytes), arena));
                        String where = "longest=" + longest + " rows=" + rows + " bad=" + bad + ": "
                                + e.getMessage();
                        assertEquals(0, e.block(), where);
                        assertEquals(bad, e.row(), where);
                        assertEquals("utf8", e.field(), where);
                        // The same block read as binary takes the bytes as they are.
                        bytes[7 + ColumnFormat.SEPARATED.typeName().length()] = 1;
                        ViewColumn back = ColumnDeserializer.create().read(MemorySegment.ofArray(bytes), arena);
                        FormatTestData.assertMatches(new Model(ViewKind.BINARY, List.of(values)), back, where);
                    }
                }
            }
        }
    }

    @Test
    void manyBlocksMixingAsciiAndNonAsciiStreamsAndLongValues() throws IOException {
        Random random = new Random(SEED + 2);
        try (Arena arena = Arena.ofConfined()) {
            for (ColumnSerializer base : RoundTripTest.serializers()) {
                for (int repeat = 0; repeat < 4; repeat++) {
                    int blockRows = 1 + random.nextInt(50);
                    List<byte[]> values = new ArrayList<>();
                    int rows = 1 + random.nextInt(2000);
                    Bytes blockBytes = Bytes.ASCII;
                    for (int i = 0; i < rows; i++) {
                        if (i % blockRows == 0) { // each block ASCII-only or not, so both paths alternate
                            blockBytes = random.nextBoolean() ? Bytes.ASCII : Bytes.UTF8;
                        }
                        int length = random.nextInt(3) == 0 ? random.nextInt(100) : LENGTHS[random.nextInt(8)];
                        values.add(random.nextInt(6) == 0 ? null : value(random, blockBytes, length));
                    }
                    Model model = new Model(ViewKind.UTF8, values);
                    String where = "seed=" + (SEED + 2) + " format=" + base.format() + " codec=" + base.codec()
                            + " repeat=" + repeat + " rows=" + rows + " blockRows=" + blockRows;
                    FormatTestData.readEveryWay(base.withBlockRows(blockRows), model, arena, where);
                }
            }
        }
    }

    @Test
    void aValueEndingInsideACharacterIsNamedInTheBlockAfterAnAsciiBlock() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            // Block 0 is ASCII; block 1's stream C3 A9 is valid UTF-8 ("é") but split over rows 2 and 3.
            ViewColumn column = dev.stringview.ViewColumns.ofBytes(arena, ascii("ab"), ascii("cd"),
                    new byte[] {(byte) 0xC3}, new byte[] {(byte) 0xA9});
            for (ColumnSerializer serializer : RoundTripTest.serializers()) {
                byte[] bytes = FormatTestData.serialize(serializer.withBlockRows(2), column);
                bytes[7 + serializer.format().typeName().length()] = 0; // claim UTF-8
                CorruptColumnException e = assertThrows(CorruptColumnException.class,
                        () -> ColumnDeserializer.create().read(MemorySegment.ofArray(bytes), arena));
                String where = serializer.format() + " " + serializer.codec() + ": " + e.getMessage();
                assertEquals(1, e.block(), where);
                assertEquals(2, e.row(), where);
                assertEquals("utf8", e.field(), where);
            }
        }
    }

    private static ViewKind kind(Bytes bytes) {
        return bytes == Bytes.BINARY_HIGH ? ViewKind.BINARY : ViewKind.UTF8;
    }

    private static byte[] value(Random random, Bytes bytes, int length) {
        return switch (bytes) {
            case ASCII -> {
                byte[] out = new byte[length];
                for (int i = 0; i < length; i++) {
                    out[i] = (byte) (0x20 + random.nextInt(0x5F));
                }
                yield out;
            }
            case UTF8 -> FormatTestData.utf8(random, length);
            case BINARY_HIGH -> {
                byte[] out = new byte[length];
                random.nextBytes(out);
                for (int i = 0; i < length; i += 3) {
                    out[i] |= (byte) 0x80; // bytes >= 0x80, also in the prefix
                }
                yield out;
            }
        };
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
