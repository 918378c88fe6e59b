package dev.stringview.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
import dev.stringview.format.FormatTestData.Model;
import dev.stringview.format.internal.SizeCodec;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The exact bytes the readers produce, against an on-heap model of the Utf8View layout and of where each
 * format's buffers are: every view word (zero padding of inline values, prefix, buffer index, offset; the zero
 * view of a null row) and every validity bit. Block shapes cover the separated reader's paths: blocks whose
 * values are all at most 4, 8 or 12 bytes, blocks with long values, the last rows of a block (fewer than 12
 * bytes of chars after their start, {@link ColumnDeserializer#rowsWithWordRoom}), empty rows among them, row
 * counts around 8, 16, 64 and 1,024, blocks starting at rows that are not multiples of 8 (validity bits shifted).
 * Fixed seeds, in every message.
 */
class ViewBytesTest {
    private static final long SEED = 0x5EED_1013L;
    private static final int[] EDGE = {0, 1, 11, 12, 13, 15, 16, 17};
    private static final int[] ROWS = {1, 2, 7, 8, 9, 12, 13, 15, 16, 17, 31, 63, 64, 65, 127, 1023, 1024, 1025};
    private static final ValueLayout.OfLong LE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @Test
    void rowsWithWordRoomCountsTheRowsWithTwelveBytesOfCharsFromTheirStart() {
        Random random = new Random(SEED);
        for (int trial = 0; trial < 20_000; trial++) {
            int n = 1 + random.nextInt(40);
            int[] sizes = new int[n + random.nextInt(3)]; // room past n, as in the reader's scratch
            Arrays.fill(sizes, 7); // must be ignored
            int style = random.nextInt(3);
            for (int i = 0; i < n; i++) {
                sizes[i] = switch (style) {
                    case 0 -> random.nextInt(3); // many empty and 1-byte values
                    case 1 -> EDGE[random.nextInt(EDGE.length)];
                    default -> random.nextInt(40);
                };
            }
            int expected = 0;
            for (int i = 0; i < n; i++) {
                long after = 0;
                for (int j = i; j < n; j++) {
                    after += sizes[j];
                }
                if (after >= 12) {
                    expected++;
                }
            }
            assertEquals(expected, ColumnDeserializer.rowsWithWordRoom(sizes, n),
                    "seed=" + SEED + " trial=" + trial + " sizes=" + Arrays.toString(Arrays.copyOf(sizes, n)));
        }
    }

    /**
     * The one pass over a block's sizes against a plain model: the sum, the longest class (the smallest of 4, 8 and
     * 12 bounding every size, else MAX_VALUE), whether every size is over 12 and null for any negative size, over 0..70 rows and around the
     * vector strides (16, 32, 64, 1024), uniform and mixed sizes, the rows past {@code n} ignored.
     */
    @Test
    void summarizeGivesTheSumAndLongestClassAndRejectsNegativeSizes() {
        Random random = new Random(SEED + 2);
        int[] lengths = {15, 16, 17, 31, 32, 33, 63, 64, 65, 1023, 1024, 1025, 4099};
        for (int trial = 0; trial < 20_000; trial++) {
            int n = trial % 3 == 0 ? lengths[random.nextInt(lengths.length)] : random.nextInt(71);
            // 1 << 19 and 1 << 21: around the sizes whose int sum over 1,024 to 4,099 rows may no longer be exact
            int bound = new int[] {0, 1, 4, 5, 8, 9, 12, 13, 40, 1 << 19, 1 << 21, Integer.MAX_VALUE}[
                    random.nextInt(12)];
            boolean uniform = random.nextInt(4) == 0;
            int[] sizes = new int[n + 1];
            sizes[n] = random.nextBoolean() ? 1_000 : -1; // past n: must be ignored
            int first = bound == Integer.MAX_VALUE ? random.nextInt(Integer.MAX_VALUE) : random.nextInt(bound + 1);
            for (int i = 0; i < n; i++) {
                sizes[i] = uniform ? first : bound == Integer.MAX_VALUE ? random.nextInt(Integer.MAX_VALUE)
                        : random.nextInt(bound + 1);
            }
            if (n > 0 && trial % 5 == 1) { // long values only (13..80 bytes), maybe with one inline value among them
                for (int i = 0; i < n; i++) {
                    sizes[i] = 13 + random.nextInt(68);
                }
                if (random.nextBoolean()) {
                    sizes[random.nextInt(n)] = random.nextInt(13);
                }
            }
            int negativeAt = n > 0 && random.nextInt(5) == 0 ? random.nextInt(n) : -1;
            if (negativeAt >= 0) {
                sizes[negativeAt] = random.nextBoolean() ? Integer.MIN_VALUE : -1 - random.nextInt(20);
            }
            long sum = 0;
            int longest = 0;
            int shortest = Integer.MAX_VALUE;
            for (int i = 0; i < n; i++) {
                sum += sizes[i];
                longest = Math.max(longest, sizes[i]);
                shortest = Math.min(shortest, sizes[i]);
            }
            String where = "seed=" + (SEED + 2) + " trial=" + trial + " n=" + n + " negativeAt=" + negativeAt;
            SizeCodec.Summary summary = SizeCodec.summarize(sizes, n);
            if (negativeAt >= 0) {
                assertNull(summary, where);
                continue;
            }
            int expected = longest <= 4 ? 4 : longest <= 8 ? 8 : longest <= 12 ? 12 : Integer.MAX_VALUE;
            assertEquals(new SizeCodec.Summary(sum, expected, longest > 12 && shortest > 12), summary, where);
        }
    }

    @Test
    void viewsAndValidityAreExactlyTheModelsInEveryFormatAndCodec() throws IOException {
        Random random = new Random(SEED + 1);
        try (Arena arena = Arena.ofConfined()) {
            for (ColumnSerializer base : RoundTripTest.serializers()) {
                for (int rows : ROWS) {
                    for (int shape = 0; shape < 6; shape++) {
                        List<byte[]> values = new ArrayList<>();
                        boolean binary = random.nextBoolean();
                        for (int i = 0; i < rows; i++) {
                            int length = switch (shape) {
                                case 0 -> random.nextInt(13); // all inline
                                case 1 -> random.nextInt(3); // mostly empty: long runs of last rows
                                case 2 -> EDGE[random.nextInt(EDGE.length)];
                                case 3 -> random.nextInt(5); // all at most 4 bytes
                                case 4 -> random.nextInt(9); // all at most 8 bytes
                                default -> random.nextInt(4) == 0 ? 13 + random.nextInt(60) : random.nextInt(13);
                            };
                            boolean isNull = shape != 1 && random.nextInt(5) == 0;
                            values.add(isNull ? null : binary ? FormatTestData.binary(random, length)
                                    : FormatTestData.utf8(random, length));
                        }
                        int blockRows = random.nextBoolean() ? rows : 1 + random.nextInt(Math.min(rows, 100));
                        String where = "seed=" + (SEED + 1) + " format=" + base.format() + " codec=" + base.codec()
                                + " rows=" + rows + " shape=" + shape + " blockRows=" + blockRows + " binary="
                                + binary;
                        assertViewsMatchTheModel(arena, base, binary, values, blockRows, where);
                    }
                }
            }
        }
    }

    /**
     * Each view loop on its own, through blocks whose lengths come from a small set: the 4-byte loop
     * ({0..4}, {1}: the benchmark's size 1), the 8-byte one ({4, 5}, {0, 3, 8}), the 12-byte one ({11, 12, 2}) and
     * the one with long values ({13, 0, 1}), so that every length of 0, 1, 2, 3, 4, 5, 8, 11, 12 and 13 occurs;
     * with bytes of 0x80 or more in the values (UTF-8 "é", binary bytes), nulls, and rows around 16, 32 and 64.
     */
    @Test
    void shortViewLoopsMatchTheModelAtEveryLengthAroundTheStrideBorders() throws IOException {
        Random random = new Random(SEED + 3);
        int[][] lengthSets = {{0, 1, 2, 3, 4}, {1}, {4, 5}, {0, 3, 8}, {11, 12, 2}, {13, 0, 1}};
        try (Arena arena = Arena.ofConfined()) {
            for (ColumnSerializer base : RoundTripTest.serializers()) {
                for (int rows : new int[] {1, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1025}) {
                    for (int set = 0; set < lengthSets.length; set++) {
                        int[] lengths = lengthSets[set];
                        boolean binary = random.nextBoolean();
                        List<byte[]> values = new ArrayList<>();
                        for (int i = 0; i < rows; i++) {
                            int length = lengths[random.nextInt(lengths.length)];
                            byte[] value = new byte[length];
                            for (int b = 0; b < length; b++) {
                                value[b] = (byte) (binary ? random.nextInt(256) : 'a' + random.nextInt(26));
                            }
                            if (binary && length > 0) {
                                value[random.nextInt(length)] |= (byte) 0x80;
                            } else if (length >= 2 && random.nextBoolean()) {
                                value[length - 2] = (byte) 0xC3; // "é" after ASCII: bytes of 0x80 or more
                                value[length - 1] = (byte) 0xA9;
                            }
                            values.add(random.nextInt(6) == 0 ? null : value);
                        }
                        int blockRows = random.nextBoolean() ? rows : 1 + random.nextInt(Math.min(rows, 40));
                        String where = "seed=" + (SEED + 3) + " format=" + base.format() + " codec=" + base.codec()
                                + " rows=" + rows + " lengths=" + Arrays.toString(lengths) + " blockRows="
                                + blockRows + " binary=" + binary;
                        assertViewsMatchTheModel(arena, base, binary, values, blockRows, where);
                    }
                }
            }
        }
    }

    /** Serializes {@code values}, reads them every way ({@link FormatTestData#readEveryWay}), compares the views. */
    private static void assertViewsMatchTheModel(Arena arena, ColumnSerializer base, boolean binary,
            List<byte[]> values, int blockRows, String where) throws IOException {
        int rows = values.size();
        Model model = new Model(binary ? ViewKind.BINARY : ViewKind.UTF8, values);
        ColumnSerializer serializer = base.withBlockRows(blockRows);
        long[] expected = expectedViews(values, blockRows, base.format());
        List<ViewColumn> read = FormatTestData.readEveryWay(serializer, model, arena, where);
        for (int way = 0; way < read.size(); way++) {
            ViewColumn column = read.get(way);
            String at = where + " input=" + way;
            long[] views = column.views().asSlice(0, 16L * rows).toArray(LE_LONG);
            for (int word = 0; word < views.length; word++) {
                if (views[word] != expected[word]) {
                    throw new AssertionError(at + ": row=" + word / 2 + " word=" + word % 2
                            + String.format(" actual=%016x expected=%016x", views[word], expected[word]));
                }
            }
            assertValidity(values, column, at);
        }
    }

    @Test
    void aNonAsciiByteFarIntoALargeCharsStreamIsFoundWhicheverPieceItIsIn() throws IOException {
        // The separated reader tests ASCII and copies the chars 64 KiB at a time: a 300 KB block, ASCII except at
        // one row, whose byte falls in the first piece, a middle one or the last one.
        try (Arena arena = Arena.ofConfined()) {
            for (ColumnSerializer serializer : RoundTripTest.serializers()) {
                for (int badRow : new int[] {0, 655, 1311, 2999}) {
                    for (boolean valid : new boolean[] {true, false}) {
                        List<byte[]> values = new ArrayList<>();
                        for (int i = 0; i < 3000; i++) {
                            byte[] value = new byte[100];
                            Arrays.fill(value, (byte) ('a' + i % 26));
                            values.add(value);
                        }
                        byte[] odd = values.get(badRow);
                        if (valid) {
                            odd[50] = (byte) 0xC3; // "é"
                            odd[51] = (byte) 0xA9;
                        } else {
                            odd[50] = (byte) 0xFF;
                        }
                        String where = "format=" + serializer.format() + " codec=" + serializer.codec() + " badRow="
                                + badRow + " valid=" + valid;
                        Model binary = new Model(ViewKind.BINARY, values);
                        byte[] bytes = FormatTestData.serialize(serializer.withBlockRows(65_535),
                                FormatTestData.column(arena, binary));
                        bytes[7 + serializer.format().typeName().length()] = 0; // claim UTF-8
                        if (valid) {
                            ViewColumn column = ColumnDeserializer.create().read(MemorySegment.ofArray(bytes), arena);
                            FormatTestData.assertMatches(new Model(ViewKind.UTF8, values), column, where);
                        } else {
                            CorruptColumnException e = org.junit.jupiter.api.Assertions.assertThrows(
                                    CorruptColumnException.class,
                                    () -> ColumnDeserializer.create().read(MemorySegment.ofArray(bytes), arena),
                                    where);
                            assertEquals(badRow, e.row(), where + ": " + e.getMessage());
                            assertEquals("utf8", e.field(), where + ": " + e.getMessage());
                            ViewColumn trusted = ColumnDeserializer.create().withUtf8Validation(false)
                                    .read(MemorySegment.ofArray(bytes), arena);
                            assertEquals(0xFF, trusted.bytes(badRow)[50] & 0xFF, where);
                        }
                    }
                }
            }
        }
    }

    @Test
    void aCharsStreamOverSixteenMebibytesIsTestedAndCopiedAtOnce() throws IOException {
        // Past 16 MiB the separated reader tests ASCII over the whole stream, then copies it: one non-ASCII row,
        // valid or not, near the end of a 17 MB block.
        try (Arena arena = Arena.ofConfined()) {
            int rows = 170_000;
            for (boolean valid : new boolean[] {true, false}) {
                List<byte[]> values = new ArrayList<>(rows);
                for (int i = 0; i < rows; i++) {
                    byte[] value = new byte[100];
                    Arrays.fill(value, (byte) ('a' + i % 26));
                    values.add(value);
                }
                int badRow = rows - 3;
                values.get(badRow)[10] = valid ? (byte) 0x7F : (byte) 0x80;
                if (valid) {
                    values.get(badRow)[11] = (byte) 0xC3; // "é" after a DEL
                    values.get(badRow)[12] = (byte) 0xA9;
                }
                ColumnSerializer serializer = ColumnSerializer.of(ColumnFormat.SEPARATED, ColumnCodec.NONE)
                        .withBlockRows(rows);
                byte[] bytes = FormatTestData.serialize(serializer,
                        FormatTestData.column(arena, new Model(ViewKind.BINARY, values)));
                bytes[7 + serializer.format().typeName().length()] = 0; // claim UTF-8
                String where = "rows=" + rows + " badRow=" + badRow + " valid=" + valid;
                if (valid) {
                    ViewColumn column = ColumnDeserializer.create().read(MemorySegment.ofArray(bytes), arena);
                    assertEquals(rows, column.size(), where);
                    assertEquals(1, column.bufferCount(), where);
                    for (int row : new int[] {0, badRow - 1, badRow, rows - 1}) {
                        org.junit.jupiter.api.Assertions.assertArrayEquals(values.get(row), column.bytes(row),
                                where + " row=" + row);
                    }
                } else {
                    CorruptColumnException e = org.junit.jupiter.api.Assertions.assertThrows(
                            CorruptColumnException.class,
                            () -> ColumnDeserializer.create().read(MemorySegment.ofArray(bytes), arena), where);
                    assertEquals(badRow, e.row(), where + ": " + e.getMessage());
                    assertEquals("utf8", e.field(), where + ": " + e.getMessage());
                }
            }
        }
    }

    /**
     * The views of {@code values} (16 bytes a row, as two little-endian words) as the format's reader must build
     * them: a value of at most 12 bytes inline and zero-padded; a longer one pointing into its block's buffer
     * (one buffer per block that has a long value; separated: at the running sum of the block's sizes;
     * size-prefix: past its LEB128 length in the block's values stream); a null row all zero.
     */
    private static long[] expectedViews(List<byte[]> values, int blockRows, ColumnFormat format) {
        long[] views = new long[2 * values.size()];
        int buffers = 0;
        for (int first = 0; first < values.size(); first += blockRows) {
            int end = Math.min(values.size(), first + blockRows);
            boolean anyLong = false;
            long offset = 0;
            for (int row = first; row < end; row++) {
                byte[] value = values.get(row);
                int length = value == null ? 0 : value.length;
                if (format == ColumnFormat.SIZE_PREFIX) {
                    offset += leb128Length(length);
                }
                if (value != null && length > 12) {
                    anyLong = true;
                    views[2 * row] = length | (littleEndian(value, 0, 4) << 32);
                    views[2 * row + 1] = buffers | (offset << 32);
                } else if (value != null) {
                    views[2 * row] = length | (littleEndian(value, 0, Math.min(length, 4)) << 32);
                    views[2 * row + 1] = length > 4 ? littleEndian(value, 4, length - 4) : 0;
                }
                offset += length;
            }
            if (anyLong) {
                buffers++;
            }
        }
        return views;
    }

    private static void assertValidity(List<byte[]> values, ViewColumn column, String where) {
        boolean anyNull = values.stream().anyMatch(v -> v == null);
        assertEquals(anyNull, column.validity().isPresent(), where + ": validity present");
        if (!anyNull) {
            return;
        }
        MemorySegment bits = column.validity().orElseThrow();
        for (int row = 0; row < values.size(); row++) {
            boolean set = (bits.get(ValueLayout.JAVA_BYTE, row >>> 3) & (1 << (row & 7))) != 0;
            assertEquals(values.get(row) != null, set, where + ": validity row=" + row);
        }
        for (long row = values.size(); row < Math.min(bits.byteSize() * 8, values.size() + 64L); row++) {
            boolean set = (bits.get(ValueLayout.JAVA_BYTE, row >>> 3) & (1 << (row & 7))) != 0;
            assertEquals(false, set, where + ": validity bit past the rows row=" + row);
        }
    }

    private static long littleEndian(byte[] value, int from, int count) {
        long word = 0;
        for (int i = 0; i < count; i++) {
            word |= (value[from + i] & 0xFFL) << (8 * i);
        }
        return word;
    }

    private static int leb128Length(int value) {
        int bytes = 1;
        while ((value >>>= 7) != 0) {
            bytes++;
        }
        return bytes;
    }
}
