package dev.stringview.parquet.internal;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The {@link CompressionCodecFactory} handed to parquet-java, so that its read options never build Hadoop codecs.
 * The reader decompresses pages itself and parquet-java only reads the footer here; should parquet-java ever ask
 * for a decompressor, it gets this module's ({@link PageDecompressor}). There are no compressors: this is a
 * reader.
 */
public final class SegmentCodecFactory implements CompressionCodecFactory {
    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codecName) {
        throw new UnsupportedOperationException("stringview-parquet reads only: codec=" + codecName);
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codecName) {
        return new Decompressor(codecName);
    }

    @Override
    public void release() {}

    private static final class Decompressor implements BytesInputDecompressor {
        private final CompressionCodecName codec;
        private final PageDecompressor decompressor;

        Decompressor(CompressionCodecName codec) {
            this.codec = codec;
            this.decompressor = codec == CompressionCodecName.UNCOMPRESSED ? null : PageDecompressor.forCodec(codec, false);
            if (codec != CompressionCodecName.UNCOMPRESSED && decompressor == null) {
                throw new UnsupportedOperationException("unsupported compression codec: codec=" + codec);
            }
        }

        @Override
        public BytesInput decompress(BytesInput bytes, int decompressedSize) throws IOException {
            java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream((int) Math.max(0, bytes.size()));
            bytes.writeAllTo(buffer);
            byte[] in = buffer.toByteArray();
            if (decompressor == null) {
                return BytesInput.from(in);
            }
            byte[] out = new byte[decompressedSize];
            run(MemorySegment.ofArray(in), MemorySegment.ofArray(out));
            return BytesInput.from(out);
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int decompressedSize)
                throws IOException {
            ByteBuffer in = input.slice(input.position(), compressedSize);
            ByteBuffer out = output.slice(output.position(), decompressedSize);
            if (decompressor == null) {
                out.put(in);
            } else {
                run(MemorySegment.ofBuffer(in), MemorySegment.ofBuffer(out));
            }
            input.position(input.position() + compressedSize);
            output.position(output.position() + decompressedSize);
        }

        private void run(MemorySegment in, MemorySegment out) throws IOException {
            try {
                decompressor.checkPlausible(in, out.byteSize());
                decompressor.decompress(in, out);
            } catch (CorruptDataException e) {
                throw new IOException(e.getMessage() + " codec=" + codec, e);
            }
        }

        @Override
        public void release() {
            if (decompressor != null) {
                decompressor.close();
            }
        }
    }

}
