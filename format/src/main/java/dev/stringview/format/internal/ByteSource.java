package dev.stringview.format.internal;

import dev.stringview.format.CorruptColumnException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.util.Arrays;

/**
 * Where serialized bytes come from: a segment (mapped file, network buffer), read in place, or a channel, read
 * without read-ahead so that whatever follows the column stays in the channel. Allocation stays bounded by the
 * bytes that really exist: a length is checked against what is left when that is known (segments, seekable
 * channels); otherwise memory grows with the bytes actually read, {@link #STAGE} at a time.
 */
public abstract sealed class ByteSource {
    /** Largest allocation made on the word of a length field before its bytes have arrived. */
    public static final int STAGE = 64 << 20;

    /** The bytes consumed so far. */
    public abstract long position();

    /** Bytes left, or -1 when unknown. */
    public abstract long remaining() throws IOException;

    /**
     * The next {@code length} bytes as a segment valid until the next call on this source: a slice of the input
     * segment (no copy), or a reusable heap scratch filled from the channel.
     */
    public abstract MemorySegment next(long length, long block, String field) throws IOException;

    /** Whether what {@link #next} returns stays valid after further calls (a slice of the input segment). */
    public abstract boolean slicesStay();

    public static ByteSource of(MemorySegment segment) {
        return new Segment(segment);
    }

    public static ByteSource of(ReadableByteChannel channel) {
        return new Channel(channel);
    }

    final CorruptColumnException truncated(long block, String field, long need, long have) {
        return new CorruptColumnException(block, -1, field, "truncated: needBytes=" + need + " availableBytes="
                + have + " position=" + position());
    }

    final void checkAvailable(long length, long block, String field) throws IOException {
        long left = remaining();
        if (length < 0 || (left >= 0 && length > left)) {
            throw truncated(block, field, length, left);
        }
    }

    static final class Segment extends ByteSource {
        private final MemorySegment input;
        private long at;

        Segment(MemorySegment input) {
            this.input = input;
        }

        @Override
        public long position() {
            return at;
        }

        @Override
        public long remaining() {
            return input.byteSize() - at;
        }

        @Override
        public boolean slicesStay() {
            return true;
        }

        @Override
        public MemorySegment next(long length, long block, String field) throws IOException {
            checkAvailable(length, block, field);
            MemorySegment slice = input.asSlice(at, length);
            at += length;
            return slice;
        }
    }

    static final class Channel extends ByteSource {
        private final ReadableByteChannel channel;
        private byte[] scratch = new byte[256];
        private long at;

        Channel(ReadableByteChannel channel) {
            this.channel = channel;
        }

        @Override
        public long position() {
            return at;
        }

        @Override
        public long remaining() throws IOException {
            if (channel instanceof SeekableByteChannel seekable) {
                return Math.max(0, seekable.size() - seekable.position());
            }
            return -1;
        }

        @Override
        public boolean slicesStay() {
            return false; // the scratch is reused by the next call
        }

        @Override
        public MemorySegment next(long length, long block, String field) throws IOException {
            checkAvailable(length, block, field);
            if (length > Integer.MAX_VALUE - 8) {
                throw new CorruptColumnException(block, -1, field, "stream longer than a block may be: length="
                        + length + " max=" + (Integer.MAX_VALUE - 8));
            }
            int n = (int) length;
            int filled = 0;
            while (filled < n) {
                // Grow with the bytes that arrive, not with the length the input claims.
                int target = (int) Math.min(n, Math.max(filled, 0L) + STAGE);
                if (scratch.length < target) {
                    scratch = Arrays.copyOf(scratch, Math.max(target, Math.min(n, 2 * scratch.length)));
                }
                ByteBuffer buffer = ByteBuffer.wrap(scratch, filled, target - filled);
                filled += fill(buffer, block, field, n, filled);
            }
            return MemorySegment.ofArray(scratch).asSlice(0, n);
        }

        /** Reads until {@code buffer} is full; returns the bytes read. */
        private int fill(ByteBuffer buffer, long block, String field, long need, long before) throws IOException {
            int start = buffer.position();
            while (buffer.hasRemaining()) {
                int n = channel.read(buffer);
                if (n < 0) {
                    int got = buffer.position() - start;
                    at += got;
                    throw truncated(block, field, need, before + got);
                }
            }
            int got = buffer.position() - start;
            at += got;
            return got;
        }
    }
}
