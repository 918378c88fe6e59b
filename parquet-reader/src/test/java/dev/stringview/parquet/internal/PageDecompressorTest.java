package dev.stringview.parquet.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.encoder.Encoder;
import com.github.luben.zstd.Zstd;
import io.airlift.compress.lz4.Lz4Compressor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

/** Each codec against an independent compressor, its framing variants, and damaged input. */
class PageDecompressorTest {
    static byte[] data(int n, long seed) {
        Random random = new Random(seed);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (random.nextInt(4) == 0 ? random.nextInt(256) : 'a' + random.nextInt(3));
        }
        return b;
    }

    /**
     * Decompresses with the pure-Java decoder on heap segments and with the native one (where the codec has one)
     * on off-heap segments; both must give the same bytes, or both must refuse the input as corrupt.
     */
    static byte[] run(CompressionCodecName codec, byte[] compressed, int size) {
        byte[] java;
        try {
            java = runOnce(codec, false, compressed, size);
        } catch (CorruptDataException e) {
            assertThrows(CorruptDataException.class, () -> runOnce(codec, true, compressed, size),
                    "the native decoder must refuse what the Java one refuses: codec=" + codec);
            throw e;
        }
        assertArrayEquals(java, runOnce(codec, true, compressed, size), "native vs Java: codec=" + codec);
        return java;
    }

    private static byte[] runOnce(CompressionCodecName codec, boolean nativeCode, byte[] compressed, int size) {
        PageDecompressor d = PageDecompressor.forCodec(codec, nativeCode);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = MemorySegment.ofArray(compressed);
            MemorySegment out = MemorySegment.ofArray(new byte[size]);
            if (nativeCode) {
                in = arena.allocate(Math.max(1, compressed.length)).asSlice(0, compressed.length)
                        .copyFrom(MemorySegment.ofArray(compressed));
                out = arena.allocate(Math.max(1, size)).asSlice(0, size);
            }
            d.checkPlausible(in, size);
            d.decompress(in, out);
            return out.toArray(ValueLayout.JAVA_BYTE);
        } finally {
            d.close();
        }
    }

    /** The test JVM grants native access (surefire argLine), so the native decoders really run in these tests. */
    @Test
    void nativeDecodersAreUsedWhenAllowed() {
        for (CompressionCodecName codec : new CompressionCodecName[] {CompressionCodecName.SNAPPY,
                CompressionCodecName.ZSTD, CompressionCodecName.LZ4_RAW, CompressionCodecName.LZ4}) {
            assertTrue(PageDecompressor.forCodec(codec, true).isNative(), codec.name());
            assertFalse(PageDecompressor.forCodec(codec, false).isNative(), codec.name());
        }
    }

    static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(b);
        }
        return out.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static byte[] lz4(byte[] b) {
        Lz4Compressor c = new Lz4Compressor();
        byte[] out = new byte[c.maxCompressedLength(b.length)];
        return Arrays.copyOf(out, c.compress(b, 0, b.length, out, 0, out.length));
    }

    static byte[] hadoopBlock(byte[] raw) {
        byte[] block = lz4(raw);
        return ByteBuffer.allocate(8 + block.length).putInt(raw.length).putInt(block.length).put(block).array();
    }

    /** Brotli from the reference C encoder (brotli4j, JNI): independent of the pure-Java decoder under test. */
    static byte[] brotli(byte[] b) throws IOException {
        Brotli4jLoader.ensureAvailability();
        return Encoder.compress(b);
    }

    @Test
    void brotliFromTheReferenceEncoder() throws IOException {
        // 0 bytes, one small page, and pages larger than the decoder's 64 KiB copy buffer (several copies).
        for (int size : new int[] {0, 1, 13, 4000, 65536, 65537, 300_000}) {
            byte[] a = data(size, 40 + size);
            byte[] z = brotli(a);
            assertArrayEquals(a, run(CompressionCodecName.BROTLI, z, size), "size=" + size);
            assertThrows(CorruptDataException.class, () -> run(CompressionCodecName.BROTLI, z, size + 1),
                    "a stream shorter than the page: size=" + size);
            if (size > 0) {
                assertThrows(CorruptDataException.class, () -> run(CompressionCodecName.BROTLI, z, size - 1),
                        "a stream longer than the page: size=" + size);
                assertThrows(CorruptDataException.class,
                        () -> run(CompressionCodecName.BROTLI, Arrays.copyOf(z, z.length / 2), size),
                        "a truncated stream: size=" + size);
            }
        }
    }

    @Test
    void gzipMembersBackToBackAndZlib() throws IOException {
        byte[] a = data(5000, 1);
        byte[] b = data(3000, 2);
        assertArrayEquals(concat(a, b), run(CompressionCodecName.GZIP, concat(gzip(a), gzip(b)), 8000));
        assertArrayEquals(a, run(CompressionCodecName.GZIP, gzip(a), 5000));
        Deflater deflater = new Deflater();
        deflater.setInput(a);
        deflater.finish();
        byte[] zlib = new byte[10000];
        int n = deflater.deflate(zlib);
        deflater.end();
        assertArrayEquals(a, run(CompressionCodecName.GZIP, Arrays.copyOf(zlib, n), 5000));
    }

    @Test
    void gzipDamageIsDetected() throws IOException {
        byte[] a = data(5000, 3);
        byte[] z = gzip(a);
        byte[] badCrc = z.clone();
        badCrc[z.length - 6] ^= 1;
        assertThrows(CorruptDataException.class, () -> run(CompressionCodecName.GZIP, badCrc, 5000));
        assertThrows(CorruptDataException.class, () -> run(CompressionCodecName.GZIP, Arrays.copyOf(z, z.length - 9), 5000));
        assertThrows(CorruptDataException.class, () -> run(CompressionCodecName.GZIP, z, 4999));
        assertThrows(CorruptDataException.class, () -> run(CompressionCodecName.GZIP, z, 5001));
    }

    @Test
    void lz4HadoopFramingSeveralBlocksAndRawFallback() {
        byte[] a = data(4000, 4);
        byte[] b = data(2500, 5);
        assertArrayEquals(concat(a, b), run(CompressionCodecName.LZ4, concat(hadoopBlock(a), hadoopBlock(b)), 6500));
        assertArrayEquals(a, run(CompressionCodecName.LZ4, lz4(a), 4000)); // older parquet-cpp: one raw block
        assertArrayEquals(a, run(CompressionCodecName.LZ4_RAW, lz4(a), 4000));
        assertThrows(CorruptDataException.class, () -> run(CompressionCodecName.LZ4_RAW, lz4(a), 4001));
    }

    @Test
    void snappyAndZstdRoundTripAndRefuseWrongSizes() throws IOException {
        byte[] a = data(7000, 6);
        byte[] s = Snappy.compress(a);
        assertArrayEquals(a, run(CompressionCodecName.SNAPPY, s, 7000));
        assertThrows(CorruptDataException.class, () -> run(CompressionCodecName.SNAPPY, s, 6999));
        byte[] z = Zstd.compress(a, 3);
        assertArrayEquals(a, run(CompressionCodecName.ZSTD, z, 7000));
        assertThrows(CorruptDataException.class, () -> run(CompressionCodecName.ZSTD, z, 7001));
        // a forged size far beyond what the input can produce is refused before allocation
        assertThrows(CorruptDataException.class, () -> PageDecompressor.forCodec(CompressionCodecName.LZ4_RAW, false)
                .checkPlausible(MemorySegment.ofArray(new byte[10]), 1L << 30));
        assertThrows(CorruptDataException.class, () -> PageDecompressor.forCodec(CompressionCodecName.GZIP, false)
                .checkPlausible(MemorySegment.ofArray(new byte[10]), 1L << 30));
    }

    @Test
    void garbageNeverEscapesAsAnotherException() throws IOException {
        Random random = new Random(7);
        byte[] a = data(3000, 8);
        byte[][] valid = {Snappy.compress(a), gzip(a), Zstd.compress(a, 3), lz4(a), hadoopBlock(a), brotli(a)};
        CompressionCodecName[] codecs = {CompressionCodecName.SNAPPY, CompressionCodecName.GZIP,
                CompressionCodecName.ZSTD, CompressionCodecName.LZ4_RAW, CompressionCodecName.LZ4,
                CompressionCodecName.BROTLI};
        for (int i = 0; i < 3000; i++) {
            int k = random.nextInt(codecs.length);
            byte[] input = valid[k].clone();
            if (random.nextBoolean()) {
                for (int f = 0; f < 1 + random.nextInt(6); f++) {
                    input[random.nextInt(input.length)] ^= (byte) (1 + random.nextInt(255));
                }
            } else {
                input = Arrays.copyOf(input, random.nextInt(input.length));
            }
            int size = random.nextInt(4) == 0 ? random.nextInt(6000) : 3000;
            // Each decoder on its own: either bytes of the asked size or CorruptDataException, nothing else. The two
            // may differ on garbage (libzstd accepts some damage the Java decoder rejects, as zstd-jni would).
            for (boolean nativeCode : new boolean[] {false, true}) {
                try {
                    runOnce(codecs[k], nativeCode, input, size);
                } catch (CorruptDataException expected) {
                    // fine: damage detected
                }
            }
        }
    }
}
