package dev.stringview.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.internal.reader.InlineViews;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code InlineViews.build} in both forms, the scalar {@link InlineViewLoop} and the vector
 * {@link PanamaInlineViews} (called directly whenever this JVM has the incubator module, so also before and
 * while C2 compiles it), and through the public entry once its warm-up has ended, against an on-heap model: view
 * bytes are the length as a little-endian int, the value's bytes, zeros. Row counts 0..70 and around each multiple
 * of 16 a caller meets, sizes mixed from 0..12 (each its own byte mask in the vector form), chars with bytes of 0x80 and above in
 * native segments sized exactly (a window reaching past the end throws), starting at any row and offset.
 */
class InlineViewsTest {
    private static final int[] LENGTHS = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    private static final int[] COUNTS = {15, 16, 17, 31, 32, 33, 63, 64, 65, 1023, 1024, 1025};

    /** The forms under test: the scalar loop always, the vector form when the module is there. */
    private static List<Vectorization.InlineViewScan> forms() {
        List<Vectorization.InlineViewScan> forms = new ArrayList<>();
        forms.add(form("scalar", InlineViewLoop::buildTestingAscii));
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
            forms.add(new PanamaInlineViews());
        }
        return forms;
    }

    @FunctionalInterface
    private interface Builder {
        long build(int[] sizes, int from, int count, MemorySegment chars, long charsOffset, MemorySegment views,
                long viewsOffset);
    }

    /** A form under test made of one entry point. */
    private static Vectorization.InlineViewScan form(String name, Builder builder) {
        return new Vectorization.InlineViewScan() {
            @Override
            public long build(int[] sizes, int from, int count, MemorySegment chars, long charsOffset,
                    MemorySegment views, long viewsOffset) {
                return builder.build(sizes, from, count, chars, charsOffset, views, viewsOffset);
            }

            @Override
            public String describe() {
                return name;
            }
        };
    }

    /** {@link #check} with sizes from 0..maxLength, or for a two-digit {@code maxLength} ab uniform in [a, b]. */
    private static void checkMixed(Vectorization.InlineViewScan form, SplittableRandom random, int count,
            int maxLength, int from, int charsLead, boolean nativeMemory) {
        if (maxLength < 10) {
            check(form, random, count, maxLength, from, charsLead, nativeMemory);
            return;
        }
        int low = maxLength / 10;
        int high = maxLength % 10;
        int[] sizes = new int[from + count + random.nextInt(3)];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = low + random.nextInt(high - low + 1);
        }
        check(form, random, sizes, from, count, charsLead, nativeMemory);
    }

    @Test
    void everyFormMatchesTheModelAtEveryCount() {
        SplittableRandom random = new SplittableRandom(0x1213);
        List<Vectorization.InlineViewScan> forms = forms();
        List<Integer> counts = new ArrayList<>();
        for (int n = 0; n <= 70; n++) {
            counts.add(n);
        }
        for (int n : COUNTS) {
            counts.add(n);
        }
        for (Vectorization.InlineViewScan form : forms) {
            for (int count : counts) {
                for (int maxLength : new int[] {1, 2, 4, 8, 12}) {
                    check(form, random, count, maxLength, random.nextInt(3), random.nextInt(20), count % 5 != 0);
                }
                for (int lowHigh : new int[] {35, 68}) { // uniform in [3, 5] and [6, 8]
                    checkMixed(form, random, count, lowHigh, random.nextInt(3), random.nextInt(20), true);
                }
            }
        }
    }

    @Test
    void allTwelveByteValuesAndAllEmptyOnes() {
        SplittableRandom random = new SplittableRandom(0x1214);
        for (Vectorization.InlineViewScan form : forms()) {
            for (int count : COUNTS) {
                for (int length : new int[] {0, 1, 4, 12}) {
                    int[] sizes = new int[count + 3];
                    java.util.Arrays.fill(sizes, length);
                    check(form, random, sizes, 3, count, 0, true);
                }
            }
        }
    }

    @Test
    void heapSegmentsGiveTheSameViews() {
        SplittableRandom random = new SplittableRandom(0x1215);
        for (Vectorization.InlineViewScan form : forms()) {
            for (int count : COUNTS) {
                check(form, random, count, 12, 1, 5, false);
            }
        }
    }

    @Test
    void thePublicEntryMatchesTheModelOnceWarm() {
        Vectorization.warmUp();
        boolean expected = Vectorization.available() && Vectorization.preferredBits() >= 512;
        assertEquals(expected, InlineViews.vectorized(), Vectorization.describe());
        SplittableRandom random = new SplittableRandom(0x1216);
        Vectorization.InlineViewScan entry = form("InlineViews.buildTestingAscii", InlineViews::buildTestingAscii);
        Vectorization.InlineViewScan plainEntry = form("InlineViews.build",
                (sizes, from, count, chars, charsOffset, views, viewsOffset) -> {
                    long end = InlineViews.build(sizes, from, count, chars, charsOffset, views, viewsOffset);
                    // build returns the end whatever the bytes; the model's expectation is buildTestingAscii's
                    boolean ascii = true;
                    for (long b = charsOffset; b < end; b++) {
                        ascii &= chars.get(ValueLayout.JAVA_BYTE, b) >= 0;
                    }
                    return ascii ? end : ~end;
                });
        for (int count : COUNTS) {
            check(plainEntry, random, count, 12, 1, 3, true);
        }
        for (int round = 0; round < 200; round++) { // enough calls for C2's code of the vector form, if it is used
            for (int count : COUNTS) {
                check(entry, random, count, random.nextBoolean() ? 4 : 12, random.nextInt(2), random.nextInt(9), true);
                checkMixed(entry, random, count, random.nextBoolean() ? 8 : 68, random.nextInt(2),
                        random.nextInt(9), true);
            }
        }
    }

    @Test
    void badSizesAndShortCharsNameTheRow() {
        for (Vectorization.InlineViewScan form : forms()) {
            for (int badRow : new int[] {0, 15, 16, 40, 99}) {
                for (int bad : new int[] {13, -1, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
                    int[] sizes = new int[100];
                    java.util.Arrays.fill(sizes, 3);
                    sizes[badRow] = bad;
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment chars = arena.allocate(1000);
                        MemorySegment views = arena.allocate(1600);
                        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                () -> form.build(sizes, 0, 100, chars, 0, views, 0), form.describe());
                        assertTrue(e.getMessage().contains("row=" + badRow + " size=" + bad), e.getMessage());
                    }
                }
            }
            int[] sizes = new int[300];
            java.util.Arrays.fill(sizes, 12);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment chars = arena.allocate(12 * 299 + 5); // row 299 has 5 of its 12 bytes
                MemorySegment views = arena.allocate(16 * 300);
                IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                        () -> form.build(sizes, 0, 300, chars, 0, views, 0), form.describe());
                assertTrue(e.getMessage().contains("row=299 size=12 charsOffset=3588 charsBytes=3593"),
                        e.getMessage());
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment small = arena.allocate(64);
            assertThrows(IndexOutOfBoundsException.class, () -> InlineViews.build(new int[8], 0, 5, small, 0, small,
                    0)); // five views need 80 bytes
            assertThrows(IndexOutOfBoundsException.class, () -> InlineViews.build(new int[8], 4, 5, small, 0,
                    arena.allocate(160), 0));
            assertThrows(IndexOutOfBoundsException.class, () -> InlineViews.build(new int[8], 0, 1, small, 65,
                    arena.allocate(160), 0));
        }
    }

    /**
     * Blocks long enough that the vector form splits them into many runs of steps (each run as long as the chars
     * left allow at 12 bytes a row, so at small sizes dozens of runs, the last ones a step or two): every run
     * boundary and the chars' exact end are crossed with uniform sizes 1, 4, 11, 12 and 13-free mixes, from
     * a row and chars offset other than 0, in native and heap memory.
     */
    @Test
    void longBlocksCrossEveryRunBoundary() {
        SplittableRandom random = new SplittableRandom(0x1217);
        for (Vectorization.InlineViewScan form : forms()) {
            for (int count : new int[] {4095, 4096, 65_535}) {
                for (int length : new int[] {1, 4, 11, 12}) {
                    int[] sizes = new int[count + 5];
                    java.util.Arrays.fill(sizes, length);
                    check(form, random, sizes, 5, count, 7, true);
                }
                for (int maxLength : new int[] {1, 4, 12}) {
                    check(form, random, count, maxLength, 3, random.nextInt(20), random.nextBoolean());
                }
                // small values, then a tail of 12-byte ones: the runs shorten abruptly near the chars' end
                int[] sizes = new int[count];
                for (int i = 0; i < count; i++) {
                    sizes[i] = i < count - 300 ? random.nextInt(3) : 12;
                }
                check(form, random, sizes, 0, count, 0, true);
            }
        }
    }

    /** A bad size in a later run of a long block: the rows before it count, and the error names its row. */
    @Test
    void aBadSizeInALaterRunNamesItsRow() {
        for (Vectorization.InlineViewScan form : forms()) {
            for (int badRow : new int[] {16 * 700, 16 * 700 + 9, 40_000, 65_519, 65_534}) {
                for (int bad : new int[] {13, -1, Integer.MIN_VALUE}) {
                    int[] sizes = new int[65_535];
                    java.util.Arrays.fill(sizes, 1);
                    sizes[badRow] = bad;
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment chars = arena.allocate(65_535 + 100);
                        MemorySegment views = arena.allocate(16 * 65_535);
                        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                () -> form.build(sizes, 0, 65_535, chars, 0, views, 0), form.describe());
                        assertTrue(e.getMessage().contains("row=" + badRow + " size=" + bad), e.getMessage());
                    }
                }
            }
        }
    }

    private static void check(Vectorization.InlineViewScan form, SplittableRandom random, int count, int maxLength,
            int from, int charsLead, boolean nativeMemory) {
        int[] sizes = new int[from + count + random.nextInt(3)];
        for (int i = 0; i < sizes.length; i++) {
            int length;
            do {
                length = LENGTHS[random.nextInt(LENGTHS.length)];
            } while (length > maxLength);
            sizes[i] = length;
        }
        check(form, random, sizes, from, count, charsLead, nativeMemory);
    }

    /**
     * Rows {@code [from, from + count)} of {@code sizes}, their chars after {@code charsLead} other bytes in a
     * segment that ends exactly with the last row's value, views after one untouched view.
     */
    private static void check(Vectorization.InlineViewScan form, SplittableRandom random, int[] sizes, int from,
            int count, int charsLead, boolean nativeMemory) {
        long total = charsLead;
        for (int i = from; i < from + count; i++) {
            total += sizes[i];
        }
        byte[] charBytes = new byte[(int) total];
        // Value bytes all ASCII, ASCII but one byte of 0x80 or above anywhere in them, or any bytes; the bytes
        // before row from's value (charsLead) are any bytes, which the ASCII test must not see.
        int mode = random.nextInt(3);
        for (int i = 0; i < charBytes.length; i++) {
            boolean anyByte = mode == 2 || i < charsLead;
            charBytes[i] = (byte) (!anyByte ? random.nextInt(0x80)
                    : random.nextInt(4) == 0 ? 0x80 + random.nextInt(128) : random.nextInt(256));
        }
        if (mode == 1 && total > charsLead) {
            charBytes[charsLead + random.nextInt((int) total - charsLead)] = (byte) (0x80 + random.nextInt(128));
        }
        boolean ascii = true;
        for (int i = charsLead; i < charBytes.length; i++) {
            ascii &= charBytes[i] >= 0;
        }
        byte[] expected = new byte[16 * (count + 2)];
        java.util.Arrays.fill(expected, (byte) 0x5A);
        int p = charsLead;
        for (int i = 0; i < count; i++) {
            int at = 16 * (i + 1);
            int length = sizes[from + i];
            java.util.Arrays.fill(expected, at, at + 16, (byte) 0);
            expected[at] = (byte) length;
            System.arraycopy(charBytes, p, expected, at + 4, length);
            p += length;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment chars = nativeMemory ? arena.allocate(total, 1).copyFrom(MemorySegment.ofArray(charBytes))
                    : MemorySegment.ofArray(charBytes);
            MemorySegment views = nativeMemory ? arena.allocate(expected.length, 16)
                    : MemorySegment.ofArray(new byte[expected.length]);
            views.fill((byte) 0x5A);
            long end = form.build(sizes, from, count, chars, charsLead, views, 16);
            String what = form.describe() + " count=" + count + " from=" + from + " charsLead=" + charsLead;
            assertEquals(ascii ? total : ~total, end, what + " ascii=" + ascii);
            assertArrayEquals(expected, views.toArray(ValueLayout.JAVA_BYTE), what);
        }
    }
}
