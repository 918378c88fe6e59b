package dev.stringview.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.internal.reader.InlineViews;
import dev.stringview.ViewLayout;
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
            forms.add(arrayForm(ViewLayout.INLINE_MAX));
        }
        return forms;
    }

    /**
     * The forms of {@code InlineViews.buildTestingAsciiUpTo4} ({@code maxSize} 4) or {@code buildTestingAsciiUpTo8}
     * ({@code maxSize} 8) seen through {@code build}: the scalar loop with that largest size, and the vector form's
     * {@code buildUpTo4} or {@code buildUpTo8} when the module is there.
     */
    private static List<Vectorization.InlineViewScan> boundedForms(int maxSize) {
        List<Vectorization.InlineViewScan> forms = new ArrayList<>();
        forms.add(form("scalar up to " + maxSize, (sizes, from, count, chars, charsOffset, views, viewsOffset) ->
                InlineViewLoop.buildTestingAscii(sizes, from, count, chars, charsOffset, views, viewsOffset,
                        maxSize)));
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
            PanamaInlineViews vector = new PanamaInlineViews();
            forms.add(form("vector up to " + maxSize, maxSize == 4 ? vector::buildUpTo4 : vector::buildUpTo8));
            forms.add(arrayForm(maxSize));
        }
        return forms;
    }

    /**
     * The vector form over a heap array ({@code buildFromArray}) with a largest size of {@code maxSize}: the chars
     * copied into an array of exactly their length (so a window past it throws), any segment kind.
     */
    private static Vectorization.InlineViewScan arrayForm(int maxSize) {
        PanamaInlineViews vector = new PanamaInlineViews();
        return form("vector array up to " + maxSize, (sizes, from, count, chars, charsOffset, views, viewsOffset) ->
                vector.buildFromArray(sizes, from, count, chars.toArray(ValueLayout.JAVA_BYTE), (int) charsOffset,
                        views, viewsOffset, maxSize));
    }

    @FunctionalInterface
    private interface Builder {
        long build(int[] sizes, int from, int count, MemorySegment chars, long charsOffset, MemorySegment views,
                long viewsOffset);
    }

    /** A form under test made of one entry point, which every {@code build*} method but the array one calls. */
    private static Vectorization.InlineViewScan form(String name, Builder builder) {
        return new Vectorization.InlineViewScan() {
            @Override
            public long build(int[] sizes, int from, int count, MemorySegment chars, long charsOffset,
                    MemorySegment views, long viewsOffset) {
                return builder.build(sizes, from, count, chars, charsOffset, views, viewsOffset);
            }

            @Override
            public long buildUpTo4(int[] sizes, int from, int count, MemorySegment chars, long charsOffset,
                    MemorySegment views, long viewsOffset) {
                return builder.build(sizes, from, count, chars, charsOffset, views, viewsOffset);
            }

            @Override
            public long buildUpTo8(int[] sizes, int from, int count, MemorySegment chars, long charsOffset,
                    MemorySegment views, long viewsOffset) {
                return builder.build(sizes, from, count, chars, charsOffset, views, viewsOffset);
            }

            @Override
            public long buildFromArray(int[] sizes, int from, int count, byte[] chars, int charsOffset,
                    MemorySegment views, long viewsOffset, int maxSize) {
                throw new UnsupportedOperationException("see arrayForm");
            }

            @Override
            public String describe() {
                return name;
            }
        };
    }

    /**
     * Values of at most 4 bytes through every form of the up-to-4 builder: rows 0..70 and around each multiple of
     * 16, 32, 64 and 1024, sizes mixed from 0..1, 0..2, 0..4 and uniform 0, 1, 2, 3, 4, chars with bytes of 0x80
     * and above sized exactly, from any row and chars offset, native and heap memory.
     */
    @Test
    void upTo4FormsMatchTheModelAtEveryCount() {
        boundedFormsMatchTheModelAtEveryCount(4, new int[] {1, 2, 4}, new SplittableRandom(0x1218));
    }

    /**
     * The same for the up-to-8 builder: sizes mixed from 0..4, 0..7 and 0..8, seed 003's 3..5 and 6..8 (a size-4
     * block, and a size-8 block whose longest is 8), uniform 0..8, and blocks of empty values ending in a tail of
     * 8-byte ones.
     */
    @Test
    void upTo8FormsMatchTheModelAtEveryCount() {
        boundedFormsMatchTheModelAtEveryCount(8, new int[] {4, 7, 8, 35, 68}, new SplittableRandom(0x1219));
    }

    /**
     * {@code maxLengths}: sizes mixed from 0 to that length, or for a two-digit {@code ab} uniform in [a, b];
     * uniform sizes 0..maxSize; blocks of 4095, 4096 and 65,535 rows (many runs, the last ones a step or two).
     */
    private static void boundedFormsMatchTheModelAtEveryCount(int maxSize, int[] maxLengths,
            SplittableRandom random) {
        List<Integer> counts = new ArrayList<>();
        for (int n = 0; n <= 70; n++) {
            counts.add(n);
        }
        for (int n : COUNTS) {
            counts.add(n);
        }
        for (Vectorization.InlineViewScan form : boundedForms(maxSize)) {
            for (int count : counts) {
                for (int maxLength : maxLengths) {
                    checkMixed(form, random, count, maxLength, random.nextInt(3), random.nextInt(20),
                            count % 5 != 0);
                }
                for (int length = 0; length <= maxSize; length++) {
                    int[] sizes = new int[count + 2];
                    java.util.Arrays.fill(sizes, length);
                    check(form, random, sizes, 2, count, random.nextInt(3), true);
                }
            }
            for (int count : new int[] {4095, 4096, 65_535}) {
                for (int maxLength : maxLengths) {
                    checkMixed(form, random, count, maxLength, 3, random.nextInt(20), random.nextBoolean());
                }
                int[] sizes = new int[count];
                for (int i = 0; i < count; i++) { // empty values, then a tail of the longest near the chars' end
                    sizes[i] = i < count - 100 ? random.nextInt(2) : maxSize;
                }
                check(form, random, sizes, 0, count, 0, true);
            }
        }
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

    /** A size outside [0, 4] anywhere (first step, a later run, the scalar rows) names its row; so do short chars. */
    @Test
    void upTo4FormsNameABadSizesRow() {
        boundedFormsNameABadSizesRow(4, new int[] {5, 12, 13, -1, Integer.MAX_VALUE, Integer.MIN_VALUE});
    }

    /** A size outside [0, 8] (9..12 too, which the general builder takes) names its row; so do short chars. */
    @Test
    void upTo8FormsNameABadSizesRow() {
        boundedFormsNameABadSizesRow(8, new int[] {9, 12, 13, -1, Integer.MAX_VALUE, Integer.MIN_VALUE});
    }

    private static void boundedFormsNameABadSizesRow(int maxSize, int[] badSizes) {
        for (Vectorization.InlineViewScan form : boundedForms(maxSize)) {
            for (int badRow : new int[] {0, 7, 8, 15, 16, 40, 99, 16 * 700 + 9, 65_519, 65_534}) {
                for (int bad : badSizes) {
                    int rows = badRow < 100 ? 100 : 65_535;
                    int[] sizes = new int[rows];
                    java.util.Arrays.fill(sizes, maxSize / 2);
                    sizes[badRow] = bad;
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment chars = arena.allocate((long) maxSize * rows);
                        MemorySegment views = arena.allocate(16L * rows);
                        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                () -> form.build(sizes, 0, rows, chars, 0, views, 0), form.describe());
                        assertTrue(e.getMessage().contains("row=" + badRow + " size=" + bad + " maxSize=" + maxSize),
                                e.getMessage());
                    }
                }
            }
            int[] sizes = new int[300];
            java.util.Arrays.fill(sizes, maxSize);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment chars = arena.allocate(maxSize * 299L + 3); // row 299 has 3 of its bytes
                MemorySegment views = arena.allocate(16 * 300);
                IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                        () -> form.build(sizes, 0, 300, chars, 0, views, 0), form.describe());
                assertTrue(e.getMessage().contains("row=299 size=" + maxSize + " charsOffset=" + maxSize * 299
                        + " charsBytes=" + (maxSize * 299 + 3)), e.getMessage());
            }
        }
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
                for (int maxLength : new int[] {4, 12}) {
                    check(form, random, count, maxLength, random.nextInt(3), random.nextInt(20), true);
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
        Vectorization.InlineViewScan entryUpTo4 = form("InlineViews.buildTestingAsciiUpTo4",
                InlineViews::buildTestingAsciiUpTo4);
        Vectorization.InlineViewScan entryUpTo8 = form("InlineViews.buildTestingAsciiUpTo8",
                InlineViews::buildTestingAsciiUpTo8);
        Vectorization.InlineViewScan[] entryArrays = new Vectorization.InlineViewScan[13];
        for (int maxSize : new int[] {4, 8, 12}) {
            entryArrays[maxSize] = form("InlineViews.buildTestingAscii(byte[]) up to " + maxSize,
                    (sizes, from, count, chars, charsOffset, views, viewsOffset) -> InlineViews.buildTestingAscii(
                            sizes, from, count, chars.toArray(ValueLayout.JAVA_BYTE), (int) charsOffset, views,
                            viewsOffset, maxSize));
        }
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
                check(entryUpTo4, random, count, random.nextBoolean() ? 2 : 4, random.nextInt(2), random.nextInt(9),
                        true);
                checkMixed(entryUpTo8, random, count, random.nextBoolean() ? 8 : 68, random.nextInt(2),
                        random.nextInt(9), true);
                check(entryArrays[4], random, count, 4, random.nextInt(2), random.nextInt(9), true);
                checkMixed(entryArrays[8], random, count, random.nextBoolean() ? 8 : 68, random.nextInt(2),
                        random.nextInt(9), true);
                check(entryArrays[12], random, count, 12, random.nextInt(2), random.nextInt(9), true);
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
            // the array entry: its form by maxSize (4, 8, 12 only), its chars' end the array's
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
                    InlineViews.buildTestingAscii(new int[8], 0, 1, new byte[8], 0, arena.allocate(160), 0, 5));
            assertTrue(e.getMessage().contains("maxSize=5"), e.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> InlineViews.buildTestingAscii(new int[8], 0, 1,
                    new byte[8], 9, arena.allocate(160), 0, 8));
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
