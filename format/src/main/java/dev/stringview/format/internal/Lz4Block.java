package dev.stringview.format.internal;

import dev.stringview.format.CorruptColumnException;
import io.airlift.compress.v3.MalformedInputException;
import io.airlift.compress.v3.lz4.Lz4JavaCompressor;
import io.airlift.compress.v3.lz4.Lz4JavaDecompressor;
import java.lang.foreign.MemorySegment;

/** Raw LZ4 blocks (no framing) on segments, through aircompressor-v3's pure-Java codec. */
public final class Lz4Block {
    /** LZ4's largest expansion on decode: a 1-byte token can describe at most 255 more bytes per input byte. */
    public static final long MAX_RATIO = 255;

    private final Lz4JavaCompressor compressor = new Lz4JavaCompressor();
    private final Lz4JavaDecompressor decompressor = new Lz4JavaDecompressor();

    public int maxCompressedLength(int length) {
        return compressor.maxCompressedLength(length);
    }

    /** Compresses {@code in} into {@code out} (at least {@link #maxCompressedLength} bytes); returns the length. */
    public int compress(MemorySegment in, MemorySegment out) {
        return compressor.compress(in, out);
    }

    /** Whether {@code stored} compressed bytes can decode to {@code raw} bytes at all (checked before allocating). */
    public static boolean plausible(long stored, long raw) {
        return raw <= stored * MAX_RATIO + 16;
    }

    /** Decompresses {@code in} into all of {@code out}, or throws naming block and field. */
    public void decompress(MemorySegment in, MemorySegment out, long block, String field)
            throws CorruptColumnException {
        int produced;
        try {
            produced = decompressor.decompress(in, out);
        } catch (MalformedInputException | IllegalArgumentException | IndexOutOfBoundsException
                | IllegalStateException e) {
            throw new CorruptColumnException(block, -1, field, "codec=lz4 storedLength=" + in.byteSize()
                    + " rawLength=" + out.byteSize() + " error=" + String.valueOf(e.getMessage()).replace('\n', ' '));
        }
        if (produced != out.byteSize()) {
            throw new CorruptColumnException(block, -1, field, "codec=lz4 storedLength=" + in.byteSize()
                    + " rawLength=" + out.byteSize() + " produced=" + produced);
        }
    }
}
