package dev.stringview.parquet.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link DictionaryDecoder#selectMatching} (rows decided by their dictionary ids, no view built) against an on-heap
 * model of the ids, with no validity bits and with every row's bit set. Pages mix RLE runs (one row to hundreds) and
 * bit-packed runs; bit widths 0 to 32; dictionaries of 1 to 5,000 entries; pages decided in random pieces. Ids
 * beyond the dictionary fail with the message decoding the page into views gives.
 */
class DictionaryIdSelectTest {
    /** A dictionary of {@code size} distinct short values, PLAIN-encoded. */
    private static Dictionary dictionary(Arena arena, int size) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < size; i++) {
            byte[] v = ("v" + i).getBytes();
            bytes.write(v.length);
            bytes.write(0);
            bytes.write(0);
            bytes.write(0);
            bytes.writeBytes(v);
        }
        MemorySegment buffer = arena.allocate(Math.max(1, bytes.size()));
        buffer.copyFrom(MemorySegment.ofArray(bytes.toByteArray()));
        return Dictionary.decode(buffer, 0, 0, bytes.size(), size, true);
    }

    private static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** The ids as a dictionary page's values section: bit width, then runs; {@code ids} receives the ids in order. */
    private static byte[] page(Random random, int width, int count, int idBound, List<Integer> ids) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(width);
        long maxId = width == 0 ? 0 : Math.min(idBound - 1L, width == 32 ? 0xFFFF_FFFFL : (1L << width) - 1);
        int left = count;
        while (left > 0) {
            if (random.nextInt(3) == 0 || left < 8) {
                int n = Math.min(left, 1 + random.nextInt(random.nextBoolean() ? 5 : 400));
                long id = maxId == 0 ? 0 : (long) (random.nextDouble() * (maxId + 1));
                varint(out, (long) n << 1);
                for (int b = 0; b < (width + 7) / 8; b++) {
                    out.write((int) (id >>> (8 * b)));
                }
                for (int i = 0; i < n; i++) {
                    ids.add((int) id);
                }
                left -= n;
            } else {
                int groups = Math.min(left / 8, 1 + random.nextInt(30));
                varint(out, ((long) groups << 1) | 1);
                byte[] packed = new byte[groups * width];
                long bit = 0;
                for (int i = 0; i < groups * 8; i++) {
                    long id = maxId == 0 ? 0 : (long) (random.nextDouble() * (maxId + 1));
                    ids.add((int) id);
                    for (int b = 0; b < width; b++, bit++) {
                        if ((id >>> b & 1) != 0) {
                            packed[(int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
                        }
                    }
                }
                out.writeBytes(packed);
                left -= groups * 8;
            }
        }
        return out.toByteArray();
    }

    private static MemorySegment segment(Arena arena, byte[] bytes) {
        MemorySegment s = arena.allocate(bytes.length);
        s.copyFrom(MemorySegment.ofArray(bytes));
        return s;
    }

    @Test
    void rowsDecidedByTheirIdsEqualTheModel() {
        Random random = new Random(20261129);
        int hitsSeen = 0;
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 600; trial++) {
                int size = 1 + random.nextInt(random.nextBoolean() ? 20 : 5000);
                int minWidth = 32 - Integer.numberOfLeadingZeros(size - 1);
                int width = random.nextInt(8) == 0 ? 32 : Math.min(32, minWidth + random.nextInt(2));
                if (size == 1 && random.nextBoolean()) {
                    width = 0;
                }
                Dictionary dictionary = dictionary(arena, size);
                int count = 1 + random.nextInt(2000);
                List<Integer> ids = new ArrayList<>();
                MemorySegment page = segment(arena, page(random, width, count, size, ids));
                long[] matches = new long[(size + 63) >>> 6];
                double density = random.nextDouble();
                for (int id = 0; id < size; id++) {
                    if (random.nextDouble() < density) {
                        matches[id >>> 6] |= 1L << id;
                    }
                }
                List<Integer> expected = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    int id = ids.get(i);
                    if ((matches[id >>> 6] & (1L << id)) != 0) {
                        expected.add(i);
                    }
                }
                String where = "trial=" + trial + " size=" + size + " width=" + width + " count=" + count;
                for (boolean withBits : new boolean[] {false, true}) {
                    DictionaryDecoder decoder = new DictionaryDecoder(page, 0, 0, page.byteSize(), dictionary,
                            new int[1 + random.nextInt(1024)]);
                    int[] hits = new int[count];
                    int found = 0;
                    for (int row = 0; row < count; ) {
                        int n = Math.min(count - row, 1 + random.nextInt(random.nextBoolean() ? 9 : 700));
                        long[] allValid = null;
                        if (withBits) { // every row valid
                            allValid = new long[(n + 63) >>> 6];
                            HybridDecoder.setRange(allValid, 0, n);
                        }
                        found = decoder.selectMatching(matches, n, allValid, row, hits, found);
                        row += n;
                    }
                    assertArrayEquals(expected.stream().mapToInt(Integer::intValue).toArray(),
                            Arrays.copyOf(hits, found), where + " withBits=" + withBits);
                }
                hitsSeen += expected.size();
            }
        }
        assertTrue(hitsSeen > 10_000, "hitsSeen=" + hitsSeen);
    }

    @Test
    void anIdBeyondTheDictionaryFailsAsDecodingItDoes() {
        Random random = new Random(35);
        try (Arena arena = Arena.ofConfined()) {
            int failures = 0;
            for (int trial = 0; trial < 200; trial++) {
                int size = 1 + random.nextInt(300);
                int width = 9; // ids up to 511: many beyond the dictionary
                int count = 1 + random.nextInt(500);
                List<Integer> ids = new ArrayList<>();
                MemorySegment page = segment(arena, page(random, width, count, 512, ids));
                Dictionary dictionary = dictionary(arena, size);
                long[] matches = new long[(size + 63) >>> 6];
                Arrays.fill(matches, -1L);
                int firstBad = -1;
                for (int i = 0; i < count && firstBad < 0; i++) {
                    if (ids.get(i) >= size) {
                        firstBad = i;
                    }
                }
                DictionaryDecoder views = new DictionaryDecoder(page, 0, 0, page.byteSize(), dictionary, new int[64]);
                DictionaryDecoder select = new DictionaryDecoder(page, 0, 0, page.byteSize(), dictionary,
                        new int[64]);
                if (firstBad < 0) {
                    assertEquals(count, select.selectMatching(matches, count, null, 0, new int[count], 0));
                    continue;
                }
                CorruptDataException decoding = assertThrows(CorruptDataException.class,
                        () -> views.decode(new ViewSink(arena, dev.stringview.ViewKind.UTF8, count, null), 0, count));
                CorruptDataException selecting = assertThrows(CorruptDataException.class,
                        () -> select.selectMatching(matches, count, null, 0, new int[count], 0));
                assertEquals(decoding.getMessage(), selecting.getMessage());
                assertTrue(selecting.getMessage().contains("valueIndex=" + firstBad + " id=" + ids.get(firstBad)),
                        selecting.getMessage());
                failures++;
            }
            assertTrue(failures > 50, "failures=" + failures);
        }
    }
}
