package dev.stringview.parquet.internal;

import io.airlift.compress.v3.Decompressor;
import io.airlift.compress.v3.MalformedInputException;
import io.airlift.compress.v3.lz4.Lz4Decompressor;
import io.airlift.compress.v3.lz4.Lz4JavaDecompressor;
import io.airlift.compress.v3.lz4.Lz4NativeDecompressor;
import io.airlift.compress.v3.snappy.SnappyDecompressor;
import io.airlift.compress.v3.snappy.SnappyJavaDecompressor;
import io.airlift.compress.v3.snappy.SnappyNativeDecompressor;
import io.airlift.compress.v3.zstd.ZstdDecompressor;
import io.airlift.compress.v3.zstd.ZstdJavaDecompressor;
import io.airlift.compress.v3.zstd.ZstdNativeDecompressor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.brotli.dec.BrotliInputStream;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Decompresses one page from a segment (usually a slice of the memory-mapped file) straight into an off-heap
 * segment of exactly the page's uncompressed size, which then becomes the data buffer of the views. No byte[]
 * is involved. Snappy, ZSTD and LZ4 use aircompressor-v3 (MemorySegment in and out): its bundled native
 * libraries (libsnappy, libzstd, liblz4, called through the FFM API) when native decoding is asked for, the JVM
 * grants native access to aircompressor's module and the library loads, else its pure-Java decoders, which are
 * several times slower. GZIP uses {@link Inflater} on the segments' ByteBuffer views; BROTLI the reference
 * pure-Java decoder ({@code org.brotli:dec}), through a small heap buffer.
 *
 * <p>A decompressor must produce exactly {@code out.byteSize()} bytes; anything else is a
 * {@link CorruptDataException}. {@link #checkPlausible} rejects sizes the codec cannot produce from the input
 * before any memory is allocated for them. Instances keep state (an Inflater): one per column reader.
 */
public abstract sealed class PageDecompressor {
    private static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** aircompressor's pure-Java decoder, or null for GZIP. */
    private final Decompressor javaDecoder;
    /** aircompressor's native decoder when allowed and loaded, else null. */
    private final Decompressor nativeDecoder;

    private PageDecompressor(Decompressor javaDecoder, Decompressor nativeDecoder) {
        this.javaDecoder = javaDecoder;
        this.nativeDecoder = nativeDecoder;
    }

    /**
     * Whether the JVM lets aircompressor call native code. Asked first, so that a JVM without
     * {@code --enable-native-access} never sees a restricted call (which JDK 24+ warns about).
     */
    private static final boolean NATIVE_ACCESS = SnappyNativeDecompressor.class.getModule().isNativeAccessEnabled();

    /**
     * The decompressor for {@code codec}, or null if the codec is not supported.
     *
     * @param preferNative use aircompressor's native library for the codec when the JVM allows it and it loads
     */
    public static PageDecompressor forCodec(CompressionCodecName codec, boolean preferNative) {
        boolean nativeOk = preferNative && NATIVE_ACCESS;
        return switch (codec) {
            case SNAPPY -> new Snappy(nativeOk && SnappyNativeDecompressor.isEnabled()
                    ? new SnappyNativeDecompressor() : null);
            case GZIP -> new Gzip();
            case ZSTD -> new Zstd(nativeOk && ZstdNativeDecompressor.isEnabled() ? new ZstdNativeDecompressor() : null);
            case LZ4_RAW -> new Lz4Raw(nativeOk && Lz4NativeDecompressor.isEnabled() ? new Lz4NativeDecompressor()
                    : null);
            case LZ4 -> new Lz4Hadoop(nativeOk && Lz4NativeDecompressor.isEnabled() ? new Lz4NativeDecompressor()
                    : null);
            case BROTLI -> new Brotli();
            default -> null; // UNCOMPRESSED needs none; LZO is not supported
        };
    }

    /** Whether this decompressor runs a native library (for reports and tests). */
    public final boolean isNative() {
        return nativeDecoder != null;
    }

    /**
     * The decoder for these segments: the native one only if both are native memory, which it alone can address
     * (heap segments come from tests and small inputs).
     */
    final Decompressor decoder(MemorySegment in, MemorySegment out) {
        return nativeDecoder != null && in.isNative() && out.isNative() ? nativeDecoder : javaDecoder;
    }

    /** Runs {@link #decoder}; its complaints about the input become {@link CorruptDataException}. Returns bytes written. */
    final int decode(String codec, MemorySegment in, MemorySegment out) {
        try {
            return decoder(in, out).decompress(in, out);
        } catch (MalformedInputException | IllegalArgumentException | IndexOutOfBoundsException
                | UnsupportedOperationException e) {
            throw corrupt(codec, e.getMessage(), in, out);
        }
    }

    /** {@link #decode}, which must fill all of {@code out}. */
    final void decodeWhole(String codec, MemorySegment in, MemorySegment out) {
        int n = decode(codec, in, out);
        if (n != out.byteSize()) {
            throw corrupt(codec, "wrong size: produced=" + n, in, out);
        }
    }

    /** Decompresses {@code in} into all of {@code out}. */
    public abstract void decompress(MemorySegment in, MemorySegment out);

    /** Throws if {@code in} cannot decompress to {@code uncompressedSize} bytes (checked before allocating). */
    public abstract void checkPlausible(MemorySegment in, long uncompressedSize);

    /** Releases native resources (the Inflater). */
    public void close() {}

    static CorruptDataException corrupt(String codec, String what, MemorySegment in, MemorySegment out) {
        return new CorruptDataException(codec + " decompression failed: " + what + " compressedSize="
                + in.byteSize() + " uncompressedSize=" + out.byteSize());
    }

    static void checkRatio(String codec, MemorySegment in, long uncompressedSize, long maxRatio) {
        long bound = in.byteSize() * maxRatio + 1024;
        if (uncompressedSize > bound) {
            throw new CorruptDataException(codec + " page cannot expand that much: compressedSize=" + in.byteSize()
                    + " uncompressedSize=" + uncompressedSize + " maxRatio=" + maxRatio);
        }
    }

    static final class Snappy extends PageDecompressor {
        Snappy(SnappyDecompressor nativeDecoder) {
            super(new SnappyJavaDecompressor(), nativeDecoder);
        }

        @Override
        public void checkPlausible(MemorySegment in, long uncompressedSize) {
            // The stream starts with the uncompressed length as a varint.
            long length = 0;
            int i = 0;
            while (true) {
                if (i >= 5 || i >= in.byteSize()) {
                    throw new CorruptDataException("snappy page has no valid length header: compressedSize="
                            + in.byteSize() + " uncompressedSize=" + uncompressedSize);
                }
                int b = in.get(ValueLayout.JAVA_BYTE, i) & 0xFF;
                length |= (long) (b & 0x7F) << (7 * i);
                i++;
                if ((b & 0x80) == 0) {
                    break;
                }
            }
            if (length != uncompressedSize) {
                throw new CorruptDataException("snappy length header disagrees with page header: snappyLength="
                        + length + " uncompressedSize=" + uncompressedSize + " compressedSize=" + in.byteSize());
            }
        }

        @Override
        public void decompress(MemorySegment in, MemorySegment out) {
            decodeWhole("SNAPPY", in, out);
        }
    }

    static final class Zstd extends PageDecompressor {
        Zstd(ZstdDecompressor nativeDecoder) {
            super(new ZstdJavaDecompressor(), nativeDecoder);
        }

        @Override
        public void checkPlausible(MemorySegment in, long uncompressedSize) {
            // ZSTD can expand by very large ratios (RLE blocks); the page size limit bounds the allocation.
        }

        @Override
        public void decompress(MemorySegment in, MemorySegment out) {
            decodeWhole("ZSTD", in, out);
        }
    }

    static final class Lz4Raw extends PageDecompressor {
        Lz4Raw(Lz4Decompressor nativeDecoder) {
            super(new Lz4JavaDecompressor(), nativeDecoder);
        }

        @Override
        public void checkPlausible(MemorySegment in, long uncompressedSize) {
            checkRatio("LZ4_RAW", in, uncompressedSize, 255);
        }

        @Override
        public void decompress(MemorySegment in, MemorySegment out) {
            decodeWhole("LZ4_RAW", in, out);
        }
    }

    /**
     * Parquet's LZ4 is Hadoop's block framing: blocks of {@code [uncompressed length BE][compressed length BE]
     * [raw LZ4 block]}. Some older writers (parquet-cpp before 2.0) wrote one raw LZ4 block instead, so when the
     * framing does not fit the page, the whole page is decoded as a raw block.
     */
    static final class Lz4Hadoop extends PageDecompressor {
        Lz4Hadoop(Lz4Decompressor nativeDecoder) {
            super(new Lz4JavaDecompressor(), nativeDecoder);
        }

        @Override
        public void checkPlausible(MemorySegment in, long uncompressedSize) {
            checkRatio("LZ4", in, uncompressedSize, 255);
        }

        @Override
        public void decompress(MemorySegment in, MemorySegment out) {
            if (tryHadoop(in, out)) {
                return;
            }
            int n = decode("LZ4", in, out);
            if (n != out.byteSize()) {
                throw corrupt("LZ4", "neither Hadoop framing nor a raw block: produced=" + n, in, out);
            }
        }

        private boolean tryHadoop(MemorySegment in, MemorySegment out) {
            long inPos = 0;
            long outPos = 0;
            long inSize = in.byteSize();
            long outSize = out.byteSize();
            while (inPos < inSize) {
                if (inSize - inPos < 8) {
                    return false;
                }
                long blockUncompressed = in.get(BE_INT, inPos) & 0xFFFF_FFFFL;
                long blockCompressed = in.get(BE_INT, inPos + 4) & 0xFFFF_FFFFL;
                inPos += 8;
                if (blockCompressed > inSize - inPos || blockUncompressed > outSize - outPos) {
                    return false;
                }
                int n;
                try {
                    n = decoder(in, out).decompress(in.asSlice(inPos, blockCompressed),
                            out.asSlice(outPos, blockUncompressed));
                } catch (MalformedInputException | IllegalArgumentException | IndexOutOfBoundsException e) {
                    return false;
                }
                if (n != blockUncompressed) {
                    return false;
                }
                inPos += blockCompressed;
                outPos += blockUncompressed;
            }
            return outPos == outSize;
        }
    }

    /**
     * GZIP members (RFC 1952), possibly several back to back, each checked against its CRC-32 and length trailer.
     * A zlib stream (RFC 1950) is accepted too. Inflation goes from the input segment's ByteBuffer view straight
     * into the output segment's.
     */
    static final class Gzip extends PageDecompressor {
        private Inflater raw;

        Gzip() {
            super(null, null); // java.util.zip.Inflater, below; its zlib is native, but not a choice made here
        }

        private Inflater zlib;
        private final CRC32 crc = new CRC32();

        @Override
        public void checkPlausible(MemorySegment in, long uncompressedSize) {
            checkRatio("GZIP", in, uncompressedSize, 1032);
        }

        @Override
        public void decompress(MemorySegment in, MemorySegment out) {
            long inSize = in.byteSize();
            if (inSize >= 2 && (in.get(ValueLayout.JAVA_BYTE, 0) & 0xFF) == 0x1F
                    && (in.get(ValueLayout.JAVA_BYTE, 1) & 0xFF) == 0x8B) {
                long inPos = 0;
                long outPos = 0;
                while (inPos < inSize) {
                    if (outPos == out.byteSize() && allZero(in, inPos)) {
                        break; // trailing padding after the last member
                    }
                    long[] positions = member(in, inPos, out, outPos);
                    inPos = positions[0];
                    outPos = positions[1];
                }
                if (outPos != out.byteSize()) {
                    throw corrupt("GZIP", "wrong size: produced=" + outPos, in, out);
                }
            } else {
                if (zlib == null) {
                    zlib = new Inflater(false);
                }
                zlib.reset();
                long produced = inflate(zlib, in, 0, out, 0);
                if (produced != out.byteSize() || zlib.getRemaining() != 0) {
                    throw corrupt("GZIP", "zlib stream of wrong size: produced=" + produced + " unusedInput="
                            + zlib.getRemaining(), in, out);
                }
            }
        }

        private static boolean allZero(MemorySegment in, long from) {
            for (long i = from; i < in.byteSize(); i++) {
                if (in.get(ValueLayout.JAVA_BYTE, i) != 0) {
                    return false;
                }
            }
            return true;
        }

        /** Inflates one member at {@code inPos}; returns the positions after it. */
        private long[] member(MemorySegment in, long inPos, MemorySegment out, long outPos) {
            long inSize = in.byteSize();
            long p = inPos;
            if (inSize - p < 10 || (in.get(ValueLayout.JAVA_BYTE, p) & 0xFF) != 0x1F
                    || (in.get(ValueLayout.JAVA_BYTE, p + 1) & 0xFF) != 0x8B
                    || in.get(ValueLayout.JAVA_BYTE, p + 2) != 8) {
                throw corrupt("GZIP", "bad member header: memberOffset=" + p, in, out);
            }
            int flags = in.get(ValueLayout.JAVA_BYTE, p + 3) & 0xFF;
            p += 10;
            if ((flags & 4) != 0) { // FEXTRA
                if (inSize - p < 2) {
                    throw corrupt("GZIP", "truncated extra field: memberOffset=" + inPos, in, out);
                }
                int extra = (in.get(ValueLayout.JAVA_BYTE, p) & 0xFF) | (in.get(ValueLayout.JAVA_BYTE, p + 1) & 0xFF) << 8;
                p += 2 + extra;
            }
            if ((flags & 8) != 0) { // FNAME
                p = skipZeroTerminated(in, p, out, inPos);
            }
            if ((flags & 16) != 0) { // FCOMMENT
                p = skipZeroTerminated(in, p, out, inPos);
            }
            if ((flags & 2) != 0) { // FHCRC
                p += 2;
            }
            if (p > inSize) {
                throw corrupt("GZIP", "truncated member header: memberOffset=" + inPos, in, out);
            }
            if (raw == null) {
                raw = new Inflater(true);
            }
            raw.reset();
            long produced = inflate(raw, in, p, out, outPos);
            long consumed = (inSize - p) - raw.getRemaining();
            p += consumed;
            if (inSize - p < 8) {
                throw corrupt("GZIP", "truncated member trailer: memberOffset=" + inPos, in, out);
            }
            int expectedCrc = in.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), p);
            int expectedSize = in.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), p + 4);
            crc.reset();
            crc.update(out.asSlice(outPos, produced).asByteBuffer());
            if ((int) crc.getValue() != expectedCrc || (int) produced != expectedSize) {
                throw corrupt("GZIP", "member trailer mismatch: memberOffset=" + inPos + " crc=" + (int) crc.getValue()
                        + " expectedCrc=" + expectedCrc + " size=" + produced + " expectedSize=" + expectedSize,
                        in, out);
            }
            return new long[] {p + 8, outPos + produced};
        }

        private static long skipZeroTerminated(MemorySegment in, long p, MemorySegment out, long member) {
            while (p < in.byteSize()) {
                if (in.get(ValueLayout.JAVA_BYTE, p++) == 0) {
                    return p;
                }
            }
            throw corrupt("GZIP", "unterminated header string: memberOffset=" + member, in, out);
        }

        /** Inflates from {@code in[inPos..]} into {@code out[outPos..]} until the stream ends; returns bytes produced. */
        private static long inflate(Inflater inflater, MemorySegment in, long inPos, MemorySegment out, long outPos) {
            ByteBuffer src = in.asSlice(inPos).asByteBuffer();
            ByteBuffer dst = out.asSlice(outPos).asByteBuffer();
            inflater.setInput(src);
            try {
                while (!inflater.finished()) {
                    int n = inflater.inflate(dst);
                    if (n == 0) {
                        if (inflater.finished()) {
                            break;
                        }
                        if (inflater.needsDictionary()) {
                            throw corrupt("GZIP", "stream needs a preset dictionary", in, out);
                        }
                        if (inflater.needsInput()) {
                            throw corrupt("GZIP", "stream ends early: produced=" + dst.position(), in, out);
                        }
                        if (!dst.hasRemaining()) {
                            throw corrupt("GZIP", "stream longer than the page: produced=" + dst.position(), in,
                                    out);
                        }
                    }
                }
            } catch (DataFormatException e) {
                throw corrupt("GZIP", "bad deflate data: " + e.getMessage(), in, out);
            }
            return dst.position();
        }

        @Override
        public void close() {
            if (raw != null) {
                raw.end();
            }
            if (zlib != null) {
                zlib.end();
            }
        }
    }

    /**
     * BROTLI (RFC 7932) through the reference pure-Java decoder, {@code org.brotli:dec}. It decodes from an
     * {@link InputStream} into {@code byte[]}, so the page goes through one 64 KiB heap buffer on its way into the
     * output segment. The stream must fill the page exactly and end there.
     */
    static final class Brotli extends PageDecompressor {
        private final byte[] chunk = new byte[64 << 10];

        Brotli() {
            super(null, null);
        }

        @Override
        public void checkPlausible(MemorySegment in, long uncompressedSize) {
            // A brotli stream can expand by far more than any page's size (one command repeats up to 16 MiB), so no
            // ratio bound applies; maxPageBytes bounds the buffer. An empty input is no brotli stream at all.
            if (in.byteSize() == 0 && uncompressedSize > 0) {
                throw new CorruptDataException("BROTLI page is empty: compressedSize=0 uncompressedSize="
                        + uncompressedSize);
            }
        }

        @Override
        public void decompress(MemorySegment in, MemorySegment out) {
            long size = out.byteSize();
            long pos = 0;
            try (BrotliInputStream stream = new BrotliInputStream(new SegmentInputStream(in))) {
                while (pos < size) {
                    int n = stream.read(chunk, 0, (int) Math.min(chunk.length, size - pos));
                    if (n < 0) {
                        throw corrupt("BROTLI", "stream ends early: produced=" + pos, in, out);
                    }
                    MemorySegment.copy(chunk, 0, out, ValueLayout.JAVA_BYTE, pos, n);
                    pos += n;
                }
                if (stream.read() >= 0) {
                    throw corrupt("BROTLI", "stream longer than the page: produced>" + size, in, out);
                }
            } catch (IOException | IllegalStateException | IndexOutOfBoundsException e) {
                // org.brotli.dec reports bad input as IOException (wrapping its BrotliRuntimeException).
                throw corrupt("BROTLI", "bad brotli data: " + e.getMessage() + " produced=" + pos, in, out);
            }
        }
    }

}
