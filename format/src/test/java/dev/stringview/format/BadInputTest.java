package dev.stringview.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.format.FormatTestData.Lengths;
import dev.stringview.format.FormatTestData.Model;
import dev.stringview.format.FormatTestData.Nulls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Truncated, flipped and forged serialized columns give {@link CorruptColumnException} naming block, row and
 * field: never another exception, a JVM crash or an allocation the input's size does not justify.
 */
class BadInputTest {
    @BeforeAll
    static void inlineViewsWarm() {
        FormatTestData.warmUpInlineViews();
    }

    private static final long SEED = 0xBAD_0003L;

    /** An allocator that counts what it hands out. */
    static final class CountingAllocator implements SegmentAllocator {
        private final Arena arena;
        long bytes;

        CountingAllocator(Arena arena) {
            this.arena = arena;
        }

        @Override
        public MemorySegment allocate(long byteSize, long byteAlignment) {
            bytes += byteSize;
            return arena.allocate(byteSize, byteAlignment);
        }
    }

    private static List<byte[]> samples(Arena arena) throws IOException {
        Random random = new Random(SEED);
        List<byte[]> out = new ArrayList<>();
        for (ColumnSerializer serializer : RoundTripTest.serializers()) {
            Model model = FormatTestData.model(random, ViewKind.UTF8, Lengths.EDGE, Nulls.SOME, 40);
            out.add(FormatTestData.serialize(serializer.withBlockRows(16), FormatTestData.column(arena, model)));
            Model binary = FormatTestData.model(random, ViewKind.BINARY, Lengths.WIDE, Nulls.NONE, 12);
            out.add(FormatTestData.serialize(serializer.withBlockRows(13), FormatTestData.column(arena, binary)));
        }
        return out;
    }

