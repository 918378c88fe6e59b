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
    static void inlineViewsSettled() throws InterruptedException {
        FormatTestData.awaitInlineViews();
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
