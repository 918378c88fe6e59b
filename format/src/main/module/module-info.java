/**
 * A serialized string column format (seed 003: separated sizes and chars streams, and the legacy size-prefix
 * layout) read into view columns. Only {@code dev.stringview.format} is exported; the codecs and byte sources stay
 * in {@code dev.stringview.format.internal}.
 */
module dev.stringview.format {
    requires transitive dev.stringview;
    // aircompressor-v3 declares no module name: this is the automatic one its jar file name gives.
    requires aircompressor.v3;

    exports dev.stringview.format;
}
