package dev.stringview.parquet.internal;

import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The bytes of a segment from {@code position} up to {@code limit} as an {@link InputStream}, for readers that only
 * take streams (the brotli decoder, parquet-java's Thrift header reader).
 */
final class SegmentInputStream extends InputStream {
    private final MemorySegment data;
    private final long limit;
    private long position;

    SegmentInputStream(MemorySegment data) {
        this(data, 0, data.byteSize());
    }

    SegmentInputStream(MemorySegment data, long position, long limit) {
        this.data = data;
        this.position = position;
        this.limit = limit;
    }

    /** The offset in the segment of the next byte to read. */
    long position() {
        return position;
    }

    @Override
    public int read() {
        return position < limit ? data.get(ValueLayout.JAVA_BYTE, position++) & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        int n = read(data, position, limit, b, off, len);
        if (n > 0) {
            position += n;
        }
        return n;
    }

    /**
     * Copies up to {@code len} bytes of {@code data} from {@code position} (bytes from {@code limit} on excluded)
     * into {@code b}, as {@link InputStream#read(byte[], int, int)}: how many, or -1 if none are left.
     */
    static int read(MemorySegment data, long position, long limit, byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        long left = limit - position;
        if (left <= 0) {
            return -1;
        }
        int n = (int) Math.min(len, left);
        MemorySegment.copy(data, ValueLayout.JAVA_BYTE, position, b, off, n);
        return n;
    }
}
