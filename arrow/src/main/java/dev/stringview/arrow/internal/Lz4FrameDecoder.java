package dev.stringview.arrow.internal;

import io.airlift.compress.v3.xxhash.XxHash32Hasher;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Decodes LZ4 frames (the LZ4 Frame Format 1.6.x, lz4/doc/lz4_Frame_format.md) straight into one destination
 * segment: the codec of Arrow IPC's {@code LZ4_FRAME} body compression.
 *
 * <p>Why its own decoder: aircompressor-v3's frame decoder rejects linked blocks ("LZ4 frames with linked blocks are
 * not supported"), which liblz4 and pyarrow write by default, and its block decoder is package-private and cannot
 * see output written before the block. Here every frame is decoded contiguously into the destination, so a linked
 * block's matches reach back into the previous blocks' output (the 64 KiB window the format allows) with no
 * dictionary copy; an independent block's matches may not reach before its own start.
 *
 * <p>Supported: linked and independent blocks, uncompressed blocks, block checksums, content checksums and the
 * content size field (all checked), several frames in a row, skippable frames. Not supported: preset dictionaries
 * (the dictionary ID flag), which Arrow never writes.
 *
 * <p>Every malformed input ends in one {@link IllegalArgumentException} whose message names the byte offset in the
 * source and the numbers involved; nothing is read or written outside the two segments.
 */
public final class Lz4FrameDecoder {
    private Lz4FrameDecoder() {}

    private static final int MAGIC = 0x184D2204;
    private static final int SKIPPABLE_MAGIC_MASK = 0xFFFFFFF0;
    private static final int SKIPPABLE_MAGIC = 0x184D2A50;
    private static final int MIN_MATCH = 4;
    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG_LE =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /**
     * Decodes the frames in {@code src} into {@code dst} from offset 0.
     *
     * @return the number of bytes written to {@code dst}
     * @throws IllegalArgumentException if {@code src} is not a well-formed sequence of LZ4 frames, a checksum does
     *     not match, or the decoded content does not fit {@code dst}
     */
    public static long decode(MemorySegment src, MemorySegment dst) {
        long in = 0;
        long out = 0;
        long srcLimit = src.byteSize();
        if (srcLimit == 0) {
            throw new IllegalArgumentException("LZ4 frame: empty input: srcBytes=0");
        }
        while (in < srcLimit) {
            require(src, in, 4, "magic");
            int magic = src.get(INT_LE, in);
            if ((magic & SKIPPABLE_MAGIC_MASK) == SKIPPABLE_MAGIC) {
                require(src, in + 4, 4, "skippable frame size");
                long size = Integer.toUnsignedLong(src.get(INT_LE, in + 4));
                require(src, in + 8, size, "skippable frame");
                in += 8 + size;
                continue;
            }
            if (magic != MAGIC) {
                throw new IllegalArgumentException("LZ4 frame: bad magic: offset=" + in + " magic=0x"
                        + Integer.toHexString(magic) + " expected=0x" + Integer.toHexString(MAGIC));
            }
            long[] position = decodeFrame(src, in + 4, dst, out);
            in = position[0];
            out = position[1];
        }
        return out;
    }

