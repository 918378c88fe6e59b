package dev.stringview.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stringview.ViewKind;
import dev.stringview.format.FormatTestData.Model;
import dev.stringview.format.internal.AsciiBits;
import dev.stringview.format.internal.ViewLoops;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The separated reader's path for blocks with values over 12 bytes, against on-heap models: the chars' copy into
 * the block's buffer fused with the ASCII test ({@link AsciiBits#copyHighBits}), the view loops for long values
 * ({@link ViewLoops#allLong}, {@link ViewLoops#mixed}), and whole reads of such blocks, valid and not. Row counts
 * 0..70 and around 16, 32, 64 and 1,024; lengths 13 and up, 64 and up mixed in, one inline value among long ones;
 * bytes of 0x80 and more, and invalid UTF-8, in the middle of a 512-byte step of the vectorized copy, on either side
 * of its border, and in its tail; forged sizes. Fixed seeds, in every message.
 */
class LongValueBlocksTest {
    private static final long SEED = 0x5EED_1064L;
    private static final long HIGH = 0x8080_8080_8080_8080L;
    private static final ValueLayout.OfLong LE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final int[] ROWS = {7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1023, 1024, 1025};

    @BeforeAll
    static void inlineViewsWarm() {
        FormatTestData.warmUpInlineViews();
    }

    @Test
    void copyHighBitsCopiesExactlyAndOrsTheBytesLikeHighBits() {
        Random random = new Random(SEED);
        int[] edges = {0, 1, 7, 8, 9, 63, 64, 65, 511, 512, 513, 1023, 1024, 1025, 4099};
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 3_000; trial++) {
                int length = trial % 2 == 0 ? random.nextInt(71) : edges[random.nextInt(edges.length)];
                int from = random.nextInt(10);
                byte[] source = new byte[from + length + random.nextInt(9)];
                Arrays.fill(source, (byte) 0xFF); // the bytes around the range: never copied nor ORed
                for (int i = 0; i < length; i++) {
                    source[from + i] = (byte) random.nextInt(0x80);
                }
                int planted = -1;
                if (length > 0 && random.nextBoolean()) {
                    int[] spots = {0, length - 1, length / 2, Math.min(length - 1, 511), Math.min(length - 1, 512),
                            Math.max(0, length - 8), random.nextInt(length)};
                    planted = spots[random.nextInt(spots.length)];
                    source[from + planted] = (byte) (0x80 | random.nextInt(0x80));
                }
                MemorySegment to = random.nextBoolean() ? arena.allocate(Math.max(length, 1)).asSlice(0, length)
                        : MemorySegment.ofArray(new byte[length]); // sized exactly: a write past it throws
                String where = "seed=" + SEED + " trial=" + trial + " length=" + length + " from=" + from
                        + " planted=" + planted + " native=" + to.isNative();
                long high = AsciiBits.copyHighBits(MemorySegment.ofArray(source), from, to, length);
                assertArrayEquals(Arrays.copyOfRange(source, from, from + length),
                        to.toArray(ValueLayout.JAVA_BYTE), where);
                assertEquals(AsciiBits.highBits(source, from, length), high, where);
                assertEquals(planted >= 0, (high & HIGH) != 0, where);
            }
        }
    }

    @Test
    void longValueViewLoopsWriteTheModelsViews() {
        Random random = new Random(SEED + 1);
        int[] bufferIndexes = {0, 1, 7, 65_535, Integer.MAX_VALUE};
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 2_000; trial++) {
                int rows = trial % 3 == 0 ? ROWS[random.nextInt(ROWS.length)] : random.nextInt(71);
                boolean allLong = random.nextBoolean();
                int[] sizes = new int[rows + 2];
                Arrays.fill(sizes, 1_000); // past rows: must be ignored
                for (int i = 0; i < rows; i++) {
                    int shape = random.nextInt(8); // the shortest long values (13..16) often: their prefix load
                    // reaches back into the previous value by 4 of its 13+ bytes
                    sizes[i] = shape < 2 ? 64 + random.nextInt(200) : shape < 4 ? 13 + random.nextInt(4)
                            : 13 + random.nextInt(68);
                    if (!allLong && random.nextInt(3) == 0) {
                        sizes[i] = random.nextInt(13);
                    }
                }
                int charsLength = Arrays.stream(sizes, 0, rows).sum();
                int base = random.nextInt(3) == 0 ? 0 : random.nextInt(20);
                // 12 bytes of room for mixed's inline loads; allLong's array ends with the chars, and it reads
                // them through a heap segment over it, so a load before or past them throws
                byte[] bytes = new byte[base + charsLength + (allLong ? 0 : 12)];
                random.nextBytes(bytes); // bytes >= 0x80 in prefixes and past the values (must be masked)
                int bufferIndex = bufferIndexes[random.nextInt(bufferIndexes.length)];
                long outAt = 16L * random.nextInt(3);
                MemorySegment views = arena.allocate(outAt + 16L * rows + 16);
                views.fill((byte) 0x5A);
                String where = "seed=" + (SEED + 1) + " trial=" + trial + " rows=" + rows + " allLong=" + allLong
                        + " base=" + base + " bufferIndex=" + bufferIndex;
                int end = allLong ? ViewLoops.allLong(sizes, rows, MemorySegment.ofArray(bytes), base, bufferIndex,
                        views, outAt)
                        : ViewLoops.mixed(sizes, rows, bytes, base, bufferIndex, views, outAt);
                assertEquals(charsLength, end, where);
                int offset = 0;
                for (int i = 0; i < rows; i++) {
                    long[] expected = modelView(bytes, base + offset, sizes[i], bufferIndex, offset);
                    assertEquals(expected[0], views.get(LE_LONG, outAt + 16L * i), where + " row=" + i + " word=0");
                    assertEquals(expected[1], views.get(LE_LONG, outAt + 16L * i + 8), where + " row=" + i
                            + " word=1");
                    offset += sizes[i];
                }
                assertEquals(0x5A5A_5A5A_5A5A_5A5AL, views.get(LE_LONG, outAt + 16L * rows), where + " past");
            }
        }
    }

    @Test
    void blocksOfLongValuesReadBackEveryWay() throws IOException {
        Random random = new Random(SEED + 2);
        try (Arena arena = Arena.ofConfined()) {
            for (ColumnSerializer base : RoundTripTest.serializers()) {
                if (base.format() != ColumnFormat.SEPARATED) {
                    continue;
                }
                for (int repeat = 0; repeat < 8; repeat++) {
                    int rows = repeat % 2 == 0 ? ROWS[random.nextInt(ROWS.length)] : random.nextInt(71);
                    int style = random.nextInt(4); // 0: all long, 1: one inline among them, 2: nulls, 3: non-ASCII
                    List<byte[]> values = new ArrayList<>();
                    for (int i = 0; i < rows; i++) {
                        int length = random.nextInt(4) == 0 ? 64 + random.nextInt(100) : 13 + random.nextInt(68);
                        values.add(style == 2 && random.nextInt(5) == 0 ? null
                                : style == 3 ? FormatTestData.utf8(random, length) : ascii(random, length));
                    }
                    if (style == 1 && rows > 0) {
                        values.set(random.nextInt(rows), ascii(random, random.nextInt(13)));
                    }
                    Model model = new Model(ViewKind.UTF8, values);
                    int blockRows = random.nextBoolean() ? 1 + random.nextInt(100) : 65_535;
                    String where = "seed=" + (SEED + 2) + " codec=" + base.codec() + " repeat=" + repeat + " rows="
                            + rows + " style=" + style + " blockRows=" + blockRows;
                    FormatTestData.readEveryWay(base.withBlockRows(blockRows), model, arena, where);
                }
            }
        }
    }

    /**
     * Blocks of long values only with no null, read from a heap segment (raw sizes, codec none), take the reader's
     * raw-sizes path ({@code SizeCodec.summarize} over the sizes stream, {@link ViewLoops#allLongRawSizes}); the
     * same bytes from a native segment and a stream, and blocks with a null or an inline value, do not. All against
     * the model, in columns that mix both kinds of block (so that the path's validity bits are checked next to
     * blocks with nulls), with the shortest long values (13 to 17 bytes) often, bytes of 0x80 and more in the
     * prefixes, non-ASCII UTF-8 (the UTF-8 check then names rows from sizes the path had not copied), and a last
     * block shorter than the others.
     */
    @Test
    void allLongBlocksReadTheirRawSizesWhereTheyArrive() throws IOException {
        Random random = new Random(SEED + 5);
        int[] inlineLengths = {0, 1, 11, 12};
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 80; trial++) {
                boolean binary = trial % 2 == 0;
                int blockRows = trial % 5 == 4 ? 1 : ROWS[random.nextInt(ROWS.length)];
                int blocks = 1 + random.nextInt(5);
                List<byte[]> values = new ArrayList<>();
                for (int b = 0; b < blocks; b++) {
                    int shape = random.nextInt(4); // 0, 1: all long; 2: a null among them; 3: an inline value
                    int first = values.size();
                    for (int i = 0; i < blockRows; i++) {
                        int length = random.nextBoolean() ? 13 + random.nextInt(5) : 13 + random.nextInt(100);
                        values.add(value(random, binary, length));
                    }
                    if (shape == 2) {
                        values.set(first + random.nextInt(blockRows), null);
                    } else if (shape == 3) {
                        values.set(first + random.nextInt(blockRows),
                                value(random, binary, inlineLengths[random.nextInt(inlineLengths.length)]));
                    }
                }
                int rows = values.size() - random.nextInt(blockRows); // the last block may be shorter
                Model model = new Model(binary ? ViewKind.BINARY : ViewKind.UTF8, values.subList(0, rows));
                String where = "seed=" + (SEED + 5) + " trial=" + trial + " rows=" + rows + " blockRows=" + blockRows;
                FormatTestData.readEveryWay(ColumnSerializer.of(ColumnFormat.SEPARATED, ColumnCodec.NONE)
                        .withBlockRows(blockRows), model, arena, where);
            }
        }
    }

    private static byte[] value(Random random, boolean binary, int length) {
        return binary ? FormatTestData.binary(random, length) : FormatTestData.utf8(random, length);
    }

    @Test
    void invalidUtf8AnywhereInALongValueBlockIsNamedByBlockAndRow() throws IOException {
        Random random = new Random(SEED + 3);
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 40; trial++) {
                int rows = 40 + random.nextInt(60);
                List<byte[]> values = new ArrayList<>();
                for (int i = 0; i < rows; i++) {
                    values.add(ascii(random, 13 + random.nextInt(68)));
                }
                int blocks = 1 + random.nextInt(3);
                int blockRows = (rows + blocks - 1) / blocks;
                // A chars offset of the last block: around a 512-byte step of the copy, its middle, its tail.
                int first = (blocks - 1) * blockRows;
                int chars = 0;
                for (int i = first; i < rows; i++) {
                    chars += values.get(i).length;
                }
                int[] spots = {0, 255, 511, 512, 513, chars / 2, chars - 8, chars - 1, random.nextInt(chars)};
                int spot = Math.min(chars - 1, spots[trial % spots.length]);
                int row = first;
                int at = spot;
                while (at >= values.get(row).length) {
                    at -= values.get(row).length;
                    row++;
                }
                byte[] bad = values.get(row).clone();
                bad[at] = (byte) 0xFF; // never valid in UTF-8
                values.set(row, bad);
                Model model = new Model(ViewKind.BINARY, values); // written as binary, read back as UTF-8
                for (ColumnSerializer serializer : RoundTripTest.serializers()) {
                    if (serializer.format() != ColumnFormat.SEPARATED) {
                        continue;
                    }
                    byte[] bytes = FormatTestData.serialize(serializer.withBlockRows(blockRows),
                            FormatTestData.column(arena, model));
                    bytes[7 + serializer.format().typeName().length()] = 0; // claim UTF-8
                    String where = "seed=" + (SEED + 3) + " trial=" + trial + " codec=" + serializer.codec()
                            + " spot=" + spot + " row=" + row;
                    CorruptColumnException e = assertThrows(CorruptColumnException.class,
                            () -> ColumnDeserializer.create().read(MemorySegment.ofArray(bytes), arena), where);
                    assertEquals(blocks - 1, e.block(), where + ": " + e.getMessage());
                    assertEquals(row, e.row(), where + ": " + e.getMessage());
                    assertEquals("utf8", e.field(), where + ": " + e.getMessage());
                    // The same bytes as binary read back as they are.
                    bytes[7 + serializer.format().typeName().length()] = 1;
                    FormatTestData.assertMatches(model, ColumnDeserializer.create().read(MemorySegment.ofArray(bytes),
                            arena), where);
                }
            }
        }
    }

    @Test
    void forgedSizesInALongValueBlockGiveCleanErrorsOrTheValuesTheyDescribe() throws IOException {
        Random random = new Random(SEED + 4);
        ValueLayout.OfInt leInt = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 60; trial++) {
                int rows = 2 + random.nextInt(trial % 2 == 0 ? 70 : 1100);
                List<byte[]> values = new ArrayList<>();
                for (int i = 0; i < rows; i++) {
                    values.add(ascii(random, 13 + random.nextInt(68)));
                }
                byte[] bytes = FormatTestData.serialize(ColumnSerializer.of(ColumnFormat.SEPARATED, ColumnCodec.NONE),
                        FormatTestData.column(arena, new Model(ViewKind.UTF8, values)));
                int sizesAt = 38 + 8 + 1 + 4; // header, block rows and nulls, sizes encoding (raw) and length
                int row = random.nextInt(rows - 1);
                int size = values.get(row).length;
                byte[] forged = bytes.clone();
                String where = "seed=" + (SEED + 4) + " trial=" + trial + " rows=" + rows + " row=" + row;
                switch (trial % 3) {
                    case 0 -> { // the sum no longer matches the chars
                        MemorySegment.ofArray(forged).set(leInt, sizesAt + 4L * row, size + 1 + random.nextInt(1000));
                        CorruptColumnException e = assertThrows(CorruptColumnException.class,
                                () -> ColumnDeserializer.create().read(MemorySegment.ofArray(forged), arena), where);
                        assertEquals(0, e.block(), where + ": " + e.getMessage());
                        assertEquals("chars", e.field(), where + ": " + e.getMessage());
                    }
                    case 1 -> { // a size of 2^31 or more
                        MemorySegment.ofArray(forged).set(leInt, sizesAt + 4L * row, Integer.MIN_VALUE
                                + random.nextInt(1000));
                        CorruptColumnException e = assertThrows(CorruptColumnException.class,
                                () -> ColumnDeserializer.create().read(MemorySegment.ofArray(forged), arena), where);
                        assertEquals(0, e.block(), where + ": " + e.getMessage());
                        assertEquals(row, e.row(), where + ": " + e.getMessage());
                        assertEquals("sizes", e.field(), where + ": " + e.getMessage());
                    }
                    default -> { // bytes moved from one row to the next, the sum kept: the values the sizes describe
                        int moved = 1 + random.nextInt(size);
                        MemorySegment.ofArray(forged).set(leInt, sizesAt + 4L * row, size - moved);
                        MemorySegment.ofArray(forged).set(leInt, sizesAt + 4L * (row + 1),
                                values.get(row + 1).length + moved);
                        List<byte[]> described = new ArrayList<>(values);
                        byte[] joined = new byte[size + values.get(row + 1).length];
                        System.arraycopy(values.get(row), 0, joined, 0, size);
                        System.arraycopy(values.get(row + 1), 0, joined, size, values.get(row + 1).length);
                        described.set(row, Arrays.copyOfRange(joined, 0, size - moved));
                        described.set(row + 1, Arrays.copyOfRange(joined, size - moved, joined.length));
                        FormatTestData.assertMatches(new Model(ViewKind.UTF8, described),
                                ColumnDeserializer.create().read(MemorySegment.ofArray(forged), arena), where);
                    }
                }
            }
        }
    }

    /** The Utf8View view of the {@code length}-byte value at {@code bytes[p]}, at {@code offset} of its buffer. */
    private static long[] modelView(byte[] bytes, int p, int length, int bufferIndex, int offset) {
        byte[] view = new byte[16];
        MemorySegment v = MemorySegment.ofArray(view);
        v.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, length);
        if (length <= 12) {
            System.arraycopy(bytes, p, view, 4, length);
        } else {
            System.arraycopy(bytes, p, view, 4, 4);
            v.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 8, bufferIndex);
            v.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 12, offset);
        }
        return new long[] {v.get(LE_LONG, 0), v.get(LE_LONG, 8)};
    }

    private static byte[] ascii(Random random, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = (byte) (0x20 + random.nextInt(0x5F));
        }
        return out;
    }
}
