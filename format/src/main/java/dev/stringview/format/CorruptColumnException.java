package dev.stringview.format;

import java.io.IOException;

/**
 * Serialized column bytes that cannot be read: a truncated stream, a bad magic, version or type name, sizes that
 * do not add up to the chars length, counts or lengths that break the format's limits, a codec stream that does
 * not decode, or invalid UTF-8 in a UTF-8 column. The message is one line of {@code key=value} pairs naming the
 * block, the row (-1 when the fault is not in one row) and the field.
 */
public final class CorruptColumnException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long block;
    private final long row;
    private final String field;

    public CorruptColumnException(long block, long row, String field, String detail) {
        super("corrupt serialized column: block=" + block + " row=" + row + " field=" + field + " " + detail);
        this.block = block;
        this.row = row;
        this.field = field;
    }

    /** The block at fault, counted from 0; -1 for the file header. */
    public long block() {
        return block;
    }

    /** The row (of the whole column) at fault, or -1 when the fault is not in one row. */
    public long row() {
        return row;
    }

    /** The field at fault, e.g. {@code magic}, {@code rows}, {@code validity}, {@code sizes}, {@code chars}. */
    public String field() {
        return field;
    }
}
