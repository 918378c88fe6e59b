package dev.stringview.parquet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stringview.parquet.ParquetType;
import dev.stringview.parquet.ParquetType.Logical;
import dev.stringview.parquet.ParquetType.Physical;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.Random;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForInteger;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.junit.jupiter.api.Test;

/**
 * The fixed-width decoders against plain on-heap models: values decoded in random pieces into a {@link FixedSink}
 * equal the arrays they were encoded from.
 */
class FixedDecodersTest {
    private static final ParquetType INT64 = new ParquetType(Physical.INT64, Logical.NONE, 0, 64, true, 0, 0, null,
            false);
    private static final ParquetType INT32 = new ParquetType(Physical.INT32, Logical.NONE, 0, 32, true, 0, 0, null,
            false);

    @Test
    void deltaBinaryPackedInt64OfEveryBitWidth() throws IOException {
        Random random = new Random(64);
        for (int width = 0; width <= 64; width++) {
            int n = 1 + random.nextInt(700);
            long[] model = new long[n];
            model[0] = random.nextLong();
            for (int i = 1; i < n; i++) {
                long delta = width == 64 ? random.nextLong() : width == 0 ? 0 : random.nextLong() >>> (64 - width);
                model[i] = model[i - 1] + delta; // wraps, as the format does
            }
            DeltaBinaryPackingValuesWriterForLong writer = new DeltaBinaryPackingValuesWriterForLong(128, 4, 1 << 16,
                    1 << 20, new HeapByteBufferAllocator());
            for (long v : model) {
                writer.writeLong(v);
            }
            MemorySegment page = MemorySegment.ofArray(writer.getBytes().toByteArray());
            try (Arena arena = Arena.ofConfined()) {
                FixedLayout layout = new FixedLayout(INT64);
                FixedSink sink = new FixedSink(arena, layout, n, null);
                DeltaFixedDecoder decoder = new DeltaFixedDecoder(page, 0, 0, page.byteSize(), layout, new FixedScratch());
                decodeInPieces(decoder, sink, n, random);
                for (int i = 0; i < n; i++) {
                    assertEquals(model[i], sink.values().get(ViewSink.LE_LONG, 8L * i), "width=" + width + " i=" + i);
                }
            }
            assertEquals(page.byteSize(), DeltaBinaryPackedDecoder.endOf(page, 0, page.byteSize(), "values", 0, true),
                    "width=" + width);
        }
    }

    @Test
    void deltaBinaryPackedInt32WrapsAt32Bits() throws IOException {
        Random random = new Random(32);
        int n = 1000;
        int[] model = new int[n];
        DeltaBinaryPackingValuesWriterForInteger writer = new DeltaBinaryPackingValuesWriterForInteger(128, 4,
                1 << 16, 1 << 20, new HeapByteBufferAllocator());
        for (int i = 0; i < n; i++) {
            model[i] = i % 3 == 0 ? Integer.MIN_VALUE + random.nextInt(3) : Integer.MAX_VALUE - random.nextInt(3);
            writer.writeInteger(model[i]);
        }
        MemorySegment page = MemorySegment.ofArray(writer.getBytes().toByteArray());
        try (Arena arena = Arena.ofConfined()) {
            FixedLayout layout = new FixedLayout(INT32);
            FixedSink sink = new FixedSink(arena, layout, n, null);
            decodeInPieces(new DeltaFixedDecoder(page, 0, 0, page.byteSize(), layout, new FixedScratch()), sink, n, random);
            for (int i = 0; i < n; i++) {
                assertEquals(model[i], sink.values().get(ViewSink.LE_INT, 4L * i), "i=" + i);
            }
        }
    }

