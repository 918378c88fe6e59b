package dev.stringview.parquet;

/**
 * The file breaks the Parquet format: bad lengths, short pages, bad level runs, a malformed dictionary, a bad
 * checksum, a truncated file, invalid UTF-8 in a string column, and the like.
 */
public final class CorruptParquetException extends ParquetViewException {
    private static final long serialVersionUID = 1L;

    public CorruptParquetException(String reason, String file, String column, int rowGroup, int page,
            String details, Throwable cause) {
        super(reason, file, column, rowGroup, page, details, cause);
    }
}
