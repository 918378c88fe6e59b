package dev.stringview.flink.internal;

import dev.stringview.parquet.ParquetSource;
import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.apache.flink.core.fs.ByteBufferReadable;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * A {@link ParquetSource} over a file of Flink's own {@link FileSystem} (HDFS, S3 and the other plugins, or any
 * file system Flink serves): one {@link FSDataInputStream}, opened when the source is made. Where the stream reads
 * by position into a {@link ByteBuffer} ({@link ByteBufferReadable}, as Flink's Hadoop streams do), the bytes land
 * straight in the reader's segment and concurrent reads need no lock; otherwise one seek and sequential reads
 * through a heap buffer of at most 1 MiB, under a lock (an object store's stream serves them from one request).
 * Closing the source closes the stream; the file system is Flink's and stays open.
 */
final class FlinkFileSource implements ParquetSource {
    /** The largest piece one {@link ByteBuffer} can hold; longer reads go piece by piece. */
    private static final int MAX_PIECE = 1 << 30;
    private static final int HEAP_BUFFER = 1 << 20;
    /** Positioned reads in a row that may return no bytes before the stream is taken to be stuck. */
    private static final int MAX_IDLE_READS = 64;

    private final String name;
    private final String path;
    private final long length;
    private final FSDataInputStream in;
    /** Whether positioned reads into a ByteBuffer work on this stream (cleared on the first refusal). */
    private volatile boolean positioned;

    private FlinkFileSource(String name, String path, long length, FSDataInputStream in) {
        this.name = name;
        this.path = path;
        this.length = length;
        this.in = in;
        this.positioned = in instanceof ByteBufferReadable;
    }

    /**
     * Opens {@code path} through its Flink file system.
     *
     * @param length the file's length in bytes, or a negative number to ask the file system
     */
    static FlinkFileSource open(Path path, long length) throws IOException {
        FileSystem fs = path.getFileSystem();
        long size = length >= 0 ? length : fs.getFileStatus(path).getLen();
        String name = path.getName().isEmpty() ? path.toString() : path.getName();
        return new FlinkFileSource(name, path.toString(), size, fs.open(path));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public void read(long position, MemorySegment destination) throws IOException {
        long size = destination.byteSize();
        if (position < 0 || size < 0 || position > length - size) {
            throw new EOFException("read outside the file: file=" + path + " offset=" + position + " length=" + size
                    + " fileSize=" + length);
        }
        if (positioned) {
            try {
                readPositioned(position, destination);
                return;
            } catch (UnsupportedOperationException refused) {
                positioned = false; // a wrapper that declares the interface but whose stream cannot
            }
        }
        byte[] buffer = new byte[(int) Math.min(size, HEAP_BUFFER)];
        synchronized (in) {
            in.seek(position);
            for (long done = 0; done < size; ) {
                int n = (int) Math.min(buffer.length, size - done);
                for (int got = 0; got < n; ) {
                    int r = in.read(buffer, got, n - got);
                    if (r < 0) {
                        throw eof(position, size, position + done + got);
                    }
                    got += r;
                }
                MemorySegment.copy(MemorySegment.ofArray(buffer), 0, destination, done, n);
                done += n;
            }
        }
    }

    private void readPositioned(long position, MemorySegment destination) throws IOException {
        ByteBufferReadable readable = (ByteBufferReadable) in;
        long size = destination.byteSize();
        for (long done = 0; done < size; ) {
            ByteBuffer piece = destination.asSlice(done, Math.min(MAX_PIECE, size - done)).asByteBuffer();
            int idle = 0;
            while (piece.hasRemaining()) {
                int r = readable.read(position + done + piece.position(), piece);
                if (r < 0) {
                    throw eof(position, size, position + done + piece.position());
                }
                if (r == 0 && ++idle > MAX_IDLE_READS) {
                    throw new IOException("stream makes no progress: file=" + path + " offset=" + position
                            + " length=" + size + " at=" + (position + done + piece.position()) + " zeroReads="
                            + idle);
                }
            }
            done += piece.capacity();
        }
    }

    private EOFException eof(long position, long size, long at) {
        return new EOFException("file ended inside a read: file=" + path + " offset=" + position + " length=" + size
                + " endedAt=" + at + " fileSize=" + length);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