    /** Decodes one frame whose descriptor starts at {@code in}; returns {source offset after it, output offset}. */
    private static long[] decodeFrame(MemorySegment src, long in, MemorySegment dst, long out) {
        long descriptor = in;
        require(src, in, 2, "frame descriptor");
        int flags = src.get(ValueLayout.JAVA_BYTE, in) & 0xFF;
        int blockDescriptor = src.get(ValueLayout.JAVA_BYTE, in + 1) & 0xFF;
        int version = flags >>> 6;
        if (version != 1) {
            throw new IllegalArgumentException("LZ4 frame: unsupported version: offset=" + in + " version=" + version);
        }
        if ((flags & 0x02) != 0 || (blockDescriptor & 0x8F) != 0) {
            throw new IllegalArgumentException("LZ4 frame: reserved bits set: offset=" + in + " flags=0x"
                    + Integer.toHexString(flags) + " blockDescriptor=0x" + Integer.toHexString(blockDescriptor));
        }
        boolean independent = (flags & 0x20) != 0;
        boolean blockChecksum = (flags & 0x10) != 0;
        boolean hasContentSize = (flags & 0x08) != 0;
        boolean contentChecksum = (flags & 0x04) != 0;
        if ((flags & 0x01) != 0) {
            throw new IllegalArgumentException("LZ4 frame: preset dictionaries are not supported: offset=" + in
                    + " flags=0x" + Integer.toHexString(flags));
        }
        int sizeCode = (blockDescriptor >>> 4) & 0x7;
        if (sizeCode < 4) {
            throw new IllegalArgumentException("LZ4 frame: bad block maximum size: offset=" + (in + 1)
                    + " blockSizeCode=" + sizeCode);
        }
        long blockMax = 1L << (8 + 2 * sizeCode);
        in += 2;
        long contentSize = -1;
        if (hasContentSize) {
            require(src, in, 8, "content size");
            contentSize = src.get(LONG_LE, in);
            in += 8;
        }
        require(src, in, 1, "header checksum");
        int headerChecksum = src.get(ValueLayout.JAVA_BYTE, in) & 0xFF;
        int expectedHeader = (XxHash32Hasher.hash(src.asSlice(descriptor, in - descriptor), 0) >>> 8) & 0xFF;
        if (headerChecksum != expectedHeader) {
            throw new IllegalArgumentException("LZ4 frame: header checksum mismatch: offset=" + in + " stored="
                    + headerChecksum + " computed=" + expectedHeader);
        }
        in++;

        long frameStart = out;
        int block = 0;
        while (true) {
            require(src, in, 4, "block size");
            int word = src.get(INT_LE, in);
            in += 4;
            if (word == 0) {
                break;
            }
            boolean stored = word < 0;
            long size = word & 0x7FFFFFFFL;
            if (size > blockMax) {
                throw new IllegalArgumentException("LZ4 frame: block larger than the frame's maximum: offset="
                        + (in - 4) + " block=" + block + " blockBytes=" + size + " blockMaximum=" + blockMax);
            }
            require(src, in, size, "block " + block);
            if (blockChecksum) {
                require(src, in + size, 4, "block checksum");
                int stored32 = src.get(INT_LE, in + size);
                int computed = XxHash32Hasher.hash(src.asSlice(in, size), 0);
                if (stored32 != computed) {
                    throw new IllegalArgumentException("LZ4 frame: block checksum mismatch: offset=" + (in + size)
                            + " block=" + block + " stored=0x" + Integer.toHexString(stored32) + " computed=0x"
                            + Integer.toHexString(computed));
                }
            }
            long written;
            if (stored) {
                if (size > dst.byteSize() - out) {
                    throw tooLong(in, block, out, size, dst);
                }
                MemorySegment.copy(src, in, dst, out, size);
                written = size;
            } else {
                written = decodeBlock(src, in, in + size, dst, out, independent ? out : frameStart, block);
            }
            if (written > blockMax) {
                throw new IllegalArgumentException("LZ4 frame: block decodes to more than the frame's maximum: "
                        + "offset=" + in + " block=" + block + " decodedBytes=" + written + " blockMaximum="
                        + blockMax);
            }
            out += written;
            in += size + (blockChecksum ? 4 : 0);
            block++;
        }
        if (contentSize >= 0 && out - frameStart != contentSize) {
            throw new IllegalArgumentException("LZ4 frame: content size mismatch: offset=" + in + " contentSize="
                    + contentSize + " decodedBytes=" + (out - frameStart));
        }
        if (contentChecksum) {
            require(src, in, 4, "content checksum");
            int stored32 = src.get(INT_LE, in);
            int computed = XxHash32Hasher.hash(dst.asSlice(frameStart, out - frameStart), 0);
            if (stored32 != computed) {
                throw new IllegalArgumentException("LZ4 frame: content checksum mismatch: offset=" + in + " stored=0x"
                        + Integer.toHexString(stored32) + " computed=0x" + Integer.toHexString(computed)
                        + " decodedBytes=" + (out - frameStart));
            }
            in += 4;
        }
        return new long[] {in, out};
    }

