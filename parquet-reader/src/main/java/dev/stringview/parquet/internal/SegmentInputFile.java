package dev.stringview.parquet.internal;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A parquet-java {@link InputFile} over a memory-mapped file segment, so parquet-java reads the footer without
 * Hadoop's FileSystem (which fails on JDK 23+) and without LocalInputFile's temporary arrays.
 */
public final class SegmentInputFile implements InputFile {
    private final MemorySegment file;

    public SegmentInputFile(MemorySegment file) {
        this.file = file;
    }

    @Override
    public long getLength() {
        return file.byteSize();
    }

    @Override
    public SeekableInputStream newStream() {
        return new Stream(file);
    }

    private static final class Stream extends SeekableInputStream {
        private final MemorySegment data;
        private long position;

        Stream(MemorySegment data) {
            this.data = data;
        }

        @Override
        public long getPos() {
            return position;
        }

        @Override
        public void seek(long newPos) throws IOException {
            if (newPos < 0 || newPos > data.byteSize()) {
                throw new EOFException("seek outside file: position=" + newPos + " fileSize=" + data.byteSize());
            }
            position = newPos;
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
