package dev.stringview;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import static dev.stringview.Gen.API;

import com.sageserpent.americium.java.Trials;
import java.util.Map;

/**
 * Test data for property tests: values that sit on every edge of the view layout, and the different ways a
 * column holding them can be laid out in memory. The plain on-heap model is a {@code List<byte[]>} with null
 * elements for null rows. Public (in core's test-jar) for the round-trip tests of the other modules.
 */
public final class TestData {
    private TestData() {}

    /** Lengths around the inline limit and the prefix, plus empty and long values. */
    static final int[] EDGE_LENGTHS = {0, 1, 3, 4, 5, 8, 11, 12, 13, 15, 16, 17, 31, 100};

    /** A small alphabet so that prefixes collide often, with a NUL and bytes >= 0x80 in UTF-8 characters. */
    private static final String[] CHARACTERS = {"a", "b", "z", "\0", "é", "ß", "€", "中", "😀", "\u007f", "h", "t"};

    /*
     * Generation cost: Americium pays for every decision it records (tens of microseconds each), so the bulk of a
     * model comes from one recorded seed: Americium chooses the number of values and the seed, and a Random
     * seeded with it draws the values from the distributions below. Shrinking the size keeps a prefix of the same
     * values; shrinking the seed draws smaller-seeded ones. Single values (constants, probes) still come from
     * Americium decisions where they are few.
     */

