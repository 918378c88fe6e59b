package dev.stringview;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * The plain on-heap model the property tests compare the library against: values are {@code byte[]} (null for
 * a null row), ordered by {@link Arrays#compareUnsigned}, LIKE is a textbook dynamic-programming matcher, and a
 * predicate's expected result is computed row by row with SQL null semantics (a null row never matches).
 */
final class ModelChecks {
    private ModelChecks() {}

    /** LIKE pattern item: one unit of any value. */
    static final int ANY = -1;
    /** LIKE pattern item: any run of units. */
    static final int STAR = -2;

    static String show(byte[] value) {
        if (value == null) {
            return "null";
        }
        return "\"" + new String(value, StandardCharsets.UTF_8).replace("\0", "\\0") + "\"(hex "
                + HexFormat.of().formatHex(value) + ")";
    }

    // ------------------------------------------------------------------------------------------------ LIKE

    /**
     * Parses a LIKE pattern into items: literal code points ({@code >= 0}), {@link #ANY} and {@link #STAR}. The
     * escape character makes the following character literal.
     *
     * @throws IllegalArgumentException if the pattern ends with the escape character
     */
    static List<Integer> parseLike(String pattern, Character escape) {
        List<Integer> items = new ArrayList<>();
        int[] cps = pattern.codePoints().toArray();
        for (int i = 0; i < cps.length; i++) {
            int cp = cps[i];
            if (escape != null && cp == escape) {
                if (i + 1 == cps.length) {
                    throw new IllegalArgumentException("model: pattern ends with escape");
                }
                items.add(cps[++i]);
            } else if (cp == '%') {
                items.add(STAR);
            } else if (cp == '_') {
                items.add(ANY);
            } else {
                items.add(cp);
            }
        }
        return items;
    }

    /**
     * Whether {@code value} matches the parsed pattern: over code points for a UTF-8 column ({@code _} is one
     * code point), over bytes for a binary one ({@code _} is one byte, a literal character is its UTF-8 bytes).
     */
    static boolean likeMatches(List<Integer> pattern, byte[] value, ViewKind kind) {
        int[] units;
        List<Integer> items = new ArrayList<>();
        if (kind == ViewKind.UTF8) {
            units = new String(value, StandardCharsets.UTF_8).codePoints().toArray();
            items.addAll(pattern);
        } else {
            units = new int[value.length];
            for (int i = 0; i < value.length; i++) {
                units[i] = value[i] & 0xFF;
            }
            for (int item : pattern) {
                if (item < 0) {
                    items.add(item);
                } else {
                    for (byte b : new String(Character.toChars(item)).getBytes(StandardCharsets.UTF_8)) {
                        items.add(b & 0xFF);
                    }
                }
            }
        }
        // match[p][s]: items[p..] match units[s..]
        int np = items.size();
        int ns = units.length;
        boolean[][] match = new boolean[np + 1][ns + 1];
        match[np][ns] = true;
        for (int p = np - 1; p >= 0; p--) {
            int item = items.get(p);
            for (int s = ns; s >= 0; s--) {
                if (item == STAR) {
                    match[p][s] = match[p + 1][s] || (s < ns && match[p][s + 1]);
                } else if (s < ns && (item == ANY || item == units[s])) {
                    match[p][s] = match[p + 1][s + 1];
                }
            }
        }
        return match[0][0];
    }

    /** Writes items back as a pattern text with {@code escape} (null: no escaping possible). */
    static String renderLike(List<Integer> items, Character escape) {
        StringBuilder sb = new StringBuilder();
        for (int item : items) {
            if (item == STAR) {
                sb.append('%');
            } else if (item == ANY) {
                sb.append('_');
            } else {
                if (escape != null && (item == '%' || item == '_' || item == escape)) {
                    sb.append(escape.charValue());
                }
                sb.appendCodePoint(item);
            }
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------------------------------ predicates

    /** Ids {@code i} of {@code rows} (or of all rows when null) whose model value is non-null and matches. */
    static int[] expectedRows(List<byte[]> model, int[] rows, Predicate<byte[]> matches) {
        IntStream ids = rows == null ? IntStream.range(0, model.size()) : Arrays.stream(rows);
        return ids.filter(i -> model.get(i) != null && matches.test(model.get(i))).toArray();
    }

    /**
     * Checks every entry point of {@code predicate} on {@code column} against the model: select over all rows,
     * over empty / full / sparse (TestData.selection) / unordered-with-repeats selections (also with the output
     * aliasing the selection, and with ignored garbage past the selection size), both counts, both masks and
     * {@code test(row)} for every row.
     */
    static void checkPredicate(String what, ViewPredicate predicate, ViewColumn column, List<byte[]> model,
            Predicate<byte[]> matches, long seed) {
        int size = model.size();
        assertEquals(size, column.size(), what + ": column size");
        boolean[] expected = new boolean[size];
        for (int i = 0; i < size; i++) {
            expected[i] = model.get(i) != null && matches.test(model.get(i));
        }
        int[] all = IntStream.range(0, size).filter(i -> expected[i]).toArray();

        int[] out = new int[size + 3];
        Arrays.fill(out, -7);
        int n = predicate.select(column, out);
        assertArrayEquals(all, Arrays.copyOf(out, n), what + ": select(all)");
        assertEquals(all.length, predicate.count(column), what + ": count(all)");

        long[] bits = new long[(size + 63) / 64 + 1];
        Arrays.fill(bits, -1L);
        predicate.mask(column, bits);
        // Messages are built only on failure (suppliers): `what` describes the whole model.
        for (int row = 0; row < size; row++) {
            int r = row;
            assertEquals(expected[row], (bits[row >>> 6] & (1L << row)) != 0, () -> what + ": mask(all) row " + r);
        }

        for (int row = 0; row < size; row++) {
            int r = row;
            assertEquals(expected[row], predicate.test(column, row), () -> what + ": test(row " + r + ")");
        }

        List<int[]> selections = List.of(new int[0], IntStream.range(0, size).toArray(),
                TestData.selection(size, seed), TestData.unorderedSelection(size, seed * 31 + 7));
        for (int s = 0; s < selections.size(); s++) {
            int[] selection = selections.get(s);
            int number = s;
            java.util.function.Supplier<String> label = () -> what + ": selection#" + number + " "
                    + Arrays.toString(selection);
            int[] want = Arrays.stream(selection).filter(i -> expected[i]).toArray();

            int[] selected = new int[selection.length];
            n = predicate.select(column, selection, selection.length, selected);
            assertArrayEquals(want, Arrays.copyOf(selected, n), () -> label.get() + ": select(selection)");

            int[] aliased = selection.clone();
            n = predicate.select(column, aliased, aliased.length, aliased);
            assertArrayEquals(want, Arrays.copyOf(aliased, n), () -> label.get() + ": select(selection, out = selection)");

            // Entries past selectionSize must be ignored, even out-of-range ones.
            int[] padded = Arrays.copyOf(selection, selection.length + 2);
            padded[selection.length] = Integer.MAX_VALUE;
            padded[selection.length + 1] = -1;
            int[] paddedOut = new int[selection.length + 2];
            n = predicate.select(column, padded, selection.length, paddedOut);
            assertArrayEquals(want, Arrays.copyOf(paddedOut, n), () -> label.get() + ": select(padded selection)");
            assertEquals(want.length, predicate.count(column, padded, selection.length),
                    () -> label.get() + ": count(selection)");

            Arrays.fill(bits, -1L);
            predicate.mask(column, selection, selection.length, bits);
            boolean[] wantBits = new boolean[size];
            for (int row : want) {
                wantBits[row] = true;
            }
            for (int row = 0; row < size; row++) {
                int r = row;
                assertEquals(wantBits[row], (bits[row >>> 6] & (1L << row)) != 0,
                        () -> label.get() + ": mask(selection) row " + r);
            }
        }
    }

    /**
     * Checks that {@code column} holds exactly {@code model}: kind, size, null count, every accessor, the
     * validity bitmap, and the Arrow layout of each non-null view (length; inline bytes with zero padding; or
     * prefix, buffer index and offset pointing at the value's bytes).
     *
     * @param zeroedNullViews whether null rows' views are known to be zero (true for columns the library made
     *     with an arena), so {@code length(row)} must be 0 for them
     */
    static void assertReadsBack(ViewColumn column, ViewKind kind, List<byte[]> model, boolean zeroedNullViews,
            String what) {
        int size = model.size();
        assertEquals(kind, column.kind(), what + ": kind");
        assertEquals(size, column.size(), what + ": size");
        assertEquals(model.stream().filter(v -> v == null).count(), column.nullCount(), what + ": nullCount");
        assertEquals(16L * size, column.viewBytes(), what + ": viewBytes");
        java.lang.foreign.MemorySegment views = column.views();
        assertEquals(16L * size, views.byteSize(), what + ": views size");
        org.junit.jupiter.api.Assertions.assertTrue(views.isReadOnly(), what + ": views read-only");
        java.util.Optional<java.lang.foreign.MemorySegment> validity = column.validity();
        long referenced = 0;
        for (int row = 0; row < size; row++) {
            byte[] v = model.get(row);
            int r = row;
            java.util.function.Supplier<String> at = () -> what + ": row " + r + " expected " + show(v); // on failure
            assertEquals(v == null, column.isNull(row), () -> at.get() + ": isNull");
            if (validity.isPresent()) {
                long bit = column.validityBitOffset() + row;
                boolean valid = ((validity.get().get(java.lang.foreign.ValueLayout.JAVA_BYTE, bit >>> 3) >> (bit & 7)) & 1) != 0;
                assertEquals(v != null, valid, () -> at.get() + ": validity bit");
            } else {
                org.junit.jupiter.api.Assertions.assertNotNull(v, () -> at.get() + ": no validity bitmap, yet the model row is null");
            }
            if (v == null) {
                assertEquals(null, column.bytes(row), () -> at.get() + ": bytes");
                assertEquals(null, column.string(row), () -> at.get() + ": string");
                assertEquals(null, column.segment(row), () -> at.get() + ": segment");
                if (zeroedNullViews) {
                    assertEquals(0, column.length(row), () -> at.get() + ": length of a null row");
                }
                continue;
            }
            assertEquals(v.length, column.length(row), () -> at.get() + ": length");
            assertArrayEquals(v, column.bytes(row), () -> at.get() + ": bytes");
            assertEquals(new String(v, StandardCharsets.UTF_8), column.string(row), () -> at.get() + ": string");
            java.lang.foreign.MemorySegment segment = column.segment(row);
            assertEquals(v.length, segment.byteSize(), () -> at.get() + ": segment size");
            org.junit.jupiter.api.Assertions.assertTrue(segment.isReadOnly(), () -> at.get() + ": segment read-only");
            assertArrayEquals(v, segment.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), () -> at.get() + ": segment bytes");
            // the raw view
            long base = 16L * row;
            assertEquals(v.length, views.get(ViewLayout.LAYOUT_LE_INT, base), () -> at.get() + ": view length");
            byte[] view = views.asSlice(base, 16).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            if (v.length <= ViewLayout.INLINE_MAX) {
                byte[] inline = Arrays.copyOf(v, 12);
                assertArrayEquals(inline, Arrays.copyOfRange(view, 4, 16), () -> at.get() + ": inline bytes and zero padding");
            } else {
                referenced += v.length;
                assertArrayEquals(Arrays.copyOf(v, 4), Arrays.copyOfRange(view, 4, 8), () -> at.get() + ": prefix");
                int index = views.get(ViewLayout.LAYOUT_LE_INT, base + 8);
                int offset = views.get(ViewLayout.LAYOUT_LE_INT, base + 12);
                org.junit.jupiter.api.Assertions.assertTrue(index >= 0 && index < column.bufferCount()
                        && offset >= 0 && (long) offset + v.length <= column.buffer(index).byteSize(),
                        () -> at.get() + ": buffer index " + index + " offset " + offset + " in range");
                assertArrayEquals(v, column.buffer(index).asSlice(offset, v.length)
                        .toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), () -> at.get() + ": bytes in the buffer");
            }
        }
        assertEquals(referenced, column.referencedBytes(), what + ": referencedBytes");
        long buffered = 0;
        for (int b = 0; b < column.bufferCount(); b++) {
            buffered += column.buffer(b).byteSize();
        }
        assertEquals(buffered, column.bufferBytes(), what + ": bufferBytes");
    }

    static String describe(TestData.Model model, TestData.Shape shape, long seed) {
        return model + " shape=" + shape + " seed=" + seed;
    }
}
