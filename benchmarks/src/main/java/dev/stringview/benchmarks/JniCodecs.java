package dev.stringview.benchmarks;

import com.github.luben.zstd.Zstd;
import io.airlift.compress.v3.lz4.Lz4JavaCompressor;
import io.airlift.compress.v3.lz4.Lz4JavaDecompressor;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * SNAPPY and ZSTD for parquet-java's writer and for parquet-java's reading path, on the same JNI libraries its
 * stock codecs use (snappy-java, zstd-jni); LZ4_RAW on aircompressor's Java LZ4 (only the benchmarks' LZ4 twin).
 * The stock {@code CodecFactory} would also need Hadoop's runtime (hadoop-client-runtime) for its codec classes;
 * this factory keeps Hadoop's API jar the only Hadoop piece.
 */
final class JniCodecs implements CompressionCodecFactory {
    static final int ZSTD_LEVEL = 3; // parquet-java's default

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        check(codec);
        return new BytesInputCompressor() {
            @Override
            public BytesInput compress(BytesInput bytes) throws IOException {
                byte[] in = bytes.toByteArray();
                return BytesInput.from(switch (codec) {
                    case SNAPPY -> Snappy.compress(in);
                    case ZSTD -> Zstd.compress(in, ZSTD_LEVEL);
                    case LZ4_RAW -> lz4Compress(in);
                    default -> in;
                });
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
        check(codec);
        return new BytesInputDecompressor() {
            @Override
            public BytesInput decompress(BytesInput bytes, int size) throws IOException {
                if (codec == CompressionCodecName.UNCOMPRESSED) {
                    return bytes;
                }
                byte[] in = bytes.toByteArray();
                byte[] out = new byte[size];
                int n = switch (codec) {
                    case SNAPPY -> Snappy.uncompress(in, 0, in.length, out, 0);
                    case LZ4_RAW -> new Lz4JavaDecompressor().decompress(in, 0, in.length, out, 0, size);
                    default -> (int) Zstd.decompressByteArray(out, 0, size, in, 0, in.length);
                };
                if (n != size) {
                    throw new IOException("decompressed size differs: codec=" + codec + " expected=" + size
                            + " actual=" + n);
                }
                return BytesInput.from(out);
            }

            @Override
            public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int size)
                    throws IOException {
                byte[] in = new byte[compressedSize];
                input.get(in);
                output.put(decompress(BytesInput.from(in), size).toByteArray());
            }

            @Override
            public void release() {}
        };
    }

    @Override
    public void release() {}

    /** One raw LZ4 block (Parquet's LZ4_RAW), by aircompressor's Java compressor. */
    private static byte[] lz4Compress(byte[] in) {
        Lz4JavaCompressor compressor = new Lz4JavaCompressor();
        byte[] out = new byte[compressor.maxCompressedLength(in.length)];
        int n = compressor.compress(in, 0, in.length, out, 0, out.length);
        return java.util.Arrays.copyOf(out, n);
    }

    private static void check(CompressionCodecName codec) {
        if (codec != CompressionCodecName.UNCOMPRESSED && codec != CompressionCodecName.SNAPPY
                && codec != CompressionCodecName.ZSTD && codec != CompressionCodecName.LZ4_RAW) {
            throw new UnsupportedOperationException("codec not provided by the benchmarks: codec=" + codec);
        }
    }
}