    /** A well-formed UTF-8 string from the alphabet, its length (in characters) biased to the edge lengths. */
    public static String utf8String(Random random) {
        int n = switch (random.nextInt(3)) {
            case 0 -> new int[] {0, 1, 3, 4, 5, 11, 12, 13, 16, 17}[random.nextInt(10)];
            case 1 -> random.nextInt(41);
            default -> random.nextInt(301);
        };
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) {
            out.append(CHARACTERS[random.nextInt(CHARACTERS.length)]);
        }
        return out.toString();
    }

    /** Bytes with exact edge lengths, each byte with even odds one of a few (0x00, >= 0x80, ...) or any byte. */
    public static byte[] binaryValue(Random random) {
        int n = random.nextBoolean() ? new int[] {0, 1, 4, 11, 12, 13, 15, 16, 17}[random.nextInt(9)]
                : random.nextInt(65);
        return biasedBytes(random, n, new byte[] {0, 'a', 'b', (byte) 0x80, (byte) 0xFF, 0x7F});
    }

    /** {@code n} bytes, each with even odds one of {@code favourites} or any byte. */
    static byte[] biasedBytes(Random random, int n, byte[] favourites) {
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[i] = random.nextBoolean() ? favourites[random.nextInt(favourites.length)] : (byte) random.nextInt();
        }
        return out;
    }

    /** Well-formed UTF-8 strings as one Americium case each. */
    static Trials<String> utf8Strings() {
        return API.longs().map(seed -> utf8String(new Random(seed)));
    }

    static Trials<byte[]> binaryValues() {
        return API.longs().map(seed -> binaryValue(new Random(seed)));
    }

    /** {@code min..max} values drawn by {@code value} from a seeded Random, one in {@code nullOneIn} null. */
    static Trials<List<byte[]>> valueLists(int min, int max, int nullOneIn,
            java.util.function.Function<Random, byte[]> value) {
        return Gen.zip(API.integers(min, max), API.longs(), (n, seed) -> {
            Random random = new Random(seed);
            List<byte[]> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(random.nextInt(nullOneIn) == 0 ? null : value.apply(random));
            }
            return out;
        });
    }

    /** A UTF-8 model column: a list of UTF-8 encoded values, about one in eight null. */
    static Trials<List<byte[]>> utf8Model() {
        return valueLists(0, 200, 8, random -> utf8String(random).getBytes(StandardCharsets.UTF_8));
    }

    /** A binary model column with nulls. */
    static Trials<List<byte[]>> binaryModel() {
        return valueLists(0, 200, 8, TestData::binaryValue);
    }

    /** A column kind together with a model of its values. */
    record Model(ViewKind kind, List<byte[]> values) {
        @Override
        public String toString() {
            List<String> shown = new ArrayList<>();
            for (byte[] v : values) {
                shown.add(v == null ? "null" : kind == ViewKind.UTF8 ? '"' + new String(v, StandardCharsets.UTF_8) + '"'
                        : Arrays.toString(v));
            }
            return kind + shown.toString();
        }
    }

    static Trials<Model> models() {
        return API.alternate(utf8Model().map(v -> new Model(ViewKind.UTF8, v)),
                binaryModel().map(v -> new Model(ViewKind.BINARY, v)));
    }

    /** Ways to lay out the same values in memory; every kernel must give the same answer for each. */
    public enum Shape {
        /** Appended through the builder, long values copied into growing blocks. */
        BUILDER,
        /** Builder with dedup: repeated long values share bytes. */
        DEDUP,
        /** Long values scattered at random offsets of several adopted buffers, with gaps between them. */
        SCATTERED,
        /** Concatenation of small chunks: many buffers, remapped indices. */
        CONCAT,
        /** A slice out of the middle of a larger column (non-zero view and validity offsets). */
        SLICE,
        /** Rows taken from a shuffled column back into model order. */
        TAKE,
        /** Raw views and buffers handed to the validating constructor. */
        FROM_VIEWS,
        /** The column above after compaction. */
        COMPACTED
    }

    static Trials<Shape> shapes() {
        return API.choose(Shape.values());
    }

    /** Builds a column holding exactly {@code values} (nulls as null rows) in the given shape. */
    public static ViewColumn column(Arena arena, ViewKind kind, List<byte[]> values, Shape shape, long seed) {
        Random random = new Random(seed);
        return switch (shape) {
            case BUILDER -> build(arena, kind, values, false);
            case DEDUP -> build(arena, kind, values, true);
            case SCATTERED -> scattered(arena, kind, values, random);
            case CONCAT -> {
                List<ViewColumn> parts = new ArrayList<>();
                int from = 0;
                while (from < values.size() || parts.isEmpty()) {
                    int to = Math.min(values.size(), from + 1 + random.nextInt(7));
                    parts.add(build(arena, kind, values.subList(from, to), random.nextBoolean()));
                    from = to;
                }
                yield ViewColumns.concat(arena, parts);
            }
            case SLICE -> {
                List<byte[]> padded = new ArrayList<>();
                int before = random.nextInt(9);
                for (int i = 0; i < before; i++) {
                    padded.add(random.nextBoolean() ? null : "padding value before".getBytes(StandardCharsets.UTF_8));
                }
                padded.addAll(values);
                padded.add("after".getBytes(StandardCharsets.UTF_8));
                yield build(arena, kind, padded, false).slice(before, values.size());
            }
            case TAKE -> {
                int n = values.size();
                Integer[] permutation = new Integer[n];
                for (int i = 0; i < n; i++) {
                    permutation[i] = i;
                }
                java.util.Collections.shuffle(Arrays.asList(permutation), random);
                List<byte[]> shuffled = new ArrayList<>();
                int[] back = new int[n];
                for (int i = 0; i < n; i++) {
                    shuffled.add(values.get(permutation[i]));
                    back[permutation[i]] = i;
                }
                yield build(arena, kind, shuffled, false).take(arena, back, n);
            }
            case FROM_VIEWS -> {
                ViewColumn built = scattered(arena, kind, values, random);
                List<MemorySegment> buffers = new ArrayList<>();
                for (int b = 0; b < built.bufferCount(); b++) {
                    buffers.add(built.buffer(b));
                }
                yield ViewColumns.fromViews(kind, built.size(), built.views(), built.validity().orElse(null), buffers);
            }
            case COMPACTED -> scattered(arena, kind, values, random).compact(arena);
        };
    }

    static ViewColumn build(Arena arena, ViewKind kind, List<byte[]> values, boolean dedup) {
        ViewColumnBuilder builder = ViewColumns.builder(arena, kind).withDedup(dedup);
        for (byte[] value : values) {
            builder.append(value);
        }
        return builder.build();
    }

    /** Long values at random offsets of a few adopted buffers, reached with {@link ViewColumnBuilder#appendView}. */
    private static ViewColumn scattered(Arena arena, ViewKind kind, List<byte[]> values, Random random) {
        int buffers = 1 + random.nextInt(4);
        long[] used = new long[buffers];
        long total = 64;
        for (byte[] value : values) {
            total += value == null ? 0 : value.length + 16;
        }
        MemorySegment[] segments = new MemorySegment[buffers];
        for (int b = 0; b < buffers; b++) {
            segments[b] = arena.allocate(total, 1);
            segments[b].fill((byte) 0x5A); // garbage between values
        }
        ViewColumnBuilder builder = ViewColumns.builder(arena, kind);
        int[] index = new int[buffers];
        for (int b = 0; b < buffers; b++) {
            index[b] = builder.adoptBuffer(segments[b]);
        }
        for (byte[] value : values) {
            if (value == null) {
                builder.appendNull();
                continue;
            }
            int b = random.nextInt(buffers);
            long offset = used[b] + random.nextInt(16);
            MemorySegment.copy(MemorySegment.ofArray(value), 0, segments[b], offset, value.length);
            used[b] = offset + value.length;
            builder.appendView(index[b], offset, value.length);
        }
        return builder.build();
    }

    /** A selection: empty, full, or a sorted sparse subset of {@code 0..size-1}. */
    static int[] selection(int size, long seed) {
        Random random = new Random(seed);
        return switch (random.nextInt(4)) {
            case 0 -> new int[0];
            case 1 -> java.util.stream.IntStream.range(0, size).toArray();
            default -> {
                double keep = random.nextDouble();
                yield java.util.stream.IntStream.range(0, size).filter(i -> random.nextDouble() < keep).toArray();
            }
        };
    }


    // ------------------------------------------------------------------------------ added for property tests

    /**
     * Models of either kind, plus binary columns holding UTF-8 text (so that binary LIKE patterns written as
     * text can match, and {@code _} over multi-byte characters differs between the kinds).
     */
    static Trials<Model> anyModels() {
        return API.alternate(models(), utf8Model().map(v -> new Model(ViewKind.BINARY, v)));
    }

    /** Larger models (up to a few thousand rows) so that kernels working in chunks of 1024 rows cross chunks. */
    static Trials<Model> largeModels() {
        return API.alternate(
                valueLists(900, 3000, 8, random -> utf8String(random).getBytes(StandardCharsets.UTF_8))
                        .map(v -> new Model(ViewKind.UTF8, v)),
                valueLists(900, 3000, 8, TestData::binaryValue).map(v -> new Model(ViewKind.BINARY, v)));
    }

    /**
     * Models whose values mostly share a long common start (a few distinct 4-byte prefixes, then a long shared
     * middle), so that sorting and comparing must look past the prefix and into the buffers, and runs of rows
     * with equal prefixes are long.
     */
    static Trials<Model> sharedPrefixModels() {
        String[] starts = {"", "a", "ab", "abcd", "abcde", "abcdefghijkl", "abcdefghijklmnop",
            "\u00e9\u00e9", "\u4e2d\u4e2d\u4e2d\u4e2d", "abc\0", "abc\0\0\0\0\0\0\0\0\0\0"};
        String[] tails = {"", "a", "b", "\0", "z", "\u00e9", "\uD83D\uDE00", "ab", "b\0"};
        // One in nine null, else a start and up to four tail pieces.
        Trials<List<byte[]>> values = valueLists(0, 400, 9, random -> {
            StringBuilder value = new StringBuilder(starts[random.nextInt(starts.length)]);
            for (int i = random.nextInt(5); i > 0; i--) {
                value.append(tails[random.nextInt(tails.length)]);
            }
            return value.toString().getBytes(StandardCharsets.UTF_8);
        });
        return Gen.zip(API.choose(ViewKind.values()), values, Model::new);
    }

    /**
     * Models whose values share a long start (0..40 bytes, the same for the whole column) followed by a short tail
     * of a few byte values (NUL, 0x01, 'a', 0xFF): equal 8-byte chunks at 4..11, 12..19 and beyond, and lengths on
     * every side of each chunk's end, so that sorting and comparing must go chunk after chunk and decide by length.
     */
    static Trials<Model> deepSharedModels() {
        return deepSharedModels(0, 300);
    }

    /** {@link #deepSharedModels()} with {@code minRows..maxRows} rows. */
    static Trials<Model> deepSharedModels(int minRows, int maxRows) {
        // Binary: the bytes are not UTF-8. The start has a bias to a few bytes, so starts of different cases meet.
        Trials<List<byte[]>> values = Gen.zip(API.integers(0, 40), API.longs(), (startLength, seed) ->
                biasedBytes(new Random(seed), startLength, new byte[] {'h', 't', 'p', 0, (byte) 0xE9})).flatMap(start -> valueLists(minRows, maxRows, 10, random -> {
            byte[] tailBytes = {0, 1, 'a', (byte) 0xFF};
            int cut = random.nextInt(4) == 0 ? random.nextInt(start.length + 1) : start.length;
            byte[] out = Arrays.copyOf(start, cut + random.nextInt(11));
            for (int i = cut; i < out.length; i++) {
                out[i] = tailBytes[random.nextInt(tailBytes.length)];
            }
            return out;
        }));
        return values.map(v -> new Model(ViewKind.BINARY, v));
    }

    /** Positions biased to the layout's edges (prefix end, inline end). */
    static Trials<Integer> positions() {
        return API.alternate(API.choose(0, 1, 2, 3, 4, 5, 8, 11, 12, 13), API.integers(0, 300));
    }

    /**
     * Random edge constants: lengths 0..20 and long ones, bytes >= 0x80 in the first four bytes, NUL, and
     * well-formed UTF-8 including 4-byte characters.
     */
    static Trials<byte[]> edgeBytes() {
        Trials<Integer> length = API.alternate(API.integers(0, 20), API.choose(21, 31, 64, 100, 300));
        // The first four bytes each one of a few high bytes (or NUL) or any byte >= 0x80; the rest biased bytes.
        Trials<byte[]> highFirst = Gen.zip(length, API.longs(), (n, seed) -> {
                    Random random = new Random(seed);
                    byte[] out = biasedBytes(random, n, new byte[] {0, 'a', 'b', 'z', 0x7F, (byte) 0x80, (byte) 0xFF});
                    byte[] high = {(byte) 0x80, (byte) 0xFF, (byte) 0xC3, (byte) 0xF0, 0};
                    for (int i = 0; i < Math.min(4, out.length); i++) {
                        out[i] = random.nextBoolean() ? high[random.nextInt(high.length)]
                                : (byte) (0x80 | random.nextInt(0x80));
                    }
                    return out;
                });
        return API.alternate(highFirst, binaryValues(), utf8Strings().map(s -> s.getBytes(StandardCharsets.UTF_8)),
                API.choose("", "\0", "a", "ab", "ab\0", "\u00e9", "z", "\uD83D\uDE00", "\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00",
                        "abcdefghijkl", "abcdefghijklm", "abcdefghijkl\0").map(s -> s.getBytes(StandardCharsets.UTF_8)));
    }

    /** How a {@link Probe} turns a column value into a constant. */
    enum Alter { EDGE, SAME, PREFIX, SUFFIX, SUBSTRING, BUMP_UP, BUMP_DOWN, APPEND_NUL, APPEND_HIGH, DROP_LAST, SET_HIGH }

    /**
     * A predicate constant: one of the column's own values (picked by {@code pick}), possibly altered around
     * position {@code at} / length {@code len}, or the edge value {@code edge}. Independent of the column, so
     * Americium shrinks it on its own; {@link #resolve} applies it to a column's values.
     */
    record Probe(Alter alter, int pick, int at, int len, byte[] edge, boolean bumpLast) {
        /** The constant, with its last byte then incremented if {@code bumpLast} (a near miss at the end). */
        byte[] resolve(List<byte[]> values) {
            byte[] k = resolveUnbumped(values);
            if (bumpLast && k.length > 0) {
                k[k.length - 1]++;
            }
            return k;
        }

        private byte[] resolveUnbumped(List<byte[]> values) {
            List<byte[]> present = new ArrayList<>();
            for (byte[] v : values) {
                if (v != null) {
                    present.add(v);
                }
            }
            if (alter == Alter.EDGE || present.isEmpty()) {
                return edge.clone();
            }
            byte[] v = present.get(Math.floorMod(pick, present.size()));
            int n = v.length;
            return switch (alter) {
                case EDGE, SAME -> v.clone();
                case PREFIX -> Arrays.copyOf(v, Math.min(len, n));
                case SUFFIX -> Arrays.copyOfRange(v, n - Math.min(len, n), n);
                case SUBSTRING -> {
                    int from = n == 0 ? 0 : at % (n + 1);
                    yield Arrays.copyOfRange(v, from, Math.min(n, from + len));
                }
                case BUMP_UP, BUMP_DOWN, SET_HIGH -> {
                    byte[] out = v.clone();
                    if (n > 0) {
                        int i = at % n;
                        out[i] = switch (alter) {
                            case BUMP_UP -> (byte) (out[i] + 1);
                            case BUMP_DOWN -> (byte) (out[i] - 1);
                            default -> (byte) (out[i] | 0x80);
                        };
                    }
                    yield out;
                }
                case APPEND_NUL -> Arrays.copyOf(v, n + 1);
                case APPEND_HIGH -> {
                    byte[] out = Arrays.copyOf(v, n + 1);
                    out[n] = edge.length > 0 ? edge[0] : (byte) 0xFF;
                    yield out;
                }
                case DROP_LAST -> Arrays.copyOf(v, Math.max(0, n - 1));
            };
        }

        @Override
        public String toString() {
            return "Probe[" + alter + " pick=" + pick + " at=" + at + " len=" + len + " edge=" + Arrays.toString(edge)
                    + (bumpLast ? " bumpLast" : "") + "]";
        }
    }

    static Trials<Probe> probes() {
        Trials<Alter> alter = API.alternateWithWeights(Map.entry(3, API.only(Alter.EDGE)),
                Map.entry(3, API.only(Alter.SAME)), Map.entry(6, API.choose(Alter.values())));
        Trials<Integer> len = API.alternate(API.choose(0, 1, 3, 4, 5, 11, 12, 13, 17), API.integers(0, 40));
        record Head(Alter alter, int pick, int at) {}
        record Tail(int len, byte[] edge, boolean bumpLast) {}
        Trials<Head> head = alter.and(API.integers(0, 1000)).and(positions()).trials()
                .map(t -> new Head(t._1(), t._2(), t._3()));
        Trials<Tail> tail = len.and(edgeBytes()).and(API.choose(false, false, false, true)).trials()
                .map(t -> new Tail(t._1(), t._2(), t._3()));
        return Gen.zip(head, tail, (h, t) -> new Probe(h.alter(), h.pick(), h.at(), t.len(), t.edge(), t.bumpLast()));
    }

    /**
     * Sorted or not, with or without repeats: a selection of {@code 0..size-1} in any order, as the API takes
     * ("in selection order"), to complement the ascending {@link #selection}.
     */
    static int[] unorderedSelection(int size, long seed) {
        Random random = new Random(seed);
        if (size == 0) {
            return new int[0];
        }
        int n = random.nextInt(2 * size + 1);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = random.nextInt(size);
        }
        return out;
    }

    /**
     * The same column handed to {@link ViewColumns#fromViews} again, with its views copied to an unaligned
     * address, an exactly sized validity bitmap whose padding bits are set, and garbage in the views of null rows
     * (Arrow leaves them undefined): zeros, a copy of some valid row's view (so a kernel that forgets the
     * validity bitmap would match it), or random bytes. Buffers are shared with {@code column}.
     */
    static ViewColumn withGarbageNullViews(Arena arena, ViewColumn column, long seed) {
        Random random = new Random(seed);
        int n = column.size();
        int shift = 1 + random.nextInt(15);
        MemorySegment views = arena.allocate((long) n * ViewLayout.VIEW_SIZE + shift, 1)
                .asSlice(shift, (long) n * ViewLayout.VIEW_SIZE);
        MemorySegment.copy(column.views(), 0, views, 0, (long) n * ViewLayout.VIEW_SIZE);
        List<Integer> validRows = new ArrayList<>();
        for (int row = 0; row < n; row++) {
            if (!column.isNull(row)) {
                validRows.add(row);
            }
        }
        boolean bitmap = column.nullCount() > 0 || random.nextBoolean();
        MemorySegment validity = null;
        if (bitmap) {
            validity = arena.allocate(Math.max(1, (n + 7) / 8), 1);
            validity.fill((byte) 0xFF); // padding bits beyond the last row stay set
            for (int row = 0; row < n; row++) {
                if (column.isNull(row)) {
                    long at = row >>> 3;
                    byte b = validity.get(java.lang.foreign.ValueLayout.JAVA_BYTE, at);
                    validity.set(java.lang.foreign.ValueLayout.JAVA_BYTE, at, (byte) (b & ~(1 << (row & 7))));
                    long view = (long) row * ViewLayout.VIEW_SIZE;
                    switch (random.nextInt(3)) {
                        case 0 -> views.asSlice(view, ViewLayout.VIEW_SIZE).fill((byte) 0);
                        case 1 -> {
                            if (!validRows.isEmpty()) {
                                int from = validRows.get(random.nextInt(validRows.size()));
                                MemorySegment.copy(views, (long) from * ViewLayout.VIEW_SIZE, views, view,
                                        ViewLayout.VIEW_SIZE);
                            }
                        }
                        default -> {
                            byte[] junk = new byte[ViewLayout.VIEW_SIZE];
                            random.nextBytes(junk);
                            MemorySegment.copy(MemorySegment.ofArray(junk), 0, views, view, ViewLayout.VIEW_SIZE);
                        }
                    }
                }
            }
        }
        List<MemorySegment> buffers = new ArrayList<>();
        for (int b = 0; b < column.bufferCount(); b++) {
            buffers.add(column.buffer(b));
        }
        return ViewColumns.fromViews(column.kind(), n, views, validity, buffers);
    }

    /** {@link #column}, and with probability one half {@link #withGarbageNullViews} on top of it. */
    static ViewColumn anyColumn(Arena arena, ViewKind kind, List<byte[]> values, Shape shape, long seed) {
        ViewColumn column = column(arena, kind, values, shape, seed);
        return (seed & 1) == 0 ? column : withGarbageNullViews(arena, column, seed >>> 1);
    }
}
