package dev.stringview.arrow;

/**
 * Arrow data that stringview refuses: a view or offset out of range, a bad prefix or padding, invalid UTF-8, a
 * C Data struct with a wrong buffer count, a null buffer, short sizes or a release already called, a truncated or
 * inconsistent IPC message. The message names where (batch, column, row, field, buffer) with every number, in
 * {@code key=value} form; a {@link dev.stringview.ViewFormatException} cause names the row and field alone.
 */
public final class ArrowDataException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ArrowDataException(String message) {
        super(message);
    }

    public ArrowDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
