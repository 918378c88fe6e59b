package dev.stringview.parquet.internal;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A parquet-java {@link InputFile} over the last bytes of a file held in a segment (the whole file when it is
 * memory-mapped; the tail read for the footer otherwise), so parquet-java reads the footer without Hadoop's
 * FileSystem (which fails on JDK 23+) and without LocalInputFile's temporary arrays. Positions are the file's;
 * the segment holds {@code [fileLength - segment size, fileLength)}, and a read before that is an
 * {@link EOFException}.
 */
public final class SegmentInputFile implements InputFile {
    private final MemorySegment tail;
    private final long base;

    /** The whole file. */
    public SegmentInputFile(MemorySegment file) {
        this(file, 0);
    }

    /** {@code tail} holds the file's bytes from {@code base} to its end. */
    public SegmentInputFile(MemorySegment tail, long base) {
        this.tail = tail;
        this.base = base;
    }

    @Override
    public long getLength() {
        return base + tail.byteSize();
    }

    @Override
    public SeekableInputStream newStream() {
        return new Stream(tail, base);
    }

    private static final class Stream extends SeekableInputStream {
        private final MemorySegment data;
        private final long base;
        private long position; // within data

        Stream(MemorySegment data, long base) {
            this.data = data;
            this.base = base;
        }

        @Override
        public long getPos() {
            return base + position;
        }

        @Override
        public void seek(long newPos) throws IOException {
            if (newPos < base || newPos - base > data.byteSize()) {
                throw new EOFException("seek outside the bytes read: position=" + newPos + " from=" + base
                        + " fileSize=" + (base + data.byteSize()));
            }
            position = newPos - base;
        }

        @Override
        public int read() {
            if (position >= data.byteSize()) {
                return -1;
            }
            return data.get(ValueLayout.JAVA_BYTE, position++) & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int n = SegmentInputStream.read(data, position, data.byteSize(), b, off, len);
            if (n > 0) {
                position += n;
            }
            return n;
        }

        @Override
        public void readFully(byte[] bytes) throws IOException {
            readFully(bytes, 0, bytes.length);
        }

        @Override
        public void readFully(byte[] bytes, int start, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(start, len, bytes.length);
            if (len > data.byteSize() - position) {
                throw new EOFException("read beyond end of file: position=" + position + " length=" + len
                        + " fileSize=" + data.byteSize());
            }
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, position, bytes, start, len);
            position += len;
        }

        @Override
        public int read(ByteBuffer buf) {
            int len = buf.remaining();
            if (len == 0) {
                return 0;
            }
            long left = data.byteSize() - position;
            if (left <= 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            MemorySegment.ofBuffer(buf).copyFrom(data.asSlice(position, n));
            buf.position(buf.position() + n);
            position += n;
            return n;
        }

        @Override
        public void readFully(ByteBuffer buf) throws IOException {
            int len = buf.remaining();
            if (len > data.byteSize() - position) {
                throw new EOFException("read beyond end of file: position=" + position + " length=" + len
                        + " fileSize=" + data.byteSize());
            }
            read(buf);
        }

        @Override
        public long skip(long n) {
            long k = Math.max(0, Math.min(n, data.byteSize() - position));
            position += k;
            return k;
        }
    }
}
