package dev.stringview.format.internal;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;

/**
 * One block's value bytes on their way to a channel. The serializer's row loop stages the bytes of inline values,
 * size-prefix varints and short runs of long values in one reused heap array ({@link #reset}), each at its position in
 * the stream; a run of long values that lie one after another in one column buffer, {@link #DIRECT_RUN_MIN} bytes or
 * more, is not copied: its place in the array stays empty, and {@link #writeTo} writes it to the channel straight
 * from that buffer between the staged pieces around it (when the caller allows it: an uncompressed stream; LZ4 needs
 * the whole stream in one array). The row loop keeps the open run in locals and calls {@link #closeRun} once per
 * run, so its per-row code is what it was when every run was copied. Not thread-safe; one per serializer.
 */
public final class CharsGather {
    /**
     * Smallest run written from the column's buffer instead of being staged. Staged, a run's bytes are copied
     * twice (into the array, then by the channel); direct, once, for one more {@code write} call, which costs about
     * what copying a few KiB does.
     */
    public static final int DIRECT_RUN_MIN = 32 << 10;
    /** Inline values are stored as an 8-byte and a 4-byte word: the array keeps this much room past the bytes. */
    public static final int SLACK = 16;

    /** The staged bytes, at least as long as the block's stream plus {@link #SLACK} after {@link #reset}. */
    private byte[] staged = new byte[0];
    private MemorySegment[] buffers;
    private boolean directRuns;
    /** Direct runs in stream order: {@code [position in the stream, buffer, offset, length]} each. */
    private long[] pieces = new long[16];
    private int pieceCount;

    /**
     * Starts a block of at most {@code bytes} stream bytes whose long values are in {@code buffers}; returns the
     * staging array (reused between blocks). {@code directRuns}: long runs may bypass it.
     */
    public byte[] reset(long bytes, MemorySegment[] buffers, boolean directRuns) {
        if (staged.length < bytes + SLACK) {
            staged = new byte[(int) Math.max(bytes + SLACK, Math.min(Wire.MAX_BLOCK_BYTES, 2L * staged.length))];
        }
        this.buffers = buffers;
        this.directRuns = directRuns;
        pieceCount = 0;
        return staged;
    }

    /**
     * Ends the run of {@code to - from} bytes at {@code from} in buffer {@code buffer}, which starts at {@code at} in
     * the stream: copies it there in the staging array, or records it as a direct run.
     */
    public void closeRun(int buffer, long from, long to, long at) {
        long length = to - from;
        if (directRuns && length >= DIRECT_RUN_MIN) {
            if (pieceCount + 4 > pieces.length) {
                pieces = Arrays.copyOf(pieces, 2 * pieces.length);
            }
            pieces[pieceCount] = at;
            pieces[pieceCount + 1] = buffer;
            pieces[pieceCount + 2] = from;
            pieces[pieceCount + 3] = length;
            pieceCount += 4;
        } else {
            MemorySegment.copy(buffers[buffer], ValueLayout.JAVA_BYTE, from, staged, (int) at, (int) length);
        }
    }

    /** Writes the block's stream of {@code length} bytes: the staged pieces and the direct runs in order. */
    public long writeTo(WritableByteChannel out, long length) throws IOException {
        long written = 0;
        int from = 0; // the next staged byte
        for (int p = 0; p < pieceCount; p += 4) {
            int runAt = (int) pieces[p];
            if (runAt > from) {
                written += writeFully(out, ByteBuffer.wrap(staged, from, runAt - from));
            }
            MemorySegment run = buffers[(int) pieces[p + 1]].asSlice(pieces[p + 2], pieces[p + 3]);
            written += writeFully(out, run.asByteBuffer());
            from = (int) (runAt + pieces[p + 3]);
        }
        if (length > from) {
            written += writeFully(out, ByteBuffer.wrap(staged, from, (int) length - from));
        }
        return written;
    }

    /** Writes all of {@code buffer}; returns its bytes. */
    public static long writeFully(WritableByteChannel out, ByteBuffer buffer) throws IOException {
        long n = buffer.remaining();
        while (buffer.hasRemaining()) {
            out.write(buffer);
        }
        return n;
    }
}
