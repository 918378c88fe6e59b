package dev.stringview.parquet.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A bounds-checked reader of the Thrift compact protocol over {@code [position, limit)} of a segment, enough for
 * Parquet page headers. Nothing is allocated from sizes read off the wire: skipped binaries and containers only
 * advance the position, and every container element costs at least one byte, so a forged size cannot make the
 * reader loop or allocate beyond the bytes it has.
 */
final class ThriftCompactReader {
    static final int STOP = 0;
    static final int BOOLEAN_TRUE = 1;
    static final int BOOLEAN_FALSE = 2;
    static final int BYTE = 3;
    static final int I16 = 4;
    static final int I32 = 5;
    static final int I64 = 6;
    static final int DOUBLE = 7;
    static final int BINARY = 8;
    static final int LIST = 9;
    static final int SET = 10;
    static final int MAP = 11;
    static final int STRUCT = 12;

    private static final int MAX_DEPTH = 64;

    private final MemorySegment data;
    private final long start;
    private final long limit;
    private long position;

    ThriftCompactReader(MemorySegment data, long position, long limit) {
        if (position < 0 || limit < position || limit > data.byteSize()) {
            throw new CorruptDataException("thrift range outside data: position=" + position + " limit=" + limit
                    + " size=" + data.byteSize());
        }
        this.data = data;
        this.start = position;
        this.position = position;
        this.limit = limit;
    }

    long position() {
        return position;
    }

    /** A field header: {@code type | id << 8}, or {@link #STOP} (0) at the end of a struct. */
    int readFieldHeader(int previousId) {
        int b = readByte() & 0xFF;
        if (b == STOP) {
            return STOP;
        }
        int type = b & 0x0F;
        int delta = b >>> 4;
        int id;
        if (delta != 0) {
            id = previousId + delta;
        } else {
            long raw = readVarint(3);
            id = (int) zigzag(raw);
        }
        if (type < BOOLEAN_TRUE || type > STRUCT) {
            throw corrupt("unknown thrift field type: type=" + type + " fieldId=" + id);
        }
        if (id < Short.MIN_VALUE || id > Short.MAX_VALUE) {
            throw corrupt("thrift field id out of range: fieldId=" + id);
        }
        return type | (id << 8);
    }

    int readI32(int type) {
        if (type != I32 && type != I16 && type != BYTE) {
            throw corrupt("thrift field is not an integer: type=" + type);
        }
        if (type == BYTE) {
            return readByte();
        }
        long value = zigzag(readVarint(5));
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw corrupt("thrift i32 out of range: value=" + value);
        }
        return (int) value;
    }

    boolean readBool(int type) {
        if (type == BOOLEAN_TRUE) {
            return true;
        }
        if (type == BOOLEAN_FALSE) {
            return false;
        }
        throw corrupt("thrift field is not a boolean: type=" + type);
    }

    /** Skips a value of {@code type}. */
    void skip(int type) {
        skip(type, 0, false);
    }

    /** Skips the rest of a struct whose previous field id was {@code previousId}. */
    void skipStructRest(int previousId, int depth) {
        int id = previousId;
        while (true) {
            int header = readFieldHeader(id);
            if (header == STOP) {
                return;
            }
            id = header >> 8;
            skip(header & 0xFF, depth + 1, false);
        }
    }

    private void skip(int type, int depth, boolean inContainer) {
        if (depth > MAX_DEPTH) {
            throw corrupt("thrift nesting too deep: depth=" + depth + " max=" + MAX_DEPTH);
        }
        switch (type) {
            case BOOLEAN_TRUE, BOOLEAN_FALSE -> {
                if (inContainer) {
                    readByte(); // container booleans take one byte each
                }
            }
            case BYTE -> readByte();
            case I16 -> readVarint(3);
            case I32 -> readVarint(5);
            case I64 -> readVarint(10);
            case DOUBLE -> advance(8);
            case BINARY -> {
                long length = readVarint(5);
                if (length > Integer.MAX_VALUE) {
                    throw corrupt("thrift binary length out of range: length=" + length);
                }
                advance(length);
            }
            case LIST, SET -> {
                int header = readByte() & 0xFF;
                long size = header >>> 4;
                int elementType = header & 0x0F;
                if (size == 15) {
                    size = readVarint(5);
                }
                checkContainerSize(size, 1);
                for (long i = 0; i < size; i++) {
                    skip(elementType, depth + 1, true);
                }
            }
            case MAP -> {
                long size = readVarint(5);
                if (size > 0) {
                    int types = readByte() & 0xFF;
                    checkContainerSize(size, 2);
                    for (long i = 0; i < size; i++) {
                        skip(types >>> 4, depth + 1, true);
                        skip(types & 0x0F, depth + 1, true);
                    }
                }
            }
            case STRUCT -> skipStructRest(0, depth);
            default -> throw corrupt("unknown thrift type: type=" + type);
        }
    }

    private void checkContainerSize(long size, int minBytesPerElement) {
        if (size * minBytesPerElement > limit - position) {
            throw corrupt("thrift container larger than the bytes left: size=" + size + " bytesLeft="
                    + (limit - position));
        }
    }

    private byte readByte() {
        if (position >= limit) {
            throw corrupt("thrift data ends early");
        }
        return data.get(ValueLayout.JAVA_BYTE, position++);
    }

    private void advance(long bytes) {
        if (bytes < 0 || bytes > limit - position) {
            throw corrupt("thrift data ends early: need=" + bytes + " bytesLeft=" + (limit - position));
        }
        position += bytes;
    }

    private long readVarint(int maxBytes) {
        long result = 0;
        for (int i = 0; i < maxBytes; i++) {
            int b = readByte() & 0xFF;
            result |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw corrupt("thrift varint too long: maxBytes=" + maxBytes);
    }

    private static long zigzag(long n) {
        return (n >>> 1) ^ -(n & 1);
    }

    private CorruptDataException corrupt(String what) {
        return new CorruptDataException("bad page header: " + what + " headerOffset=" + start + " at=" + position);
    }
}
