package dev.stringview;

import static dev.stringview.Gen.API;
import static dev.stringview.ModelChecks.checkPredicate;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sageserpent.americium.java.Trials;
import dev.stringview.TestData.Model;
import dev.stringview.TestData.Probe;
import dev.stringview.TestData.Shape;
import dev.stringview.internal.Vectorization;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Every predicate of {@link ViewPredicates}, through every entry point of {@link ViewPredicate}, against the
 * on-heap model, on every memory layout of {@link TestData.Shape} (and the same layouts re-read by
 * {@link ViewColumns#fromViews} with garbage in the views of null rows).
 */
class PredicatePropertyTest {
    /**
     * The properties run on the vector loops where this JVM has them (the default surefire run) and on the scalar
     * loops where it has not (the scalar-kernels run, core/pom.xml): the kernels take the vector loops only after
     * the explicit warm-up.
     */
    @org.junit.jupiter.api.BeforeAll
    static void warmUpVectorLoops() {
        ViewKernels.warmUp();
    }


    static Trials<Model> models() {
        return API.alternateWithWeights(Map.entry(3, TestData.anyModels()), Map.entry(1, TestData.sharedPrefixModels()),
                Map.entry(1, TestData.deepSharedModels()));
    }

    static Trials<Model> largeModels() {
        return TestData.largeModels();
    }

    static Trials<Probe> probes() {
        return TestData.probes();
    }

    static Trials<List<Probe>> probeLists() {
        return Gen.lists(Gen.orNull(85, TestData.probes(), 15), 0, 6);
    }

    private static String utf8OrNull(byte[] bytes) {
        return Utf8.isValid(bytes) ? new String(bytes, StandardCharsets.UTF_8) : null;
    }

    // ------------------------------------------------------------------------------------------- ordering

    /** All six comparisons, through {@code compare} and the named factories, with byte[] and String constants. */
    static void checkComparisons(ViewColumn column, List<byte[]> values, byte[] k, long seed, String where) {
        String what = where + " constant=" + ModelChecks.show(k);
        for (Comparison c : Comparison.values()) {
            checkPredicate(what + " compare(" + c + ", byte[])", ViewPredicates.compare(c, k), column, values,
                    v -> c.accepts(Arrays.compareUnsigned(v, k)), seed);
        }
        checkPredicate(what + " equalTo(byte[])", ViewPredicates.equalTo(k), column, values,
                v -> Arrays.equals(v, k), seed);
        checkPredicate(what + " notEqualTo(byte[])", ViewPredicates.notEqualTo(k), column, values,
                v -> !Arrays.equals(v, k), seed);
        String s = utf8OrNull(k);
        if (s != null) {
            checkPredicate(what + " equalTo(String)", ViewPredicates.equalTo(s), column, values,
                    v -> Arrays.equals(v, k), seed);
            checkPredicate(what + " notEqualTo(String)", ViewPredicates.notEqualTo(s), column, values,
                    v -> !Arrays.equals(v, k), seed);
            checkPredicate(what + " lessThan(String)", ViewPredicates.lessThan(s), column, values,
                    v -> Arrays.compareUnsigned(v, k) < 0, seed);
            checkPredicate(what + " lessThanOrEqual(String)", ViewPredicates.lessThanOrEqual(s), column, values,
                    v -> Arrays.compareUnsigned(v, k) <= 0, seed);
            checkPredicate(what + " greaterThan(String)", ViewPredicates.greaterThan(s), column, values,
                    v -> Arrays.compareUnsigned(v, k) > 0, seed);
            checkPredicate(what + " greaterThanOrEqual(String)", ViewPredicates.greaterThanOrEqual(s), column,
                    values, v -> Arrays.compareUnsigned(v, k) >= 0, seed);
            for (Comparison c : Comparison.values()) {
                checkPredicate(what + " compare(" + c + ", String)", ViewPredicates.compare(c, s), column, values,
                        v -> c.accepts(Arrays.compareUnsigned(v, k)), seed);
            }
        }
    }

    @Test
    void comparisonsMatchModel() {
        Gen.forAll(300, models(), TestData.shapes(), probes(), Gen.seeds(),
                (model, shape, probe, seed) -> comparisonsMatchModel(model, shape, probe, seed));
    }

    private void comparisonsMatchModel(Model model, Shape shape, Probe probe, long seed) {
        byte[] k = probe.resolve(model.values());
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.anyColumn(arena, model.kind(), model.values(), shape, seed);
            checkComparisons(column, model.values(), k, seed, ModelChecks.describe(model, shape, seed));
        }
    }

    /**
     * Order kernels decide 64 rows (or selection entries) per bit word and resolve the rows that share the
     * constant's prefix ("ties") after each window of 1024: columns of 1100..3000 rows whose values nearly all share a long
     * start put ties, nulls among them, into every word and across word borders and count's and mask's 1024-row
     * chunks, for all rows and for every kind of selection.
     */
    @Test
    void comparisonsOverManyWordsOfTies() {
        Gen.forAll(10, TestData.deepSharedModels(1100, 3000), TestData.shapes(), probes(), Gen.seeds(),
                (model, shape, probe, seed) -> comparisonsMatchModel(model, shape, probe, seed));
    }

    /**
     * The prefix-collision case: every value of a 64..300-row column starts with the constant's four bytes (bytes
     * 0x00, 0x80 and 0xFF among them), so whole 64-row words are ties, and many agree with the constant through
     * byte 7 or 11 (the inline rows that the view's first eight bytes cannot decide, the long rows that reach the
     * bytes from 12). Lengths around 12/13 and 8, inline and long constants, with and without nulls, every shape
     * (many buffers, slices, garbage null views) and every selection; fixed seeds, against the on-heap model.
     */
    @Test
    void comparisonsWhenEveryRowSharesThePrefix() {
        int[] lengths = {4, 5, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 20, 25};
        byte[] alphabet = {0x00, 0x01, 'a', 'b', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
        for (long seed = 0; seed < 24; seed++) {
            Random random = new Random(0x0DE7 + seed);
            byte[] start = randomBytes(random, 12, alphabet);
            int rows = 64 + random.nextInt(237);
            boolean nulls = (seed & 2) != 0;
            List<byte[]> values = new ArrayList<>();
            for (int row = 0; row < rows; row++) {
                if (nulls && random.nextInt(30) == 0) {
                    values.add(null);
                    continue;
                }
                values.add(sharingStart(random, start, lengths[random.nextInt(lengths.length)], alphabet));
            }
            for (int c = 0; c < 3; c++) {
                byte[] k = c == 0 ? values.get(random.nextInt(rows))
                        : sharingStart(random, start, lengths[random.nextInt(lengths.length)], alphabet);
                if (k == null) {
                    k = Arrays.copyOf(start, c == 1 ? 8 : 12);
                }
                Shape shape = Shape.values()[random.nextInt(Shape.values().length)];
                try (Arena arena = Arena.ofConfined()) {
                    ViewColumn column = TestData.anyColumn(arena, ViewKind.BINARY, values, shape, seed);
                    checkComparisons(column, values, k, seed, "prefix collision " + shape + " seed=" + seed
                            + " rows=" + rows);
                }
            }
        }
    }

    /**
     * The equality, prefix and order kernels collect the rows their view words leave undecided over a whole window
     * of {@value ViewWordPredicate#WINDOW} rows (or selection entries) and resolve them after it. Columns whose sizes sit on
     * and around the word and window borders (0, 1, 63..65, 1023..1025, 2047..2049, 3100 rows), where the share of
     * rows with the constant's start changes every 64 rows (none, 5%, half, all), so that sparse and crowded tie
     * words meet at the borders; values of 4..25 bytes around the inline limit, bytes 0x00/0x80/0xC3/0xFF, nulls,
     * every shape (many buffers among them) and every selection; fixed seeds, against the on-heap model.
     */
    @Test
    void kernelsAcrossTieWindowBorders() {
        int[] sizes = {0, 1, 63, 64, 65, 1023, 1024, 1025, 2047, 2048, 2049, 3100};
        int[] lengths = {4, 5, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 25};
        byte[] alphabet = {0x00, 0x01, 'a', 'b', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
        int[] sharePercent = {0, 5, 50, 100};
        for (int s = 0; s < sizes.length; s++) {
            long seed = 0x71E5 + s;
            Random random = new Random(seed);
            byte[] start = randomBytes(random, 12, alphabet);
            int rows = sizes[s];
            boolean nulls = (s & 1) == 0;
            List<byte[]> values = new ArrayList<>();
            for (int row = 0; row < rows; row++) {
                int share = sharePercent[(row / 64 + s) % sharePercent.length];
                int length = lengths[random.nextInt(lengths.length)];
                if (nulls && random.nextInt(25) == 0) {
                    values.add(null);
                } else if (random.nextInt(100) < share) {
                    values.add(sharingStart(random, start, length, alphabet));
                } else {
                    values.add(randomBytes(random, length, alphabet));
                }
            }
            Shape shape = Shape.values()[s % Shape.values().length];
            for (int c = 0; c < 2; c++) {
                byte[] k = c == 0 && rows > 0 ? values.get(random.nextInt(rows)) : null;
                if (k == null) {
                    k = sharingStart(random, start, lengths[random.nextInt(lengths.length)], alphabet);
                }
                try (Arena arena = Arena.ofConfined()) {
                    ViewColumn column = TestData.anyColumn(arena, ViewKind.BINARY, values, shape, seed);
                    String where = "tie windows " + shape + " seed=" + seed + " rows=" + rows;
                    checkComparisons(column, values, k, seed, where);
                    for (int patternLength : new int[] {4, 6, 12, 13, 17}) {
                        byte[] pattern = Arrays.copyOf(k, Math.min(k.length, patternLength));
                        checkPredicate(where + " startsWith " + ModelChecks.show(pattern),
                                ViewPredicates.startsWith(pattern), column, values, v -> startsWith(v, pattern), seed);
                    }
                }
            }
        }
    }

    /**
     * The tie loops over one-buffer columns (the common case) and over
     * many-buffer columns, on the same values: every value shares the constants' first four bytes in some 64-row
     * stretches (the prefix-collision case), bytes 0x80..0xFF sit in the prefixes, lengths cover every edge of the
     * inline/long split, nulls have garbage views in half the columns, and sizes cross the 1024-row chunk and
     * window borders. Fixed seeds against the on-heap model, through select, count, mask, test and selections.
     */
    @Test
    void tieWordsOfOneBufferAndManyBufferColumns() {
        int[] sizes = {0, 1, 13, 64, 1023, 1025, 2100};
        int[] lengths = {0, 1, 4, 5, 8, 11, 12, 13, 15, 16, 17, 25};
        byte[] alphabet = {0x00, 'a', 'b', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFE, (byte) 0xFF};
        for (int s = 0; s < sizes.length; s++) {
            long seed = 0x0B0F + 17L * s;
            Random random = new Random(seed);
            byte[] start = randomBytes(random, 12, alphabet);
            int rows = sizes[s];
            List<byte[]> values = sharingValues(random, rows, new int[] {100, 50, 5, 100}, 64, s, 20, lengths, start,
                    alphabet);
            List<byte[]> constants = new ArrayList<>();
            for (int length : new int[] {4, 8, 12, 13, 16, 25}) {
                constants.add(sharingStart(random, start, length, alphabet));
            }
            for (int c = 0; c < 3 && rows > 0; c++) {
                byte[] v = values.get(random.nextInt(rows));
                if (v != null) {
                    constants.add(v);
                }
            }
            try (Arena arena = Arena.ofConfined()) {
                ViewColumn one = oneAdoptedBuffer(arena, values);
                ViewColumn many = TestData.column(arena, ViewKind.BINARY, values, Shape.CONCAT, seed);
                List<ViewColumn> columns = List.of(one, TestData.withGarbageNullViews(arena, one, seed), many);
                for (int i = 0; i < columns.size(); i++) {
                    ViewColumn column = columns.get(i);
                    String where = "tie words column#" + i + " buffers=" + column.bufferCount() + " seed=" + seed
                            + " rows=" + rows;
                    for (byte[] k : constants) {
                        checkComparisons(column, values, k, seed, where);
                        for (int patternLength : new int[] {5, 6, 8, 12, 13, 17}) {
                            byte[] pattern = Arrays.copyOf(k, Math.min(k.length, patternLength));
                            checkPredicate(where + " startsWith " + ModelChecks.show(pattern),
                                    ViewPredicates.startsWith(pattern), column, values, v -> startsWith(v, pattern),
                                    seed);
                        }
                    }
                }
            }
        }
    }

    /** A buffer this large is far larger than the L2 cache, as Suite 1's 10M-row heap is. */
    private static final long LARGE_BUFFER_BYTES = 8L << 20;
    /** Rows of a region of the large-buffer tests: sixteen windows. */
    private static final int REGION = 16 * ViewWordPredicate.WINDOW;

    /**
     * Order's tie loops on one-buffer columns against the model: a buffer of {@link #LARGE_BUFFER_BYTES} (the values
     * spread over it) and a small one, windows where 5%, 50% or
     * 100% of rows share the constant's first 4, 8 or 12 bytes, lengths around the inline limit, constants of 5 to
     * 13, 17 and 25 bytes, bytes 0x80 and above in bytes 4..11, nulls (with garbage views), and window borders.
     */
    @Test
    void orderTiesOfLargeAndSmallOneBufferColumns() {
        int[] lengths = {0, 1, 5, 8, 11, 12, 13, 15, 16, 17, 25};
        byte[] alphabet = {0x00, 'a', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
        int rows = 3100;
        for (int s = 0; s < 2; s++) {
            long seed = 0x71E5 + 101L * s;
            Random random = new Random(seed);
            byte[] start = randomBytes(random, 12, alphabet);
            // window by window: sparse, crowded, sparse, half sharing
            List<byte[]> values = sharingValues(random, rows, new int[] {5, 100, 2, 50}, 1024, s, 16, lengths, start,
                    alphabet);
            List<byte[]> constants = new ArrayList<>();
            for (int length : new int[] {5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 25}) {
                constants.add(sharingStart(random, start, length, alphabet));
            }
            for (int c = 0; c < 4; c++) {
                byte[] v = values.get(random.nextInt(rows));
                if (v != null && v.length > 12) {
                    constants.add(v); // deep ties: rows equal to the constant through byte 11 and beyond
                }
            }
            try (Arena arena = Arena.ofConfined()) {
                ViewColumn large = oneAdoptedBuffer(arena, values, LARGE_BUFFER_BYTES);
                ViewColumn small = oneAdoptedBuffer(arena, values);
                List<ViewColumn> columns = List.of(large, TestData.withGarbageNullViews(arena, large, seed), small);
                for (int i = 0; i < columns.size(); i++) {
                    ViewColumn column = columns.get(i);
                    String where = "order ties column#" + i + " bufferBytes=" + column.buffer(0).byteSize()
                            + " seed=" + seed;
                    checkEveryOrder(where, column, values, constants, seed);
                }
            }
        }
    }

    /**
     * Order's tie loop on words whose 64 rows all tie next to
     * words with a few ties: windows of 1024 rows flip between every row sharing the constant's first
     * four bytes, no nulls, long lengths 13, 16, 17 and 25 and inline 12-byte rows equal to the shared start (ties
     * the view cannot settle), and windows with 5% or 50% sharing, nulls with garbage views and every length from 0
     * to 25; one dense run ends mid-window and one starts at a word's middle. Values share 4, 8 or 12 bytes with the
     * start, whose bytes 4..11 hold 0x80 and 0xFF; constants of 5 to 13, 17 and 25 bytes share it, and some are rows
     * (ties equal through byte 11 and beyond). All four orderings through every entry point and selection, on one
     * buffer (with and without garbage null views) and many.
     */
    @Test
    void orderWordsWhoseRowsAllTie() {
        byte[] alphabet = {0x00, 'a', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFE, (byte) 0xFF};
        int[] denseLengths = {12, 13, 16, 17, 25};
        int[] anyLengths = {0, 1, 4, 5, 8, 11, 12, 13, 15, 16, 17, 25};
        for (int s = 0; s < 2; s++) {
            long seed = 0xA11E + 37L * s;
            Random random = new Random(seed);
            byte[] start = randomBytes(random, 12, alphabet);
            start[5] = (byte) 0x80;
            start[9] = (byte) 0xFF;
            int[] shares = s == 0 ? new int[] {100, 5, 100, 50, 100} : new int[] {5, 100, 100, 50};
            int rows = 1024 * shares.length - 300 - 17 * s; // the last window ends mid-word
            List<byte[]> values = new ArrayList<>();
            for (int row = 0; row < rows; row++) {
                int share = shares[row / 1024];
                if (share == 100 && !(s == 1 && row % 1024 < 32)) { // s == 1: the first dense word starts at 32
                    int length = denseLengths[random.nextInt(denseLengths.length)];
                    values.add(length == 12 ? start.clone() : sharingStart(random, start, length, alphabet));
                } else if (random.nextInt(9) == 0) {
                    values.add(null);
                } else {
                    int length = anyLengths[random.nextInt(anyLengths.length)];
                    values.add(random.nextInt(100) < share ? sharingStart(random, start, length, alphabet)
                            : randomBytes(random, length, alphabet));
                }
            }
            List<byte[]> constants = new ArrayList<>();
            for (int length : new int[] {5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 25}) {
                constants.add(sharingStart(random, start, length, alphabet));
            }
            constants.add(start.clone());
            for (int c = 0; c < 3; c++) {
                byte[] v = values.get(random.nextInt(1024)); // a dense window's row
                constants.add(v != null ? v : start.clone());
            }
            try (Arena arena = Arena.ofConfined()) {
                ViewColumn one = oneAdoptedBuffer(arena, values);
                List<ViewColumn> columns = List.of(one, TestData.withGarbageNullViews(arena, one, seed),
                        TestData.column(arena, ViewKind.BINARY, values, Shape.CONCAT, seed));
                for (int i = 0; i < columns.size(); i++) {
                    String where = "dense ties column#" + i + " rows=" + rows + " seed=" + seed;
                    checkEveryOrder(where, columns.get(i), values, constants, seed);
                }
            }
        }
    }

    /**
     * An unchecked one-buffer column whose rows all tie with the constant (so whole words take order's counted
     * tie loop) and one of whose long rows names a missing buffer, or points past the buffer: the error names the
     * row and its numbers, wherever in the word the row is.
     */
    @Test
    void denseTieWordWithAMisplacedRowFailsNamingTheRow() {
        byte[] value = "prefix-and-a-long-tail-25".getBytes(StandardCharsets.US_ASCII);
        int rows = 200;
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn good = oneAdoptedBuffer(arena, java.util.Collections.nCopies(rows, value));
            for (int bad : new int[] {0, 63, 64, 130, rows - 1}) {
                MemorySegment views = arena.allocate((long) rows * ViewLayout.VIEW_SIZE, 16);
                MemorySegment.copy(good.views(), 0, views, 0, views.byteSize());
                long at = (long) bad * ViewLayout.VIEW_SIZE;
                views.set(ViewLayout.LAYOUT_LE_INT, at + ViewLayout.OFFSET_BUFFER_INDEX, 3);
                ViewColumn missing = ViewColumns.fromViewsUnchecked(ViewKind.BINARY, rows, views, null,
                        List.of(good.buffer(0)));
                // The value itself (every tie deep: decided from byte 12) and one differing at byte 6 (decided by
                // bytes 4..11 in the tie loop).
                for (byte[] k : List.of(value, "prefix-aNd-a-long-tail-25".getBytes(StandardCharsets.US_ASCII))) {
                    ViewPredicate order = ViewPredicates.compare(k == value ? Comparison.LESS_THAN
                            : Comparison.GREATER_THAN_OR_EQUAL, k);
                    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                            () -> order.count(missing));
                    assertNamesMissingBuffer(e, bad);
                }
                views.set(ViewLayout.LAYOUT_LE_INT, at + ViewLayout.OFFSET_BUFFER_INDEX, 0);
                views.set(ViewLayout.LAYOUT_LE_INT, at + 12, (int) good.buffer(0).byteSize() - 8);
                ViewColumn past = ViewColumns.fromViewsUnchecked(ViewKind.BINARY, rows, views, null,
                        List.of(good.buffer(0)));
                IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                        () -> ViewPredicates.compare(Comparison.LESS_THAN, value).count(past));
                assertTrue(e.getMessage().contains("view points past its data buffer: row=" + bad + " "),
                        e.getMessage());
            }
        }
    }

    /**
     * Order over first words crowded with ties: columns of 1..2100 rows, so that single-window calls, the pass's
     * scalar tail and window borders are all covered, whose first word is crowded with ties (half or all of the rows
     * share the constant's first four bytes, mixed inline and long, lengths 0..25 with every edge, bytes 0x80..0xFF
     * in the prefix and after it), some inline rows agreeing with the constant through byte 7 or 11 (ties the view
     * cannot settle), and nulls with garbage views. All four orderings through every entry point and selection, on
     * one buffer (with and without garbage null views) and many. A long row of such a first window that names a
     * missing buffer fails with a one-line error naming the row.
     */
    @Test
    void orderOverFirstWordsCrowdedWithTies() {
        ViewKernels.warmUp(); // so that count takes the vector pass, as it does once warm (where the JVM has it)
        byte[] alphabet = {0x00, 'a', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFE, (byte) 0xFF};
        int[] lengths = {0, 1, 4, 5, 8, 11, 12, 13, 15, 16, 17, 25};
        long seed = 0x5E771E;
        Random random = new Random(seed);
        byte[] start = randomBytes(random, 12, alphabet);
        start[0] = (byte) 0x80;
        start[6] = (byte) 0xFF;
        for (int rows : new int[] {1, 11, 12, 13, 15, 16, 17, 63, 64, 65, 200, 1023, 1024, 1025, 2100}) {
            int share = rows % 2 == 0 ? 50 : 100;
            List<byte[]> values = new ArrayList<>();
            for (int row = 0; row < rows; row++) {
                if (row % 11 == 3) {
                    values.add(null);
                } else {
                    int length = lengths[random.nextInt(lengths.length)];
                    values.add(random.nextInt(100) < share ? sharingStart(random, start, length, alphabet)
                            : randomBytes(random, length, alphabet));
                }
            }
            List<byte[]> constants = new ArrayList<>();
            for (int length : new int[] {5, 8, 9, 12, 13, 17, 25}) {
                constants.add(sharingStart(random, start, length, alphabet));
            }
            constants.add(start.clone());
            byte[] row = values.get(random.nextInt(rows));
            constants.add(row != null ? row : Arrays.copyOf(start, 8));
            try (Arena arena = Arena.ofConfined()) {
                ViewColumn one = oneAdoptedBuffer(arena, values);
                List<ViewColumn> columns = List.of(one, TestData.withGarbageNullViews(arena, one, seed),
                        TestData.column(arena, ViewKind.BINARY, values, Shape.CONCAT, seed));
                for (int i = 0; i < columns.size(); i++) {
                    String where = "first window column#" + i + " rows=" + rows + " share=" + share
                            + " seed=" + seed;
                    checkEveryOrder(where, columns.get(i), values, constants, seed);
                }
            }
        }
        // A first word of inline and long ties with one long row naming a
        // missing buffer.
        int rows = 150;
        // Inline rows differ from the constant at byte 7.
        List<byte[]> values = settledInlineAndLongTies(start, rows, 7);
        byte[] k = Arrays.copyOf(start, 9);
        k[8] = (byte) 0xC3;
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn good = oneAdoptedBuffer(arena, values);
            assertLessThanNamesMissingBuffer(arena, good, k, 1, 63, 65, rows - 1);
        }
    }

    /**
     * Order over ties whose second view word alone does not tell a long tie from an
     * inline one (the low half of an inline tie's is the constant's bytes 4..7 when they agree): windows
     * crowded with mixed inline and long ties (lengths 0..25 with 11, 12, 13, 15, 16 and 17; bytes 0x80..0xFF in
     * the prefix and after it), among them inline ties agreeing with the constant through byte 7 and long ties
     * agreeing through byte 11 (the length decides), nulls with garbage views, 1..3000 rows (window borders and the
     * pass's scalar tail), constants whose bytes 4..7 are zero (the plain loop, where zero-padded short ties have a
     * zero low half) and not; every ordering through every entry point and selection, on one buffer and many. A
     * long tie naming a missing buffer in such a window fails naming its row.
     */
    @Test
    void orderOverMixedInlineAndLongTies() {
        ViewKernels.warmUp(); // so that count takes the vector pass, as it does once warm (where the JVM has it)
        byte[] alphabet = {0x00, 'a', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFE, (byte) 0xFF};
        int[] inlineLengths = {0, 1, 4, 5, 8, 11, 12};
        int[] longLengths = {13, 15, 16, 17, 25};
        long seed = 0x5E7713;
        Random random = new Random(seed);
        byte[] nonZero = {(byte) 0x80, 'a', (byte) 0xFF, 0x00, (byte) 0xC3, 0x00, (byte) 0x81, 'b', (byte) 0xFE,
            0x7F, 0x00, (byte) 0x90, 'c', 'd', 'e', 'f', 'g'};
        byte[] zero = nonZero.clone(); // bytes 4..7 zero
        Arrays.fill(zero, 4, 8, (byte) 0);
        for (byte[] start : List.of(nonZero, zero)) {
            for (int rows : new int[] {1, 13, 64, 65, 1023, 1025, 3000}) {
                List<byte[]> values = new ArrayList<>();
                for (int row = 0; row < rows; row++) {
                    int kind = random.nextInt(20);
                    byte[] v;
                    if (row % 13 == 5) {
                        v = null;
                    } else if (kind < 8) { // long tie, through byte 4, 8 or 12
                        v = sharingStart(random, start, longLengths[random.nextInt(longLengths.length)], alphabet);
                    } else if (kind < 13) { // inline tie that differs within bytes 4..7
                        v = sharingStart(random, start, inlineLengths[random.nextInt(inlineLengths.length)], alphabet);
                        if (v.length > 4) {
                            v[4 + random.nextInt(Math.min(4, v.length - 4))] ^= (byte) 0x41;
                        }
                    } else if (kind < 17) { // inline tie agreeing through byte 7 (or a zero-padded short start)
                        int length = new int[] {4, 5, 8, 9, 11, 12}[random.nextInt(6)];
                        v = Arrays.copyOf(start, length);
                        for (int i = 8; i < length; i++) {
                            v[i] = random.nextBoolean() ? start[i] : alphabet[random.nextInt(alphabet.length)];
                        }
                    } else {
                        v = randomBytes(random, random.nextInt(26), alphabet);
                    }
                    values.add(v);
                }
                List<byte[]> constants = new ArrayList<>();
                for (int length : new int[] {4, 5, 8, 9, 12, 13, 17}) {
                    constants.add(Arrays.copyOf(start, length));
                }
                byte[] row = values.get(random.nextInt(rows));
                if (row != null) {
                    constants.add(row);
                }
                try (Arena arena = Arena.ofConfined()) {
                    ViewColumn one = oneAdoptedBuffer(arena, values);
                    List<ViewColumn> columns = List.of(one, TestData.withGarbageNullViews(arena, one, seed),
                            TestData.column(arena, ViewKind.BINARY, values, Shape.CONCAT, seed));
                    for (int i = 0; i < columns.size(); i++) {
                        String where = "settled ties column#" + i + " rows=" + rows + " start="
                                + ModelChecks.show(start) + " seed=" + seed;
                        checkEveryOrder(where, columns.get(i), values, constants, seed);
                    }
                }
            }
        }
        // A long tie naming a missing buffer, among inline ties, in the second word and window.
        int rows = 2100;
        // Inline rows differ from the constant at byte 5.
        List<byte[]> values = settledInlineAndLongTies(nonZero, rows, 5);
        byte[] k = Arrays.copyOf(nonZero, 13);
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn good = oneAdoptedBuffer(arena, values);
            assertLessThanNamesMissingBuffer(arena, good, k, 65, 1025, rows - 1);
        }
    }

    /**
     * A buffer far larger than the cache, in regions of {@link #REGION} rows with 5, 100, 2 and 50% of rows
     * sharing the constants' start (so that sparse and crowded windows follow each other), values of 0..25 bytes with 12, 13, 16 and 17 among them, bytes 0x80..0xFF after the
     * prefix, nulls with garbage views; order (every comparison) and starts-with (patterns of 5..13, 17 and 25
     * bytes) against the model through every entry point and selection. A large column whose long row names a
     * missing buffer fails naming it.
     */
    @Test
    void regionsOfTiesOverALargeBuffer() {
        int[] lengths = {0, 5, 8, 11, 12, 13, 15, 16, 17, 25};
        byte[] alphabet = {0x00, 'a', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
        int rows = 3 * REGION + 1500;
        long seed = 0x1A6E;
        Random random = new Random(seed);
        byte[] start = randomBytes(random, 25, alphabet);
        List<byte[]> values = sharingValues(random, rows, new int[] {5, 100, 2, 50}, REGION, 0, 16,
                lengths, start, alphabet);
        List<byte[]> constants = new ArrayList<>();
        for (int length : new int[] {5, 9, 12, 13, 17, 25}) {
            constants.add(sharingStart(random, start, length, alphabet));
        }
        // Without nulls too: starts-with counts without writing ids only then.
        List<byte[]> noNulls = new ArrayList<>(values);
        noNulls.replaceAll(v -> v == null ? sharingStart(random, start, 17, alphabet) : v);
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn large = oneAdoptedBuffer(arena, values, LARGE_BUFFER_BYTES);
            for (ViewColumn column : List.of(large, TestData.withGarbageNullViews(arena, large, seed),
                    oneAdoptedBuffer(arena, noNulls, LARGE_BUFFER_BYTES))) {
                List<byte[]> model = column.nullCount() == 0 ? noNulls : values;
                String where = "large windows bufferBytes=" + column.buffer(0).byteSize() + " seed=" + seed;
                for (byte[] k : constants) {
                    String what = where + " constant=" + ModelChecks.show(k);
                    for (Comparison c : List.of(Comparison.LESS_THAN, Comparison.GREATER_THAN_OR_EQUAL)) {
                        checkPredicate(what + " " + c, ViewPredicates.compare(c, k), column, model,
                                v -> c.accepts(Arrays.compareUnsigned(v, k)), seed);
                    }
                }
                for (int length : new int[] {5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 25}) {
                    byte[] pattern = Arrays.copyOf(start, length);
                    checkPredicate(where + " startsWith " + ModelChecks.show(pattern),
                            ViewPredicates.startsWith(pattern), column, model, v -> startsWith(v, pattern), seed);
                }
                // every comparison on the counting path, the one that switches window sizes over all rows
                for (Comparison c : List.of(Comparison.LESS_THAN_OR_EQUAL, Comparison.GREATER_THAN)) {
                    byte[] k = constants.get(3);
                    long want = model.stream().filter(v -> v != null && c.accepts(Arrays.compareUnsigned(v, k)))
                            .count();
                    assertEquals(want, ViewPredicates.compare(c, k).count(column), where + " count " + c);
                }
            }
            // A long row past the first large window naming a buffer the column does not have.
            int row = REGION + 7;
            while (values.get(row) == null || values.get(row).length <= 12
                    || !Arrays.equals(values.get(row), 0, 4, start, 0, 4)) {
                row++;
            }
            MemorySegment views = arena.allocate(large.views().byteSize(), 16);
            MemorySegment.copy(large.views(), 0, views, 0, views.byteSize());
            views.set(ViewLayout.LAYOUT_LE_INT, (long) row * ViewLayout.VIEW_SIZE + ViewLayout.OFFSET_BUFFER_INDEX, 2);
            ViewColumn bad = ViewColumns.fromViewsUnchecked(ViewKind.BINARY, rows, views, null,
                    List.of(large.buffer(0)));
            for (ViewPredicate predicate : List.of(ViewPredicates.compare(Comparison.LESS_THAN, start),
                    ViewPredicates.startsWith(Arrays.copyOf(start, 9)))) {
                IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                        () -> predicate.count(bad));
                assertTrue(e.getMessage().contains("row=" + row) && e.getMessage().contains("bufferIndex=2")
                        && e.getMessage().contains("buffers=1"), e.getMessage());
            }
        }
    }

    /**
     * Order's ties over one buffer far larger than the cache, in regions of {@link #REGION} rows, over words with
     * every number of ties from 0 to 12, ties at a
     * word's first and last row, at the last row of a window, the first of the next and the column's last row,
     * inline and long ties of 5 to 25 bytes sharing 4, 8 or 12 bytes with the constant's start (0x80 and above
     * among them), ties equal to a constant through byte 11 and beyond, nulls with garbage views; every comparison
     * through every entry point against the model. A long tie in a sparse window naming a missing buffer, and one
     * pointing past the buffer's end, fail naming the row.
     */
    @Test
    void orderTiesOfEveryCountPerWord() {
        int[] tieLengths = {13, 5, 8, 11, 12, 16, 17, 25}; // a word's first tie is long
        int[] otherLengths = {0, 1, 4, 8, 12, 13, 17, 25};
        byte[] alphabet = {0x00, 'a', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
        int rows = 2 * REGION + 777;
        long seed = 0x6A7E;
        Random random = new Random(seed);
        byte[] start = randomBytes(random, 25, alphabet);
        start[0] = 'a';
        start[6] = (byte) 0x80;
        boolean[] tie = new boolean[rows];
        for (int word = 0; word * 64 < rows; word++) {
            int first = word * 64;
            int n = Math.min(64, rows - first);
            for (int placed = 0, want = Math.min(word % 13, n); placed < want; ) {
                int row = first + (placed == 0 && word % 3 == 0 ? 0 : placed == 1 && word % 5 == 0 ? n - 1
                        : random.nextInt(n));
                if (!tie[row]) {
                    tie[row] = true;
                    placed++;
                }
            }
        }
        for (int row : new int[] {REGION - 1, REGION, rows - 1}) {
            tie[row] = true;
        }
        List<byte[]> values = new ArrayList<>();
        int tieRank = 0;
        for (int row = 0; row < rows; row++) {
            if (tie[row]) {
                int length = tieLengths[tieRank++ % tieLengths.length];
                values.add(tieRank % 17 == 0 ? Arrays.copyOf(start, Math.max(length, 13))
                        : sharingStart(random, start, length, alphabet));
            } else if (random.nextInt(30) == 0) {
                values.add(null);
            } else {
                byte[] v = randomBytes(random, otherLengths[random.nextInt(otherLengths.length)], alphabet);
                if (v.length > 0) {
                    v[0] = (byte) 0xC3; // never the start's first byte: decided by the view
                }
                values.add(v);
            }
        }
        List<byte[]> constants = new ArrayList<>();
        for (int length : new int[] {5, 8, 12, 13, 17, 25}) {
            constants.add(sharingStart(random, start, length, alphabet));
        }
        constants.add(Arrays.copyOf(start, 25)); // the ties equal to the start through byte 11 are deep ties
        constants.add(Arrays.copyOf(start, 12));
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn large = oneAdoptedBuffer(arena, values, LARGE_BUFFER_BYTES);
            List<ViewColumn> columns = List.of(large, TestData.withGarbageNullViews(arena, large, seed));
            for (int i = 0; i < columns.size(); i++) {
                checkEveryOrder("gathered ties column#" + i + " seed=" + seed, columns.get(i), values, constants,
                        seed);
            }
            // Long ties in the second window, one naming a missing buffer, one pointing past the buffer's end.
            int row = REGION + 100;
            while (!tie[row] || values.get(row).length <= 12) {
                row++;
            }
            assertBadLongTieNamesItsRow(arena, large, row, start);
        }
    }

    /**
     * {@code rows} values alternating an 8-byte row (inline, {@code start}'s first 8 bytes with byte
     * {@code differAt} flipped) and a 25-byte row ({@code start}'s first 25
     * bytes: a long tie).
     */
    private static List<byte[]> settledInlineAndLongTies(byte[] start, int rows, int differAt) {
        List<byte[]> values = new ArrayList<>();
        for (int row = 0; row < rows; row++) {
            byte[] v = Arrays.copyOf(start, row % 2 == 0 ? 8 : 25);
            v[differAt] ^= (byte) (row % 2 == 0 ? 1 : 0);
            values.add(v);
        }
        return values;
    }

    /**
     * A copy of one-buffer {@code column} whose long row {@code row} (a tie of {@code constant}) names a missing
     * buffer, then one whose row points past the buffer's end: {@code lessThan constant} fails naming the row (and
     * the buffer index).
     */
    private static void assertBadLongTieNamesItsRow(Arena arena, ViewColumn column, int row, byte[] constant) {
        for (int bad = 0; bad < 2; bad++) {
            MemorySegment views = arena.allocate(column.views().byteSize(), 16);
            MemorySegment.copy(column.views(), 0, views, 0, views.byteSize());
            long at = (long) row * ViewLayout.VIEW_SIZE;
            if (bad == 0) {
                views.set(ViewLayout.LAYOUT_LE_INT, at + ViewLayout.OFFSET_BUFFER_INDEX, 2);
            } else {
                views.set(ViewLayout.LAYOUT_LE_INT, at + ViewLayout.OFFSET_BUFFER_OFFSET,
                        (int) column.buffer(0).byteSize() - 6);
            }
            ViewColumn broken = ViewColumns.fromViewsUnchecked(ViewKind.BINARY, column.size(), views, null,
                    List.of(column.buffer(0)));
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                    () -> ViewPredicates.compare(Comparison.LESS_THAN, constant).count(broken));
            assertTrue(e.getMessage().contains("row=" + row + " ")
                    && (bad == 1 || e.getMessage().contains("bufferIndex=2")), e.getMessage());
        }
    }

    /**
     * {@code count} of starts-with (patterns of 5..12 bytes) and of equality with a long constant, whose long
     * candidates read their buffer: against the model over a large buffer in regions of 5/100/2/50% candidates, the same values packed
     * into a small buffer (the last value, 13 bytes, ends at the buffer's end), and many buffers; values of 0-25
     * bytes with 0x80/0xFF in bytes 4..11; exact copies of long constants; patterns and constants of 5..13, 16,
     * 17 and 25 bytes. A long candidate naming a missing buffer fails naming the row, with one and many buffers.
     */
    @Test
    void countsFromSecondViewWordsMatchTheModel() {
        ViewKernels.warmUp(); // so that count takes the vector pass that hands over the words (where the JVM has it)
        int[] lengths = {0, 5, 8, 11, 12, 13, 15, 16, 17, 25};
        byte[] alphabet = {0x00, 'a', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
        int rows = 2 * REGION + 3001;
        long seed = 0x2F0D;
        Random random = new Random(seed);
        byte[] start = randomBytes(random, 25, alphabet);
        List<byte[]> constants = new ArrayList<>();
        for (int length : new int[] {5, 12, 13, 16, 17, 25}) {
            byte[] k = Arrays.copyOf(start, length);
            k[length - 1] = (byte) 0xFF;
            constants.add(k);
        }
        List<byte[]> values = sharingValues(random, rows, new int[] {5, 100, 2, 50}, REGION / 2, 0,
                Integer.MAX_VALUE, lengths, start, alphabet);
        for (int row = 0; row < rows; row++) {
            if (random.nextInt(30) == 0) {
                values.set(row, constants.get(random.nextInt(constants.size())).clone());
            }
        }
        values.set(rows - 1, Arrays.copyOf(start, 13)); // a long candidate whose bytes end at the buffer's end
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn large = oneAdoptedBuffer(arena, values, LARGE_BUFFER_BYTES);
            ViewColumn packed = oneAdoptedBuffer(arena, values);
            assertEquals(packed.buffer(0).byteSize(), values.stream().mapToLong(v -> v.length).sum(), "packed");
            ViewColumn many = TestData.anyColumn(arena, ViewKind.BINARY, values, TestData.Shape.CONCAT, seed);
            assertTrue(many.bufferCount() > 1, "many buffers");
            for (ViewColumn column : List.of(large, packed, many)) {
                String where = "bufferBytes=" + column.buffer(0).byteSize() + " buffers=" + column.bufferCount()
                        + " seed=" + seed;
                for (int length : new int[] {5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 25}) {
                    for (byte last : new byte[] {start[length - 1], (byte) 0x80, (byte) 0xFF}) {
                        byte[] pattern = Arrays.copyOf(start, length);
                        pattern[length - 1] = last;
                        long want = values.stream().filter(v -> startsWith(v, pattern)).count();
                        assertEquals(want, ViewPredicates.startsWith(pattern).count(column),
                                where + " count startsWith " + ModelChecks.show(pattern));
                    }
                }
                List<byte[]> equalities = new ArrayList<>(constants);
                equalities.add(values.get(rows - 1));
                equalities.add(values.get(rows / 2));
                for (byte[] k : equalities) {
                    long want = values.stream().filter(v -> Arrays.equals(v, k)).count();
                    assertEquals(want, ViewPredicates.equalTo(k).count(column), where + " count equalTo "
                            + ModelChecks.show(k));
                    assertEquals(rows - want, ViewPredicates.notEqualTo(k).count(column), where
                            + " count notEqualTo " + ModelChecks.show(k));
                }
            }
            // A long candidate past the first large window naming a buffer the column does not have.
            int row = REGION + 11;
            while (values.get(row).length <= 12 || !Arrays.equals(values.get(row), 0, 6, start, 0, 6)) {
                row++;
            }
            for (ViewColumn column : List.of(large, many)) {
                MemorySegment views = arena.allocate(column.views().byteSize(), 16);
                MemorySegment.copy(column.views(), 0, views, 0, views.byteSize());
                int index = column.bufferCount() + 1;
                views.set(ViewLayout.LAYOUT_LE_INT, (long) row * ViewLayout.VIEW_SIZE
                        + ViewLayout.OFFSET_BUFFER_INDEX, index);
                List<MemorySegment> buffers = new ArrayList<>();
                for (int b = 0; b < column.bufferCount(); b++) {
                    buffers.add(column.buffer(b));
                }
                ViewColumn bad = ViewColumns.fromViewsUnchecked(ViewKind.BINARY, rows, views, null, buffers);
                for (ViewPredicate predicate : List.of(ViewPredicates.startsWith(Arrays.copyOf(start, 6)),
                        ViewPredicates.equalTo(values.get(row)))) {
                    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                            () -> predicate.count(bad));
                    assertTrue(e.getMessage().contains("row=" + row) && e.getMessage().contains("bufferIndex="
                            + index) && e.getMessage().contains("buffers=" + buffers.size()), e.getMessage());
                }
            }
        }
    }

    /**
     * A column whose every value, inline or long, is a view into one adopted buffer holding all their bytes one
     * after another (as Suite 1 builds its columns), so the kernels take their one-buffer paths.
     */
    private static ViewColumn oneAdoptedBuffer(Arena arena, List<byte[]> values) {
        return oneAdoptedBuffer(arena, values, 0);
    }

    /**
     * As above in a buffer of at least {@code minBytes}, the values spread over it with equal gaps (a buffer of
     * {@link #LARGE_BUFFER_BYTES} is far larger than the L2 cache, as on Suite 1's 10M-row heap).
     */
    private static ViewColumn oneAdoptedBuffer(Arena arena, List<byte[]> values, long minBytes) {
        long total = 0;
        for (byte[] v : values) {
            total += v == null ? 0 : v.length;
        }
        long gap = values.isEmpty() ? 0 : Math.max(0, minBytes - total) / values.size();
        MemorySegment heap = arena.allocate(Math.max(Math.max(1, total), minBytes), 1);
        ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.BINARY);
        int buffer = builder.adoptBuffer(heap);
        long offset = 0;
        for (byte[] v : values) {
            if (v == null) {
                builder.appendNull();
                continue;
            }
            MemorySegment.copy(v, 0, heap, ValueLayout.JAVA_BYTE, offset, v.length);
            builder.appendView(buffer, offset, v.length);
            offset += v.length + gap;
        }
        ViewColumn column = builder.build();
        assertEquals(1, column.bufferCount(), "one adopted buffer");
        return column;
    }

    /**
     * An unchecked one-buffer column whose long row names a buffer it does not have: the one-buffer paths of
     * equality and starts-with name the row and the index instead of reading buffer 0; order fails as well.
     */
    @Test
    void oneBufferColumnWithAMissingBufferIndexFailsNamingTheRow() {
        byte[] value = "prefix-and-a-long-tail-25".getBytes(StandardCharsets.US_ASCII);
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn good = oneAdoptedBuffer(arena, List.of(value, value, value));
            MemorySegment views = arena.allocate(3L * ViewLayout.VIEW_SIZE, 16);
            MemorySegment.copy(good.views(), 0, views, 0, views.byteSize());
            views.set(ViewLayout.LAYOUT_LE_INT, ViewLayout.VIEW_SIZE + ViewLayout.OFFSET_BUFFER_INDEX, 3);
            ViewColumn bad = ViewColumns.fromViewsUnchecked(ViewKind.BINARY, 3, views, null, List.of(good.buffer(0)));
            for (ViewPredicate predicate : List.of(ViewPredicates.equalTo(value),
                    ViewPredicates.startsWith(Arrays.copyOf(value, 9)))) {
                IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                        () -> predicate.count(bad));
                assertTrue(e.getMessage().contains("row=1") && e.getMessage().contains("bufferIndex=3")
                        && e.getMessage().contains("buffers=1"), e.getMessage());
            }
            ViewPredicate lessThan = ViewPredicates.compare(Comparison.LESS_THAN, value);
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> lessThan.count(bad));
            assertTrue(e.getMessage().contains("row=1") && e.getMessage().contains("bufferIndex=3")
                    && e.getMessage().contains("buffers=1"), e.getMessage());
            assertEquals(3, ViewPredicates.equalTo(value).count(good));
        }
    }

    /**
     * Order's deep ties (long rows agreeing with a long constant through byte 11, settled from byte 12 on):
     * constants of 13 to 60 bytes against rows that share their first 12 bytes and then differ at every byte from 12
     * (by 0x00, 0x7F, 0x80 or 0xFF, below and above), stop short of the constant or go past it (lengths around 8-byte
     * steps: 13, 16, 17, 20, 21, 28, 29, 36, 44, 45), in a buffer that ends with the last row's last byte (a load past
     * a value's end would fail), on one buffer and many, with nulls whose views hold garbage, through every entry point
     * and selection ({@link #checkComparisons}). With every row a tie, whole windows are crowded too.
     */
    @Test
    void deepTiesCompareEveryByteFromTwelve() {
        byte[] alphabet = {0x00, 'a', 'z', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFE, (byte) 0xFF};
        byte[] changes = {0x00, 0x01, 0x7F, (byte) 0x80, (byte) 0xFE, (byte) 0xFF};
        int[] constantLengths = {13, 16, 17, 20, 21, 25, 28, 29, 36, 44, 45, 60};
        for (int c = 0; c < constantLengths.length; c++) {
            long seed = 0xDEE9 + 31L * c;
            Random random = new Random(seed);
            int kLength = constantLengths[c];
            byte[] k = randomBytes(random, kLength, alphabet);
            List<byte[]> values = new ArrayList<>();
            for (int length = 12; length <= kLength + 9; length++) {
                byte[] v = Arrays.copyOf(k, length); // a proper prefix of k, k itself, or k and more bytes
                for (int i = kLength; i < length; i++) {
                    v[i] = alphabet[random.nextInt(alphabet.length)];
                }
                values.add(v);
            }
            for (int at = 12; at < kLength; at++) {
                for (byte change : changes) {
                    if (change == k[at]) {
                        continue;
                    }
                    byte[] v = Arrays.copyOf(k, 13 + random.nextInt(kLength + 8 - 12));
                    if (at < v.length) {
                        v[at] = change;
                    }
                    values.add(v);
                }
            }
            for (int i = values.size() / 7; i > 0; i--) {
                values.add(random.nextInt(values.size()), null);
            }
            java.util.Collections.shuffle(values, random);
            values.add(k.clone()); // the buffer's last bytes: a deep tie equal to k
            try (Arena arena = Arena.ofConfined()) {
                ViewColumn one = oneAdoptedBuffer(arena, values);
                ViewColumn many = TestData.column(arena, ViewKind.BINARY, values, Shape.CONCAT, seed);
                List<ViewColumn> columns = List.of(one, TestData.withGarbageNullViews(arena, one, seed), many);
                for (int i = 0; i < columns.size(); i++) {
                    checkComparisons(columns.get(i), values, k, seed, "deep ties column#" + i + " constantBytes="
                            + kLength + " rows=" + values.size() + " seed=" + seed);
                }
            }
        }
    }

    /**
     * Starts-with's {@code count} when the long candidates of a pattern of 5 to 12 bytes are counted without
     * writing ids: every row shares the pattern's first four bytes, bytes 4..11
     * differ from the pattern's at each position in turn (bytes 0x00 to 0xFF), lengths 0 to 25 and the last row
     * ending at the buffer's end, with no nulls (the count-only path) and with nulls (the two-phase path), on one
     * buffer and many, windows of 1024 rows and their borders; against {@code select} and the model.
     */
    @Test
    void startsWithCountsLongCandidatesOfShortPatterns() {
        byte[] alphabet = {0x00, 'a', 'b', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFE, (byte) 0xFF};
        int[] sizes = {1, 63, 1023, 1024, 1025, 2500};
        for (int s = 0; s < sizes.length; s++) {
            long seed = 0x57A7 + 13L * s;
            Random random = new Random(seed);
            byte[] start = randomBytes(random, 12, alphabet);
            List<byte[]> values = new ArrayList<>();
            for (int row = 0; row < sizes[s]; row++) {
                int length = random.nextInt(4) == 0 ? random.nextInt(26) : 13 + random.nextInt(13);
                byte[] v = Arrays.copyOf(start, length);
                for (int i = 12; i < length; i++) {
                    v[i] = alphabet[random.nextInt(alphabet.length)];
                }
                if (length > 4 && random.nextInt(3) == 0) {
                    v[4 + random.nextInt(Math.min(8, length - 4))] = alphabet[random.nextInt(alphabet.length)];
                }
                values.add(v);
            }
            List<byte[]> withNulls = withNullsEvery(values, 0, 9);
            try (Arena arena = Arena.ofConfined()) {
                for (List<byte[]> model : List.of(values, withNulls)) {
                    ViewColumn one = oneAdoptedBuffer(arena, model);
                    ViewColumn many = TestData.column(arena, ViewKind.BINARY, model, Shape.CONCAT, seed);
                    for (ViewColumn column : List.of(one, many)) {
                        for (int patternLength = 5; patternLength <= 13; patternLength++) {
                            byte[] pattern = Arrays.copyOf(start, patternLength);
                            if (random.nextBoolean()) {
                                pattern[4 + random.nextInt(patternLength - 4)] ^= (byte) 0x80;
                            }
                            String where = "startsWith count rows=" + model.size() + " buffers="
                                    + column.bufferCount() + " nulls=" + (model == withNulls) + " pattern="
                                    + ModelChecks.show(pattern) + " seed=" + seed;
                            checkPredicate(where, ViewPredicates.startsWith(pattern), column, model,
                                    v -> startsWith(v, pattern), seed);
                        }
                    }
                }
            }
        }
    }

    /**
     * Starts-with's {@code count} over regions of 1024-row windows whose share of long candidates goes 100 / 3 / 60 /
     * 0 / 100 / 49 / 51% (dense and sparse
     * windows in turn), region borders off the window
     * borders, lengths 0, 1, 11, 12, 13, 15, 16, 17 and 25, bytes 4..11 differing from the pattern by 0x80 and 0xFF,
     * patterns of 5..13, 17 and 25 bytes, the last value ending at the buffer's end; one buffer, one buffer of 8 MiB,
     * many buffers and nulls with garbage views, every entry point and selection ({@link ModelChecks#checkPredicate}).
     */
    @Test
    void startsWithCountOverDenseAndSparseWindowsMatchesTheModel() {
        byte[] alphabet = {0x00, 'a', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
        int[] lengths = {0, 1, 11, 12, 13, 15, 16, 17, 25};
        int[] regionShares = {100, 3, 60, 0, 100, 49, 51};
        long seed = 0xD3A5E;
        Random random = new Random(seed);
        byte[] start = randomBytes(random, 25, alphabet);
        start[5] = (byte) 0xFF;
        start[9] = (byte) 0x80;
        List<byte[]> values = new ArrayList<>();
        for (int share : regionShares) {
            for (int row = 0, rows = 1024 + random.nextInt(200) - 100; row < rows; row++) {
                boolean longCandidate = random.nextInt(100) < share;
                int length = longCandidate ? lengths[4 + random.nextInt(5)] : lengths[random.nextInt(lengths.length)];
                byte[] v = Arrays.copyOf(start, length);
                if (!longCandidate && length > 0) {
                    v[random.nextInt(Math.min(4, length))] ^= (byte) 0x80; // another prefix
                }
                for (int i = 4; i < length; i++) {
                    if (random.nextInt(12) == 0) {
                        v[i] = random.nextBoolean() ? (byte) (v[i] ^ 0x80) : (byte) 0xFF;
                    }
                }
                values.add(v);
            }
        }
        values.add(start.clone()); // the buffer's last 25 bytes
        List<byte[]> withNulls = withNullsEvery(values, 0, 11);
        int[] patternLengths = {5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 25};
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn one = oneAdoptedBuffer(arena, values);
            List<ViewColumn> columns = List.of(one, oneAdoptedBuffer(arena, values, LARGE_BUFFER_BYTES),
                    TestData.column(arena, ViewKind.BINARY, values, Shape.CONCAT, seed));
            ViewColumn nulls = TestData.withGarbageNullViews(arena, oneAdoptedBuffer(arena, withNulls), seed);
            for (int patternLength : patternLengths) {
                byte[] pattern = Arrays.copyOf(start, patternLength);
                ViewPredicate startsWith = ViewPredicates.startsWith(pattern);
                for (int c = 0; c < columns.size(); c++) {
                    checkPredicate("startsWith regions column#" + c + " pattern=" + ModelChecks.show(pattern)
                            + " seed=" + seed, startsWith, columns.get(c), values, v -> startsWith(v, pattern), seed);
                }
                checkPredicate("startsWith regions nulls pattern=" + ModelChecks.show(pattern) + " seed=" + seed,
                        startsWith, nulls, withNulls, v -> startsWith(v, pattern), seed);
            }
        }
    }

    /**
     * Starts-with's {@code count} over a one-buffer column where most rows are long candidates, with one malformed
     * long row in the third window: a row that is no candidate (another prefix) naming a missing buffer or pointing
     * past the buffer's end is never read, so the count is the model's; a candidate naming a missing buffer fails
     * naming the row and the numbers.
     */
    @Test
    void startsWithCountWithAMalformedLongRow() {
        byte[] value = "http://example.org/x-25-b".getBytes(StandardCharsets.US_ASCII);
        byte[] other = "ftp://example.org/x-25-by".getBytes(StandardCharsets.US_ASCII);
        int rows = 3000;
        int badRow = 2500; // in the third 1024-row window
        List<byte[]> values = new ArrayList<>();
        for (int row = 0; row < rows; row++) {
            values.add(row == badRow || row % 7 == 0 ? other : value);
        }
        ViewPredicate startsWith = ViewPredicates.startsWith(Arrays.copyOf(value, 7));
        int expected = (int) values.stream().filter(v -> v == value).count();
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn good = oneAdoptedBuffer(arena, values);
            assertEquals(expected, startsWith.count(good));
            long at = (long) badRow * ViewLayout.VIEW_SIZE;
            for (int variant = 0; variant < 3; variant++) {
                MemorySegment views = arena.allocate((long) rows * ViewLayout.VIEW_SIZE, 16);
                MemorySegment.copy(good.views(), 0, views, 0, views.byteSize());
                if (variant == 0) { // no candidate, missing buffer
                    views.set(ViewLayout.LAYOUT_LE_INT, at + ViewLayout.OFFSET_BUFFER_INDEX, 3);
                } else if (variant == 1) { // no candidate, past the end
                    views.set(ViewLayout.LAYOUT_LE_INT, at + ViewLayout.OFFSET_BUFFER_INDEX + 4, -16);
                } else { // a candidate naming a missing buffer
                    MemorySegment.copy(good.views(), ViewLayout.VIEW_SIZE, views, at, ViewLayout.VIEW_SIZE); // row 1
                    views.set(ViewLayout.LAYOUT_LE_INT, at + ViewLayout.OFFSET_BUFFER_INDEX, 3);
                }
                ViewColumn bad = ViewColumns.fromViewsUnchecked(ViewKind.BINARY, rows, views, null,
                        List.of(good.buffer(0)));
                if (variant < 2) {
                    assertEquals(expected, startsWith.count(bad), "variant=" + variant);
                } else {
                    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                            () -> startsWith.count(bad));
                    assertTrue(e.getMessage().contains("row=" + badRow) && e.getMessage().contains("bufferIndex=3")
                            && e.getMessage().contains("buffers=1"), e.getMessage());
                }
            }
        }
    }

    /**
     * Starts-with's {@code count} where sparse long candidates over a buffer of 8 MiB or more are sparse: 16384-row windows with 4%
     * long candidates, one window made dense (70% in 2500 rows) and one with none; long candidates on both sides of the first window border (rows 16383, 16384)
     * and at the column's end, whose 25 bytes end exactly at the buffer's end; lengths 0, 1, 11, 12, 13, 15, 16, 17
     * and 25; bytes 4..11 changed to 0x80-flipped or 0xFF bytes; patterns of 5..13, 17 and 25 bytes. Columns: that
     * buffer, the same values packed, two large buffers and many small ones,
     * and the large buffer with nulls whose views hold garbage; against the model, every entry point and selection
     * for three patterns. {@code select} over all rows is checked too, as is {@code count} for patterns over 12 bytes. A sparse
     * candidate naming a missing buffer or pointing past the buffer's end fails, in {@code count} and in
     * {@code select}, with a one-line error naming the row and the numbers. Equality's {@code select} with long
     * constants (candidates sparse and long) is checked the same way.
     */
    @Test
    void startsWithAndEqualityOverSparseLongCandidatesOnALargeBuffer() {
        ViewKernels.warmUp(); // so that count takes the vector pass, as it does once warm (where the JVM has it)
        byte[] alphabet = {0x00, 'a', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
        int[] inlineOrShort = {0, 1, 11, 12, 13, 15, 16, 17, 25};
        int[] longLengths = {13, 15, 16, 17, 25};
        long seed = 0x6A7E5;
        Random random = new Random(seed);
        byte[] start = randomBytes(random, 25, alphabet);
        start[6] = (byte) 0x80;
        start[10] = (byte) 0xFF;
        int rows = 3 * REGION + 1777;
        List<byte[]> values = new ArrayList<>();
        List<Integer> longCandidateRows = new ArrayList<>();
        for (int row = 0; row < rows; row++) {
            int percent = row >= 20_000 && row < 22_500 ? 70 : row >= 40_000 && row < 41_000 ? 0 : 4;
            boolean border = row == REGION - 1 || row == REGION || row == rows - 1;
            boolean longCandidate = border || random.nextInt(100) < percent;
            int length = row == rows - 1 ? 25 : longCandidate ? longLengths[random.nextInt(longLengths.length)]
                    : inlineOrShort[random.nextInt(inlineOrShort.length)];
            byte[] v = Arrays.copyOf(start, length);
            if (longCandidate) {
                longCandidateRows.add(row);
                if (random.nextInt(3) == 0) { // a different byte in 4..11: no match for the longer patterns
                    int at = 4 + random.nextInt(8);
                    v[at] = random.nextBoolean() ? (byte) (v[at] ^ 0x80) : (byte) 0xFF;
                }
            } else if (length > 0 && (length > 12 || random.nextInt(8) != 0)) {
                v[random.nextInt(Math.min(4, length))] ^= (byte) 0x80; // another prefix: select's candidates sparse
            }
            values.add(v);
        }
        List<byte[]> withNulls = withNullsEvery(values, 3, 11);
        int[] patternLengths = {5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 25};
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn large = oneAdoptedBufferEndingAtItsLastValue(arena, values, LARGE_BUFFER_BYTES);
            MemorySegment buffer = large.buffer(0);
            assertTrue(buffer.byteSize() >= LARGE_BUFFER_BYTES, "large buffer");
            assertEquals(buffer.byteSize(), large.views().get(ViewLayout.LAYOUT_LE_INT,
                    (long) (rows - 1) * ViewLayout.VIEW_SIZE + ViewLayout.OFFSET_BUFFER_OFFSET) + 25L, "ends at end");
            List<ViewColumn> columns = List.of(large, oneAdoptedBuffer(arena, values),
                    twoAdoptedBuffers(arena, values, LARGE_BUFFER_BYTES),
                    TestData.column(arena, ViewKind.BINARY, values, Shape.CONCAT, seed));
            ViewColumn nulls = TestData.withGarbageNullViews(arena,
                    oneAdoptedBufferEndingAtItsLastValue(arena, withNulls, LARGE_BUFFER_BYTES), seed);
            for (int patternLength : patternLengths) {
                for (byte last : new byte[] {start[patternLength - 1], (byte) (start[patternLength - 1] ^ 0x80),
                        (byte) 0xFF}) {
                    byte[] pattern = Arrays.copyOf(start, patternLength);
                    pattern[patternLength - 1] = last;
                    ViewPredicate startsWith = ViewPredicates.startsWith(pattern);
                    long want = values.stream().filter(v -> startsWith(v, pattern)).count();
                    for (int c = 0; c < columns.size(); c++) {
                        assertEquals(want, startsWith.count(columns.get(c)), "gathered startsWith column#" + c
                                + " pattern=" + ModelChecks.show(pattern) + " seed=" + seed);
                    }
                    long wantWithNulls = withNulls.stream().filter(v -> v != null && startsWith(v, pattern)).count();
                    assertEquals(wantWithNulls, startsWith.count(nulls), "gathered startsWith nulls pattern="
                            + ModelChecks.show(pattern) + " seed=" + seed);
                }
            }
            for (int patternLength : new int[] {6, 12, 13}) {
                byte[] pattern = Arrays.copyOf(start, patternLength);
                checkPredicate("gathered startsWith large pattern=" + ModelChecks.show(pattern) + " seed=" + seed,
                        ViewPredicates.startsWith(pattern), large, values, v -> startsWith(v, pattern), seed);
                checkPredicate("gathered startsWith nulls pattern=" + ModelChecks.show(pattern) + " seed=" + seed,
                        ViewPredicates.startsWith(pattern), nulls, withNulls, v -> startsWith(v, pattern), seed);
            }
            // Equality's select with long constants (its candidates, rows of the constant's length and prefix, are
            // sparse and long, so gathered too): values of the data and copies changed at byte 4, 11 or 12.
            List<byte[]> constants = new ArrayList<>();
            for (int i = 1; i <= 6; i++) {
                byte[] k = values.get(longCandidateRows.get(longCandidateRows.size() * i / 7)).clone();
                constants.add(k.clone());
                int at = i % 3 == 0 ? 4 : i % 3 == 1 ? 11 : 12;
                k[at] ^= (byte) 0x80;
                constants.add(k);
            }
            constants.add(values.get(rows - 1));
            for (byte[] k : constants) {
                int[] want = java.util.stream.IntStream.range(0, rows).filter(r -> Arrays.equals(values.get(r), k))
                        .toArray();
                for (int c = 0; c < columns.size(); c++) {
                    int[] out = new int[rows];
                    int n = ViewPredicates.equalTo(k).select(columns.get(c), out);
                    assertArrayEquals(want, Arrays.copyOf(out, n), "gathered equalTo select column#" + c
                            + " constant=" + ModelChecks.show(k) + " seed=" + seed);
                }
            }
            checkPredicate("gathered equalTo large seed=" + seed, ViewPredicates.equalTo(constants.get(0)), large,
                    values, v -> Arrays.equals(v, constants.get(0)), seed);
            // A long candidate in a sparse large window (the first), then one in the last window, made malformed.
            ViewPredicate startsWith = ViewPredicates.startsWith(Arrays.copyOf(start, 6));
            for (int row : new int[] {longCandidateRows.get(longCandidateRows.size() / 9), rows - 1}) {
                int length = values.get(row).length;
                for (boolean pastTheEnd : new boolean[] {false, true}) {
                    ViewColumn bad = withMalformedRow(arena, large, row, pastTheEnd);
                    String expected = malformedRowError(large, row, length, pastTheEnd);
                    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                            () -> startsWith.count(bad), "count row=" + row + " pastTheEnd=" + pastTheEnd);
                    assertEquals(expected, e.getMessage());
                    e = assertThrows(IndexOutOfBoundsException.class, () -> startsWith.select(bad, new int[rows]),
                            "select row=" + row + " pastTheEnd=" + pastTheEnd);
                    assertEquals(expected, e.getMessage());
                    ViewPredicate equalTo = ViewPredicates.equalTo(values.get(row));
                    e = assertThrows(IndexOutOfBoundsException.class, () -> equalTo.select(bad, new int[rows]),
                            "equalTo select row=" + row + " pastTheEnd=" + pastTheEnd);
                    assertEquals(expected, e.getMessage());
                }
            }
        }
    }

    /**
     * An unchecked copy of the one-buffer {@code column} whose long row {@code row} points 10 bytes before its
     * buffer's end ({@code pastTheEnd}) or names buffer 3, which the column does not have.
     */
    private static ViewColumn withMalformedRow(Arena arena, ViewColumn column, int row, boolean pastTheEnd) {
        MemorySegment views = arena.allocate(column.views().byteSize(), 16);
        MemorySegment.copy(column.views(), 0, views, 0, views.byteSize());
        long at = (long) row * ViewLayout.VIEW_SIZE;
        if (pastTheEnd) {
            views.set(ViewLayout.LAYOUT_LE_INT, at + ViewLayout.OFFSET_BUFFER_OFFSET,
                    (int) (column.buffer(0).byteSize() - 10));
        } else {
            views.set(ViewLayout.LAYOUT_LE_INT, at + ViewLayout.OFFSET_BUFFER_INDEX, 3);
        }
        return ViewColumns.fromViewsUnchecked(ViewKind.BINARY, column.size(), views, null,
                List.of(column.buffer(0)));
    }

    /** The one-line error a kernel gives for {@link #withMalformedRow}'s row of {@code length} bytes. */
    private static String malformedRowError(ViewColumn column, int row, int length, boolean pastTheEnd) {
        long bufferBytes = column.buffer(0).byteSize();
        return pastTheEnd
                ? "view points past its data buffer: row=" + row + " bufferIndex=0 offset=" + (bufferBytes - 10)
                        + " length=" + length + " bufferBytes=" + bufferBytes
                : "view names a missing data buffer: row=" + row + " bufferIndex=3 buffers=1";
    }

    /**
     * Starts-with's {@code count} over windows where every row is a long candidate (every value shares the
     * pattern's first four bytes and is longer than 12), every row a tie: full 1024-row windows, one whose last row is inline instead (the id
     * loop), and a last, partial window whose last value ends at the buffer's end; lengths 13, 15, 16, 17 and 25;
     * bytes 4..11 changed to 0x80-flipped or 0xFF bytes; patterns of 5..13, 17 and 25 bytes; one small buffer, one
     * of 8 MiB (a single 16384-row window, which its inline row sends to the id loop), many buffers, and nulls with
     * garbage views; against the model through every
     * entry point and selection. A row in such a window naming a missing buffer or pointing past the buffer's end
     * fails with a one-line error naming the row and the numbers.
     */
    @Test
    void startsWithCountOverWindowsOfOnlyLongCandidates() {
        ViewKernels.warmUp(); // so that count takes the vector pass, as it does once warm (where the JVM has it)
        byte[] alphabet = {0x00, 'a', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
        int[] longLengths = {13, 15, 16, 17, 25};
        long seed = 0x2A11;
        Random random = new Random(seed);
        byte[] start = randomBytes(random, 25, alphabet);
        start[5] = (byte) 0xFF;
        start[8] = (byte) 0x80;
        int rows = 3 * ViewWordPredicate.WINDOW + 500;
        List<byte[]> values = new ArrayList<>();
        for (int row = 0; row < rows; row++) {
            boolean inline = row == 2 * ViewWordPredicate.WINDOW - 1; // the second window's last row
            int length = row == rows - 1 ? 25 : inline ? 11 : longLengths[random.nextInt(longLengths.length)];
            byte[] v = Arrays.copyOf(start, length);
            if (random.nextInt(3) == 0) {
                int at = 4 + random.nextInt(8);
                v[at] = random.nextBoolean() ? (byte) (v[at] ^ 0x80) : (byte) 0xFF;
            }
            values.add(v);
        }
        List<byte[]> withNulls = withNullsEvery(values, 5, 13);
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn small = oneAdoptedBufferEndingAtItsLastValue(arena, values, 0);
            List<ViewColumn> columns = List.of(small,
                    oneAdoptedBufferEndingAtItsLastValue(arena, values, LARGE_BUFFER_BYTES),
                    TestData.column(arena, ViewKind.BINARY, values, Shape.CONCAT, seed));
            ViewColumn nulls = TestData.withGarbageNullViews(arena, oneAdoptedBuffer(arena, withNulls), seed);
            for (int patternLength : new int[] {5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 25}) {
                for (byte last : new byte[] {start[patternLength - 1], (byte) 0xFF}) {
                    byte[] pattern = Arrays.copyOf(start, patternLength);
                    pattern[patternLength - 1] = last;
                    ViewPredicate startsWith = ViewPredicates.startsWith(pattern);
                    long want = values.stream().filter(v -> startsWith(v, pattern)).count();
                    for (int c = 0; c < columns.size(); c++) {
                        assertEquals(want, startsWith.count(columns.get(c)), "all long column#" + c + " pattern="
                                + ModelChecks.show(pattern) + " seed=" + seed);
                    }
                    if (patternLength == 6 || patternLength == 12 || patternLength == 13) {
                        checkPredicate("all long pattern=" + ModelChecks.show(pattern) + " seed=" + seed, startsWith,
                                small, values, v -> startsWith(v, pattern), seed);
                        checkPredicate("all long nulls pattern=" + ModelChecks.show(pattern) + " seed=" + seed,
                                startsWith, nulls, withNulls, v -> startsWith(v, pattern), seed);
                    }
                }
            }
            ViewPredicate startsWith = ViewPredicates.startsWith(Arrays.copyOf(start, 6));
            for (int row : new int[] {ViewWordPredicate.WINDOW - 300, rows - 1}) { // in run windows: the first and last
                for (boolean pastTheEnd : new boolean[] {false, true}) {
                    ViewColumn bad = withMalformedRow(arena, small, row, pastTheEnd);
                    String expected = malformedRowError(small, row, values.get(row).length, pastTheEnd);
                    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                            () -> startsWith.count(bad), "row=" + row + " pastTheEnd=" + pastTheEnd);
                    assertEquals(expected, e.getMessage());
                }
            }
        }
    }

    /**
     * Starts-with's {@code count} for patterns of 1..12 bytes whose last byte is or is not zero (an inline row shorter than
     * the pattern has zero padding at the pattern's last byte), against the model: mixed inline and long rows of 0..13,
     * 15, 16, 17 and 25 bytes, half of them a prefix of the pattern's value cut short before the pattern's end (they
     * agree with every byte they have), the others with 100 / 50% sharing its first four bytes and a byte flipped
     * by 0x80 or made 0xFF anywhere; bytes 0x00, 0x80 and above in prefixes; every pattern also with a last byte of
     * 0x00 (the length test stays) and 0xFF. Columns: one buffer, many buffers, nulls with garbage views (select's
     * path); rows across window borders, slices starting at 1, a window less one and a window plus one; every entry
     * point for three patterns.
     */
    @Test
    void startsWithCountAroundPatternsLastByteMatchesTheModel() {
        ViewKernels.warmUp(); // so that count takes the vector pass, as it does once warm (where the JVM has it)
        byte[] alphabet = {0x00, 'a', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
        int[] lengths = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 25};
        long seed = 0x2115;
        Random random = new Random(seed);
        byte[] start = randomBytes(random, 25, alphabet);
        start[0] = (byte) 0x80;
        start[2] = (byte) 0xFF;
        for (int i = 3; i < 12; i++) {
            start[i] |= 1; // no zero byte: the padding of a cut-short value differs from each pattern byte
        }
        int window = ViewWordPredicate.WINDOW;
        List<byte[]> values = new ArrayList<>();
        for (int region = 0; region < 3; region++) {
            int share = region == 1 ? 50 : 100;
            int rows = window + 37 * region - 40;
            for (int row = 0; row < rows; row++) {
                byte[] v = Arrays.copyOf(start, lengths[random.nextInt(lengths.length)]);
                if (random.nextBoolean()) {
                    if (random.nextInt(100) >= share && v.length > 0) {
                        v[random.nextInt(Math.min(4, v.length))] ^= (byte) 0x80;
                    }
                    if (random.nextInt(3) == 0 && v.length > 0) {
                        int at = random.nextInt(v.length);
                        v[at] = random.nextBoolean() ? (byte) (v[at] ^ 0x80) : (byte) 0xFF;
                    }
                }
                values.add(v);
            }
        }
        List<byte[]> withNulls = withNullsEvery(values, 5, 13);
        try (Arena arena = Arena.ofConfined()) {
            List<ViewColumn> columns = List.of(oneAdoptedBuffer(arena, values),
                    TestData.column(arena, ViewKind.BINARY, values, Shape.CONCAT, seed));
            ViewColumn nulls = TestData.withGarbageNullViews(arena, oneAdoptedBuffer(arena, withNulls), seed);
            for (int patternLength = 1; patternLength <= 13; patternLength++) {
                for (int variant = 0; variant < 3; variant++) {
                    byte[] pattern = Arrays.copyOf(start, patternLength);
                    pattern[patternLength - 1] = variant == 0 ? pattern[patternLength - 1]
                            : variant == 1 ? 0x00 : (byte) 0xFF;
                    ViewPredicate startsWith = ViewPredicates.startsWith(pattern);
                    String where = " pattern=" + ModelChecks.show(pattern) + " seed=" + seed;
                    for (int c = 0; c < columns.size(); c++) {
                        assertEquals(values.stream().filter(v -> startsWith(v, pattern)).count(),
                                startsWith.count(columns.get(c)), "padded column#" + c + where);
                        for (int from : new int[] {1, window - 1, window + 1}) {
                            int to = Math.min(values.size(), from + 2 * window);
                            assertEquals(values.subList(from, to).stream().filter(v -> startsWith(v, pattern))
                                    .count(), startsWith.count(columns.get(c).slice(from, to - from)),
                                    "padded slice from=" + from + " column#" + c + where);
                        }
                    }
                    assertEquals(withNulls.stream().filter(v -> v != null && startsWith(v, pattern)).count(),
                            startsWith.count(nulls), "padded nulls" + where);
                    if (patternLength == 3 || patternLength == 6 || patternLength == 12) {
                        checkPredicate("padded" + where, startsWith, columns.get(0), values,
                                v -> startsWith(v, pattern), seed);
                        checkPredicate("padded nulls" + where, startsWith, nulls, withNulls,
                                v -> startsWith(v, pattern), seed);
                    }
                }
            }
        }
    }

    /**
     * Starts-with's {@code count} over windows of nothing but long rows, against the model: regions of about a window each whose rows are all long
     * (lengths 13, 15, 16, 17, 25) with 100 / 20 / 40 / 60% sharing the pattern's first four bytes (the others differ
     * in a prefix byte by 0x80, and the first 64 rows are mostly candidates so that the first window takes the row
     * loop), then regions with one inline row (lengths 0, 1, 11, 12, its bytes 8..11 zero or 0xFF so that the loop
     * reads the buffer in or past its bounds) at a window's first row, last row or middle, after which only a window
     * of all long candidates brings the row loop back; bytes 4..11 flipped by 0x80 or made 0xFF at each position;
     * prefixes with bytes of 0x80 and above; the last value ending at the buffer's end; patterns of 5..13 bytes, each
     * also with its last byte 0xFF. Columns: one small buffer (1024-row windows), one of 8 MiB (16384-row windows),
     * many buffers (never the row loop), nulls with garbage views (never the row loop); every entry point and
     * selection for three patterns. Also a column whose first 64 rows are all long candidates and whose 100th row
     * is inline, and malformed long rows in a row-loop window (a missing buffer, bytes past the end), candidates or
     * not: candidates fail with the one-line error naming the row, other rows leave the model's count.
     */
    @Test
    void startsWithCountOverAllLongWindowsMatchesTheModel() {
        ViewKernels.warmUp(); // so that count takes the vector pass, as it does once warm (where the JVM has it)
        byte[] alphabet = {0x00, 'a', 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
        int[] longLengths = {13, 15, 16, 17, 25};
        int[] inlineLengths = {0, 1, 11, 12};
        long seed = 0x20F1;
        Random random = new Random(seed);
        byte[] start = randomBytes(random, 25, alphabet);
        start[1] = (byte) 0x80;
        start[3] = (byte) 0xFE;
        start[6] = (byte) 0xFF;
        start[8] = (byte) 0x80;
        int[] shares = {100, 20, 40, 60, 100, 100, 100, 100, 100};
        // -1: no inline row; else where the region's inline row is: 0 (its first row), 1 (its last), 2 (middle)
        int[] inlineAt = {-1, -1, -1, -1, 0, 1, 2, -1, -1};
        int window = ViewWordPredicate.WINDOW;
        List<byte[]> values = new ArrayList<>();
        for (int region = 0; region < shares.length; region++) {
            int first = values.size();
            int rows = window + (region % 3 == 0 ? 0 : random.nextInt(200) - 100);
            int inlineRow = inlineAt[region] < 0 ? -1
                    : first + (inlineAt[region] == 0 ? 0 : inlineAt[region] == 1 ? rows - 1 : rows / 2);
            for (int row = first; row < first + rows; row++) {
                boolean candidate = row < 64 || random.nextInt(100) < shares[region];
                if (row == inlineRow) {
                    int length = inlineLengths[random.nextInt(inlineLengths.length)];
                    byte[] v = Arrays.copyOf(start, length);
                    if (length > 8 && random.nextBoolean()) {
                        Arrays.fill(v, 8, length, (byte) 0xFF); // bytes 8..11 read as an offset far past the end
                    }
                    values.add(v);
                    continue;
                }
                byte[] v = Arrays.copyOf(start, longLengths[random.nextInt(longLengths.length)]);
                if (!candidate) {
                    v[random.nextInt(4)] ^= (byte) 0x80;
                }
                if (random.nextInt(3) == 0) {
                    int at = 4 + random.nextInt(8);
                    v[at] = random.nextBoolean() ? (byte) (v[at] ^ 0x80) : (byte) 0xFF;
                }
                values.add(v);
            }
        }
        values.add(start.clone()); // ends at the buffer's end
        List<byte[]> withNulls = withNullsEvery(values, 3, 17);
        List<byte[]> lateInline = new ArrayList<>(values.subList(0, 2 * window));
        lateInline.set(100, Arrays.copyOf(start, 12));
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn small = oneAdoptedBufferEndingAtItsLastValue(arena, values, 0);
            List<ViewColumn> columns = List.of(small,
                    oneAdoptedBufferEndingAtItsLastValue(arena, values, LARGE_BUFFER_BYTES),
                    TestData.column(arena, ViewKind.BINARY, values, Shape.CONCAT, seed));
            ViewColumn late = oneAdoptedBufferEndingAtItsLastValue(arena, lateInline, 0);
            ViewColumn nulls = TestData.withGarbageNullViews(arena, oneAdoptedBuffer(arena, withNulls), seed);
            for (int patternLength = 5; patternLength <= 13; patternLength++) {
                for (byte last : new byte[] {start[patternLength - 1], (byte) 0xFF}) {
                    byte[] pattern = Arrays.copyOf(start, patternLength);
                    pattern[patternLength - 1] = last;
                    ViewPredicate startsWith = ViewPredicates.startsWith(pattern);
                    String where = " pattern=" + ModelChecks.show(pattern) + " seed=" + seed;
                    long want = values.stream().filter(v -> startsWith(v, pattern)).count();
                    for (int c = 0; c < columns.size(); c++) {
                        assertEquals(want, startsWith.count(columns.get(c)), "row loop column#" + c + where);
                        for (int from : new int[] {1, window - 1, window + 1}) { // ranges whose windows shift
                            int to = Math.min(values.size(), from + 3 * window);
                            long part = values.subList(from, to).stream().filter(v -> startsWith(v, pattern))
                                    .count();
                            assertEquals(part, startsWith.count(columns.get(c).slice(from, to - from)),
                                    "row loop slice from=" + from + " column#" + c + where);
                        }
                    }
                    assertEquals(lateInline.stream().filter(v -> startsWith(v, pattern)).count(),
                            startsWith.count(late), "row loop, inline row 100" + where);
                    if (patternLength == 6 || patternLength == 8 || patternLength == 12) {
                        checkPredicate("row loop" + where, startsWith, small, values, v -> startsWith(v, pattern),
                                seed);
                        checkPredicate("row loop nulls" + where, startsWith, nulls, withNulls,
                                v -> startsWith(v, pattern), seed);
                    }
                }
            }
            byte[] pattern = Arrays.copyOf(start, 6);
            ViewPredicate startsWith = ViewPredicates.startsWith(pattern);
            long want = values.stream().filter(v -> startsWith(v, pattern)).count();
            // Rows in windows of nothing but long candidates (the row loop, then the pass's run loop, both naming
            // the row), and a row that is no candidate in a window of 60% candidates.
            List<Integer> badRows = new ArrayList<>();
            for (int w = 0; w * window < values.size(); w++) {
                int from = w * window;
                int to = Math.min(values.size(), from + window);
                boolean allCandidates = true;
                for (int row = from; row < to; row++) {
                    allCandidates &= longCandidate(values.get(row), pattern);
                }
                if (allCandidates && (w == 0 || to == values.size() || badRows.size() == 1)) {
                    badRows.add(w == 0 ? 7 : to == values.size() ? to - 1 : from + 5);
                }
            }
            assertEquals(3, badRows.size(), "windows of all long candidates: " + badRows);
            int region3 = 3 * window + 200;
            while (longCandidate(values.get(region3), pattern)) {
                region3++;
            }
            badRows.add(region3);
            for (int row : badRows) {
                for (boolean pastTheEnd : new boolean[] {false, true}) {
                    ViewColumn bad = withMalformedRow(arena, small, row, pastTheEnd);
                    if (longCandidate(values.get(row), pattern)) {
                        String expected = malformedRowError(small, row, values.get(row).length, pastTheEnd);
                        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                                () -> startsWith.count(bad), "row=" + row + " pastTheEnd=" + pastTheEnd);
                        assertEquals(expected, e.getMessage());
                    } else {
                        assertEquals(want, startsWith.count(bad), "row=" + row + " pastTheEnd=" + pastTheEnd);
                    }
                }
            }
        }
    }

    /** Whether {@code v} is longer than 12 bytes and agrees with {@code pattern} in its first four bytes. */
    private static boolean longCandidate(byte[] v, byte[] pattern) {
        return v.length > 12 && Arrays.equals(v, 0, 4, pattern, 0, 4);
    }

    /**
     * {@link #oneAdoptedBuffer(Arena, List, long)}, except that the buffer ends with the last value's last byte (a
     * load of bytes past it fails).
     */
    private static ViewColumn oneAdoptedBufferEndingAtItsLastValue(Arena arena, List<byte[]> values, long minBytes) {
        long total = 0;
        for (byte[] v : values) {
            total += v == null ? 0 : v.length;
        }
        long gap = values.size() < 2 ? 0 : (Math.max(0, minBytes - total) + values.size() - 2) / (values.size() - 1);
        MemorySegment heap = arena.allocate(Math.max(1, total + gap * (values.size() - 1)), 1);
        ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.BINARY);
        int buffer = builder.adoptBuffer(heap);
        long offset = 0;
        for (byte[] v : values) {
            if (v == null) {
                builder.appendNull();
            } else {
                MemorySegment.copy(v, 0, heap, ValueLayout.JAVA_BYTE, offset, v.length);
                builder.appendView(buffer, offset, v.length);
                offset += v.length;
            }
            offset += gap;
        }
        assertEquals(heap.byteSize(), offset - gap, "the last value ends at the buffer's end");
        return builder.build();
    }

    /** Even rows' values in one adopted buffer, odd rows' in another, each of at least half {@code minBytes}. */
    private static ViewColumn twoAdoptedBuffers(Arena arena, List<byte[]> values, long minBytes) {
        MemorySegment[] heaps = {arena.allocate(minBytes / 2 + 26L * values.size(), 1),
            arena.allocate(minBytes / 2 + 26L * values.size(), 1)};
        ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.BINARY);
        int[] ids = {builder.adoptBuffer(heaps[0]), builder.adoptBuffer(heaps[1])};
        long[] offsets = {0, 0};
        for (int row = 0; row < values.size(); row++) {
            byte[] v = values.get(row);
            int b = row & 1;
            MemorySegment.copy(v, 0, heaps[b], ValueLayout.JAVA_BYTE, offsets[b], v.length);
            builder.appendView(ids[b], offsets[b], v.length);
            offsets[b] += v.length + 13;
        }
        ViewColumn column = builder.build();
        assertEquals(2, column.bufferCount(), "two adopted buffers");
        return column;
    }

    /**
     * Order's one-buffer tie loops, single and gathered, on unchecked columns whose second row names a missing
     * buffer or points past the end of the only one: a one-line error naming the row and the numbers.
     */
    @Test
    void orderTiesOfABadOneBufferColumnFailNamingTheRow() {
        byte[] value = "prefix-and-a-long-tail-25".getBytes(StandardCharsets.US_ASCII);
        List<byte[]> values = new ArrayList<>();
        for (int row = 0; row < 40; row++) {
            values.add(row % 20 == 1 ? value : ("other" + row).getBytes(StandardCharsets.US_ASCII));
        }
        try (Arena arena = Arena.ofConfined()) {
            for (long minBytes : new long[] {0, LARGE_BUFFER_BYTES}) {
                ViewColumn good = oneAdoptedBuffer(arena, values, minBytes);
                long bufferBytes = good.buffer(0).byteSize();
                for (boolean pastTheEnd : new boolean[] {false, true}) {
                    MemorySegment views = arena.allocate(40L * ViewLayout.VIEW_SIZE, 16);
                    MemorySegment.copy(good.views(), 0, views, 0, views.byteSize());
                    if (pastTheEnd) {
                        views.set(ViewLayout.LAYOUT_LE_INT, ViewLayout.VIEW_SIZE + ViewLayout.OFFSET_BUFFER_OFFSET,
                                (int) bufferBytes - 10);
                    } else {
                        views.set(ViewLayout.LAYOUT_LE_INT, ViewLayout.VIEW_SIZE + ViewLayout.OFFSET_BUFFER_INDEX, 3);
                    }
                    ViewColumn bad = ViewColumns.fromViewsUnchecked(ViewKind.BINARY, 40, views, null,
                            List.of(good.buffer(0)));
                    // the long constant makes row 1 a deep tie; the short one stops at its bytes 4..11
                    for (byte[] k : List.of(value, "prefix-b".getBytes(StandardCharsets.US_ASCII))) {
                        for (Comparison c : List.of(Comparison.LESS_THAN, Comparison.GREATER_THAN_OR_EQUAL)) {
                            ViewPredicate predicate = ViewPredicates.compare(c, k);
                            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                                    () -> predicate.count(bad), "bufferBytes=" + bufferBytes + " " + c + " constant="
                                            + new String(k, StandardCharsets.US_ASCII));
                            String expected = pastTheEnd
                                    ? "offset=" + (bufferBytes - 10) + " length=25 bufferBytes=" + bufferBytes
                                    : "bufferIndex=3 buffers=1";
                            assertTrue(e.getMessage().contains("row=1 ") && e.getMessage().contains(expected),
                                    e.getMessage());
                        }
                    }
                    assertEquals(2, ViewPredicates.equalTo(value).count(good));
                }
            }
        }
    }

    /** {@code length} bytes drawn from {@code alphabet}. */
    private static byte[] randomBytes(Random random, int length, byte[] alphabet) {
        byte[] value = new byte[length];
        for (int i = 0; i < length; i++) {
            value[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return value;
    }

    /**
     * {@code rows} values of random lengths from {@code lengths}, one in {@code nullOneIn} null; in block
     * {@code row / blockRows} a share of {@code shares[(block + shift) % shares.length]} percent agree with
     * {@code start} ({@link #sharingStart}), the rest are random.
     */
    private static List<byte[]> sharingValues(Random random, int rows, int[] shares, int blockRows, int shift,
            int nullOneIn, int[] lengths, byte[] start, byte[] alphabet) {
        List<byte[]> values = new ArrayList<>();
        for (int row = 0; row < rows; row++) {
            int share = shares[(row / blockRows + shift) % shares.length];
            int length = lengths[random.nextInt(lengths.length)];
            if (random.nextInt(nullOneIn) == 0) {
                values.add(null);
            } else if (random.nextInt(100) < share) {
                values.add(sharingStart(random, start, length, alphabet));
            } else {
                values.add(randomBytes(random, length, alphabet));
            }
        }
        return values;
    }

    /** A value of {@code length} bytes that agrees with {@code start} through byte 3, 7 or 11 (as it fits). */
    private static byte[] sharingStart(Random random, byte[] start, int length, byte[] alphabet) {
        byte[] value = new byte[length];
        int shared = Math.min(length, switch (random.nextInt(3)) {
            case 0 -> 4;
            case 1 -> 8;
            default -> 12;
        });
        System.arraycopy(start, 0, value, 0, shared);
        for (int i = shared; i < length; i++) {
            value[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return value;
    }

    // ------------------------------------------------------------------------------ prefix / suffix / contains

    static void checkSubstrings(ViewColumn column, List<byte[]> values, byte[] k, long seed, String where) {
        String what = where + " constant=" + ModelChecks.show(k);
        checkPredicate(what + " startsWith(byte[])", ViewPredicates.startsWith(k), column, values,
                v -> startsWith(v, k), seed);
        checkPredicate(what + " endsWith(byte[])", ViewPredicates.endsWith(k), column, values,
                v -> startsWith(reverse(v), reverse(k)), seed);
        checkPredicate(what + " contains(byte[])", ViewPredicates.contains(k), column, values,
                v -> indexOf(v, k) >= 0, seed);
        String s = utf8OrNull(k);
        if (s != null) {
            checkPredicate(what + " startsWith(String)", ViewPredicates.startsWith(s), column, values,
                    v -> startsWith(v, k), seed);
            checkPredicate(what + " endsWith(String)", ViewPredicates.endsWith(s), column, values,
                    v -> startsWith(reverse(v), reverse(k)), seed);
            checkPredicate(what + " contains(String)", ViewPredicates.contains(s), column, values,
                    v -> indexOf(v, k) >= 0, seed);
        }
    }

    @Test
    void prefixSuffixContainsMatchModel() {
        Gen.forAll(500, models(), TestData.shapes(), probes(), Gen.seeds(),
                (model, shape, probe, seed) -> prefixSuffixContainsMatchModel(model, shape, probe, seed));
    }

    private void prefixSuffixContainsMatchModel(Model model, Shape shape, Probe probe, long seed) {
        byte[] k = probe.resolve(model.values());
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.anyColumn(arena, model.kind(), model.values(), shape, seed);
            checkSubstrings(column, model.values(), k, seed, ModelChecks.describe(model, shape, seed));
        }
    }

    /**
     * contains over long rows laid back to back, as in a Parquet page: the kernel searches such runs in one pass
     * and maps occurrences back to rows. The values and the gaps between them (0 to MAX_GAP + 2 bytes) are built
     * from pieces of the needle, so occurrences often start in a gap, cross from one row into the next, or end
     * exactly at a row's end; rows sometimes move to a second buffer or jump back in it, which ends a run.
     */
    @Test
    void containsOverBackToBackRowsMatchesModel() {
        Gen.forAll(400, Gen.seeds(),
                (seed) -> containsOverBackToBackRowsMatchesModel(seed));
    }

    private void containsOverBackToBackRowsMatchesModel(long seed) {
        Random random = new Random(seed);
        byte[][] needles = {"g".getBytes(StandardCharsets.UTF_8), "go".getBytes(StandardCharsets.UTF_8),
                "google".getBytes(StandardCharsets.UTF_8), "oogleg".getBytes(StandardCharsets.UTF_8),
                "google.com/search".getBytes(StandardCharsets.UTF_8), {(byte) 0xC3, (byte) 0xA9, 'g'},
                "gogogogogogogogogogogogogogogogogogogo".getBytes(StandardCharsets.UTF_8)};
        byte[] needle = needles[random.nextInt(needles.length)];
        byte[] alphabet = {'g', 'o', 'l', 'e', '.', (byte) 0xC3, (byte) 0xA9};
        int rows = 1 + random.nextInt(300);
        long capacity = 64;
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            if (random.nextInt(12) == 0) {
                values.add(null);
                continue;
            }
            int length = random.nextInt(5) == 0 ? random.nextInt(13) : 13 + random.nextInt(60);
            byte[] v = new byte[length];
            for (int j = 0; j < length; j++) {
                v[j] = alphabet[random.nextInt(alphabet.length)];
            }
            if (length >= needle.length && random.nextInt(4) == 0) {
                // the needle at the very start, the very end, or inside
                int at = switch (random.nextInt(3)) {
                    case 0 -> 0;
                    case 1 -> length - needle.length;
                    default -> random.nextInt(length - needle.length + 1);
                };
                System.arraycopy(needle, 0, v, at, needle.length);
            }
            values.add(v);
            capacity += length + ContainsPredicate.MAX_GAP + 2 + 16;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[] buffers = {arena.allocate(capacity), arena.allocate(capacity)};
            long[] used = new long[2];
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.BINARY);
            int[] index = {builder.adoptBuffer(buffers[0]), builder.adoptBuffer(buffers[1])};
            int b = 0;
            List<byte[]> model = new ArrayList<>();
            for (byte[] v : values) {
                model.add(v);
                if (v == null) {
                    builder.appendNull();
                    continue;
                }
                if (random.nextInt(40) == 0) {
                    b = 1 - b; // a run ends at a buffer change
                }
                int gap = random.nextInt((int) ContainsPredicate.MAX_GAP + 3);
                for (int g = 0; g < gap; g++) {
                    // gap bytes taken from the needle, so occurrences straddle rows and gaps
                    buffers[b].set(ValueLayout.JAVA_BYTE, used[b] + g,
                            needle[random.nextInt(needle.length)]);
                }
                long offset = used[b] + gap;
                MemorySegment.copy(MemorySegment.ofArray(v), 0, buffers[b], offset, v.length);
                used[b] = offset + v.length;
                builder.appendView(index[b], offset, v.length);
                if (random.nextInt(30) == 0) {
                    // the same bytes again: a row that starts before the one before it ends, which ends a run
                    builder.appendView(index[b], offset, v.length);
                    model.add(v);
                }
            }
            ViewColumn column = builder.build();
            checkPredicate("seed=" + seed + " needle=" + ModelChecks.show(needle) + " contains",
                    ViewPredicates.contains(needle), column, model, v -> indexOf(v, needle) >= 0, seed);
        }
    }

    static boolean startsWith(byte[] v, byte[] k) {
        return v.length >= k.length && Arrays.equals(v, 0, k.length, k, 0, k.length);
    }

    static byte[] reverse(byte[] v) {
        byte[] r = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            r[i] = v[v.length - 1 - i];
        }
        return r;
    }

    /** Naive substring search. */
    static int indexOf(byte[] v, byte[] k) {
        outer:
        for (int i = 0; i + k.length <= v.length; i++) {
            for (int j = 0; j < k.length; j++) {
                if (v[i + j] != k[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    // ------------------------------------------------------------------------------------------------ LIKE

    /**
     * How to make a LIKE pattern: from a column value (pick, then altered by a Random of {@code seed}: units
     * replaced by {@code _}, runs by {@code %}, literals changed, {@code %} added at either end) or from free
     * {@code items}; rendered with {@code escape} (literal {@code %}, {@code _} and escape characters escaped).
     */
    record LikeRecipe(boolean fromRow, int pick, long seed, List<Integer> items, Character escape) {
        String pattern(List<byte[]> values, ViewKind kind) {
            List<Integer> chosen = new ArrayList<>(items);
            List<byte[]> present = values.stream().filter(v -> v != null).toList();
            if (fromRow && !present.isEmpty()) {
                chosen = alter(units(present.get(Math.floorMod(pick, present.size())), kind), new Random(seed));
            }
            if (escape != null && (escape == '%' || escape == '_')) {
                // The wildcard that is also the escape cannot be written: use the other one.
                int lost = escape == '%' ? ModelChecks.STAR : ModelChecks.ANY;
                int kept = escape == '%' ? ModelChecks.ANY : ModelChecks.STAR;
                chosen.replaceAll(i -> i == lost ? kept : i);
            }
            return ModelChecks.renderLike(chosen, escape);
        }

        /** A value as literal items: code points (UTF-8), or decodable characters and {@code _} per other byte. */
        private static List<Integer> units(byte[] value, ViewKind kind) {
            List<Integer> out = new ArrayList<>();
            if (kind == ViewKind.UTF8) {
                new String(value, StandardCharsets.UTF_8).codePoints().forEach(out::add);
                return out;
            }
            for (int i = 0; i < value.length; ) {
                int lead = value[i] & 0xFF;
                int n = lead < 0x80 ? 1 : lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3
                        : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
                byte[] ch = n == 0 || i + n > value.length ? null : Arrays.copyOfRange(value, i, i + n);
                if (ch != null && Utf8.isValid(ch)) {
                    out.add(new String(ch, StandardCharsets.UTF_8).codePointAt(0));
                    i += n;
                } else {
                    out.add(ModelChecks.ANY);
                    i++;
                }
            }
            return out;
        }

        private static List<Integer> alter(List<Integer> units, Random random) {
            List<Integer> out = new ArrayList<>();
            int[] alphabet = {'a', 'b', 'z', 0, 0xE9, 0x4E2D, 0x1F600, '%', '_', '\\', '!'};
            double rate = random.nextInt(3) * 0.1;
            if (random.nextInt(3) == 0) {
                out.add(ModelChecks.STAR);
            }
            for (int i = 0; i < units.size(); i++) {
                double r = random.nextDouble();
                if (r < rate) {
                    out.add(ModelChecks.ANY);
                } else if (r < rate * 1.6) {
                    out.add(ModelChecks.STAR);
                    i += random.nextInt(3);
                } else if (r < rate * 1.8) {
                    out.add(ModelChecks.STAR);
                    out.add(units.get(i));
                } else if (r < rate * 2) {
                    out.add(alphabet[random.nextInt(alphabet.length)]);
                } else {
                    out.add(units.get(i));
                }
            }
            if (random.nextInt(3) == 0) {
                out.add(ModelChecks.STAR);
            }
            return out;
        }
    }

    static Trials<LikeRecipe> likeRecipes() {
        Trials<Integer> item = API.alternateWithWeights(
                Map.entry(3, API.only(ModelChecks.STAR)),
                Map.entry(2, API.only(ModelChecks.ANY)),
                Map.entry(6, API.choose((int) 'a', (int) 'b', (int) 'z', 0, 0xE9, 0xDF, 0x20AC, 0x4E2D,
                        0x1F600, 0x7F, (int) 'h', (int) 't', (int) '%', (int) '_', (int) '\\', (int) '!')));
        Trials<Character> escape = Gen.orNull(6, API.choose('\\', '!', 'a', '%', '_', '\u00e9'), 4);
        return API.choose(true, true, false).and(API.integers(0, 1000)).and(API.longs()).trials()
                .and(Gen.lists(item, 0, 8).and(escape).trials()).trials()
                .map(t -> new LikeRecipe(t._1()._1(), t._1()._2(), t._1()._3(), t._2()._1(), t._2()._2()));
    }

    static void checkLike(ViewColumn column, List<byte[]> values, ViewKind kind, String pattern, Character escape,
            long seed, String where) {
        List<Integer> parsed = ModelChecks.parseLike(pattern, escape);
        String what = where + " LIKE '" + pattern.replace("\0", "\\0") + "' ESCAPE " + escape + " items=" + parsed;
        ViewPredicate predicate = escape == null && (seed & 2) == 0 ? ViewPredicates.like(pattern)
                : ViewPredicates.like(pattern, escape);
        checkPredicate(what, predicate, column, values, v -> ModelChecks.likeMatches(parsed, v, kind), seed);
    }

    @Test
    void likeMatchesModel() {
        Gen.forAll(1000, models(), TestData.shapes(), likeRecipes(), Gen.seeds(),
                (model, shape, recipe, seed) -> likeMatchesModel(model, shape, recipe, seed));
    }

    private void likeMatchesModel(Model model, Shape shape, LikeRecipe recipe, long seed) {
        String pattern = recipe.pattern(model.values(), model.kind());
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.anyColumn(arena, model.kind(), model.values(), shape, seed);
            checkLike(column, model.values(), model.kind(), pattern, recipe.escape(), seed,
                    ModelChecks.describe(model, shape, seed));
        }
    }

    /** A pattern ending in its escape character is rejected; elsewhere the escape is accepted. */
    @Test
    void likeRejectsTrailingEscape() {
        Gen.forAll(200, likeRecipes(),
                (recipe) -> likeRejectsTrailingEscape(recipe));
    }

    private void likeRejectsTrailingEscape(LikeRecipe recipe) {
        Character escape = recipe.escape() == null ? '\\' : recipe.escape();
        String pattern = ModelChecks.renderLike(recipe.items(), escape);
        for (String p : new String[] {pattern, pattern + escape, escape + pattern + escape, pattern + escape + escape}) {
            boolean modelRejects;
            try {
                ModelChecks.parseLike(p, escape);
                modelRejects = false;
            } catch (IllegalArgumentException e) {
                modelRejects = true;
            }
            if (modelRejects) {
                assertThrows(IllegalArgumentException.class, () -> ViewPredicates.like(p, escape),
                        () -> "pattern " + p + " escape " + escape);
            } else {
                ViewPredicates.like(p, escape); // must not throw
            }
        }
    }

    @Test
    void likeRejectsOnlyADanglingEscape() {
        assertThrows(IllegalArgumentException.class, () -> ViewPredicates.like("ab\\", '\\'));
        assertThrows(IllegalArgumentException.class, () -> ViewPredicates.like("ab\\\\\\", '\\'));
        ViewPredicates.like("ab\\\\", '\\');
        ViewPredicates.like("ab\\", null);
    }

    // -------------------------------------------------------------------------------------------------- IN

    @Test
    void inListMatchesModel() {
        Gen.forAll(600, models(), TestData.shapes(), probeLists(), Gen.seeds(),
                (model, shape, probes, seed) -> inListMatchesModel(model, shape, probes, seed));
    }

    private void inListMatchesModel(Model model, Shape shape, List<Probe> probes, long seed) {
        List<byte[]> constants = new ArrayList<>();
        for (Probe probe : probes) {
            constants.add(probe == null ? null : probe.resolve(model.values()));
        }
        if (!constants.isEmpty() && (seed & 4) != 0) {
            constants.add(constants.get(0) == null ? null : constants.get(0).clone()); // a duplicate constant
        }
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.anyColumn(arena, model.kind(), model.values(), shape, seed);
            checkIn(column, model.values(), constants, seed, ModelChecks.describe(model, shape, seed));
        }
    }

    static void checkIn(ViewColumn column, List<byte[]> values, List<byte[]> constants, long seed, String where) {
        String what = where + " IN " + constants.stream().map(ModelChecks::show).toList();
        java.util.function.Predicate<byte[]> model = v -> constants.stream().anyMatch(k -> k != null && Arrays.equals(k, v));
        checkPredicate(what + " in(List<byte[]>)", ViewPredicates.in(constants), column, values, model, seed);
        String[] strings = new String[constants.size()];
        for (int i = 0; i < strings.length; i++) {
            byte[] k = constants.get(i);
            if (k != null && (strings[i] = utf8OrNull(k)) == null) {
                return; // not text: the String form cannot express it
            }
        }
        checkPredicate(what + " in(String...)", ViewPredicates.in(strings), column, values, model, seed);
    }

    // ---------------------------------------------------------------------------------- many rows (chunks)

    /** Columns of 900..3000 rows, so count and mask (which work in chunks of 1024 rows) cross chunk borders. */
    @Test
    void allPredicatesOnLargeColumns() {
        Gen.forAll(12, largeModels(), TestData.shapes(), probes(), likeRecipes(), Gen.seeds(),
                (model, shape, probe, recipe, seed) -> allPredicatesOnLargeColumns(model, shape, probe, recipe, seed));
    }

    private void allPredicatesOnLargeColumns(Model model, Shape shape, Probe probe, LikeRecipe recipe, long seed) {
        byte[] k = probe.resolve(model.values());
        String where = "large " + model.kind() + " rows=" + model.values().size() + " shape=" + shape + " seed=" + seed;
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.anyColumn(arena, model.kind(), model.values(), shape, seed);
            for (Comparison c : Comparison.values()) {
                checkPredicate(where + " compare(" + c + ") " + ModelChecks.show(k), ViewPredicates.compare(c, k), column,
                        model.values(), v -> c.accepts(Arrays.compareUnsigned(v, k)), seed);
            }
            checkPredicate(where + " startsWith", ViewPredicates.startsWith(k), column, model.values(),
                    v -> startsWith(v, k), seed);
            checkPredicate(where + " contains", ViewPredicates.contains(k), column, model.values(),
                    v -> indexOf(v, k) >= 0, seed);
            checkLike(column, model.values(), model.kind(), recipe.pattern(model.values(), model.kind()),
                    recipe.escape(), seed, where);
            checkIn(column, model.values(), Arrays.asList(k, null, probe.edge()), seed, where);
        }
    }

    // ------------------------------------------------------------------------------------ targeted examples

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Runs every predicate family on both kinds and all shapes for the given values and constant. */
    private static void everything(List<byte[]> values, byte[] k) {
        for (ViewKind kind : ViewKind.values()) {
            if (kind == ViewKind.UTF8 && values.stream().anyMatch(v -> v != null && !Utf8.isValid(v))) {
                continue;
            }
            for (Shape shape : Shape.values()) {
                for (long seed : new long[] {0, 1, 42, 43}) {
                    try (Arena arena = Arena.ofConfined()) {
                        ViewColumn column = TestData.anyColumn(arena, kind, values, shape, seed);
                        String where = kind + " " + shape + " seed=" + seed;
                        checkComparisons(column, values, k, seed, where);
                        checkSubstrings(column, values, k, seed, where);
                        checkIn(column, values, Arrays.asList(k, null, k), seed, where);
                    }
                }
            }
        }
    }

    /**
     * Long constants of up to 36 bytes compare their bytes after the prefix with loads at 4, 12, 20 and length - 8
     * (Constant), longer ones word by word. At every length around those boundaries, a row that differs from the
     * constant in any one byte must not equal it, and one a byte longer must still start with it. Flipped bytes
     * stay ASCII in one column (checked as UTF-8 and binary) and get the high bit in another (binary only).
     */
    @Test
    void everyByteOfLongConstantsIsCompared() {
        for (int length = 12; length <= 46; length++) {
            byte[] k = letters(length, 7);
            for (boolean highBit : new boolean[] {false, true}) {
                List<byte[]> values = new ArrayList<>();
                values.add(k.clone());
                values.add(null);
                values.add(Arrays.copyOf(k, length + 1));
                values.add(Arrays.copyOf(k, length - 1));
                for (int p = 0; p < length; p++) {
                    byte[] v = k.clone();
                    v[p] = highBit ? (byte) (v[p] | 0x80) : (byte) (v[p] ^ 0x20);
                    values.add(v);
                }
                everything(values, k);
            }
        }
    }

    /**
     * Inline constants over columns without nulls, where one branch-free pass over both view words decides every
     * row: any one byte changed, a byte more or less, must not count.
     */
    @Test
    void inlineConstantsCountedWithoutNulls() {
        for (int length = 0; length <= 13; length++) {
            byte[] k = letters(length, 5);
            List<byte[]> values = new ArrayList<>();
            values.add(k.clone());
            values.add(Arrays.copyOf(k, length + 1));
            if (length > 0) {
                values.add(Arrays.copyOf(k, length - 1));
            }
            for (int p = 0; p < length; p++) {
                byte[] v = k.clone();
                v[p] ^= 0x20;
                values.add(v);
            }
            values.add(k.clone());
            everything(values, k);
        }
    }

    /** {@code length} lowercase letters, letter i being {@code 'a' + i * stride % 26}. */
    private static byte[] letters(int length, int stride) {
        byte[] k = new byte[length];
        for (int i = 0; i < length; i++) {
            k[i] = (byte) ('a' + (i * stride) % 26);
        }
        return k;
    }

    @Test
    void twelveVersusThirteenBytes() {
        List<byte[]> values = Arrays.asList(b("abcdefghijkl"), b("abcdefghijklm"), b("abcdefghijk"), null,
                b("abcdefghijkm"), b("abcdefghijkl\0"), b("abcdefghijklmn"));
        for (byte[] k : values) {
            if (k != null) {
                everything(values, k);
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "abcdefghijkl", "abcdefghijklm");
            assertEquals(1, ViewPredicates.equalTo("abcdefghijkl").count(column));
            assertEquals(1, ViewPredicates.equalTo("abcdefghijklm").count(column));
            assertArrayEquals(new int[] {1}, select(ViewPredicates.greaterThan("abcdefghijkl"), column));
            assertArrayEquals(new int[] {0}, select(ViewPredicates.lessThan("abcdefghijklm"), column));
            assertEquals(2, ViewPredicates.startsWith("abcdefghijkl").count(column));
            assertEquals(1, ViewPredicates.endsWith("klm").count(column));
        }
    }

    @Test
    void equalPrefixDifferentFifthByte() {
        List<byte[]> values = Arrays.asList(b("abcdXfgh"), b("abcdYfgh"), b("abcdXfghijklmnop"), b("abcdYfghijklmnop"),
                b("abcd"), b("abcd\u00e9fghijklmnop"), b("abcdX"));
        for (byte[] k : values) {
            everything(values, k);
        }
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "abcdXfghijklmnop", "abcdYfghijklmnop");
            assertArrayEquals(new int[] {0}, select(ViewPredicates.lessThan("abcdYfghijklmnop"), column));
            assertArrayEquals(new int[] {1}, select(ViewPredicates.greaterThan("abcdXfghijklmnop"), column));
            assertArrayEquals(new int[] {0, 1}, select(ViewPredicates.greaterThan("abcdX"), column));
            assertArrayEquals(new int[] {1}, select(ViewPredicates.startsWith("abcdY"), column));
        }
    }

    @Test
    void highBytesInPrefixSortAfterAscii() {
        // U+00E9 is C3 A9: above 'z' (7A) in unsigned order, below it in signed order.
        List<byte[]> values = Arrays.asList(b("\u00e9"), b("z"), b("\u00e9 long enough value"), b("z long enough value"),
                new byte[] {(byte) 0x80}, new byte[] {(byte) 0xFF, 0, 0, 0, 1}, new byte[] {0x7F});
        for (byte[] k : values) {
            everything(values, k);
        }
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "z", "\u00e9", "zzzzzzzzzzzzzzzz", "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9");
            assertArrayEquals(new int[] {1, 2, 3}, select(ViewPredicates.greaterThan("z"), column));
            assertArrayEquals(new int[] {0, 2}, select(ViewPredicates.lessThan("\u00e9"), column));
            assertArrayEquals(new int[] {0, 2, 1, 3}, ViewKernels.argsort(column));
        }
    }

    @Test
    void trailingNulSortsAfter() {
        List<byte[]> values = Arrays.asList(b("ab"), b("ab\0"), b("ab\0\0"), b("abcdefghijklmn"), b("abcdefghijklmn\0"),
                b("ab\0\0\0\0\0\0\0\0\0\0\0"), new byte[0], b("\0"));
        for (byte[] k : values) {
            everything(values, k);
        }
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofBytes(arena, b("ab\0"), b("ab"), b("abcdefghijklmn\0"), b("abcdefghijklmn"));
            assertArrayEquals(new int[] {1}, select(ViewPredicates.compare(Comparison.LESS_THAN, b("ab\0")), column));
            assertArrayEquals(new int[] {0, 2, 3}, select(ViewPredicates.compare(Comparison.GREATER_THAN, b("ab")), column));
            assertArrayEquals(new int[] {0}, select(ViewPredicates.equalTo(b("ab\0")), column));
            assertArrayEquals(new int[] {2}, select(ViewPredicates.compare(Comparison.GREATER_THAN, b("abcdefghijklmn")), column));
            assertArrayEquals(new int[] {1, 0, 3, 2}, ViewKernels.argsort(column));
        }
    }

    @Test
    void likeUnderscoreIsOneCodePointInUtf8AndOneByteInBinary() {
        byte[] value = b("a\u20acc"); // 61 E2 82 AC 63
        byte[] longValue = b("a\u20accdefghijklmnop");
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn utf8 = ViewColumns.ofStrings(arena, "a\u20acc", "abc", "a\u20acc\u20ac", null, "a\u20accdefghijklmnop");
            ViewColumn binary = ViewColumns.ofBytes(arena, value, b("abc"), b("a\u20acc\u20ac"), null, longValue);
            assertArrayEquals(new int[] {0, 1}, select(ViewPredicates.like("a_c"), utf8));
            assertArrayEquals(new int[] {1}, select(ViewPredicates.like("a_c"), binary));
            assertArrayEquals(new int[] {0}, select(ViewPredicates.like("a___c"), binary));
            assertArrayEquals(new int[] {}, select(ViewPredicates.like("a___c"), utf8));
            assertArrayEquals(new int[] {0, 1, 2, 4}, select(ViewPredicates.like("a_c%"), utf8));
            assertArrayEquals(new int[] {1}, select(ViewPredicates.like("a_c%"), binary));
            assertArrayEquals(new int[] {0, 2, 4}, select(ViewPredicates.like("a___c%"), binary));
            assertArrayEquals(new int[] {4}, select(ViewPredicates.like("%_d_f%p"), utf8));
            assertArrayEquals(new int[] {2}, select(ViewPredicates.like("%c_"), utf8));
            assertArrayEquals(new int[] {}, select(ViewPredicates.like("%c_"), binary));
            assertArrayEquals(new int[] {2}, select(ViewPredicates.like("%c___"), binary));
            assertArrayEquals(new int[] {0, 2, 4}, select(ViewPredicates.like("a\u20ac_%"), utf8));
            assertArrayEquals(new int[] {0, 2, 4}, select(ViewPredicates.like("a\u20ac_%"), binary));
            assertArrayEquals(new int[] {2, 4}, select(ViewPredicates.like("a\u20ac__%"), utf8));
        }
    }

    @Test
    void likeEscape() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "a%b", "axb", "a_b", "a!b", "a%bcdefghijklmnop", null, "%", "_");
            assertArrayEquals(new int[] {0}, select(ViewPredicates.like("a!%b", '!'), column));
            assertArrayEquals(new int[] {2}, select(ViewPredicates.like("a!_b", '!'), column));
            assertArrayEquals(new int[] {3}, select(ViewPredicates.like("a!!b", '!'), column));
            assertArrayEquals(new int[] {0, 1, 2, 3}, select(ViewPredicates.like("a_b", '!'), column));
            assertArrayEquals(new int[] {0, 4}, select(ViewPredicates.like("a!%b%", '!'), column));
            assertArrayEquals(new int[] {0, 4, 6}, select(ViewPredicates.like("%!%%", '!'), column));
            assertArrayEquals(new int[] {4}, select(ViewPredicates.like("%!%b_d%p", '!'), column));
            assertArrayEquals(new int[] {6}, select(ViewPredicates.like("\\%", '\\'), column));
            // Without ESCAPE, a backslash is an ordinary character: "\\_" is a backslash and one more character.
            assertArrayEquals(new int[] {}, select(ViewPredicates.like("\\_"), column));
            assertArrayEquals(new int[] {7}, select(ViewPredicates.like("\\_", '\\'), column));
            assertThrows(IllegalArgumentException.class, () -> ViewPredicates.like("abc!", '!'));
            assertThrows(IllegalArgumentException.class, () -> ViewPredicates.like("!", '!'));
            assertArrayEquals(new int[] {0}, select(ViewPredicates.like("a%%b", '%'), column)); // '%' as escape
        }
    }

    @Test
    void percentAloneMatchesEveryNonNullRow() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn utf8 = ViewColumns.ofStrings(arena, "", null, "x", "a long value of many bytes", null, "\0");
            assertArrayEquals(new int[] {0, 2, 3, 5}, select(ViewPredicates.like("%"), utf8));
            assertArrayEquals(new int[] {0, 2, 3, 5}, select(ViewPredicates.like("%%%"), utf8));
            assertArrayEquals(new int[] {2, 3, 5}, select(ViewPredicates.like("_%"), utf8));
            assertArrayEquals(new int[] {0}, select(ViewPredicates.like(""), utf8));
            ViewColumn binary = ViewColumns.ofBytes(arena, new byte[0], null, new byte[] {(byte) 0xFF});
            assertArrayEquals(new int[] {0, 2}, select(ViewPredicates.like("%"), binary));
            assertEquals(2, ViewPredicates.like("%").count(binary));
        }
    }

    @Test
    void inWithDuplicateAndNullConstants() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "x", null, "y", "x", "", "a long value of many bytes", "z");
            assertArrayEquals(new int[] {0, 2, 3}, select(ViewPredicates.in("x", null, "x", "y", null), column));
            assertArrayEquals(new int[] {}, select(ViewPredicates.in((String) null), column));
            assertArrayEquals(new int[] {}, select(ViewPredicates.in(), column));
            assertArrayEquals(new int[] {4, 5}, select(ViewPredicates.in("a long value of many bytes", "",
                    "a long value of many bytes", null), column));
            assertArrayEquals(new int[] {0, 3},
                    select(ViewPredicates.in(Arrays.asList(b("x"), null, b("x"), null)), column));
        }
    }

    @Test
    void selectionMayBeTheOutputArray() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "b", "a", null, "a", "a long value of many bytes a", "b", "a");
            int[] selection = {6, 0, 1, 2, 3, 4, 5};
            int n = ViewPredicates.startsWith("a").select(column, selection, selection.length, selection);
            assertArrayEquals(new int[] {6, 1, 3, 4}, Arrays.copyOf(selection, n));
            // Chained: the output of one predicate is the selection of the next, in place.
            int[] rows = {0, 1, 2, 3, 4, 5, 6};
            n = ViewPredicates.notEqualTo("b").select(column, rows, rows.length, rows);
            assertArrayEquals(new int[] {1, 3, 4, 6}, Arrays.copyOf(rows, n));
            n = ViewPredicates.contains("long").select(column, rows, n, rows);
            assertArrayEquals(new int[] {4}, Arrays.copyOf(rows, n));
            int[] all = {0, 1, 2, 3, 4, 5, 6};
            n = ViewPredicates.like("%a%").select(column, all, all.length, all);
            assertArrayEquals(new int[] {1, 3, 4, 6}, Arrays.copyOf(all, n));
        }
    }

    @Test
    void nullRowsNeverMatchEvenNegatedPredicates() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, null, "", null);
            assertArrayEquals(new int[] {1}, select(ViewPredicates.notEqualTo("x"), column));
            assertArrayEquals(new int[] {}, select(ViewPredicates.notEqualTo(""), column));
            assertArrayEquals(new int[] {1}, select(ViewPredicates.equalTo(""), column));
            assertArrayEquals(new int[] {1}, select(ViewPredicates.greaterThanOrEqual(""), column));
            assertArrayEquals(new int[] {1}, select(ViewPredicates.startsWith(""), column));
            assertArrayEquals(new int[] {1}, select(ViewPredicates.in(""), column));
            assertFalse(ViewPredicates.notEqualTo("x").test(column, 0));
            assertTrue(ViewPredicates.notEqualTo("x").test(column, 1));
        }
    }

    private static int[] select(ViewPredicate predicate, ViewColumn column) {
        int[] out = new int[column.size()];
        return Arrays.copyOf(out, predicate.select(column, out));
    }

    /** Every order comparison with every constant over {@code column} against the model {@code values}. */
    private static void checkEveryOrder(String where, ViewColumn column, List<byte[]> values, List<byte[]> constants,
            long seed) {
        for (byte[] k : constants) {
            String what = where + " constant=" + ModelChecks.show(k);
            for (Comparison c : List.of(Comparison.LESS_THAN, Comparison.LESS_THAN_OR_EQUAL,
                    Comparison.GREATER_THAN, Comparison.GREATER_THAN_OR_EQUAL)) {
                checkPredicate(what + " " + c, ViewPredicates.compare(c, k), column, values,
                        v -> c.accepts(Arrays.compareUnsigned(v, k)), seed);
            }
        }
    }

    /** {@code good} (one buffer, no nulls) unchecked, with row {@code bad}'s view naming buffer 3, which is missing. */
    private static ViewColumn withMissingBufferAt(Arena arena, ViewColumn good, int bad) {
        MemorySegment views = arena.allocate((long) good.size() * ViewLayout.VIEW_SIZE, 16);
        MemorySegment.copy(good.views(), 0, views, 0, views.byteSize());
        views.set(ViewLayout.LAYOUT_LE_INT, (long) bad * ViewLayout.VIEW_SIZE + ViewLayout.OFFSET_BUFFER_INDEX, 3);
        return ViewColumns.fromViewsUnchecked(ViewKind.BINARY, good.size(), views, null, List.of(good.buffer(0)));
    }

    /**
     * {@code lessThan(k).count} over {@code good} with the row {@code bad} naming a missing buffer
     * ({@link #withMissingBufferAt}) fails naming that row, for each of {@code bads}.
     */
    private static void assertLessThanNamesMissingBuffer(Arena arena, ViewColumn good, byte[] k, int... bads) {
        for (int bad : bads) {
            ViewColumn missing = withMissingBufferAt(arena, good, bad);
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                    () -> ViewPredicates.compare(Comparison.LESS_THAN, k).count(missing));
            assertNamesMissingBuffer(e, bad);
        }
    }

    /** The one-line error of a row {@code bad} naming buffer 3 of a one-buffer column. */
    private static void assertNamesMissingBuffer(IndexOutOfBoundsException e, int bad) {
        assertTrue(e.getMessage().contains("row=" + bad + " ") && e.getMessage().contains("bufferIndex=3")
                && e.getMessage().contains("buffers=1"), e.getMessage());
    }

    /** A copy of {@code values} with every {@code step}-th value from index {@code first} made null. */
    private static List<byte[]> withNullsEvery(List<byte[]> values, int first, int step) {
        List<byte[]> withNulls = new ArrayList<>(values);
        for (int i = first; i < withNulls.size(); i += step) {
            withNulls.set(i, null);
        }
        return withNulls;
    }
}