    /**
     * Decodes one LZ4 block (lz4/doc/lz4_Block_format.md) from {@code src[in, inLimit)} to {@code dst} at
     * {@code out}; matches may reach back to {@code windowStart}. Returns the bytes written.
     */
    private static long decodeBlock(MemorySegment src, long in, long inLimit, MemorySegment dst, long out,
            long windowStart, int block) {
        long blockIn = in;
        long start = out;
        long outLimit = dst.byteSize();
        while (true) {
            if (in >= inLimit) {
                throw new IllegalArgumentException("LZ4 block: truncated sequence: offset=" + in + " block=" + block);
            }
            int token = src.get(ValueLayout.JAVA_BYTE, in++) & 0xFF;
            long literals = token >>> 4;
            if (literals == 15) {
                int extra;
                do {
                    if (in >= inLimit) {
                        throw new IllegalArgumentException("LZ4 block: truncated literal length: offset=" + in
                                + " block=" + block);
                    }
                    extra = src.get(ValueLayout.JAVA_BYTE, in++) & 0xFF;
                    literals += extra;
                } while (extra == 255);
            }
            if (literals > inLimit - in) {
                throw new IllegalArgumentException("LZ4 block: literals beyond the block: offset=" + in + " block="
                        + block + " literals=" + literals + " blockBytesLeft=" + (inLimit - in));
            }
            if (literals > outLimit - out) {
                throw tooLong(in, block, out, literals, dst);
            }
            MemorySegment.copy(src, in, dst, out, literals);
            in += literals;
            out += literals;
            if (in == inLimit) {
                // The last sequence of a block has literals only.
                return out - start;
            }
            if (inLimit - in < 2) {
                throw new IllegalArgumentException("LZ4 block: truncated match offset: offset=" + in + " block="
                        + block);
            }
            int offset = (src.get(ValueLayout.JAVA_BYTE, in) & 0xFF)
                    | (src.get(ValueLayout.JAVA_BYTE, in + 1) & 0xFF) << 8;
            in += 2;
            if (offset == 0 || offset > out - windowStart) {
                throw new IllegalArgumentException("LZ4 block: match offset outside the window: offset=" + (in - 2)
                        + " block=" + block + " matchOffset=" + offset + " window=" + (out - windowStart));
            }
            long match = (token & 0xF) + MIN_MATCH;
            if ((token & 0xF) == 15) {
                int extra;
                do {
                    if (in >= inLimit) {
                        throw new IllegalArgumentException("LZ4 block: truncated match length: offset=" + in
                                + " block=" + block);
                    }
                    extra = src.get(ValueLayout.JAVA_BYTE, in++) & 0xFF;
                    match += extra;
                } while (extra == 255);
            }
            if (match > outLimit - out) {
                throw tooLong(blockIn, block, out, match, dst);
            }
            copyMatch(dst, out - offset, out, match, offset);
            out += match;
        }
    }

    /** Copies {@code length} bytes from {@code from} to {@code to} = {@code from + distance}, overlapping allowed. */
    private static void copyMatch(MemorySegment dst, long from, long to, long length, int distance) {
        if (distance >= length) {
            MemorySegment.copy(dst, from, dst, to, length);
            return;
        }
        // Overlapping: the match repeats the last `distance` bytes. [from, to + done) is periodic with period
        // `distance` and `done` stays a multiple of it, so each run copies from `from` at phase 0 out of bytes
        // already written, doubling the run each time.
        long done = 0;
        while (done < length) {
            long n = Math.min(distance + done, length - done);
            MemorySegment.copy(dst, from, dst, to + done, n);
            done += n;
        }
    }

    private static IllegalArgumentException tooLong(long in, int block, long out, long more, MemorySegment dst) {
        return new IllegalArgumentException("LZ4 frame: decoded content exceeds the declared length: offset=" + in
                + " block=" + block + " written=" + out + " more=" + more + " declared=" + dst.byteSize());
    }

    private static void require(MemorySegment src, long offset, long length, String what) {
        if (length > src.byteSize() - offset) {
            throw new IllegalArgumentException("LZ4 frame: truncated " + what + ": offset=" + offset + " needed="
                    + length + " srcBytes=" + src.byteSize());
        }
    }
}
