package dev.stringview.flink.internal;

import java.io.Serializable;

/**
 * The format's options, as the task managers need them.
 *
 * @param batchSize rows per batch read from a row group; the filter runs on a batch at a time
 * @param validateUtf8 validate STRING values as UTF-8 while reading
 * @param utcTimestamp Flink's {@code utc-timezone}: TIMESTAMP values are the stored instant's UTC wall clock (else
 *     the JVM's time zone's, Flink's default)
 */
public record ReadSettings(int batchSize, boolean validateUtf8, boolean utcTimestamp) implements Serializable {
    public ReadSettings {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch-size must be positive: batch-size=" + batchSize);
        }
    }
}
