package dev.stringview;

/**
 * Views or buffers that break the Utf8View / BinaryView rules: an out-of-range buffer index or offset, a
 * prefix that differs from the value's first bytes, non-zero inline padding, a negative length or invalid
 * UTF-8. The message names the row and the field with every number, in {@code key=value} form.
 */
public final class ViewFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final long row;
    private final String field;

    public ViewFormatException(long row, String field, String detail) {
        super("invalid view: row=" + row + " field=" + field + " " + detail);
        this.row = row;
        this.field = field;
    }

    /** The row whose view is invalid. */
    public long row() {
        return row;
    }

    /** The view field at fault: {@code length}, {@code bufferIndex}, {@code offset}, {@code prefix}, {@code padding} or {@code utf8}. */
    public String field() {
        return field;
    }
}
