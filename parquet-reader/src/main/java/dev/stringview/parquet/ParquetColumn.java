package dev.stringview.parquet;

import dev.stringview.ViewKind;

/**
 * A flat (top-level, not repeated) column the reader can read.
 *
 * @param name the column's name in the schema
 * @param kind for columns read as views, {@link ViewKind#UTF8} for STRING (UTF8), ENUM and JSON annotations and
 *     {@link ViewKind#BINARY} for the rest of BYTE_ARRAY (no annotation, BSON, ...); null for columns read as
 *     {@link FixedWidthColumn}s ({@code type().isFixedWidth()}: every other physical type, and DECIMAL)
 * @param optional whether the column may hold nulls (then batches carry a validity bitmap when a null occurs)
 * @param logicalType the annotation as parquet-java prints it, or {@code "none"}
 * @param type its physical and logical type
 */
public record ParquetColumn(String name, ViewKind kind, boolean optional, String logicalType, ParquetType type) {

    /** Whether batches hold this column as a {@link FixedWidthColumn} rather than a view column. */
    public boolean isFixedWidth() {
        return type.isFixedWidth();
    }
}
