package dev.stringview.parquet.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.internal.reader.SubstringSearch;
import dev.stringview.ViewKind;
import dev.stringview.ViewPredicates;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link PlainDecoder#selectContaining} (one search over a PLAIN page, occurrences mapped back to values) against
 * an on-heap model ({@code contains} on each value's bytes) and against core's contains kernel over the views that
 * {@link PlainDecoder#decode} builds from the same page. Pages hold values of 0, 1, 11, 12, 13, 15, 16 and 17 bytes
 * and others, non-ASCII text, bytes 0x00, 0x07 and 0x0d (which also occur in length prefixes), and nulls; needles
 * are drawn from inside values and from the page's raw bytes, so that many occur across a length prefix or two
 * values, and must not count there. Pages are decided in random pieces, as batches cut them.
 */
class PlainPageSearchTest {
    private static final String[] ALPHABET = {"g", "o", "l", "e", "\u0000", "\u0007", "\r", "é", "€", "x"};
    private static final int[] LENGTHS = {0, 1, 11, 12, 13, 15, 16, 17};

    /** A page: the values (null for a null row) and its PLAIN bytes between junk, in {@code segment}. */
    private record Page(List<byte[]> values, MemorySegment segment, long start, long end) {}

    private static Page page(Arena arena, Random random, byte[] junk) {
        int rows = random.nextInt(8) == 0 ? 1 : 1 + random.nextInt(150);
        double nulls = random.nextBoolean() ? 0 : 0.3;
        List<byte[]> values = new ArrayList<>();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(junk);
        for (int r = 0; r < rows; r++) {
            if (random.nextDouble() < nulls) {
                values.add(null);
                continue;
            }
            int chars = random.nextInt(4) == 0 ? random.nextInt(200) : LENGTHS[random.nextInt(LENGTHS.length)];
            StringBuilder sb = new StringBuilder();
            while (sb.toString().getBytes(StandardCharsets.UTF_8).length < chars) {
                sb.append(ALPHABET[random.nextInt(ALPHABET.length)]);
            }
            byte[] value = sb.toString().getBytes(StandardCharsets.UTF_8);
            values.add(value);
            bytes.write(value.length);
            bytes.write(value.length >>> 8);
            bytes.write(0);
            bytes.write(0);
            bytes.writeBytes(value);
        }
        int end = bytes.size();
        bytes.writeBytes(junk); // the needle after the values section must not count
        byte[] all = bytes.toByteArray();
        MemorySegment segment = arena.allocate(all.length);
        segment.copyFrom(MemorySegment.ofArray(all));
        return new Page(values, segment, junk.length, end);
    }

    /** A needle: inside a value, a slice of the raw page (across prefixes), or random text; sometimes long. */
    private static byte[] needle(Page page, Random random) {
        byte[] raw = page.segment().asSlice(page.start(), page.end() - page.start()).toArray(ValueLayout.JAVA_BYTE);
        int kind = random.nextInt(4);
        if (kind == 0 && raw.length > 0) {
            int from = random.nextInt(raw.length);
            int to = Math.min(raw.length, from + 1 + random.nextInt(random.nextBoolean() ? 6 : 24));
            return Arrays.copyOfRange(raw, from, to);
        }
        List<byte[]> present = page.values().stream().filter(v -> v != null && v.length > 0).toList();
        if (kind == 1 && !present.isEmpty()) {
            byte[] v = present.get(random.nextInt(present.size()));
            int from = random.nextInt(v.length);
            return Arrays.copyOfRange(v, from, Math.min(v.length, from + 1 + random.nextInt(20)));
        }
        StringBuilder sb = new StringBuilder();
        int chars = 1 + random.nextInt(kind == 2 ? 3 : 18);
        for (int i = 0; i < chars; i++) {
            sb.append(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static boolean contains(byte[] value, byte[] needle) {
        for (int i = 0; i + needle.length <= value.length; i++) {
            if (Arrays.equals(value, i, i + needle.length, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void pageSearchEqualsTheModelAndCoresKernelOverDecodedViews() {
        Random random = new Random(20261124);
        int pages = 0;
        int crossing = 0; // needles that occur in the raw page across a prefix but in no value there
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 2000; trial++) {
                Page page = page(arena, random, random.nextBoolean() ? new byte[0] : "google\u0007".getBytes());
                byte[] needle = needle(page, random);
                String where = "trial=" + trial + " rows=" + page.values().size() + " needle="
                        + Arrays.toString(needle);
                int rows = page.values().size();
                List<Integer> expected = new ArrayList<>();
                long[] valid = new long[(rows + 63) >>> 6];
                for (int r = 0; r < rows; r++) {
                    byte[] v = page.values().get(r);
                    if (v != null) {
                        valid[r >>> 6] |= 1L << r;
                        if (contains(v, needle)) {
                            expected.add(r);
                        }
                    }
                }
                boolean hasNulls = page.values().contains(null);
                if (expected.isEmpty() && SubstringSearch.of(needle).indexOf(page.segment(), page.start(),
                        page.end() - page.start()) >= 0) {
                    crossing++;
                }

                // One search over the page, decided in random pieces.
                PlainDecoder decoder = new PlainDecoder(page.segment(), page.start(), page.start(), page.end(),
                        true);
                SubstringSearch search = SubstringSearch.of(needle);
                int[] hits = new int[rows];
                int found = 0;
                for (int row = 0; row < rows; ) {
                    int n = Math.min(rows - row, 1 + random.nextInt(random.nextBoolean() ? 7 : 80));
                    long[] pieceValid = null;
                    if (hasNulls) {
                        pieceValid = new long[(n + 63) >>> 6];
                        for (int i = 0; i < n; i++) {
                            if (page.values().get(row + i) != null) {
                                pieceValid[i >>> 6] |= 1L << i;
                            }
                        }
                    }
                    found = decoder.selectContaining(search, n, pieceValid, row, hits, found);
                    row += n;
                }
                assertArrayEquals(expected.stream().mapToInt(Integer::intValue).toArray(),
                        Arrays.copyOf(hits, found), where);

                // The views' path: decode, then core's contains kernel.
                PlainDecoder views = new PlainDecoder(page.segment(), page.start(), page.start(), page.end(), true);
                long[] bits = hasNulls ? valid.clone() : null;
                ViewSink sink = new ViewSink(arena, ViewKind.UTF8, rows, bits);
                for (int r = 0; r < rows; r++) {
                    if (page.values().get(r) == null) {
                        sink.putNulls(r, 1);
                    } else {
                        if (bits != null) {
                            bits[r >>> 6] |= 1L << r;
                        }
                        views.decode(sink, r, 1);
                    }
                }
                int[] kernel = new int[rows];
                int k = ViewPredicates.contains(needle).select(sink.build(), kernel);
                assertArrayEquals(Arrays.copyOf(hits, found), Arrays.copyOf(kernel, k), where);
                pages++;
            }
        }
        assertEquals(2000, pages);
        assertTrue(crossing > 50, "too few needles found only across value boundaries: crossing=" + crossing);
    }

    @Test
    void aNeedleInALengthPrefixOrAcrossTwoValuesNeverCounts() {
        try (Arena arena = Arena.ofConfined()) {
            // "ab" (2 bytes), "cd" (2), "" (0), 7 x "g" (7), then 13 x 'e'
            byte[][] values = {"ab".getBytes(), "cd".getBytes(), new byte[0], "ggggggg".getBytes(),
                    "eeeeeeeeeeeee".getBytes()};
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (byte[] v : values) {
                bytes.writeBytes(new byte[] {(byte) v.length, 0, 0, 0});
                bytes.writeBytes(v);
            }
            MemorySegment page = arena.allocate(bytes.size());
            page.copyFrom(MemorySegment.ofArray(bytes.toByteArray()));
            String[][] cases = {
                {"b\u0002\u0000\u0000\u0000c", ""}, // across a prefix into the next value
                {"\u0007\u0000\u0000\u0000", ""}, // a length prefix
                {"bc", ""}, // the two values' bytes, were they adjacent
                {"d\u0000\u0000\u0000\u0000\u0007", ""}, // across an empty value's prefix
                {"g\r", ""}, // a value's end and the next prefix
                {"gg", "3"}, {"e", "4"}, {"ab", "0"}, {"eeeeeeeeeeeee", "4"}, {"eeeeeeeeeeeeee", ""},
            };
            for (String[] c : cases) {
                byte[] needle = c[0].getBytes(StandardCharsets.UTF_8);
                int[] hits = new int[values.length];
                int found = new PlainDecoder(page, 0, 0, page.byteSize(), true)
                        .selectContaining(SubstringSearch.of(needle), values.length, null, 0, hits, 0);
                assertEquals(c[1], Arrays.stream(Arrays.copyOf(hits, found)).mapToObj(Integer::toString)
                        .reduce((a, b) -> a + "," + b).orElse(""), "needle=" + Arrays.toString(needle));
            }
        }
    }

    @Test
    void corruptAndInvalidPagesFailAsDecodingThemDoes() {
        try (Arena arena = Arena.ofConfined()) {
            byte[][] pages = {
                {3, 0, 0, 0, 'a', 'b', 'c', 9, 0, 0, 0, 'x'}, // second value beyond the page
                {3, 0, 0, 0, 'a', 'b', 'c', 1, 0}, // second prefix cut
                {2, 0, 0, 0, 'a', (byte) 0xC3, 1, 0, 0, 0, (byte) 0xA9}, // a character split over two values
                {(byte) 200, 0, 0, 0}, // long value prefix, then nothing
            };
            byte[] big = new byte[4 + 200 + 4 + 2];
            big[0] = (byte) 200;
            Arrays.fill(big, 4, 204, (byte) 'a');
            big[100] = (byte) 0xFF; // invalid UTF-8 in a 200-byte value
            big[204] = 2;
            big[208] = 'o';
            big[209] = 'k';
            List<byte[]> all = new ArrayList<>(List.of(pages));
            all.add(big);
            for (byte[] p : all) {
                MemorySegment segment = arena.allocate(p.length);
                segment.copyFrom(MemorySegment.ofArray(p));
                int rows = 2;
                ViewSink sink = new ViewSink(arena, ViewKind.UTF8, rows, null);
                CorruptDataException decoding = assertThrows(CorruptDataException.class,
                        () -> new PlainDecoder(segment, 0, 0, p.length, true).decode(sink, 0, rows));
                CorruptDataException searching = assertThrows(CorruptDataException.class,
                        () -> new PlainDecoder(segment, 0, 0, p.length, true)
                                .selectContaining(SubstringSearch.of("o".getBytes()), rows, null, 0, new int[2], 0));
                assertEquals(decoding.getMessage(), searching.getMessage());
            }
        }
    }
}
