package dev.stringview.arrow.internal;

import io.airlift.compress.v3.Compressor;
import io.airlift.compress.v3.Decompressor;
import io.airlift.compress.v3.MalformedInputException;
import io.airlift.compress.v3.lz4.Lz4FrameJavaCompressor;
import io.airlift.compress.v3.lz4.Lz4FrameJavaDecompressor;
import io.airlift.compress.v3.zstd.ZstdJavaCompressor;
import io.airlift.compress.v3.zstd.ZstdJavaDecompressor;
import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * IPC body compression (Message.fbs {@code BodyCompression}: each buffer is an int64 uncompressed length, -1 for
 * "stored uncompressed", then an LZ4 frame or a ZSTD frame) on aircompressor-v3's pure-Java codecs, which work on
 * {@link MemorySegment}s. Arrow Java's own {@code arrow-compression} would bring zstd-jni, a JNI library; this
 * module loads none.
 */
public final class IpcCodecs {
    private IpcCodecs() {}

    public static final CompressionCodec.Factory FACTORY = new CompressionCodec.Factory() {
        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type) {
            return switch (type) {
                case NO_COMPRESSION -> NoCompressionCodec.INSTANCE;
                case LZ4_FRAME -> new Codec(type, Lz4FrameJavaCompressor::new, Lz4FrameJavaDecompressor::new);
                case ZSTD -> new Codec(type, ZstdJavaCompressor::new, ZstdJavaDecompressor::new);
            };
        }

        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type, int level) {
            return createCodec(type);
        }
    };

    private static final long LENGTH_PREFIX = 8;

    private static final class Codec extends AbstractCompressionCodec {
        private final CompressionUtil.CodecType type;
        private final Supplier<Compressor> compressors;
        private final Supplier<Decompressor> decompressors;

        Codec(CompressionUtil.CodecType type, Supplier<Compressor> compressors, Supplier<Decompressor> decompressors) {
            this.type = type;
            this.compressors = compressors;
            this.decompressors = decompressors;
        }

        @Override
        protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
            Compressor compressor = compressors.get();
            long length = uncompressed.writerIndex();
            if (length > Integer.MAX_VALUE / 2) {
                throw new IllegalArgumentException("buffer too large to compress: codec=" + type + " bytes=" + length);
            }
            int max = compressor.maxCompressedLength((int) length);
            ArrowBuf out = allocator.buffer(LENGTH_PREFIX + max);
            try {
                int written = compressor.compress(segment(uncompressed, 0, length), segment(out, LENGTH_PREFIX, max));
                writeUncompressedLength(out, length);
                out.writerIndex(LENGTH_PREFIX + written);
                return out;
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        }

        @Override
        protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
            long length = readUncompressedLength(compressed);
            long compressedLength = compressed.writerIndex() - LENGTH_PREFIX;
            if (length < 0 || length > Integer.MAX_VALUE || compressedLength < 0) {
                throw new IllegalArgumentException("bad compressed buffer: codec=" + type + " uncompressedLength="
                        + length + " compressedBytes=" + compressedLength);
            }
            ArrowBuf out = allocator.buffer(length);
            try {
                int produced = decompressors.get().decompress(segment(compressed, LENGTH_PREFIX, compressedLength),
                        segment(out, 0, length));
                if (produced != length) {
                    throw new IllegalArgumentException("decompressed size differs: codec=" + type
                            + " uncompressedLength=" + length + " produced=" + produced);
                }
                out.writerIndex(length);
                return out;
            } catch (MalformedInputException e) {
                out.close();
                throw new IllegalArgumentException("corrupt compressed buffer: codec=" + type + " compressedBytes="
                        + compressedLength + " " + e.getMessage(), e);
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        }

        private static MemorySegment segment(ArrowBuf buf, long offset, long length) {
            if (offset + length > buf.capacity()) {
                throw new IllegalArgumentException("buffer range out of bounds: offset=" + offset + " length="
                        + length + " capacity=" + buf.capacity());
            }
            return MemorySegment.ofAddress(buf.memoryAddress() + offset).reinterpret(length);
        }

        @Override
        public CompressionUtil.CodecType getCodecType() {
            return type;
        }
    }
}
