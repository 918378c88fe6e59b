package dev.stringview.parquet;

import java.io.IOException;

/**
 * A Parquet file this reader cannot turn into view columns. The message starts with the reason and then names
 * where, in {@code key=value} form: {@code file}, and when known {@code column}, {@code rowGroup} and
 * {@code page} (the page's index within its column chunk, the dictionary page included), followed by the
 * numbers at fault.
 */
public sealed class ParquetViewException extends IOException
        permits CorruptParquetException, UnsupportedParquetException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final String column;
    private final int rowGroup;
    private final int page;

    ParquetViewException(String reason, String file, String column, int rowGroup, int page, String details,
            Throwable cause) {
        super(format(reason, file, column, rowGroup, page, details), cause);
        this.file = file;
        this.column = column;
        this.rowGroup = rowGroup;
        this.page = page;
    }

    static String format(String reason, String file, String column, int rowGroup, int page, String details) {
        StringBuilder sb = new StringBuilder(reason).append(": file=").append(file);
        if (column != null) {
            sb.append(" column=").append(column);
        }
        if (rowGroup >= 0) {
            sb.append(" rowGroup=").append(rowGroup);
        }
        if (page >= 0) {
            sb.append(" page=").append(page);
        }
        if (details != null && !details.isEmpty()) {
            sb.append(' ').append(details);
        }
        return sb.toString();
    }

    /** The file name (without directories). */
    public String file() {
        return file;
    }

    /** The column, or null when the problem is not a column's (the footer, the file as a whole). */
    public String column() {
        return column;
    }

    /** The row group, or -1. */
    public int rowGroup() {
        return rowGroup;
    }

    /** The page within the column chunk (0 is the first page, the dictionary page if there is one), or -1. */
    public int page() {
        return page;
    }
}
