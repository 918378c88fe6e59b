package dev.stringview.parquet;

import dev.stringview.ViewKind;

/**
 * A top-level BYTE_ARRAY column the reader can read.
 *
 * @param name the column's name in the schema
 * @param kind {@link ViewKind#UTF8} for STRING (UTF8), ENUM and JSON annotations, {@link ViewKind#BINARY} for the
 *     rest (no annotation, BSON, and other annotations of BYTE_ARRAY such as DECIMAL, read as their raw bytes)
 * @param optional whether the column may hold nulls (then batches carry a validity bitmap when a null occurs)
 * @param logicalType the annotation as parquet-java prints it, or {@code "none"}
 */
public record ParquetColumn(String name, ViewKind kind, boolean optional, String logicalType) {}
