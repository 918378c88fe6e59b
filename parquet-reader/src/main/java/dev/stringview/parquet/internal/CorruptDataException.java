package dev.stringview.parquet.internal;

/**
 * Thrown by decoders for bytes that break the Parquet format. The message holds the details in
 * {@code key=value} form; {@link ColumnChunkReader} adds the file, column, row group and page and turns it into a
 * checked {@link dev.stringview.parquet.CorruptParquetException}.
 */
public final class CorruptDataException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CorruptDataException(String message) {
        super(message, null, false, false);
    }

    public CorruptDataException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
