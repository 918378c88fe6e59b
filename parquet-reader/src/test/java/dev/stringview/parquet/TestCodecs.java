package dev.stringview.parquet;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.Decoder;
import com.aayushatharva.brotli4j.decoder.DecoderJNI;
import com.aayushatharva.brotli4j.decoder.DirectDecompress;
import com.aayushatharva.brotli4j.encoder.Encoder;
import com.github.luben.zstd.Zstd;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Codecs for parquet-java's writer and for the oracle reader in tests, built on libraries other than the ones
 * under test: snappy-java, zstd-jni, java.util.zip streams, aircompressor 2 (the LZ4 code parquet-java itself
 * uses) and brotli4j (the reference C Brotli library, JNI). LZ4 here is Hadoop's block framing, one block per page.
 */
final class TestCodecs implements CompressionCodecFactory {
    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return new BytesInputCompressor() {
            @Override
            public BytesInput compress(BytesInput bytes) throws IOException {
                return BytesInput.from(TestCodecs.compress(codec, array(bytes)));
            }

            @Override
            public CompressionCodecName getCodecName() {
                return codec;
            }

            @Override
            public void release() {}
        };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return new BytesInputDecompressor() {
            @Override
            public BytesInput decompress(BytesInput bytes, int size) throws IOException {
                return BytesInput.from(TestCodecs.decompress(codec, array(bytes), size));
            }

            @Override
            public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int size)
                    throws IOException {
                byte[] in = new byte[compressedSize];
                input.get(in);
                output.put(TestCodecs.decompress(codec, in, size));
            }

            @Override
            public void release() {}
        };
    }

    @Override
    public void release() {}

    static byte[] array(BytesInput bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        bytes.writeAllTo(out);
        return out.toByteArray();
    }

    static byte[] compress(CompressionCodecName codec, byte[] in) throws IOException {
        return switch (codec) {
            case UNCOMPRESSED -> in;
            case SNAPPY -> Snappy.compress(in);
            case ZSTD -> Zstd.compress(in, 3);
            case GZIP -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
                    gz.write(in);
                }
                yield out.toByteArray();
            }
            case LZ4_RAW -> lz4(in);
            case BROTLI -> {
                Brotli4jLoader.ensureAvailability();
                yield Encoder.compress(in);
            }
            case LZ4 -> {
                byte[] block = lz4(in);
                ByteBuffer framed = ByteBuffer.allocate(8 + block.length);
                framed.putInt(in.length).putInt(block.length).put(block);
                yield framed.array();
            }
            default -> throw new UnsupportedOperationException("test codec: " + codec);
        };
    }

    private static byte[] lz4(byte[] in) {
        Lz4Compressor compressor = new Lz4Compressor();
        byte[] out = new byte[compressor.maxCompressedLength(in.length)];
        int n = compressor.compress(in, 0, in.length, out, 0, out.length);
        return java.util.Arrays.copyOf(out, n);
    }

    static byte[] decompress(CompressionCodecName codec, byte[] in, int size) throws IOException {
        byte[] out = new byte[size];
        switch (codec) {
            case UNCOMPRESSED -> {
                return in;
            }
            case SNAPPY -> Snappy.uncompress(in, 0, in.length, out, 0);
            case ZSTD -> {
                long n = Zstd.decompress(out, in);
                if (n != size) {
                    throw new IOException("zstd size " + n + " != " + size);
                }
            }
            case GZIP -> {
                try (GZIPInputStream gz = new GZIPInputStream(new ByteArrayInputStream(in))) {
                    int n = gz.readNBytes(out, 0, size);
                    if (n != size) {
                        throw new IOException("gzip size " + n + " != " + size);
                    }
                }
            }
            case LZ4_RAW -> new Lz4Decompressor().decompress(in, 0, in.length, out, 0, size);
            case BROTLI -> {
                Brotli4jLoader.ensureAvailability();
                DirectDecompress d = Decoder.decompress(in);
                if (d.getResultStatus() != DecoderJNI.Status.DONE || d.getDecompressedData().length != size) {
                    throw new IOException("brotli status " + d.getResultStatus() + " size != " + size);
                }
                return d.getDecompressedData();
            }
            case LZ4 -> {
                // Hadoop framing, else (older parquet-cpp) one raw block.
                ByteBuffer b = ByteBuffer.wrap(in);
                int at = 0;
                boolean ok = true;
                try {
                    while (b.remaining() >= 8) {
                        int raw = b.getInt();
                        int comp = b.getInt();
                        int n = new Lz4Decompressor().decompress(in, b.position(), comp, out, at, raw);
                        if (n != raw) {
                            ok = false;
                            break;
                        }
                        at += raw;
                        b.position(b.position() + comp);
                    }
                    ok &= at == size && !b.hasRemaining();
                } catch (RuntimeException e) {
                    ok = false;
                }
                if (!ok) {
                    new Lz4Decompressor().decompress(in, 0, in.length, out, 0, size);
                }
            }
            default -> throw new UncheckedIOException(new IOException("test codec unsupported: " + codec));
        }
        return out;
    }
}