    @Test
    void byteStreamSplitOfEveryWidth() {
        Random random = new Random(9);
        for (int width : new int[] {1, 2, 3, 4, 5, 8, 12, 16, 17}) {
            ParquetType type = width == 4 ? INT32 : width == 8 ? INT64
                    : new ParquetType(Physical.FIXED_LEN_BYTE_ARRAY, Logical.NONE, width, 0, false, 0, 0, null, false);
            int n = 1 + random.nextInt(3000);
            byte[] model = new byte[n * width];
            random.nextBytes(model);
            byte[] split = new byte[model.length];
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < width; k++) {
                    split[k * n + i] = model[i * width + k];
                }
            }
            MemorySegment page = MemorySegment.ofArray(split);
            try (Arena arena = Arena.ofConfined()) {
                FixedLayout layout = new FixedLayout(type);
                FixedSink sink = new FixedSink(arena, layout, n, null);
                decodeInPieces(new ByteStreamSplitDecoder(page, 0, 0, page.byteSize(), layout, new FixedScratch()), sink, n, random);
                for (int j = 0; j < model.length; j++) {
                    assertEquals(model[j], sink.values().get(ValueLayout.JAVA_BYTE, j), "width=" + width + " j=" + j);
                }
            }
        }
    }

    @Test
    void bitCopiesAtEveryOffset() {
        Random random = new Random(1);
        byte[] source = new byte[64];
        random.nextBytes(source);
        MemorySegment src = MemorySegment.ofArray(source);
        for (int srcBit = 0; srcBit < 70; srcBit++) {
            for (int dstBit = 0; dstBit < 70; dstBit += 3) {
                int count = random.nextInt(source.length * 8 - srcBit);
                long[] dst = new long[4 + (dstBit + count) / 64];
                PlainFixedDecoder.copyBits(src, srcBit, dst, dstBit, count);
                for (int i = 0; i < dst.length * 64; i++) {
                    boolean expected = i >= dstBit && i < dstBit + count
                            && (source[(srcBit + i - dstBit) >>> 3] & (1 << ((srcBit + i - dstBit) & 7))) != 0;
                    assertEquals(expected, (dst[i >>> 6] & (1L << i)) != 0, "srcBit=" + srcBit + " dstBit=" + dstBit
                            + " count=" + count + " bit=" + i);
                }
            }
        }
    }

    @Test
    void bigEndianDecimalsOfEveryLength() {
        Random random = new Random(38);
        for (int precision : new int[] {38, 76}) {
            ParquetType type = new ParquetType(Physical.BYTE_ARRAY, Logical.DECIMAL, 0, 0, true, precision, 2, null,
                    false);
            FixedLayout layout = new FixedLayout(type);
            int width = layout.width;
            MemorySegment out = MemorySegment.ofArray(new byte[width]);
            for (int length = 1; length <= width + 4; length++) {
                for (int t = 0; t < 50; t++) {
                    BigInteger value = new BigInteger(Math.min(length, width) * 8 - 1, random);
                    if (random.nextBoolean()) {
                        value = value.negate().subtract(BigInteger.ONE);
                    }
                    byte[] bigEndian = new byte[length];
                    byte[] minimal = value.toByteArray();
                    java.util.Arrays.fill(bigEndian, (byte) (value.signum() < 0 ? -1 : 0));
                    System.arraycopy(minimal, 0, bigEndian, length - minimal.length, minimal.length);
                    layout.bigEndianDecimal(MemorySegment.ofArray(bigEndian), 0, length, out, 0, t);
                    byte[] back = new byte[width];
                    for (int k = 0; k < width; k++) {
                        back[width - 1 - k] = out.get(ValueLayout.JAVA_BYTE, k);
                    }
                    assertEquals(value, new BigInteger(back), "precision=" + precision + " length=" + length);
                }
                if (length > width) { // a value that needs every byte cannot be narrowed
                    byte[] wide = new byte[length];
                    wide[0] = 1;
                    CorruptDataException e = assertThrows(CorruptDataException.class,
                            () -> layout.bigEndianDecimal(MemorySegment.ofArray(wide), 0, wide.length, out, 0, 7));
                    assertEquals(true, e.getMessage().contains("valueIndex=7 length=" + length), e.getMessage());
                }
            }
        }
    }

    /** Decodes {@code n} values into {@code sink} in pieces of random sizes (1 to 300). */
    private static void decodeInPieces(FixedDecoder decoder, FixedSink sink, int n, Random random) {
        int row = 0;
        while (row < n) {
            int piece = Math.min(n - row, 1 + random.nextInt(300));
            decoder.decode(sink, row, piece);
            row += piece;
        }
    }
}
