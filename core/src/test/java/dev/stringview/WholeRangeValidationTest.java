package dev.stringview;

import static org.junit.jupiter.api.Assertions.fail;

import dev.stringview.ValidationPropertyTest.Raw;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The whole-range UTF-8 check ({@link Utf8#wellFormedWhole}: an OR per block, the DFA only from a block with a byte
 * of 80..FF to the next character boundary) against the JDK's decoder, and the column check that uses it per run
 * of adjacent values, cut at every chunk of {@code ViewValidation}, against the row-by-row model of
 * {@link ValidationPropertyTest}: values that tile their buffers and values that do not, many buffers, every edge
 * length, flaws at the edges of buffers, blocks and chunks and in prefixes.
 */
class WholeRangeValidationTest {
    /** Lengths around the check's block (1024 bytes) and its multiples, and the small edges. */
    private static final int[] LENGTHS = {0, 1, 7, 8, 11, 12, 13, 15, 16, 17, 31, 32, 33, 1016, 1020, 1021, 1022,
        1023, 1024, 1025, 1026, 1027, 1028, 2047, 2048, 2049, 3072, 3075, 5000};

    /** Characters of 1 to 4 bytes and ill-formed pieces, to place at and across block edges. */
    private static final byte[][] PIECES = {
        {'a'}, {(byte) 0xC3, (byte) 0xA9}, {(byte) 0xE2, (byte) 0x82, (byte) 0xAC},
        {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80}, {(byte) 0xF4, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF},
        {(byte) 0xED, (byte) 0x9F, (byte) 0xBF}, {(byte) 0x80}, {(byte) 0xBF}, {(byte) 0xC2}, {(byte) 0xE0, (byte) 0x80},
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF0, (byte) 0x8F}, {(byte) 0xF5}, {(byte) 0xFF},
        {(byte) 0xC0, (byte) 0x80}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0xF0, (byte) 0x9F, (byte) 0x98},
        {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80}};

    @Test
    void wholeRangeAgreesWithTheJdkAtEveryBlockEdge() {
        Random random = new Random(36);
        try (Arena arena = Arena.ofConfined()) {
            for (int length : LENGTHS) {
                for (int round = 0; round < 60; round++) {
                    byte[] bytes = text(random, length, round % 3 == 0 ? 0 : 1 + random.nextInt(3));
                    // A piece written over the text near a block edge (or at the very start or end).
                    int[] edges = {0, length - 1, 1021, 1022, 1023, 1024, 1025, 2046, 2047, 2048, random.nextInt(length + 1)};
                    int at = edges[random.nextInt(edges.length)];
                    byte[] piece = PIECES[random.nextInt(PIECES.length)];
                    for (int i = 0; i < piece.length && at + i < length && at >= 0; i++) {
                        bytes[at + i] = piece[i];
                    }
                    assertAgrees(arena, bytes, random.nextInt(9), "length=" + length + " round=" + round);
                }
            }
        }
    }

    @Test
    void wholeRangeAgreesWithTheJdkOnRandomNonAsciiText() {
        Random random = new Random(37);
        try (Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < 400; round++) {
                byte[] bytes = text(random, random.nextInt(4200), 1 + random.nextInt(200));
                if (random.nextInt(3) == 0 && bytes.length > 0) {
                    bytes[random.nextInt(bytes.length)] = PIECES[6 + random.nextInt(PIECES.length - 6)][0];
                }
                assertAgrees(arena, bytes, random.nextInt(9), "round=" + round);
            }
        }
    }

    /** Compares with the JDK in native and heap memory, surrounded by bytes that would break UTF-8 if read. */
    private static void assertAgrees(Arena arena, byte[] bytes, int at, String what) {
        boolean expected = ValidationPropertyTest.jdkFirstInvalid(bytes) < 0;
        MemorySegment segment = arena.allocate(bytes.length + at + 9L, 1);
        segment.fill((byte) 0x80);
        segment.set(ValueLayout.JAVA_BYTE, at + bytes.length, (byte) 0xE2);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, segment, at, bytes.length);
        MemorySegment heap = MemorySegment.ofArray(segment.toArray(ValueLayout.JAVA_BYTE));
        for (MemorySegment where : new MemorySegment[] {segment, heap}) {
            if (Utf8.wellFormedWhole(where, at, at + bytes.length) != expected) {
                fail("whole-range utf8 disagrees with the JDK: " + what + " native=" + where.isNative() + " expected="
                        + expected + " bytes=" + HexFormat.of().formatHex(bytes));
            }
        }
    }

    /** ASCII text of {@code length} bytes with about one character of 2 to 4 bytes per {@code every} hundred. */
    private static byte[] text(Random random, int length, int every) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (out.size() < length) {
            if (every > 0 && random.nextInt(100) < every) {
                out.writeBytes(PIECES[1 + random.nextInt(4)]);
            } else {
                out.write('a' + random.nextInt(26));
            }
        }
        byte[] bytes = out.toByteArray();
        byte[] cut = new byte[length];
        System.arraycopy(bytes, 0, cut, 0, length); // may cut the last character: then the JDK says invalid too
        return cut;
    }

    // ------------------------------------------------------------------------------------------ columns

    /** A column under construction: values laid out in buffers, tiling them or not. */
    private static final class Layout {
        final List<ByteArrayOutputStream> buffers = new ArrayList<>();
        final List<byte[]> views = new ArrayList<>();
        final List<Boolean> nulls = new ArrayList<>();

        void add(Random random, byte[] value, boolean tile, int bufferCount) {
            byte[] view = new byte[16];
            ByteBuffer v = ByteBuffer.wrap(view).order(ByteOrder.LITTLE_ENDIAN);
            v.putInt(0, value.length);
            if (value.length <= 12) {
                System.arraycopy(value, 0, view, 4, value.length);
            } else {
                while (buffers.size() < bufferCount) {
                    buffers.add(new ByteArrayOutputStream());
                }
                int b = tile ? buffers.size() - 1 - (random.nextInt(8) == 0 ? random.nextInt(bufferCount) : 0)
                        : random.nextInt(bufferCount);
                ByteArrayOutputStream buffer = buffers.get(b);
                if (!tile && random.nextInt(3) == 0) {
                    buffer.write(random.nextInt(3) == 0 ? 0x80 : 'x'); // a gap byte no view refers to
                }
                v.putInt(8, b);
                v.putInt(12, buffer.size());
                System.arraycopy(value, 0, view, 4, 4);
                buffer.writeBytes(value);
            }
            views.add(view);
            nulls.add(false);
        }

        Raw raw(ViewKind kind, boolean shuffle, Random random) {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < views.size(); i++) {
                order.add(i);
            }
            if (shuffle) {
                Collections.shuffle(order, random);
            }
            byte[] all = new byte[views.size() * 16];
            boolean[] nullRows = new boolean[views.size()];
            for (int row = 0; row < order.size(); row++) {
                System.arraycopy(views.get(order.get(row)), 0, all, row * 16, 16);
                nullRows[row] = nulls.get(order.get(row));
            }
            byte[][] data = new byte[buffers.size()][];
            for (int b = 0; b < data.length; b++) {
                data[b] = buffers.get(b).toByteArray();
            }
            return new Raw(kind, views.size(), all, nullRows, data);
        }
    }

    private static final int[] VALUE_LENGTHS = {0, 1, 11, 12, 13, 15, 16, 17, 40, 200};

    private static byte[] value(Random random, int nonAscii) {
        int length = VALUE_LENGTHS[random.nextInt(VALUE_LENGTHS.length)];
        byte[] value = text(random, length, nonAscii);
        if (length > 0 && random.nextInt(4) == 0) { // end on a whole character, not a cut one
            value[length - 1] = 'z';
            for (int i = length - 2; i >= 0 && i >= length - 4 && (value[i] & 0xC0) == 0xC0; i--) {
                value[i] = 'y';
            }
        }
        return value;
    }

    /**
     * Columns of 1 to 3000 rows (so 1024-row chunks are cut, with runs open across the cuts), in 1 to 40 buffers,
     * whose values tile the buffers or not (gaps, random buffers, shuffled rows), then corrupted the ways the model
     * knows, plus flaws put exactly at buffer and chunk edges and into prefixes.
     */
    @Test
    void columnsAgreeWithTheModelWhetherOrNotTheirValuesTile() {
        Random random = new Random(38);
        try (Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < 300; round++) {
                boolean tile = random.nextBoolean();
                int rows = round % 10 == 0 ? 1024 + random.nextInt(3) - 1 : 1 + random.nextInt(3000);
                int bufferCount = random.nextInt(4) == 0 ? 1 + random.nextInt(40) : 1 + random.nextInt(3);
                int nonAscii = random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(30);
                Layout layout = new Layout();
                for (int row = 0; row < rows; row++) {
                    layout.add(random, value(random, nonAscii), tile, bufferCount);
                }
                boolean shuffle = !tile && random.nextBoolean();
                Raw raw = layout.raw(random.nextInt(5) == 0 ? ViewKind.BINARY : ViewKind.UTF8, shuffle, random);
                int flaw = random.nextInt(6);
                String what = "round=" + round + " rows=" + rows + " buffers=" + raw.buffers().length + " tile="
                        + tile + " shuffle=" + shuffle + " flaw=" + flaw;
                switch (flaw) {
                    case 1 -> flawAtBufferEdge(raw, random);
                    case 2 -> flawInPrefix(raw, random);
                    case 3 -> flawAtRow(raw, random, 1023 + random.nextInt(3));
                    case 4 -> ValidationPropertyTest.corrupt(raw,
                            ValidationPropertyTest.Corruption.values()[random.nextInt(
                                    ValidationPropertyTest.Corruption.values().length)], random);
                    default -> { } // as laid out: valid, unless a value ends in a cut character
                }
                boolean heap = random.nextBoolean();
                ValidationPropertyTest.assertValidatesLikeTheModel(arena, raw, heap, random.nextBoolean() && heap,
                        random.nextBoolean(), what);
            }
        }
    }

    /** A continuation or lead byte at the first or last byte of a buffer. */
    private static void flawAtBufferEdge(Raw raw, Random random) {
        if (raw.buffers().length == 0) {
            return;
        }
        byte[] buffer = raw.buffers()[random.nextInt(raw.buffers().length)];
        if (buffer.length > 0) {
            buffer[random.nextBoolean() ? 0 : buffer.length - 1] = random.nextBoolean() ? (byte) 0x80 : (byte) 0xE2;
        }
    }

    /** A prefix byte of a long value, in the view and in the data alike, made a continuation or ill-formed byte. */
    private static void flawInPrefix(Raw raw, Random random) {
        for (int tries = 0; tries < 20; tries++) {
            int row = random.nextInt(raw.size());
            ByteBuffer v = ByteBuffer.wrap(raw.views()).order(ByteOrder.LITTLE_ENDIAN);
            if (v.getInt(row * 16) > 12) {
                int i = random.nextInt(4);
                byte bad = new byte[] {(byte) 0x80, (byte) 0xBF, (byte) 0xC0, (byte) 0xFF}[random.nextInt(4)];
                raw.views()[row * 16 + 4 + i] = bad;
                raw.buffers()[v.getInt(row * 16 + 8)][v.getInt(row * 16 + 12) + i] = bad;
                return;
            }
        }
    }

    /** A continuation byte as the first data byte of a long value at {@code row}, near a chunk cut. */
    private static void flawAtRow(Raw raw, Random random, int row) {
        if (row >= raw.size()) {
            return;
        }
        ByteBuffer v = ByteBuffer.wrap(raw.views()).order(ByteOrder.LITTLE_ENDIAN);
        if (v.getInt(row * 16) > 12) {
            raw.views()[row * 16 + 4] = (byte) 0x80;
            raw.buffers()[v.getInt(row * 16 + 8)][v.getInt(row * 16 + 12)] = (byte) 0x80;
        }
    }

    /**
     * One text cut into values that tile one buffer, with a character of 2 to 4 bytes placed across the boundary
     * of rows 1023 and 1024, where a chunk ends and the open run is checked up to that boundary: the run must be
     * rejected exactly when the model rejects a value.
     */
    @Test
    void aCharacterAcrossTheChunkCutIsRejectedAsItsValuesAre() {
        try (Arena arena = Arena.ofConfined()) {
            for (byte[] c : new byte[][] {PIECES[1], PIECES[2], PIECES[3]}) {
                for (int cut = 0; cut < c.length; cut++) {
                    int rows = 1100;
                    int length = 20;
                    byte[] buffer = new byte[rows * length];
                    java.util.Arrays.fill(buffer, (byte) 'a');
                    int boundary = 1024 * length; // where row 1024 starts
                    System.arraycopy(c, 0, buffer, boundary - cut, c.length);
                    byte[] views = new byte[rows * 16];
                    ByteBuffer v = ByteBuffer.wrap(views).order(ByteOrder.LITTLE_ENDIAN);
                    for (int row = 0; row < rows; row++) {
                        v.putInt(row * 16, length);
                        System.arraycopy(buffer, row * length, views, row * 16 + 4, 4);
                        v.putInt(row * 16 + 12, row * length);
                    }
                    Raw raw = new Raw(ViewKind.UTF8, rows, views, new boolean[rows], new byte[][] {buffer});
                    ValidationPropertyTest.assertValidatesLikeTheModel(arena, raw, false, false, false,
                            "bytes=" + c.length + " cut=" + cut);
                    ValidationPropertyTest.assertValidatesLikeTheModel(arena, raw, true, true, false,
                            "heap bytes=" + c.length + " cut=" + cut);
                }
            }
        }
    }
}
