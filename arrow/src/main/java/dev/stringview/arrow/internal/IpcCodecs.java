package dev.stringview.arrow.internal;

import io.airlift.compress.v3.Compressor;
import io.airlift.compress.v3.MalformedInputException;
import io.airlift.compress.v3.lz4.Lz4FrameJavaCompressor;
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
 * "stored uncompressed", then an LZ4 frame or a ZSTD frame). LZ4 frames are decoded by {@link Lz4FrameDecoder}
 * (linked blocks, as liblz4 and pyarrow write them); ZSTD and the compressors are aircompressor-v3's pure-Java
 * codecs, which work on {@link MemorySegment}s. Arrow Java's own {@code arrow-compression} would bring zstd-jni, a
 * JNI library; this module loads none.
 *
 * <p><b>Failures never throw through Arrow Java.</b> Arrow Java 19's {@code VectorLoader} keeps a field's already
 * decompressed buffers in a local list while it decompresses the next one; an exception from the codec loses them
 * (and {@code AbstractCompressionCodec.decompress} then also skips releasing the compressed buffer), which is the
 * "Memory was leaked by query" after a bad LZ4 frame. So a {@link ReaderCodecs} belongs to one reader: a failed
 * buffer is recorded there, replaced by an empty buffer with the reference counts Arrow Java expects, and the reader
 * throws {@link ReaderCodecs#takeFailure()} once the batch is loaded and every buffer has an owner that frees it.
 * Failures name the buffer by its index among the batch's non-empty buffers (empty ones are never decompressed).
 */
public final class IpcCodecs {
    private IpcCodecs() {}

    /** A new codec factory for one IPC reader. */
    public static ReaderCodecs factory() {
        return new ReaderCodecs();
    }

    /** The codecs of one IPC reader, with the first decompression failure since {@link #takeFailure()}. */
    public static final class ReaderCodecs implements CompressionCodec.Factory {
        private RuntimeException failure;

        private ReaderCodecs() {}

        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type) {
            return switch (type) {
                case NO_COMPRESSION -> NoCompressionCodec.INSTANCE;
                case LZ4_FRAME -> new Codec(this, type, Lz4FrameJavaCompressor::new, Lz4FrameDecoder::decode);
                case ZSTD -> new Codec(this, type, ZstdJavaCompressor::new,
                        (src, dst) -> new ZstdJavaDecompressor().decompress(src, dst));
            };
        }

        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type, int level) {
            return createCodec(type);
        }

        /** The first buffer that failed to decompress since the last call, or null; clears it. */
        public RuntimeException takeFailure() {
            RuntimeException taken = failure;
            failure = null;
            return taken;
        }

        private void fail(RuntimeException e) {
            if (failure == null) {
                failure = e;
            }
        }
    }

    /** Decodes a whole compressed buffer into a destination of exactly the uncompressed length. */
    @FunctionalInterface
    private interface Decoder {
        long decode(MemorySegment src, MemorySegment dst);
    }

    private static final long LENGTH_PREFIX = 8;

    private static final class Codec extends AbstractCompressionCodec {
        private final ReaderCodecs factory;
        private final CompressionUtil.CodecType type;
        private final Supplier<Compressor> compressors;
        private final Decoder decoder;
        /** Buffers this codec was asked to decompress: Arrow Java creates one codec per record batch, and asks it
         *  to decompress the batch's non-empty buffers in body order. */
        private int buffers;

        Codec(ReaderCodecs factory, CompressionUtil.CodecType type, Supplier<Compressor> compressors, Decoder decoder) {
            this.factory = factory;
            this.type = type;
            this.compressors = compressors;
            this.decoder = decoder;
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

        /**
         * Never throws (see the class comment): on failure it records the error, releases {@code compressed} as a
         * success would, and returns an empty buffer.
         */
        @Override
        public ArrowBuf decompress(BufferAllocator allocator, ArrowBuf compressed) {
            int index = buffers++;
            try {
                if (compressed.writerIndex() < LENGTH_PREFIX) {
                    throw new IllegalArgumentException("compressed buffer shorter than its length prefix: bytes="
                            + compressed.writerIndex());
                }
                long length = readUncompressedLength(compressed);
                if (length == CompressionUtil.NO_COMPRESSION_LENGTH) {
                    return CompressionUtil.extractUncompressedBuffer(compressed);
                }
                ArrowBuf out = length == 0 ? allocator.getEmpty() : doDecompress(allocator, compressed);
                compressed.close();
                return out;
            } catch (RuntimeException e) {
                factory.fail(new IllegalArgumentException("cannot decompress: codec=" + type + " nonEmptyBufferIndex="
                        + index + " " + e.getMessage(), e));
                compressed.close();
                return allocator.getEmpty();
            }
        }

        @Override
        protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
            long length = readUncompressedLength(compressed);
            long compressedLength = compressed.writerIndex() - LENGTH_PREFIX;
            if (length < 0 || length > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("bad uncompressed length: uncompressedLength=" + length
                        + " compressedBytes=" + compressedLength);
            }
            ArrowBuf out = allocator.buffer(length);
            try {
                long produced = decoder.decode(segment(compressed, LENGTH_PREFIX, compressedLength),
                        segment(out, 0, length));
                if (produced != length) {
                    throw new IllegalArgumentException("decompressed size differs: uncompressedLength=" + length
                            + " produced=" + produced);
                }
                out.writerIndex(length);
                return out;
            } catch (MalformedInputException e) {
                out.close();
                throw new IllegalArgumentException("corrupt compressed buffer: compressedBytes=" + compressedLength
                        + " " + e.getMessage(), e);
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