    @Test
    void everyTruncationIsACleanError() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            List<byte[]> samples = samples(arena);
            for (int s = 0; s < samples.size(); s++) {
                byte[] bytes = samples.get(s);
                // Every length through the headers and first blocks, then every 37th.
                for (int length = 0; length < bytes.length; length += length < 600 ? 1 : 37) {
                    MemorySegment cut = MemorySegment.ofArray(bytes).asSlice(0, length);
                    String where = "sample=" + s + " length=" + length + " of=" + bytes.length;
                    CorruptColumnException e;
                    try (Arena read = Arena.ofConfined()) {
                        e = assertThrows(CorruptColumnException.class,
                                () -> ColumnDeserializer.create().read(cut, read), where);
                    }
                    assertTrue(e.getMessage().startsWith("corrupt serialized column: block="), where);
                    if (length % 7 == 0) {
                        byte[] prefix = java.util.Arrays.copyOf(bytes, length);
                        try (Arena read = Arena.ofConfined()) {
                            assertThrows(CorruptColumnException.class,
                                    () -> ColumnDeserializer.create().read(new ByteArrayInputStream(prefix), read), where);
                        }
                    }
                }
            }
        }
    }

    @Test
    void byteFlipsGiveACleanErrorOrAValidColumn() throws IOException {
        Random random = new Random(SEED + 1);
        int errors = 0;
        int columns = 0;
        try (Arena arena = Arena.ofConfined()) {
            List<byte[]> samples = samples(arena);
            for (int c = 0; c < 3000; c++) {
                byte[] bytes = samples.get(random.nextInt(samples.size())).clone();
                int flips = 1 + random.nextInt(3);
                StringBuilder what = new StringBuilder();
                for (int f = 0; f < flips; f++) {
                    int at = random.nextInt(bytes.length);
                    int mask = 1 << random.nextInt(8);
                    if (random.nextInt(4) == 0) {
                        mask = random.nextInt(256);
                    }
                    bytes[at] ^= (byte) mask;
                    what.append(" at=").append(at).append(" mask=").append(mask);
                }
                String where = "seed=" + (SEED + 1) + " case=" + c + what;
                try (Arena read = Arena.ofConfined()) {
                    ViewColumn column = ColumnDeserializer.create().read(MemorySegment.ofArray(bytes), read);
                    // Whatever was read must be a valid column whose every value can be read.
                    ViewColumns.fromViews(column.kind(), column.size(), column.views(),
                            column.validity().orElse(null), FormatTestData.buffers(column));
                    for (int row = 0; row < column.size(); row++) {
                        column.bytes(row);
                    }
                    columns++;
                } catch (CorruptColumnException expected) {
                    errors++;
                } catch (RuntimeException | Error e) {
                    throw new AssertionError(where + ": unexpected " + e, e);
                }
            }
        }
        assertTrue(errors > 1000 && columns > 100, "errors=" + errors + " columns=" + columns);
    }

    /** The header of a column, as docs/serialization.md lays it out. */
    private static ByteBuffer header(ColumnFormat format, int kind, int sizesCodec, int charsCodec, int blockRows,
            long rows, long nulls) {
        byte[] name = format.typeName().getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {'S', 'V', 'C', 'L'}).putShort((short) format.version()).put((byte) name.length).put(name);
        b.put((byte) kind).put((byte) sizesCodec).put((byte) charsCodec).putInt(blockRows).putLong(rows).putLong(nulls);
        return b;
    }

    private static byte[] bytes(ByteBuffer b) {
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    @Test
    void aForgedHugeRowCountDoesNotAllocateHugely() {
        byte[] forged = bytes(header(ColumnFormat.SEPARATED, 0, 0, 0, 1 << 20, Integer.MAX_VALUE, 0));
        try (Arena arena = Arena.ofConfined()) {
            CountingAllocator allocator = new CountingAllocator(arena);
            CorruptColumnException e = assertThrows(CorruptColumnException.class,
                    () -> ColumnDeserializer.create().read(new ByteArrayInputStream(forged), allocator));
            assertEquals("blockHeader", e.field());
            assertTrue(allocator.bytes <= 16L << 20, "allocated=" + allocator.bytes + " for 2^31 - 1 forged rows");
        }
    }

    @Test
    void aForgedHugeValueLengthDoesNotAllocateHugely() {
        // One row whose constant size claims 2 GiB, and a chars stream that says the same but has 10 bytes.
        ByteBuffer b = header(ColumnFormat.SEPARATED, 1, 2, 0, 100, 1, 0);
        int huge = Integer.MAX_VALUE - 100;
        b.putInt(1).putInt(0); // block: 1 row, 0 nulls
        b.put((byte) 2).putInt(4).putInt(huge); // sizes: constant
        b.put((byte) 0).putLong(huge).put(new byte[10]); // chars: none
        byte[] forged = bytes(b);
        try (Arena arena = Arena.ofConfined()) {
            CountingAllocator allocator = new CountingAllocator(arena);
            CorruptColumnException fromSegment = assertThrows(CorruptColumnException.class,
                    () -> ColumnDeserializer.create().read(MemorySegment.ofArray(forged), allocator));
            assertEquals("chars", fromSegment.field());
            assertTrue(fromSegment.getMessage().contains("needBytes=" + huge + " availableBytes=10"),
                    fromSegment.getMessage());
            CorruptColumnException fromStream = assertThrows(CorruptColumnException.class,
                    () -> ColumnDeserializer.create().read(new ByteArrayInputStream(forged), allocator));
            assertEquals("chars", fromStream.field());
            assertTrue(allocator.bytes < 1 << 20, "allocated=" + allocator.bytes);
        }
        // The same claim through LZ4: 2 GiB cannot come out of 10 compressed bytes.
        ByteBuffer z = header(ColumnFormat.SEPARATED, 1, 2, 1, 100, 1, 0);
        z.putInt(1).putInt(0).put((byte) 2).putInt(4).putInt(huge);
        z.put((byte) 1).putLong(huge).putLong(10).put(new byte[10]);
        byte[] forgedLz4 = bytes(z);
        try (Arena arena = Arena.ofConfined()) {
            CorruptColumnException e = assertThrows(CorruptColumnException.class,
                    () -> ColumnDeserializer.create().read(new ByteArrayInputStream(forgedLz4), arena));
            assertEquals("chars", e.field());
            assertTrue(e.getMessage().contains("maxRatio=255"), e.getMessage());
        }
    }

    @Test
    void sizesThatDoNotAddUpToTheCharsLengthAreNamed() {
        ByteBuffer b = header(ColumnFormat.SEPARATED, 0, 0, 0, 100, 3, 0);
        b.putInt(3).putInt(0);
        b.put((byte) 0).putInt(12).putInt(2).putInt(3).putInt(4); // raw sizes 2, 3, 4 = 9
        b.put((byte) 0).putLong(8).put("abcdefgh".getBytes(StandardCharsets.US_ASCII));
        byte[] forged = bytes(b);
        try (Arena arena = Arena.ofConfined()) {
            CorruptColumnException e = assertThrows(CorruptColumnException.class,
                    () -> ColumnDeserializer.create().read(MemorySegment.ofArray(forged), arena));
            assertEquals("corrupt serialized column: block=0 row=-1 field=chars charsLength=8 sizesSum=9",
                    e.getMessage());
        }
        // Size-prefix: a length that runs past the values stream names its row.
        ByteBuffer p = header(ColumnFormat.SIZE_PREFIX, 0, 0, 0, 100, 2, 0);
        p.putInt(2).putInt(0).put((byte) 0).putLong(5).put(new byte[] {1, 'a', 9, 'b', 'c'});
        byte[] prefixed = bytes(p);
        try (Arena arena = Arena.ofConfined()) {
            CorruptColumnException e = assertThrows(CorruptColumnException.class,
                    () -> ColumnDeserializer.create().read(MemorySegment.ofArray(prefixed), arena));
            assertEquals("corrupt serialized column: block=0 row=1 field=length length=9 offset=3 valuesLength=5",
                    e.getMessage());
        }
    }

    @Test
    void forgedCountsAreNamed() {
        try (Arena arena = Arena.ofConfined()) {
            // More nulls than rows.
            byte[] a = bytes(header(ColumnFormat.SEPARATED, 0, 0, 0, 100, 3, 4));
            assertEquals("nullCount", read(a, arena).field());
            // A block with more rows than the header allows per block.
            ByteBuffer b = header(ColumnFormat.SEPARATED, 0, 0, 0, 2, 3, 0);
            b.putInt(3).putInt(0);
            CorruptColumnException e = read(bytes(b), arena);
            assertEquals("corrupt serialized column: block=0 row=0 field=blockRows blockRows=3 maxBlockRows=2 rowsLeft=3",
                    e.getMessage());
            // A validity bitmap whose zero bits disagree with the block's null count.
            ByteBuffer v = header(ColumnFormat.SEPARATED, 0, 0, 0, 8, 3, 1);
            v.putInt(3).putInt(1).put((byte) 0b111);
            assertEquals("validity", read(bytes(v), arena).field());
            // Unknown kind, codec, version and type name.
            assertEquals("kind", read(bytes(header(ColumnFormat.SEPARATED, 7, 0, 0, 8, 0, 0)), arena).field());
            assertEquals("sizesCodec", read(bytes(header(ColumnFormat.SIZE_PREFIX, 0, 2, 0, 8, 0, 0)), arena).field());
            assertEquals("charsCodec", read(bytes(header(ColumnFormat.SEPARATED, 0, 0, 5, 8, 0, 0)), arena).field());
            byte[] wrongName = bytes(header(ColumnFormat.SEPARATED, 0, 0, 0, 8, 0, 0));
            wrongName[4] = 1; // version 1 with the name StringV2
            assertEquals("corrupt serialized column: block=-1 row=-1 field=typeName version=1 typeName=StringV2 "
                    + "known=String/1,StringV2/2", read(wrongName, arena).getMessage());
            byte[] parquet = {'P', 'A', 'R', '1', 0, 0, 0, 0};
            assertEquals("magic", read(parquet, arena).field());
        }
    }

    @Test
    void invalidUtf8InAUtf8ColumnNamesTheRow() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            // Each value alone is bad although the concatenation "é" is valid UTF-8: the reader must still object.
            ViewColumn split = ViewColumns.ofBytes(arena, new byte[] {'x'}, new byte[] {(byte) 0xC3},
                    new byte[] {(byte) 0xA9});
            ViewColumn bad = ViewColumns.ofBytes(arena, "fine".getBytes(StandardCharsets.UTF_8),
                    "a long value, then a bad byte: \u0000".getBytes(StandardCharsets.UTF_8));
            bad = ViewColumns.ofBytes(arena, bad.bytes(0), patchLast(bad.bytes(1), (byte) 0xFF));
            for (ColumnSerializer serializer : RoundTripTest.serializers()) {
                for (ViewColumn column : List.of(split, bad)) {
                    byte[] bytes = FormatTestData.serialize(serializer, column);
                    int kindAt = 7 + serializer.format().typeName().length();
                    bytes[kindAt] = 0; // claim UTF-8
                    CorruptColumnException e = read(bytes, arena);
                    assertEquals("utf8", e.field(), serializer.format() + " " + serializer.codec());
                    assertEquals(1, e.row(), e.getMessage());
                    // Without validation the bytes are taken as they are.
                    ViewColumn unchecked = ColumnDeserializer.create().withUtf8Validation(false)
                            .read(MemorySegment.ofArray(bytes), arena);
                    assertEquals(ViewKind.UTF8, unchecked.kind());
                }
            }
        }
    }

    @Test
    void trailingBytesAfterASegmentsColumnAreAnError() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            byte[] bytes = FormatTestData.serialize(ColumnSerializer.of(ColumnFormat.SEPARATED, ColumnCodec.NONE),
                    ViewColumns.ofStrings(arena, "a"));
            byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 3);
            assertEquals("corrupt serialized column: block=-1 row=-1 field=trailer trailingBytes=3 position="
                    + bytes.length, read(longer, arena).getMessage());
        }
    }

    private static byte[] patchLast(byte[] value, byte last) {
        value[value.length - 1] = last;
        return value;
    }

    private static CorruptColumnException read(byte[] bytes, Arena arena) {
        try {
            ColumnDeserializer.create().read(MemorySegment.ofArray(bytes), arena);
        } catch (CorruptColumnException e) {
            return e;
        } catch (IOException e) {
            fail("not a CorruptColumnException: " + e);
        }
        return fail("read without error: " + java.util.HexFormat.of().formatHex(bytes));
    }

    @SuppressWarnings("unused")
    private static final ValueLayout.OfInt UNUSED = ValueLayout.JAVA_INT;
}
