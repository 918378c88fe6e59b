/**
 * Parquet pages read into view columns without copying string bytes, and into Arrow fixed-width columns for every
 * other flat type. Only {@code dev.stringview.parquet} is exported; decoders, page readers, the filter's pruning and
 * the read plan stay in {@code dev.stringview.parquet.internal}.
 *
 * <p>parquet-java (footer, schema and column-chunk metadata) and Hadoop's client API are not required here: their
 * jars split packages between them (parquet-column, parquet-common and parquet-hadoop all hold
 * {@code org.apache.parquet.io} or {@code org.apache.parquet}), so they cannot be modules side by side. On the module
 * path they stay on the class path and this module reads them from there:
 * {@code --add-reads dev.stringview.parquet=ALL-UNNAMED} (docs/architecture.md, "Build notes").
 */
module dev.stringview.parquet {
    requires transitive dev.stringview;
    // aircompressor-v3 and brotli's decoder declare no module names: these are the automatic ones their jar file
    // names give.
    requires aircompressor.v3;
    requires dec;

    exports dev.stringview.parquet;
}
