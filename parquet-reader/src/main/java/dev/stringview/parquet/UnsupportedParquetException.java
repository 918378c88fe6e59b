package dev.stringview.parquet;

/**
 * A well-formed file, or column, this reader does not read: nested or repeated columns, columns that are not
 * BYTE_ARRAY, encrypted files, an encoding that BYTE_ARRAY columns cannot have, or LZO compression.
 */
public final class UnsupportedParquetException extends ParquetViewException {
    private static final long serialVersionUID = 1L;

    public UnsupportedParquetException(String reason, String file, String column, int rowGroup, int page,
            String details) {
        super(reason, file, column, rowGroup, page, details, null);
    }
}
