package dev.stringview;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import dev.stringview.TestData.Model;
import dev.stringview.TestData.Shape;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Utf8} against the JDK's own decoder ({@code StandardCharsets.UTF_8.newDecoder()}, which reports malformed
 * input), and {@link ViewColumns#fromViews} against a row-by-row on-heap model of the view rules, over valid and
 * deliberately corrupted columns of every shape. Both sides of the fast validation are exercised: the one-pass
 * check that accepts, and the row-by-row pass that names the first bad row.
 */
class ValidationPropertyTest {

    // ------------------------------------------------------------------------------------------ the models

    /** Where the JDK's decoder finds the first malformed sequence in {@code bytes}, or -1 if there is none. */
    static long jdkFirstInvalid(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder(); // REPORT on malformed input
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CoderResult result = decoder.decode(in, CharBuffer.allocate(bytes.length + 1), true);
        return result.isError() ? in.position() : -1;
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /**
     * Checks {@code bytes} at offset {@code at} of a native segment whose other bytes break UTF-8 (a stray
     * continuation byte before, a lone lead byte after), so that reading outside the range would change the answer.
     */
    private static void assertAgreesWithJdk(Arena arena, byte[] bytes, int at) {
        long expected = jdkFirstInvalid(bytes);
        MemorySegment segment = arena.allocate(bytes.length + at + 9L, 1);
        segment.fill((byte) 0x80);
        segment.set(java.lang.foreign.ValueLayout.JAVA_BYTE, at + bytes.length, (byte) 0xE2);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, segment, at, bytes.length);
        // The same bytes, surroundings included, on the heap: Utf8 has one loop per segment kind, both must agree.
        MemorySegment heap = MemorySegment.ofArray(segment.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        for (MemorySegment where : new MemorySegment[] {segment, heap}) {
            long actual = Utf8.firstInvalid(where, at, bytes.length);
            if (actual != expected || Utf8.isValid(where, at, bytes.length) != (expected < 0)) {
                fail("utf8 disagrees with the JDK: native=" + where.isNative() + " bytes=" + hex(bytes) + " at="
                        + at + " expected=" + expected + " actual=" + actual);
            }
        }
        if (Utf8.isValid(bytes) != (expected < 0)) {
            fail("utf8 disagrees with the JDK: byte[] bytes=" + hex(bytes) + " expected=" + expected);
        }
    }

    /** Code points on every edge of Table 3-7: the ends of each encoded length and around the surrogates. */
    private static final int[] EDGE_CODE_POINTS = {0, 'a', 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0xFFF, 0x1000, 0xCFFF,
        0xD000, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF};

    /** Ill-formed pieces: overlongs, surrogates, beyond U+10FFFF, bytes never allowed, lone and truncated bytes. */
    private static final int[][] ILL_FORMED = {
        {0xC0, 0x80}, {0xC1, 0xBF}, {0xE0, 0x80, 0x80}, {0xE0, 0x9F, 0xBF}, {0xF0, 0x80, 0x80, 0x80},
        {0xF0, 0x8F, 0xBF, 0xBF}, {0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF}, {0xF4, 0x90, 0x80, 0x80},
        {0xF5, 0x80, 0x80, 0x80}, {0xF8, 0x88, 0x80, 0x80, 0x80}, {0xFE}, {0xFF}, {0x80}, {0xBF}, {0xC2},
        {0xE2, 0x82}, {0xF0, 0x9F, 0x98}, {0xC2, 0xC2, 0x80}, {0xE1, 0x80, 0xC0},
    };

    private static byte[] encode(int codePoint) {
        return new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
    }

    private static int randomScalar(Random random) {
        while (true) {
            int cp = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(0x80);
                case 1 -> 0x80 + random.nextInt(0x800 - 0x80);
                case 2 -> 0x800 + random.nextInt(0x10000 - 0x800);
                default -> 0x10000 + random.nextInt(0x110000 - 0x10000);
            };
            if (cp < 0xD800 || cp > 0xDFFF) {
                return cp;
            }
        }
    }

    /**
     * Mostly well-formed text with every kind of flaw mixed in: ASCII runs whose lengths sit on the 8- and 32-byte
     * steps of the fast path, edge and random characters, ill-formed pieces, characters cut short, random bytes.
     */
    static byte[] utf8ish(Random random) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int pieces = random.nextInt(12);
        boolean flawless = random.nextInt(3) == 0;
        for (int p = 0; p < pieces; p++) {
            int kind = random.nextInt(flawless ? 3 : 6);
            switch (kind) {
                case 0 -> {
                    int[] steps = {0, 1, 7, 8, 9, 15, 16, 24, 31, 32, 33, 40, 64};
                    int n = random.nextBoolean() ? steps[random.nextInt(steps.length)] : random.nextInt(70);
                    for (int i = 0; i < n; i++) {
                        out.write(random.nextInt(0x80));
                    }
                }
                case 1 -> out.writeBytes(encode(EDGE_CODE_POINTS[random.nextInt(EDGE_CODE_POINTS.length)]));
                case 2 -> out.writeBytes(encode(randomScalar(random)));
                case 3 -> {
                    for (int b : ILL_FORMED[random.nextInt(ILL_FORMED.length)]) {
                        out.write(b);
                    }
                }
                case 4 -> {
                    byte[] c = encode(0x80 + random.nextInt(0x110000 - 0x80));
                    if (c.length > 1) {
                        out.write(c, 0, 1 + random.nextInt(c.length - 1)); // cut before its last byte
                    }
                }
                default -> out.write(random.nextInt(256));
            }
        }
        return out.toByteArray();
    }

    // ------------------------------------------------------------------------------------------------ UTF-8

    @Test
    void utf8AgreesWithTheJdkOnRandomText() {
        try (Arena arena = Arena.ofConfined()) {
            for (long seed = 0; seed < 40_000; seed++) {
                Random random = new Random(seed);
                assertAgreesWithJdk(arena, utf8ish(random), random.nextInt(9));
            }
        }
    }

    @Test
    void utf8AgreesWithTheJdkOnEveryOneAndTwoByteSequence() {
        try (Arena arena = Arena.ofConfined()) {
            for (int a = 0; a < 256; a++) {
                assertAgreesWithJdk(arena, new byte[] {(byte) a}, 0);
                for (int b = 0; b < 256; b++) {
                    assertAgreesWithJdk(arena, new byte[] {(byte) a, (byte) b}, a & 7);
                }
            }
        }
    }

    @Test
    void utf8AgreesWithTheJdkOnThreeAndFourByteSequencesAroundEveryBoundary() {
        // Every lead byte from C0, followed by bytes on the edges of each continuation range (and ASCII, and leads).
        int[] edges = {0x00, 0x41, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF0, 0xFF};
        try (Arena arena = Arena.ofConfined()) {
            for (int lead = 0xC0; lead < 0x100; lead++) {
                for (int b1 : edges) {
                    for (int b2 : edges) {
                        assertAgreesWithJdk(arena, new byte[] {(byte) lead, (byte) b1, (byte) b2}, 0);
                        for (int b3 : edges) {
                            assertAgreesWithJdk(arena, new byte[] {(byte) lead, (byte) b1, (byte) b2, (byte) b3},
                                    lead & 7);
                        }
                    }
                }
            }
        }
    }

    @Test
    void utf8AgreesWithTheJdkOnEveryTruncationOfEveryEdgeCharacter() {
        byte[][] contexts = {{}, {'a'}, "abcdefgh".getBytes(StandardCharsets.US_ASCII),
            "an ascii run of thirty-one bytes".substring(1).getBytes(StandardCharsets.US_ASCII), encode(0xE9)};
        try (Arena arena = Arena.ofConfined()) {
            for (int cp : EDGE_CODE_POINTS) {
                byte[] c = encode(cp);
                for (int cut = 0; cut <= c.length; cut++) {
                    for (byte[] before : contexts) {
                        for (byte[] after : contexts) {
                            byte[] bytes = new byte[before.length + cut + after.length];
                            System.arraycopy(before, 0, bytes, 0, before.length);
                            System.arraycopy(c, 0, bytes, before.length, cut);
                            System.arraycopy(after, 0, bytes, before.length + cut, after.length);
                            assertAgreesWithJdk(arena, bytes, before.length & 7);
                        }
                    }
                }
            }
        }
    }

    /** The ASCII fast path at every length, alignment and position of a single non-ASCII piece. */
    @Test
    void utf8FastPathAtEveryLengthAlignmentAndPosition() {
        byte[][] pieces = {{(byte) 0x80}, encode(0xE9), encode(0x20AC), encode(0x1F600), {(byte) 0xC3},
            {(byte) 0xFF}};
        try (Arena arena = Arena.ofConfined()) {
            for (int length = 0; length <= 72; length++) {
                for (int at = 0; at < 8; at++) {
                    byte[] ascii = new byte[length];
                    Arrays.fill(ascii, (byte) 'x');
                    assertAgreesWithJdk(arena, ascii, at);
                    for (int position = 0; position < length; position++) {
                        byte[] piece = pieces[(position + at) % pieces.length];
                        byte[] bytes = Arrays.copyOf(ascii, length + piece.length);
                        System.arraycopy(piece, 0, bytes, position, piece.length);
                        System.arraycopy(ascii, position, bytes, position + piece.length, length - position);
                        assertAgreesWithJdk(arena, bytes, at);
                    }
                }
            }
        }
    }

    // --------------------------------------------------------------------------------- views against a model

    /** The first row that breaks a rule and the field at fault, as the model sees it. */
    record Bad(int row, String field) {}

    /** The columns' raw parts on the heap, ready to corrupt. */
    record Raw(ViewKind kind, int size, byte[] views, boolean[] nulls, byte[][] buffers) {}

    static Raw raw(ViewColumn column) {
        int n = column.size();
        byte[] views = column.views().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        boolean[] nulls = new boolean[n];
        for (int row = 0; row < n; row++) {
            nulls[row] = column.isNull(row);
        }
        byte[][] buffers = new byte[column.bufferCount()][];
        for (int b = 0; b < buffers.length; b++) {
            buffers[b] = column.buffer(b).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        }
        return new Raw(column.kind(), n, views, nulls, buffers);
    }

    private static int intAt(byte[] bytes, int at) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(at);
    }

    private static void putInt(byte[] bytes, int at, int value) {
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
    }

    /** The view rules, row by row, on byte arrays, with the JDK deciding UTF-8. */
    static Bad firstBad(Raw raw) {
        for (int row = 0; row < raw.size(); row++) {
            if (raw.nulls()[row]) {
                continue;
            }
            int at = row * 16;
            byte[] v = raw.views();
            int length = intAt(v, at);
            if (length < 0) {
                return new Bad(row, "length");
            }
            byte[] value;
            if (length <= 12) {
                for (int i = 4 + length; i < 16; i++) {
                    if (v[at + i] != 0) {
                        return new Bad(row, "padding");
                    }
                }
                value = Arrays.copyOfRange(v, at + 4, at + 4 + length);
            } else {
                int bufferIndex = intAt(v, at + 8);
                int offset = intAt(v, at + 12);
                if (bufferIndex < 0 || bufferIndex >= raw.buffers().length) {
                    return new Bad(row, "bufferIndex");
                }
                byte[] buffer = raw.buffers()[bufferIndex];
                if (offset < 0 || (long) offset + length > buffer.length) {
                    return new Bad(row, "offset");
                }
                if (!Arrays.equals(v, at + 4, at + 8, buffer, offset, offset + 4)) {
                    return new Bad(row, "prefix");
                }
                value = Arrays.copyOfRange(buffer, offset, offset + length);
            }
            if (raw.kind() == ViewKind.UTF8 && jdkFirstInvalid(value) >= 0) {
                return new Bad(row, "utf8");
            }
        }
        return null;
    }

    /** {@link ViewColumns#fromViews} over {@code raw}, in native memory or (if {@code heap}) over the arrays. */
    static ViewColumn fromViews(Arena arena, Raw raw, boolean heap, boolean bitmapAlways) {
        return fromViews(arena, raw, heap, heap, bitmapAlways);
    }

    /** {@link ViewColumns#fromViews} over {@code raw}, views and buffers each native or on the heap. */
    static ViewColumn fromViews(Arena arena, Raw raw, boolean viewsOnHeap, boolean buffersOnHeap,
            boolean bitmapAlways) {
        boolean heap = viewsOnHeap;
        MemorySegment views = viewsOnHeap ? MemorySegment.ofArray(raw.views()) : copy(arena, raw.views());
        List<MemorySegment> buffers = new ArrayList<>();
        for (byte[] buffer : raw.buffers()) {
            buffers.add(buffersOnHeap ? MemorySegment.ofArray(buffer) : copy(arena, buffer));
        }
        MemorySegment validity = null;
        boolean anyNull = false;
        for (boolean isNull : raw.nulls()) {
            anyNull |= isNull;
        }
        if (anyNull || bitmapAlways) {
            byte[] bits = new byte[(raw.size() + 7) / 8 + 1];
            Arrays.fill(bits, (byte) 0xFF); // padding bits set, as a producer may leave them
            for (int row = 0; row < raw.size(); row++) {
                if (raw.nulls()[row]) {
                    bits[row >>> 3] &= (byte) ~(1 << (row & 7));
                }
            }
            validity = heap ? MemorySegment.ofArray(bits) : copy(arena, bits);
        }
        return ViewColumns.fromViews(raw.kind(), raw.size(), views, validity, buffers);
    }

    private static MemorySegment copy(Arena arena, byte[] bytes) {
        MemorySegment segment = arena.allocate(Math.max(1, bytes.length), 1).asSlice(0, bytes.length);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, segment, 0, bytes.length);
        return segment;
    }

    /** Asserts that {@link ViewColumns#fromViews} accepts exactly what the model accepts, naming the same row and field. */
    static void assertValidatesLikeTheModel(Arena arena, Raw raw, boolean heap, boolean bitmapAlways, String what) {
        assertValidatesLikeTheModel(arena, raw, heap, heap, bitmapAlways, what);
    }

    /** As above, with the views and the buffers each native or on the heap. */
    static void assertValidatesLikeTheModel(Arena arena, Raw raw, boolean viewsOnHeap, boolean buffersOnHeap,
            boolean bitmapAlways, String what) {
        Bad expected = firstBad(raw);
        if (expected == null) {
            ViewColumn column = fromViews(arena, raw, viewsOnHeap, buffersOnHeap, bitmapAlways);
            assertEquals(raw.size(), column.size(), what);
            return;
        }
        ViewFormatException e = assertThrows(ViewFormatException.class,
                () -> fromViews(arena, raw, viewsOnHeap, buffersOnHeap, bitmapAlways),
                () -> what + " expected " + expected);
        assertEquals(expected, new Bad((int) e.row(), e.field()), () -> what + " " + e.getMessage());
    }

    /** One way to break a view or its bytes. */
    enum Corruption { NONE, NEGATIVE_LENGTH, OTHER_LENGTH, PADDING, BUFFER_INDEX, OFFSET, PREFIX, DATA_BYTE,
        INLINE_BYTE, RANDOM_VIEW }

    /** Applies {@code corruption} to a random non-null row of {@code raw} (or to a data buffer). */
    static void corrupt(Raw raw, Corruption corruption, Random random) {
        List<Integer> rows = new ArrayList<>();
        for (int row = 0; row < raw.size(); row++) {
            if (!raw.nulls()[row]) {
                rows.add(row);
            }
        }
        if (rows.isEmpty() || corruption == Corruption.NONE) {
            return;
        }
        int at = rows.get(random.nextInt(rows.size())) * 16;
        byte[] v = raw.views();
        int length = intAt(v, at);
        byte[] high = {(byte) 0x80, (byte) 0xBF, (byte) 0xC0, (byte) 0xC3, (byte) 0xE0, (byte) 0xED, (byte) 0xF4,
            (byte) 0xFF};
        switch (corruption) {
            case NEGATIVE_LENGTH -> putInt(v, at, random.nextBoolean() ? -1 : Integer.MIN_VALUE + random.nextInt(99));
            case OTHER_LENGTH -> putInt(v, at, random.nextInt(40));
            case PADDING -> {
                if (length >= 0 && length < 12) {
                    v[at + 4 + length + random.nextInt(12 - length)] = (byte) (1 + random.nextInt(255));
                }
            }
            case BUFFER_INDEX -> {
                int n = raw.buffers().length;
                int[] choices = {-1, n, n + 1, Integer.MIN_VALUE, Integer.MAX_VALUE, random.nextInt(), n == 0 ? 0 : n - 1};
                putInt(v, at + 8, choices[random.nextInt(choices.length)]);
            }
            case OFFSET -> {
                int bufferIndex = intAt(v, at + 8);
                int size = bufferIndex >= 0 && bufferIndex < raw.buffers().length ? raw.buffers()[bufferIndex].length : 0;
                int[] choices = {-1, Integer.MIN_VALUE, Integer.MAX_VALUE, size - length + 1, size - length, size,
                    random.nextInt(Math.max(1, size))};
                putInt(v, at + 12, choices[random.nextInt(choices.length)]);
            }
            case PREFIX -> v[at + 4 + random.nextInt(4)] ^= (byte) (1 << random.nextInt(8));
            case DATA_BYTE -> {
                if (raw.buffers().length > 0) {
                    byte[] buffer = raw.buffers()[random.nextInt(raw.buffers().length)];
                    if (buffer.length > 0) {
                        buffer[random.nextInt(buffer.length)] = high[random.nextInt(high.length)];
                    }
                }
            }
            case INLINE_BYTE -> {
                if (length > 0 && length <= 12) {
                    v[at + 4 + random.nextInt(length)] = high[random.nextInt(high.length)];
                }
            }
            case RANDOM_VIEW -> {
                byte[] junk = new byte[16];
                random.nextBytes(junk);
                System.arraycopy(junk, 0, v, at, 16);
            }
        }
    }

    @Test
    void fromViewsAgreesWithTheModelOnCorruptedColumns() {
        Gen.forAll(400, TestData.anyModels(), TestData.shapes(), Gen.seeds(),
                (model, shape, seed) -> fromViewsAgreesWithTheModel(model, shape, seed));
    }

    private void fromViewsAgreesWithTheModel(Model model, Shape shape, long seed) {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = TestData.column(arena, model.kind(), model.values(), shape, seed);
            Random random = new Random(seed);
            for (int round = 0; round < 6; round++) {
                Raw raw = raw(column);
                Corruption[] corruptions = Corruption.values();
                int count = round == 0 ? 0 : 1 + random.nextInt(2);
                List<Corruption> applied = new ArrayList<>();
                for (int c = 0; c < count; c++) {
                    Corruption corruption = corruptions[random.nextInt(corruptions.length)];
                    applied.add(corruption);
                    corrupt(raw, corruption, random);
                }
                String what = ModelChecks.describe(model, shape, seed) + " round=" + round + " corruptions="
                        + applied;
                assertValidatesLikeTheModel(arena, raw, random.nextBoolean(), random.nextBoolean(), what);
            }
        }
    }

    /**
     * Every corrupted column validated in native memory, on the heap and with heap views over native buffers, one
     * after the other: {@link ViewValidation#allValid} keeps one loop for all-native columns and one for the rest,
     * and the three must give the model's answer however the JIT has seen them mixed.
     */
    @Test
    void fromViewsAgreesWithTheModelInNativeHeapAndMixedSegments() {
        Gen.forAll(150, TestData.anyModels(), TestData.shapes(), Gen.seeds(), (model, shape, seed) -> {
            try (Arena arena = Arena.ofConfined()) {
                ViewColumn column = TestData.column(arena, model.kind(), model.values(), shape, seed);
                Random random = new Random(seed);
                for (int round = 0; round < 4; round++) {
                    Raw raw = raw(column);
                    Corruption corruption = Corruption.values()[random.nextInt(Corruption.values().length)];
                    if (round > 0) {
                        corrupt(raw, corruption, random);
                    }
                    String what = ModelChecks.describe(model, shape, seed) + " round=" + round
                            + (round > 0 ? " corruption=" + corruption : "");
                    assertValidatesLikeTheModel(arena, raw, false, false, what + " native");
                    assertValidatesLikeTheModel(arena, raw, true, false, what + " heap");
                    assertValidatesLikeTheModel(arena, raw, true, false, false, what + " heap views, native buffers");
                    assertValidatesLikeTheModel(arena, raw, false, true, false, what + " native views, heap buffers");
                }
            }
        });
    }

    /**
     * Long values laid end to end in one buffer, cut out of one text at random points (so a cut may split a
     * character: the text is then well-formed as a whole but two of its values are not), with inline values and
     * null rows in between. The one-pass check validates such runs as one range; it must still reject exactly the
     * values the model rejects.
     */
    @Test
    void adjacentValuesCutFromOneTextValidateAsEachValueDoes() {
        try (Arena arena = Arena.ofConfined()) {
            for (long seed = 0; seed < 3_000; seed++) {
                Random random = new Random(seed);
                java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
                while (text.size() < 200) {
                    text.writeBytes(random.nextInt(3) == 0 ? "ascii text ".getBytes(StandardCharsets.US_ASCII)
                            : encode(EDGE_CODE_POINTS[random.nextInt(EDGE_CODE_POINTS.length)]));
                }
                byte[] buffer = text.toByteArray();
                if (random.nextInt(4) == 0) {
                    buffer[random.nextInt(buffer.length)] = (byte) 0x80; // sometimes a flaw inside a run, too
                }
                List<byte[]> views = new ArrayList<>();
                List<Boolean> nulls = new ArrayList<>();
                int offset = 0;
                while (buffer.length - offset > 12) {
                    if (random.nextInt(5) == 0) { // a null row with a garbage view, or an inline value
                        boolean isNull = random.nextBoolean();
                        byte[] view = new byte[16];
                        if (isNull) {
                            random.nextBytes(view);
                        } else {
                            byte[] inline = encode(EDGE_CODE_POINTS[random.nextInt(EDGE_CODE_POINTS.length)]);
                            putInt(view, 0, inline.length);
                            System.arraycopy(inline, 0, view, 4, inline.length);
                        }
                        views.add(view);
                        nulls.add(isNull);
                    }
                    int length = Math.min(buffer.length - offset, 13 + random.nextInt(30));
                    byte[] view = new byte[16];
                    putInt(view, 0, length);
                    System.arraycopy(buffer, offset, view, 4, 4);
                    putInt(view, 8, 0);
                    putInt(view, 12, offset);
                    views.add(view);
                    nulls.add(false);
                    offset += length + (random.nextInt(6) == 0 ? 1 : 0); // now and then a gap of one byte
                }
                byte[] allViews = new byte[views.size() * 16];
                boolean[] nullRows = new boolean[views.size()];
                for (int row = 0; row < views.size(); row++) {
                    System.arraycopy(views.get(row), 0, allViews, row * 16, 16);
                    nullRows[row] = nulls.get(row);
                }
                Raw raw = new Raw(ViewKind.UTF8, views.size(), allViews, nullRows, new byte[][] {buffer});
                assertValidatesLikeTheModel(arena, raw, (seed & 1) == 0, false, "seed=" + seed);
            }
        }
    }

    @Test
    void aCharacterSplitBetweenTwoAdjacentValuesIsRejected() {
        try (Arena arena = Arena.ofConfined()) {
            for (int cp : new int[] {0xE9, 0x20AC, 0x1F600}) {
                byte[] c = encode(cp);
                for (int cut = 1; cut < c.length; cut++) {
                    byte[] buffer = new byte[30];
                    Arrays.fill(buffer, (byte) 'a');
                    System.arraycopy(c, 0, buffer, 15 - cut, c.length); // the value boundary at 15 splits c
                    byte[] views = new byte[32];
                    putInt(views, 0, 15);
                    System.arraycopy(buffer, 0, views, 4, 4);
                    putInt(views, 12, 0);
                    putInt(views, 16, 15);
                    System.arraycopy(buffer, 15, views, 20, 4);
                    putInt(views, 28, 15);
                    assertNull(jdkFirstInvalid(buffer) >= 0 ? "whole buffer invalid" : null, "the whole text is valid");
                    Raw raw = new Raw(ViewKind.UTF8, 2, views, new boolean[2], new byte[][] {buffer});
                    assertEquals(new Bad(0, "utf8"), firstBad(raw));
                    assertValidatesLikeTheModel(arena, raw, false, false, "cp=" + cp + " cut=" + cut);
                    assertNotNull(fromViews(arena, new Raw(ViewKind.BINARY, 2, views, new boolean[2],
                            new byte[][] {buffer}), false, false), "binary columns have no UTF-8 rule");
                }
            }
        }
    }
}
