package dev.stringview;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.internal.reader.InlineWords;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ByteView} against an on-heap model ({@code byte[]} with {@link Arrays#equals}, {@link Arrays#compareUnsigned}
 * and {@link ViewColumn#hash}). Cases are drawn from a fixed-seed {@link Random}; the seed and case number are in
 * every assertion message.
 */
class ByteViewTest {
    private static final long SEED = 0x5EED_0004L;
    private static final int[] EDGE_LENGTHS = {0, 1, 3, 4, 5, 8, 11, 12, 13, 15, 16, 17, 31, 36, 64, 128};
    /** Slack bytes after a value in a heap slab ({@link #make} way 13); fixed seed, drawn in test order. */
    private static final Random SLACK = new Random(SEED - 1);
    /** A heap allocator, so that long values can also live in {@code byte[]} memory. */
    private static final SegmentAllocator HEAP = (size, align) -> MemorySegment.ofArray(new byte[(int) size]);

    /** A random value: edge or random lengths, bytes from a small alphabet (shared prefixes) or any byte incl. >= 0x80. */
    static byte[] randomValue(Random random) {
        int length = random.nextInt(4) == 0 ? random.nextInt(200) : EDGE_LENGTHS[random.nextInt(EDGE_LENGTHS.length)];
        byte[] value = new byte[length];
        int mode = random.nextInt(3);
        for (int i = 0; i < length; i++) {
            value[i] = switch (mode) {
                case 0 -> (byte) ('a' + random.nextInt(2)); // few distinct bytes: long shared prefixes
                case 1 -> (byte) (0x7E + random.nextInt(4)); // around the signed/unsigned boundary
                default -> (byte) random.nextInt(256);
            };
        }
        return value;
    }

    /** The same bytes made in one of every way a ByteView can be made. */
    static ByteView make(byte[] value, int how, Arena arena) throws IOException {
        return switch (how) {
            case 0 -> ByteView.copyOf(value);
            case 1 -> ByteView.copyOf(MemorySegment.ofArray(value), arena);
            case 2 -> { // wrapped at an offset inside a larger segment
                MemorySegment big = arena.allocate(value.length + 7L);
                MemorySegment.copy(value, 0, big, ValueLayout.JAVA_BYTE, 7, value.length);
                yield ByteView.wrap(big, 7, value.length);
            }
            case 3 -> ByteView.read(Channels.newChannel(new ByteArrayInputStream(value)), value.length, arena);
            case 4 -> ByteView.read(new ByteArrayInputStream(value), value.length, arena);
            case 5 -> ByteView.read(new ByteArrayInputStream(value), value.length, HEAP);
            case 6 -> ViewColumns.ofBytes(arena, new byte[] {1}, value).view(1);
            case 7 -> { // a slice of a longer heap copy (byte[]-backed)
                byte[] padded = new byte[value.length + 20];
                System.arraycopy(value, 0, padded, 9, value.length);
                yield ByteView.copyOf(padded).slice(9, 9 + value.length);
            }
            case 8 -> ByteView.read(Channels.newChannel(new ByteArrayInputStream(value)), value.length, HEAP);
            case 9 -> { // a writable heap segment at an offset: byte[]-backed without a copy
                byte[] padded = new byte[value.length + 5];
                System.arraycopy(value, 0, padded, 3, value.length);
                yield ByteView.wrap(MemorySegment.ofArray(padded).asSlice(1), 2, value.length);
            }
            case 10 -> { // a read-only heap segment: kept as a segment
                byte[] padded = new byte[value.length + 5];
                System.arraycopy(value, 0, padded, 4, value.length);
                yield ByteView.wrap(MemorySegment.ofArray(padded).asReadOnly(), 4, value.length);
            }
            case 11 -> ByteView.copyOf(MemorySegment.ofArray(value), HEAP);
            case 12 -> { // a slice at offset 0 of a longer heap copy: offset 0 as a copy has, but a longer array
                byte[] padded = Arrays.copyOf(value, value.length + 1 + value.length % 9);
                padded[padded.length - 1] = (byte) 0x80;
                yield ByteView.copyOf(padded).slice(0, value.length);
            }
            case 13 -> { // a copy into a heap slab: offset 0 and a kept hash, as a copy has, but a longer array
                // Slack of a varying size and content, so two such values of equal bytes differ past their end.
                byte[] slab = new byte[value.length + 1 + SLACK.nextInt(3)];
                Arrays.fill(slab, (byte) (0x80 + SLACK.nextInt(3)));
                yield ByteView.copyOf(MemorySegment.ofArray(value),
                        SegmentAllocator.slicingAllocator(MemorySegment.ofArray(slab)));
            }
            default -> { // a slice of a slice of a column row (native, segment-backed)
                byte[] padded = new byte[value.length + 30];
                System.arraycopy(value, 0, padded, 17, value.length);
                yield ViewColumns.ofBytes(arena, padded).view(0).slice(6, padded.length - 2)
                        .slice(11, 11 + value.length);
            }
        };
    }

    static final int WAYS = 15;

    @Test
    void everyConstructionReadsBackAndAgreesWithTheModel() throws IOException {
        Random random = new Random(SEED);
        try (Arena arena = Arena.ofConfined()) {
            for (int c = 0; c < 600; c++) {
                byte[] a = randomValue(random);
                byte[] b = random.nextInt(5) == 0 ? a.clone() : randomValue(random);
                ByteView va = make(a, random.nextInt(WAYS), arena);
                ByteView vb = make(b, random.nextInt(WAYS), arena);
                String where = "seed=" + SEED + " case=" + c + " a=" + Arrays.toString(a) + " b=" + Arrays.toString(b);
                assertArrayEquals(a, va.toByteArray(), where);
                assertEquals(a.length, va.length(), where);
                assertEquals(a.length <= 12, va.isInline(), where);
                for (int i = 0; i < a.length; i++) {
                    assertEquals(a[i], va.byteAt(i), where + " index=" + i);
                }
                assertArrayEquals(a, va.segment().toArray(ValueLayout.JAVA_BYTE), where);
                boolean equal = Arrays.equals(a, b);
                assertEquals(equal, va.equals(vb), where);
                assertEquals(equal, vb.equals(va), where);
                assertEquals(Integer.signum(Arrays.compareUnsigned(a, b)), Integer.signum(va.compareTo(vb)), where);
                assertEquals(Integer.signum(Arrays.compareUnsigned(b, a)), Integer.signum(vb.compareTo(va)), where);
                if (equal) {
                    assertEquals(va.hashCode(), vb.hashCode(), where);
                }
                ViewColumn column = ViewColumns.ofBytes(arena, a);
                assertEquals(column.hash(0), va.hash64(), where);
                assertEquals(va, column.view(0), where);
                if (a.length == 0) {
                    assertSame(ByteView.EMPTY, va, where);
                }
            }
        }
    }

    @Test
    void slicesOfSlicesAgreeWithCopyOfRange() throws IOException {
        Random random = new Random(SEED + 1);
        try (Arena arena = Arena.ofConfined()) {
            for (int c = 0; c < 500; c++) {
                byte[] model = randomValue(random);
                ByteView view = make(model, random.nextInt(WAYS), arena);
                for (int depth = 0; depth < 4; depth++) {
                    int from = random.nextInt(model.length + 1);
                    int to = from + random.nextInt(model.length - from + 1);
                    String where = "seed=" + (SEED + 1) + " case=" + c + " depth=" + depth + " from=" + from + " to=" + to
                            + " model=" + Arrays.toString(model);
                    model = Arrays.copyOfRange(model, from, to);
                    view = view.slice(from, to);
                    assertArrayEquals(model, view.toByteArray(), where);
                    assertEquals(ByteView.copyOf(model), view, where);
                    assertEquals(ByteView.copyOf(model).word0(), view.word0(), where + " (length and prefix)");
                    assertEquals(ByteView.copyOf(model).hash64(), view.hash64(), where);
                    assertEquals(model.length <= 12, view.isInline(), where);
                }
            }
        }
    }

    /** Every slice of inline values of 0..12 bytes (high bytes included) against Arrays.copyOfRange. */
    @Test
    void everySliceOfAnInlineValueAgreesWithCopyOfRange() {
        Random random = new Random(SEED + 7);
        for (int length = 0; length <= 12; length++) {
            for (int c = 0; c < 20; c++) {
                byte[] model = new byte[length];
                random.nextBytes(model);
                ByteView view = ByteView.copyOf(model);
                for (int from = 0; from <= length; from++) {
                    for (int to = from; to <= length; to++) {
                        byte[] expected = Arrays.copyOfRange(model, from, to);
                        ByteView slice = view.slice(from, to);
                        String where = "seed=" + (SEED + 7) + " from=" + from + " to=" + to + " model="
                                + Arrays.toString(model);
                        assertArrayEquals(expected, slice.toByteArray(), where);
                        assertEquals(ByteView.copyOf(expected).word0(), slice.word0(), where);
                        assertEquals(ByteView.copyOf(expected), slice, where);
                    }
                }
            }
        }
    }

    /** ViewLayout's inline packing against a byte-by-byte model, at every offset up to the segment's very end. */
    @Test
    void inlinePackingAgreesWithTheByteModelUpToTheSegmentEnd() {
        Random random = new Random(SEED + 8);
        for (int segmentSize = 0; segmentSize <= 40; segmentSize++) {
            byte[] bytes = new byte[segmentSize];
            random.nextBytes(bytes);
            MemorySegment segment = MemorySegment.ofArray(bytes);
            for (int offset = 0; offset <= segmentSize; offset++) {
                for (int length = 0; length <= Math.min(12, segmentSize - offset); length++) {
                    long lo = 0;
                    long hi = 0;
                    for (int i = 0; i < length; i++) {
                        long b = bytes[offset + i] & 0xFFL;
                        if (i < 8) {
                            lo |= b << (8 * i);
                        } else {
                            hi |= b << (8 * (i - 8));
                        }
                    }
                    String where = "segmentSize=" + segmentSize + " offset=" + offset + " length=" + length;
                    assertEquals(lo, InlineWords.inlineLow(segment, offset, length), where);
                    assertEquals(hi, InlineWords.inlineHigh(segment, offset, length), where);
                    ByteView view = ByteView.wrap(segment, offset, length);
                    assertEquals(InlineWords.inlineWord0(length, lo), view.word0(), where);
                    assertArrayEquals(Arrays.copyOfRange(bytes, offset, offset + length), view.toByteArray(), where);
                }
            }
        }
    }

    /** byteview 0.5.3-0.6.0 forgot the parent's offset when slicing a slice; this pins the offset arithmetic. */
    @Test
    void sliceOfSliceKeepsTheParentOffset() {
        byte[] bytes = new byte[64];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        ByteView whole = ByteView.copyOf(bytes);
        ByteView first = whole.slice(10, 50); // bytes 10..49
        ByteView second = first.slice(5, 30); // bytes 15..39, not 5..29
        assertEquals(15, second.byteAt(0));
        assertArrayEquals(Arrays.copyOfRange(bytes, 15, 40), second.toByteArray());
        assertEquals(ByteView.copyOf(Arrays.copyOfRange(bytes, 15, 40)).word0(), second.word0(), "prefix recomputed");
        ByteView third = second.slice(20, 25); // bytes 35..39, inline now
        assertTrue(third.isInline());
        assertArrayEquals(new byte[] {35, 36, 37, 38, 39}, third.toByteArray());
        assertSame(ByteView.EMPTY, second.slice(3, 3));
        assertSame(second, second.slice(0, second.length()));
    }

    @Test
    void emptyIsShared() throws IOException {
        assertSame(ByteView.EMPTY, ByteView.copyOf(new byte[0]));
        assertSame(ByteView.EMPTY, ByteView.copyOf(""));
        assertSame(ByteView.EMPTY, ByteView.wrap(MemorySegment.ofArray(new byte[5]), 2, 0));
        assertSame(ByteView.EMPTY, ByteView.read(new ByteArrayInputStream(new byte[0]), 0, HEAP));
        try (Arena arena = Arena.ofConfined()) {
            assertSame(ByteView.EMPTY, ViewColumns.ofStrings(arena, "").view(0));
        }
        assertEquals("", ByteView.EMPTY.toString());
        assertEquals(0, ByteView.EMPTY.length());
    }

    @Test
    void worksAsHashMapKeyAndSortsLikeUnsignedBytes() throws IOException {
        Random random = new Random(SEED + 2);
        try (Arena arena = Arena.ofConfined()) {
            Map<ByteView, Integer> map = new HashMap<>();
            Map<String, Integer> model = new HashMap<>(); // ISO-8859-1 keeps bytes 1:1
            List<ByteView> views = new ArrayList<>();
            List<byte[]> values = new ArrayList<>();
            for (int c = 0; c < 2000; c++) {
                byte[] value = randomValue(random);
                ByteView view = make(value, random.nextInt(WAYS), arena);
                map.merge(view, 1, Integer::sum);
                model.merge(new String(value, StandardCharsets.ISO_8859_1), 1, Integer::sum);
                views.add(view);
                values.add(value);
            }
            assertEquals(model.size(), map.size(), "seed=" + (SEED + 2));
            for (Map.Entry<String, Integer> e : model.entrySet()) {
                ByteView key = ByteView.copyOf(e.getKey().getBytes(StandardCharsets.ISO_8859_1));
                assertEquals(e.getValue(), map.get(key), "seed=" + (SEED + 2) + " key=" + e.getKey());
            }
            views.sort(ByteView.comparator());
            values.sort(Arrays::compareUnsigned);
            for (int i = 0; i < values.size(); i++) {
                assertArrayEquals(values.get(i), views.get(i).toByteArray(), "seed=" + (SEED + 2) + " position=" + i);
            }
        }
    }

    @Test
    void columnViewAndBuilderAppendCopyNothing() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn source = ViewColumns.ofStrings(arena, "short", null, "a value longer than twelve", "",
                    "ünïcödé over twelve bytes");
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8);
            for (int row = 0; row < source.size(); row++) {
                builder.append(source.view(row));
            }
            ViewColumn copy = builder.build();
            assertNull(source.view(1));
            assertTrue(copy.isNull(1));
            for (int row = 0; row < source.size(); row++) {
                assertEquals(source.string(row), copy.string(row), "row=" + row);
            }
            // The long values still point into the source's one data block: no byte was copied.
            assertEquals(1, copy.bufferCount());
            assertEquals(source.buffer(0).address(), copy.buffer(0).address());
            assertEquals(source.segment(2).address(), copy.segment(2).address());
            assertEquals(source.segment(4).address(), copy.segment(4).address());
        }
    }

    @Test
    void builderRejectsInvalidUtf8FromABinaryView() {
        try (Arena arena = Arena.ofConfined()) {
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8);
            ViewFormatException e = assertThrows(ViewFormatException.class,
                    () -> builder.append(ByteView.copyOf(new byte[] {'a', (byte) 0xFF})));
            assertEquals("utf8", e.field());
            byte[] longBad = "a long value with a bad byte: ".getBytes(StandardCharsets.UTF_8);
            longBad[longBad.length - 1] = (byte) 0xC0;
            assertThrows(ViewFormatException.class, () -> builder.append(ByteView.copyOf(longBad)));
            assertEquals(0, builder.size());
        }
    }

    @Test
    void accessAfterTheArenaClosesThrows() {
        ByteView longValue;
        ByteView inlineValue;
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, "lives in the arena's data block", "inline");
            longValue = column.view(0);
            inlineValue = column.view(1);
        }
        assertThrows(IllegalStateException.class, longValue::toByteArray);
        assertThrows(IllegalStateException.class, () -> longValue.byteAt(20));
        assertThrows(IllegalStateException.class, longValue::hash64);
        assertEquals("inline", inlineValue.toString(), "inline values hold no memory");
    }

    @Test
    void truncatedStreamsThrowEofNamingTheCounts() {
        byte[] five = {1, 2, 3, 4, 5};
        try (Arena arena = Arena.ofConfined()) {
            EOFException a = assertThrows(EOFException.class,
                    () -> ByteView.read(new ByteArrayInputStream(five), 40, arena));
            assertEquals("stream ended inside a value: field=value length=40 read=5", a.getMessage());
            EOFException b = assertThrows(EOFException.class,
                    () -> ByteView.read(Channels.newChannel(new ByteArrayInputStream(five)), 9, arena));
            assertEquals("stream ended inside a value: field=value length=9 read=5", b.getMessage());
            assertThrows(IllegalArgumentException.class, () -> ByteView.read(new ByteArrayInputStream(five), -1, arena));
        }
    }

    /** A stream over {@code bytes} that hands out at most {@code most} bytes per {@code read(array, ...)} call. */
    private static final class TrickleStream extends java.io.InputStream {
        private final byte[] bytes;
        private final int most;
        private int position;

        TrickleStream(byte[] bytes, int most) {
            this.bytes = bytes;
            this.most = most;
        }

        @Override
        public int read() {
            return position < bytes.length ? bytes[position++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] array, int offset, int count) {
            if (count == 0) {
                return 0;
            }
            if (position == bytes.length) {
                return -1;
            }
            int n = Math.min(Math.min(count, most), bytes.length - position);
            System.arraycopy(bytes, position, array, offset, n);
            position += n;
            return n;
        }

        int remaining() {
            return bytes.length - position;
        }
    }

    /**
     * Stream reads of every inline length (each has a path of its own) and the lengths around and past it, values
     * back to back in one stream, whole or handed out 1, 2, 3 or 5 bytes per read call: each value equals its copy
     * in bytes, words, equality, order and hashes, and the stream is left exactly after the values read.
     */
    @Test
    void streamReadsOfEveryLengthAgreeWithCopiesAndConsumeExactlyTheValue() throws IOException {
        Random random = new Random(SEED + 11);
        int[] lengths = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 36, 128};
        for (int round = 0; round < 40; round++) {
            byte[][] values = new byte[lengths.length][];
            java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
            for (int i = 0; i < lengths.length; i++) {
                byte[] value = new byte[lengths[i]];
                for (int j = 0; j < value.length; j++) {
                    // bytes >= 0x80 in the prefix, in bytes 4..11 and past byte 12, mixed with ASCII and zeros
                    value[j] = switch (random.nextInt(4)) {
                        case 0 -> (byte) (0x80 + random.nextInt(128));
                        case 1 -> 0;
                        default -> (byte) random.nextInt(256);
                    };
                }
                values[i] = value;
                all.writeBytes(value);
            }
            byte[] stream = all.toByteArray();
            int most = new int[] {1, 2, 3, 5, Integer.MAX_VALUE}[round % 5];
            try (Arena arena = Arena.ofConfined()) {
                SegmentAllocator allocator = round % 2 == 0 ? arena : HEAP;
                TrickleStream in = new TrickleStream(stream, most);
                int consumed = 0;
                for (int i = 0; i < lengths.length; i++) {
                    String where = "seed=" + (SEED + 11) + " round=" + round + " length=" + lengths[i] + " most="
                            + most;
                    ByteView read = ByteView.read(in, lengths[i], allocator);
                    consumed += lengths[i];
                    assertEquals(stream.length - consumed, in.remaining(), where + ": bytes left in the stream");
                    ByteView copy = ByteView.copyOf(values[i]);
                    assertReadsBack(values[i], read, where);
                    assertEquals(copy.word0(), read.word0(), where);
                    assertEquals(copy, read, where);
                    assertEquals(read, copy, where);
                    assertEquals(0, read.compareTo(copy), where);
                    assertEquals(copy.hashCode(), read.hashCode(), where);
                    assertEquals(copy.hash64(), read.hash64(), where);
                    assertEquals(lengths[i] <= 12, read.isInline(), where);
                }
            }
        }
    }

    /** Every inline length read from a stream that ends early, at every count short of it, whole and trickled. */
    @Test
    void inlineReadsOfShortStreamsThrowEofNamingBothCounts() {
        for (int length = 1; length <= 12; length++) {
            for (int have = 0; have < length; have++) {
                for (int most : new int[] {1, 3, Integer.MAX_VALUE}) {
                    byte[] bytes = new byte[have];
                    Arrays.fill(bytes, (byte) 0xC3);
                    int expectedLength = length;
                    EOFException e = assertThrows(EOFException.class,
                            () -> ByteView.read(new TrickleStream(bytes, most), expectedLength, HEAP),
                            "length=" + length + " have=" + have + " most=" + most);
                    assertEquals("stream ended inside a value: field=value length=" + length + " read=" + have,
                            e.getMessage(), "most=" + most);
                }
            }
        }
    }

    /**
     * Inline values allocate nothing, so they read from a stream even with a closed arena as the allocator; a long
     * value needs the arena and gets its clean {@link IllegalStateException}.
     */
    @Test
    void streamReadsWithAClosedArenaReadInlineValuesAndRejectLongOnes() throws IOException {
        Arena arena = Arena.ofConfined();
        arena.close();
        byte[] twelve = "h\u00e9llo w\u00f6rd".getBytes(StandardCharsets.UTF_8);
        assertEquals(12, twelve.length);
        ByteView inline = ByteView.read(new ByteArrayInputStream(twelve), 12, arena);
        assertEquals(ByteView.copyOf(twelve), inline);
        assertThrows(IllegalStateException.class,
                () -> ByteView.read(new ByteArrayInputStream(new byte[13]), 13, arena));
        assertThrows(IllegalStateException.class,
                () -> ByteView.read(Channels.newChannel(new ByteArrayInputStream(new byte[13])), 13, arena));
    }

    @Test
    void bigReadsInChunksAndStraightIntoHeapArrays() throws IOException {
        Random random = new Random(SEED + 3);
        byte[] big = new byte[20_000];
        random.nextBytes(big);
        try (Arena arena = Arena.ofConfined()) {
            ByteView offHeap = ByteView.read(new ByteArrayInputStream(big), big.length, arena);
            ByteView onHeap = ByteView.read(new ByteArrayInputStream(big), big.length, HEAP);
            assertArrayEquals(big, offHeap.toByteArray());
            assertArrayEquals(big, onHeap.toByteArray());
            assertEquals(offHeap, onHeap);
            assertFalse(offHeap.isInline());
        }
    }

    /**
     * Long values read from streams that end early, through each path of a long read (one chunk into native
     * memory, several chunks, straight into a heap array), whole and trickled: one {@link EOFException}
     * naming the length and the bytes read before the end, also past the first 8 KiB chunk.
     */
    @Test
    void longReadsOfShortStreamsThrowEofNamingBothCounts() {
        int[] lengths = {13, 16, 17, 36, 128, 8192, 8193, 20_000};
        try (Arena arena = Arena.ofConfined()) {
            for (int length : lengths) {
                for (int have : new int[] {0, 1, 4, 12, length / 2, 8192, length - 1}) {
                    if (have >= length) {
                        continue;
                    }
                    for (int most : new int[] {3, 1000, Integer.MAX_VALUE}) {
                        for (SegmentAllocator allocator : new SegmentAllocator[] {arena, HEAP}) {
                            byte[] bytes = new byte[have];
                            Arrays.fill(bytes, (byte) 0xE2);
                            String where = "length=" + length + " have=" + have + " most=" + most + " heap="
                                    + (allocator == HEAP);
                            EOFException e = assertThrows(EOFException.class,
                                    () -> ByteView.read(new TrickleStream(bytes, most), length, allocator), where);
                            assertEquals("stream ended inside a value: field=value length=" + length + " read="
                                    + have, e.getMessage(), where);
                        }
                    }
                }
            }
        }
    }

    /**
     * Threads reading at the same time each read their own bytes: every thread reads from a stream that yields
     * inside every partial read (so another thread runs between the stream's copy into an array and the words or
     * segment made from it), values of every path (inline, one chunk, several chunks, into native and heap memory)
     * with bytes of their own, checked against the model.
     */
    @Test
    void threadsReadingAtOnceReadTheirOwnBytes() throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        int[] lengths = {1, 4, 8, 11, 12, 13, 16, 17, 36, 128, 8192, 9000};
        Runnable[] work = new Runnable[4];
        for (int t = 0; t < work.length; t++) {
            int thread = t;
            work[t] = () -> {
                Random random = new Random(SEED + 100 + thread);
                try (Arena arena = Arena.ofConfined()) {
                    for (int round = 0; round < 300; round++) {
                        int length = lengths[random.nextInt(lengths.length)];
                        byte[] value = new byte[length];
                        random.nextBytes(value);
                        value[0] = (byte) (0x80 | thread); // bytes >= 0x80 in the prefix, one per thread
                        YieldingStream in = new YieldingStream(value, 1 + random.nextInt(7));
                        ByteView read = ByteView.read(in, length, round % 2 == 0 ? arena : HEAP);
                        String where = "thread=" + thread + " round=" + round + " length=" + length;
                        assertReadsBack(value, read, where);
                        assertEquals(ByteView.copyOf(value), read, where);
                        assertEquals(ByteView.copyOf(value).hashCode(), read.hashCode(), where);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            };
        }
        for (Runnable runnable : work) {
            threads.add(new Thread(runnable));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        assertTrue(failures.isEmpty(), () -> "failures: " + failures);
    }

    /** A {@link TrickleStream} that yields the processor inside every read, after copying its bytes. */
    private static final class YieldingStream extends java.io.InputStream {
        private final TrickleStream bytes;

        YieldingStream(byte[] bytes, int most) {
            this.bytes = new TrickleStream(bytes, most);
        }

        @Override
        public int read() {
            return bytes.read();
        }

        @Override
        public int read(byte[] array, int offset, int count) {
            int n = bytes.read(array, offset, count);
            Thread.yield();
            return n;
        }
    }

    /**
     * One thread's reads of growing lengths and back: every value equals the model, through both stream reads and
     * channel reads.
     */
    @Test
    void readsOfGrowingLengthsOnOneThread() throws IOException {
        Random random = new Random(SEED + 13);
        int[] lengths = {5, 12, 13, 36, 700, 12, 5000, 8191, 8192, 8193, 20_000, 3, 40};
        try (Arena arena = Arena.ofConfined()) {
            for (int length : lengths) {
                byte[] value = new byte[length];
                random.nextBytes(value);
                String where = "length=" + length;
                assertReadsBack(value, ByteView.read(new ByteArrayInputStream(value), length, arena), where);
                assertReadsBack(value, ByteView.read(new TrickleStream(value, 4097), length, arena), where);
                assertReadsBack(value, ByteView.read(new ByteArrayInputStream(value), length, HEAP), where);
                assertReadsBack(value,
                        ByteView.read(Channels.newChannel(new ByteArrayInputStream(value)), length, arena), where);
            }
        }
    }

    /** Names of {@link #make}'s ways, for messages. */
    private static final String[] WAY_NAMES = {"copyOf(byte[])", "copyOf(segment, arena)", "wrap(native)",
        "read(channel, arena)", "read(stream, arena)", "read(stream, heap)", "column row", "slice of heap copy",
        "read(channel, heap)", "wrap(heap)", "wrap(read-only heap)", "copyOf(segment, heap)", "prefix slice of heap copy",
        "copyOf(segment, heap slab)", "slice of slice of row"};

    /**
     * A second value near {@code a}: equal, one byte changed at a position that matters for the compare paths
     * (prefix, bytes 4..11, byte 12, the last word, the very last byte; to 0x00, 0x7F, 0x80 or 0xFF), cut
     * short, made longer, or unrelated.
     */
    static byte[] nearValue(byte[] a, Random random) {
        byte[] b = a.clone();
        switch (random.nextInt(6)) {
            case 0 -> { }
            case 1, 2 -> {
                if (b.length > 0) {
                    int[] positions = {0, 3, 4, 7, 11, 12, 13, b.length - 8, b.length - 1, random.nextInt(b.length)};
                    int at = Math.max(0, Math.min(b.length - 1, positions[random.nextInt(positions.length)]));
                    byte[] to = {0, 0x7F, (byte) 0x80, (byte) 0xFF, (byte) (b[at] + 1), (byte) (b[at] - 1)};
                    b[at] = to[random.nextInt(to.length)];
                }
            }
            case 3 -> b = Arrays.copyOf(a, random.nextInt(a.length + 1));
            case 4 -> {
                b = Arrays.copyOf(a, a.length + 1 + random.nextInt(20));
                for (int i = a.length; i < b.length; i++) {
                    b[i] = (byte) random.nextInt(256); // zero bytes included: padding must not compare like data
                }
            }
            default -> b = randomValue(random);
        }
        return b;
    }

    /** Checks every accessor of {@code view} against the model bytes (after its hash code has been asked for, too). */
    private static void assertReadsBack(byte[] model, ByteView view, String where) {
        assertEquals(model.length, view.length(), where);
        assertArrayEquals(model, view.toByteArray(), where);
        for (int i = 0; i < model.length; i++) {
            assertEquals(model[i], view.byteAt(i), where + " index=" + i);
        }
        assertArrayEquals(model, view.segment().toArray(ValueLayout.JAVA_BYTE), where);
        byte[] target = new byte[model.length + 3];
        view.copyTo(MemorySegment.ofArray(target), 3);
        assertArrayEquals(model, Arrays.copyOfRange(target, 3, target.length), where);
        assertEquals(new String(model, StandardCharsets.UTF_8), view.toString(), where);
    }

    /**
     * Equality, order and both hashes of every pair of construction ways (copies, native and heap segments, inline,
     * slices of slices) against the model, on pairs that differ where each compare path
     * looks; the same checks again once both hash codes have been asked for, and every accessor after that.
     */
    @Test
    void everyPairOfBackingsAgreesWithTheModelBeforeAndAfterHashing() throws IOException {
        Random random = new Random(SEED + 11);
        try (Arena arena = Arena.ofConfined()) {
            for (int wayA = 0; wayA < WAYS; wayA++) {
                for (int wayB = 0; wayB < WAYS; wayB++) {
                    for (int c = 0; c < 40; c++) {
                        byte[] a = randomValue(random);
                        byte[] b = nearValue(a, random);
                        ByteView va = make(a, wayA, arena);
                        ByteView vb = make(b, wayB, arena);
                        String where = "seed=" + (SEED + 11) + " a=" + WAY_NAMES[wayA] + " b=" + WAY_NAMES[wayB]
                                + " case=" + c + " a=" + Arrays.toString(a) + " b=" + Arrays.toString(b);
                        long hashA = ViewColumns.ofBytes(arena, a).hash(0);
                        long hashB = ViewColumns.ofBytes(arena, b).hash(0);
                        for (int pass = 0; pass < 2; pass++) { // pass 1: both hash codes were asked for
                            String at = where + " pass=" + pass;
                            assertEquals(Arrays.equals(a, b), va.equals(vb), at);
                            assertEquals(Arrays.equals(a, b), vb.equals(va), at);
                            assertEquals(Integer.signum(Arrays.compareUnsigned(a, b)), Integer.signum(va.compareTo(vb)),
                                    at);
                            assertEquals(Integer.signum(Arrays.compareUnsigned(b, a)), Integer.signum(vb.compareTo(va)),
                                    at);
                            assertEquals(0, va.compareTo(va), at);
                            assertEquals(hashA, va.hash64(), at);
                            assertEquals(hashB, vb.hash64(), at);
                            assertEquals(Long.hashCode(hashA), va.hashCode(), at);
                            assertEquals(Long.hashCode(hashB), vb.hashCode(), at);
                            assertReadsBack(a, va, at);
                            assertReadsBack(b, vb, at);
                        }
                    }
                }
            }
        }
    }

    /**
     * The order and equality of two long values in heap memory (copies, and slices at an offset inside longer
     * arrays) for every pair of lengths 13..60 and every position of the first differing byte (with a later difference the other way, so the
     * first must decide), both directions, bytes below and above 0x80: a difference at any position (or none: a proper prefix) must decide like
     * {@code Arrays.compareUnsigned}.
     */
    @Test
    void arrayBackedOrderAgreesWithCompareUnsignedAtEveryDifferencePosition() {
        Random random = new Random(SEED + 13);
        forEachDifferingPair(random, (a, b, at) -> {
            int lengthA = a.length;
            int expected = Integer.signum(Arrays.compareUnsigned(a, b));
            int shift = random.nextInt(5);
            byte[] padded = new byte[lengthA + 2 * shift];
            System.arraycopy(a, 0, padded, shift, lengthA);
            ByteView[] as = {ByteView.copyOf(a), ByteView.copyOf(padded).slice(shift, shift + lengthA)};
            ByteView vb = ByteView.copyOf(b);
            for (ByteView va : as) {
                String where = "seed=" + (SEED + 13) + " lengthA=" + lengthA + " lengthB=" + b.length + " at=" + at
                        + " shift=" + shift + " inline=" + va.isInline();
                assertEquals(expected, Integer.signum(va.compareTo(vb)), where);
                assertEquals(-expected, Integer.signum(vb.compareTo(va)), where);
                assertEquals(Arrays.equals(a, b), va.equals(vb), where);
                assertEquals(Arrays.equals(a, b), vb.equals(va), where);
            }
        });
    }

    /** A check of one pair from {@link #forEachDifferingPair}. */
    private interface DifferingPair {
        void check(byte[] a, byte[] b, int at);
    }

    /**
     * Every pair of lengths 13..60 ({@code b} up to 9 bytes longer than {@code a}), {@code b} of bytes around
     * 0x80, and for every position {@code at} the pair whose first difference is there, with a later difference the
     * other way that must not decide ({@code at = -1}: {@code a} is {@code b} cut to its length).
     */
    private static void forEachDifferingPair(Random random, DifferingPair check) {
        for (int lengthA = 13; lengthA <= 60; lengthA++) {
            for (int lengthB = lengthA; lengthB <= Math.min(60, lengthA + 9); lengthB++) {
                byte[] b = new byte[lengthB];
                for (int i = 0; i < lengthB; i++) {
                    b[i] = (byte) (0x7E + random.nextInt(4)); // around the signed/unsigned boundary
                }
                for (int at = -1; at < lengthA; at++) { // -1: a is a proper prefix of b (or equal)
                    byte[] a = Arrays.copyOf(b, lengthA);
                    if (at >= 0) {
                        int sign = random.nextBoolean() ? 1 : -1;
                        a[at] = (byte) (b[at] + sign);
                        if (at + 1 < lengthA) { // a later difference the other way, which must not decide
                            int later = at + 1 + random.nextInt(lengthA - at - 1);
                            a[later] = (byte) (b[later] - sign);
                        }
                    }
                    check.check(a, b, at);
                }
            }
        }
    }

    /**
     * Equality and order of long values in segments (column views in native memory, a read-only heap segment, a
     * column view sliced) against heap copies and against each other, for every pair of lengths 13..60 (up to 9
     * apart) and every position of the first differing byte, with a later difference the other way that must not
     * decide, bytes around 0x80: the array-against-segment equality reads the last word first and then two words
     * per branch, and both segment orders compare two words per branch from byte 12, then one, then the last
     * word overlapping. After the arena closes, comparing a copy with a column view that needs its bytes throws.
     */
    @Test
    void segmentBackedValuesAgreeWithTheModelAtEveryDifferencePosition() {
        Random random = new Random(SEED + 17);
        forEachDifferingPair(random, (a, b, at) -> {
            int lengthA = a.length;
            int lengthB = b.length;
            // b with a's length (equal up to the difference): the pairs equals decides on its bytes
            byte[] bCut = Arrays.copyOf(b, lengthA);
            Arena arena = Arena.ofConfined();
            try {
                ViewColumn column = ViewColumns.ofBytes(arena, a, b, bCut);
                byte[] padded = new byte[lengthA + 9];
                System.arraycopy(a, 0, padded, 5, lengthA);
                ByteView[] as = {column.view(0), ByteView.wrap(MemorySegment.ofArray(padded).asReadOnly(),
                        5, lengthA), ViewColumns.ofBytes(arena, padded).view(0).slice(5, 5 + lengthA)};
                ByteView[] bs = {ByteView.copyOf(b), column.view(1), ByteView.copyOf(bCut), column.view(2)};
                byte[][] bModels = {b, b, bCut, bCut};
                for (ByteView va : as) {
                    for (int j = 0; j < bs.length; j++) {
                        byte[] model = bModels[j];
                        ByteView vb = bs[j];
                        String where = "seed=" + (SEED + 17) + " lengthA=" + lengthA + " lengthB="
                                + model.length + " at=" + at + " b=" + j + " a=" + Arrays.toString(a);
                        int expected = Integer.signum(Arrays.compareUnsigned(a, model));
                        assertEquals(expected, Integer.signum(va.compareTo(vb)), where);
                        assertEquals(-expected, Integer.signum(vb.compareTo(va)), where);
                        assertEquals(Arrays.equals(a, model), va.equals(vb), where);
                        assertEquals(Arrays.equals(a, model), vb.equals(va), where);
                        if (Arrays.equals(a, model)) {
                            assertEquals(va.hashCode(), vb.hashCode(), where);
                        }
                    }
                }
                if (at == lengthA - 1 && lengthB == lengthA) { // once per length: the closed arena
                    ByteView view = column.view(0);
                    ByteView copy = ByteView.copyOf(bCut); // same length, prefix and (unless at < 4) more
                    arena.close();
                    String where = "closed lengthA=" + lengthA;
                    if (view.word0() == copy.word0()) {
                        assertThrows(IllegalStateException.class, () -> copy.equals(view), where);
                        assertThrows(IllegalStateException.class, () -> view.equals(copy), where);
                        assertThrows(IllegalStateException.class, () -> copy.compareTo(view), where);
                    }
                }
            } finally {
                if (arena.scope().isAlive()) {
                    arena.close();
                }
            }
        });
    }

    /** A slice of a value whose hash is known gets its own hash, also through slices of slices, on every backing. */
    @Test
    void slicesOfValuesWithAKnownHashHashTheirOwnBytes() throws IOException {
        Random random = new Random(SEED + 12);
        try (Arena arena = Arena.ofConfined()) {
            for (int c = 0; c < 600; c++) {
                byte[] model = randomValue(random);
                int way = random.nextInt(WAYS);
                ByteView view = make(model, way, arena);
                for (int depth = 0; depth < 4; depth++) {
                    view.hashCode(); // the parent's hash first (a copy keeps it in word 1)
                    int from = random.nextInt(model.length + 1);
                    int to = from + random.nextInt(model.length - from + 1);
                    String where = "seed=" + (SEED + 12) + " way=" + WAY_NAMES[way] + " case=" + c + " depth=" + depth
                            + " from=" + from + " to=" + to + " model=" + Arrays.toString(model);
                    model = Arrays.copyOfRange(model, from, to);
                    view = view.slice(from, to);
                    long expected = ViewColumns.ofBytes(arena, model).hash(0);
                    assertEquals(Long.hashCode(expected), view.hashCode(), where);
                    assertEquals(Long.hashCode(expected), view.hashCode(), where + " (again)");
                    assertEquals(expected, view.hash64(), where);
                    assertReadsBack(model, view, where);
                    assertEquals(ByteView.copyOf(model), view, where);
                    assertEquals(0, ByteView.copyOf(model).compareTo(view), where);
                    assertEquals(model.length <= 12, view.isInline(), where);
                }
            }
        }
    }

    /** Slices of one heap copy share its memory, and a builder adopts it as one buffer. */
    @Test
    void heapCopiesShareTheirArrayWithSlicesAndBuilders() {
        byte[] bytes = "a heap copy longer than twelve bytes, with a few slices".getBytes(StandardCharsets.UTF_8);
        ByteView copy = ByteView.copyOf(bytes);
        copy.hashCode(); // the kept hash must not disturb the offsets the builder reads
        ByteView first = copy.slice(2, 30);
        ByteView second = first.slice(5, 20);
        assertFalse(copy.segment().isNative());
        try (Arena arena = Arena.ofConfined()) {
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8);
            builder.append(copy).append(first).append(second).append(second.slice(1, 4));
            ViewColumn column = builder.build();
            assertEquals(1, column.bufferCount(), "one adopted array, no copy");
            assertFalse(column.buffer(0).isNative());
            assertEquals(bytes.length, column.buffer(0).byteSize(), "the copy's own array");
            assertEquals(new String(bytes, StandardCharsets.UTF_8), column.string(0));
            assertEquals(new String(bytes, 2, 28, StandardCharsets.UTF_8), column.string(1));
            assertEquals(new String(bytes, 7, 15, StandardCharsets.UTF_8), column.string(2));
            assertEquals(new String(bytes, 8, 3, StandardCharsets.UTF_8), column.string(3));
            for (int row = 0; row < 3; row++) {
                assertEquals(column.hash(row), column.view(row).hash64(), "row=" + row);
            }
            assertEquals(second, column.view(2));
            assertEquals(second.hashCode(), column.view(2).hashCode());
        }
    }

    /**
     * A copy keeps the hash it computed and needs no memory for it: its hashCode still answers after the arena
     * closes, while hash64 and the bytes throw. A view into a column keeps no hash, so its hashCode throws too.
     */
    @Test
    void aCopysHashCodeOutlivesTheArenaButTheBytesDoNot() {
        ByteView copy;
        ByteView shared;
        int hash;
        try (Arena arena = Arena.ofConfined()) {
            shared = ViewColumns.ofStrings(arena, "lives in the arena's data block").view(0);
            copy = ByteView.copyOf(shared.segment(), arena);
            hash = shared.hashCode();
            assertEquals(hash, copy.hashCode());
        }
        assertEquals(hash, copy.hashCode());
        assertThrows(IllegalStateException.class, copy::hash64);
        assertThrows(IllegalStateException.class, copy::toByteArray);
        // Against another copy the two kept hashes differ and decide; against a wrapped value (no kept hash) the
        // bytes must be read.
        assertFalse(copy.equals(ByteView.copyOf("lives in the arena's data blocK")));
        ByteView wrapped = ByteView.wrap(MemorySegment.ofArray(
                "lives in the arena's data blocK".getBytes(StandardCharsets.UTF_8)));
        assertThrows(IllegalStateException.class, () -> copy.equals(wrapped));
        assertThrows(IllegalStateException.class, shared::hashCode);
    }

    /**
     * Two values that keep the same hash must still compare their bytes. Copies made every way
     * (exact arrays from {@code copyOf(byte[])} and {@code copyOf(String)}; {@code copyOf(segment, allocator)} into
     * an exact heap array, into a heap slab at offset 0 with different slack after the value, into a heap slab at
     * an offset, into native memory), column views and slices of slices, at lengths 0..128 with bytes >= 0x80 in
     * the prefix and from byte 12 on, are compared both ways with equal bytes and with one byte changed at each
     * position; every answer must match {@code Arrays.equals}, {@code Arrays.compareUnsigned} and the column hash.
     */
    @Test
    void copiesThatKeepAHashCompareAsWholeArraysOnlyWhenTheyOwnExactlyTheirBytes() {
        int[] lengths = {0, 1, 11, 12, 13, 15, 16, 17, 36, 128};
        Random random = new Random(SEED + 17);
        try (Arena arena = Arena.ofConfined()) {
            for (int length : lengths) {
                byte[] value = new byte[length];
                for (int i = 0; i < length; i++) { // "é" (0xC3 0xA9) from byte 0 on every 5 bytes: valid UTF-8
                    value[i] = (byte) ('a' + random.nextInt(26));
                    if (i % 5 == 0 && i + 1 < length) {
                        value[i] = (byte) 0xC3;
                        value[++i] = (byte) 0xA9;
                    }
                }
                List<byte[]> others = new ArrayList<>();
                others.add(value.clone());
                for (int at = 0; at < length; at++) {
                    byte[] changed = value.clone();
                    changed[at] = (byte) (changed[at] ^ (at % 2 == 0 ? 0x01 : 0x80));
                    others.add(changed);
                }
                long hash = ViewColumns.ofBytes(arena, value).hash(0);
                List<ByteView> ways = exactAndInexactCopies(value, arena);
                for (byte[] other : others) {
                    List<ByteView> otherWays = exactAndInexactCopies(other, arena);
                    for (int a = 0; a < ways.size(); a++) {
                        for (int b = 0; b < otherWays.size(); b++) {
                            String at = "length=" + length + " a=" + a + " b=" + b + " other="
                                    + Arrays.toString(other);
                            ByteView va = ways.get(a);
                            ByteView vb = otherWays.get(b);
                            assertEquals(Arrays.equals(value, other), va.equals(vb), at);
                            assertEquals(Arrays.equals(value, other), vb.equals(va), at);
                            assertEquals(Integer.signum(Arrays.compareUnsigned(value, other)),
                                    Integer.signum(va.compareTo(vb)), at);
                            assertEquals(Integer.signum(Arrays.compareUnsigned(other, value)),
                                    Integer.signum(vb.compareTo(va)), at);
                            assertEquals(Long.hashCode(hash), va.hashCode(), at);
                            assertEquals(hash, va.hash64(), at);
                        }
                    }
                }
            }
        }
    }

    /**
     * Copies of every kind order like their bytes once their prefixes tie. For every pair of lengths 0, 1, 11, 12, 13,
     * 15, 16, 17, 36 and 128 over one shared base (so the prefix ties and the first difference is late), and a
     * difference at byte 0, 3, 4, 11, 12, 13 or the last common byte (0x80 and above on one side), every way of
     * {@link #exactAndInexactCopies} against every other, both directions, must agree with
     * {@code Arrays.compareUnsigned}; a mixed array of them must sort like the model.
     */
    @Test
    void exactCopiesOrderAsWholeArraysAgainstEveryBacking() {
        int[] lengths = {0, 1, 11, 12, 13, 15, 16, 17, 36, 128};
        Random random = new Random(SEED + 19);
        byte[] base = new byte[128];
        for (int i = 0; i < base.length; i++) { // "https://" then letters with 0xC3 0xA9 ("é") every 7 bytes
            base[i] = i < 8 ? (byte) "https://".charAt(i) : i % 7 == 0 && i + 1 < base.length ? (byte) 0xC3
                    : i % 7 == 1 && i > 8 ? (byte) 0xA9 : (byte) ('a' + random.nextInt(26));
        }
        int[] differAt = {-1, 0, 3, 4, 11, 12, 13, Integer.MAX_VALUE};
        try (Arena arena = Arena.ofConfined()) {
            List<byte[]> models = new ArrayList<>();
            List<ByteView> all = new ArrayList<>();
            for (int lengthA : lengths) {
                for (int lengthB : lengths) {
                    for (int at : differAt) {
                        byte[] a = Arrays.copyOf(base, lengthA);
                        byte[] b = Arrays.copyOf(base, lengthB);
                        int common = Math.min(lengthA, lengthB);
                        int position = at == Integer.MAX_VALUE ? common - 1 : at;
                        if (position >= 0 && position < common) {
                            b[position] = (byte) (a[position] ^ 0x80); // one side at 0x80 or above
                        }
                        int expected = Integer.signum(Arrays.compareUnsigned(a, b));
                        List<ByteView> waysA = exactAndInexactCopies(a, arena);
                        List<ByteView> waysB = exactAndInexactCopies(b, arena);
                        for (int wayA = 0; wayA < waysA.size(); wayA++) {
                            for (int wayB = 0; wayB < waysB.size(); wayB++) {
                                ByteView va = waysA.get(wayA);
                                ByteView vb = waysB.get(wayB);
                                String where = "seed=" + (SEED + 19) + " lengthA=" + lengthA + " lengthB=" + lengthB
                                        + " differAt=" + position + " wayA=" + wayA + " wayB=" + wayB;
                                assertEquals(expected, Integer.signum(va.compareTo(vb)), where);
                                assertEquals(-expected, Integer.signum(vb.compareTo(va)), where);
                                assertEquals(expected == 0, va.equals(vb), where);
                                if (expected == 0) {
                                    assertEquals(va.hashCode(), vb.hashCode(), where);
                                }
                            }
                        }
                        if (random.nextInt(8) == 0) {
                            models.add(a);
                            all.add(waysA.get(random.nextInt(waysA.size())));
                            models.add(b);
                            all.add(waysB.get(random.nextInt(waysB.size())));
                        }
                    }
                }
            }
            models.sort(Arrays::compareUnsigned);
            all.sort(ByteView.comparator());
            for (int i = 0; i < models.size(); i++) {
                assertArrayEquals(models.get(i), all.get(i).toByteArray(), "seed=" + (SEED + 19) + " sorted=" + i);
            }
        }
    }

    /** The copies of {@link #copiesThatKeepAHashCompareAsWholeArraysOnlyWhenTheyOwnExactlyTheirBytes}, in order. */
    private static List<ByteView> exactAndInexactCopies(byte[] value, Arena arena) {
        List<ByteView> ways = new ArrayList<>();
        MemorySegment source = MemorySegment.ofArray(value);
        ways.add(ByteView.copyOf(value));
        String text = new String(value, StandardCharsets.UTF_8);
        if (Arrays.equals(text.getBytes(StandardCharsets.UTF_8), value)) { // copyOf(String) when it is UTF-8
            ways.add(ByteView.copyOf(text));
        }
        ways.add(ByteView.copyOf(source, HEAP));
        for (int slack = 1; slack <= 2; slack++) { // offset 0 of a longer heap array, slack differing per value
            byte[] slab = new byte[value.length + slack];
            Arrays.fill(slab, (byte) (0x80 + slack));
            ways.add(ByteView.copyOf(source, SegmentAllocator.slicingAllocator(MemorySegment.ofArray(slab))));
        }
        SegmentAllocator atOffset = SegmentAllocator.slicingAllocator(MemorySegment.ofArray(new byte[value.length + 24]));
        atOffset.allocate(5, 1);
        ways.add(ByteView.copyOf(source, atOffset));
        ways.add(ByteView.copyOf(source, arena));
        ways.add(ViewColumns.ofBytes(arena, value).view(0));
        byte[] padded = new byte[value.length + 30];
        System.arraycopy(value, 0, padded, 17, value.length);
        ways.add(ByteView.copyOf(padded).slice(6, padded.length - 2).slice(11, 11 + value.length));
        return ways;
    }

    /**
     * A copy in native memory keeps its hash like a heap copy: against a heap copy of the same bytes (the same
     * word 1) it must read its bytes, so after its arena closes it throws instead of answering.
     */
    @Test
    void aNativeCopyWithTheSameHashAsAHeapCopyReadsItsBytesAndThrowsOnceClosed() {
        byte[] bytes = "https://www.example.com/item/\u00e9/17".getBytes(StandardCharsets.UTF_8);
        ByteView heap = ByteView.copyOf(bytes);
        ByteView nativeCopy;
        try (Arena arena = Arena.ofConfined()) {
            nativeCopy = ByteView.copyOf(MemorySegment.ofArray(bytes), arena);
            assertEquals(heap.hashCode(), nativeCopy.hashCode());
            assertTrue(heap.equals(nativeCopy));
            assertTrue(nativeCopy.equals(heap));
        }
        assertThrows(IllegalStateException.class, () -> heap.equals(nativeCopy));
        assertThrows(IllegalStateException.class, () -> nativeCopy.equals(heap));
    }
}
