/**
 * Off-heap string-view columns (Arrow Utf8View / BinaryView layout) on the Foreign Function & Memory API.
 * {@code dev.stringview} is the API. {@code dev.stringview.internal.reader} holds what the project's own readers
 * need from core (inline views from sizes and chars, the substring screen over a whole page, the view words of an
 * inline value) and is exported to those modules only; {@code dev.stringview.internal} is not exported.
 */
module dev.stringview {
    exports dev.stringview;
    exports dev.stringview.internal.reader to dev.stringview.format, dev.stringview.parquet;
}
