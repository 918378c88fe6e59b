package dev.stringview.parquet;

import org.apache.parquet.compression.CompressionCodecFactory;

/** Gives tests in other packages the test codecs. */
public final class TestCodecsAccess {
    public CompressionCodecFactory codecs() {
        return new TestCodecs();
    }
}
