package dev.stringview.parquet;

/**
 * What a reader (with the parts a scan splits it into) asked of its {@link ParquetSource} so far.
 *
 * @param requests positioned reads sent to the source (a coalesced range is one request)
 * @param bytesRead bytes those reads returned, the gaps merged into coalesced ranges included
 * @param bytesSkipped bytes of the row groups read that were not read: the chunks of columns outside the projection
 *     and gaps too large to merge; plus every byte of the row groups a scan skipped whole
 */
public record ReadCounters(long requests, long bytesRead, long bytesSkipped) {
    @Override
    public String toString() {
        return "requests=" + requests + " bytesRead=" + bytesRead + " bytesSkipped=" + bytesSkipped;
    }
}
