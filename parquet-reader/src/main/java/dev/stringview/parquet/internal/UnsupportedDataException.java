package dev.stringview.parquet.internal;

/** A well-formed page this reader does not decode; {@link ColumnChunkReader} adds where and rethrows it checked. */
public final class UnsupportedDataException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnsupportedDataException(String message) {
        super(message, null, false, false);
    }
}
