package dev.stringview.benchmarks;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * SNAPPY and ZSTD for parquet-java's writer and for parquet-java's reading path, on the same JNI libraries its
 * stock codecs use (snappy-java, zstd-jni). The stock {@code CodecFactory} would also need Hadoop's runtime
 * (hadoop-client-runtime) for its codec classes; this factory keeps Hadoop's API jar the only Hadoop piece.
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
                int n = codec == CompressionCodecName.SNAPPY ? Snappy.uncompress(in, 0, in.length, out, 0)
                        : (int) Zstd.decompressByteArray(out, 0, size, in, 0, in.length);
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

    private static void check(CompressionCodecName codec) {
        if (codec != CompressionCodecName.UNCOMPRESSED && codec != CompressionCodecName.SNAPPY
                && codec != CompressionCodecName.ZSTD) {
            throw new UnsupportedOperationException("codec not provided by the benchmarks: codec=" + codec);
        }
    }
}
