package dev.stringview;

/** The two flavours of view column; they share the layout and differ in what the bytes must be. */
public enum ViewKind {
    /** Arrow Utf8View: every value is well-formed UTF-8 (checked on construction unless trusted). */
    UTF8,
    /** Arrow BinaryView: arbitrary bytes. */
    BINARY
}
