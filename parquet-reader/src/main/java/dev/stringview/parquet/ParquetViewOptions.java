package dev.stringview.parquet;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * How a {@link ParquetViewReader} reads. Immutable; the {@code with...} methods return modified copies.
 *
 * @param columns the columns to read, by name, in this order; empty means every top-level column this reader
 *     can read (flat BYTE_ARRAY columns), skipping the others; a column named here that it cannot read is an error
 * @param batchSize rows per batch (a batch never spans row groups, so the last batch of a row group may be
 *     shorter)
 * @param validateUtf8 check that string columns hold well-formed UTF-8 (on by default; turn off only for trusted
 *     files)
 * @param verifyChecksums check page CRCs where the writer stored them (on by default)
 * @param maxPageBytes the largest buffer one page may need (a decompressed page, or the values of a
 *     DELTA_BYTE_ARRAY page rebuilt): larger pages are refused as corrupt rather than allocated
 * @param nativeDecompression decompress SNAPPY, ZSTD and LZ4 pages with the native libraries bundled in
 *     aircompressor-v3 (called through the FFM API, no JNI) when the JVM grants native access to the class path
 *     ({@code --enable-native-access=ALL-UNNAMED}); otherwise, or when this is off, aircompressor's pure-Java
 *     decoders are used. On by default: without native access granted it changes nothing.
 * @param batchScopedMemory free each batch when the next one is read, instead of keeping everything until the
 *     caller's arena closes. Off by default. When on, a batch (its views, validity, decompressed pages,
 *     dictionaries and rebuilt values) is valid only until the next {@link ParquetViewReader#nextBatch()} or
 *     {@link ParquetViewReader#close()}; reading it later throws {@link IllegalStateException}. Memory then stays
 *     at about one batch and a few pages per column however long the file. The memory is confined to the thread
 *     that opened the reader: it must read the batches, call {@code nextBatch} and close the reader (another thread
 *     gets {@link WrongThreadException}), and only closing the reader frees it. The mapped file still belongs to
 *     the caller's arena.
 * @param prefetch where to read the next row groups' column chunks from a source that is not in memory while the
 *     current one is decoded ({@link ParquetViewReader#open(ParquetSource, java.lang.foreign.Arena,
 *     ParquetViewOptions)}); null (the default) reads each row group when the reader reaches it. The reader starts
 *     no thread of its own. Only with {@link #batchScopedMemory()}: with arena-scoped memory the chunks live in the
 *     caller's arena, which may be confined to the caller's thread, so the reader reads on its own thread.
 * @param maxRowGroupsInMemory with batch-scoped memory, the most row groups of column chunks held at once: the
 *     one being decoded and those prefetched (at least 1, default 2). With arena-scoped memory the chunks live in
 *     the caller's arena and only the read-ahead is bounded by it.
 * @param splitStart with {@code splitLength}, the byte range of the file this reader reads, as an engine's file
 *     split gives it: only the row groups whose midpoint (their first column chunk's start plus half their
 *     compressed size, as parquet-java and Spark's reader decide) lies in {@code [splitStart, splitStart +
 *     splitLength)}. Every row group belongs to exactly one split of a file cut into adjacent ranges. Default
 *     {@code 0} and {@link Long#MAX_VALUE}: the whole file.
 * @param splitLength see {@code splitStart}
 * @param filter if not null, row groups whose metadata (statistics, bloom filters, dictionaries) proves that
 *     {@code filter} is TRUE on none of their rows are not read. The row groups that are read come back whole:
 *     evaluate the filter on each batch with {@link BatchFilter}. Its columns need not be projected.
 */
public record ParquetViewOptions(List<String> columns, int batchSize, boolean validateUtf8, boolean verifyChecksums,
        long maxPageBytes, boolean nativeDecompression, boolean batchScopedMemory, Executor prefetch,
        int maxRowGroupsInMemory, long splitStart, long splitLength, RowFilter filter) {

    public static final int DEFAULT_BATCH_SIZE = 8192;
    public static final long DEFAULT_MAX_PAGE_BYTES = 256L << 20;
    public static final int DEFAULT_MAX_ROW_GROUPS_IN_MEMORY = 2;

    public ParquetViewOptions {
        columns = List.copyOf(Objects.requireNonNull(columns, "columns"));
        if (batchSize <= 0) {
            throw new IllegalArgumentException("batch size must be positive: batchSize=" + batchSize);
        }
        if (maxPageBytes <= 0 || maxPageBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("maxPageBytes out of range: maxPageBytes=" + maxPageBytes
                    + " max=" + Integer.MAX_VALUE);
        }
        if (maxRowGroupsInMemory < 1) {
            throw new IllegalArgumentException("maxRowGroupsInMemory must be positive: maxRowGroupsInMemory="
                    + maxRowGroupsInMemory);
        }
        if (splitStart < 0 || splitLength < 0) {
            throw new IllegalArgumentException("split out of range: splitStart=" + splitStart + " splitLength="
                    + splitLength);
        }
    }

    /**
     * Every readable column, 8192-row batches, UTF-8 validation and checksum verification on, pages up to 256 MiB,
     * native decompression where the JVM allows it, batches valid as long as the caller's arena.
     */
    public static ParquetViewOptions defaults() {
        return new ParquetViewOptions(List.of(), DEFAULT_BATCH_SIZE, true, true, DEFAULT_MAX_PAGE_BYTES,
                true, false, null, DEFAULT_MAX_ROW_GROUPS_IN_MEMORY, 0, Long.MAX_VALUE, null);
    }

    public ParquetViewOptions withColumns(String... names) {
        return new ParquetViewOptions(List.of(names), batchSize, validateUtf8, verifyChecksums, maxPageBytes,
                nativeDecompression, batchScopedMemory, prefetch, maxRowGroupsInMemory, splitStart, splitLength, filter);
    }

    public ParquetViewOptions withColumns(List<String> names) {
        return new ParquetViewOptions(names, batchSize, validateUtf8, verifyChecksums, maxPageBytes,
                nativeDecompression, batchScopedMemory, prefetch, maxRowGroupsInMemory, splitStart, splitLength, filter);
    }

    public ParquetViewOptions withBatchSize(int rows) {
        return new ParquetViewOptions(columns, rows, validateUtf8, verifyChecksums, maxPageBytes,
                nativeDecompression, batchScopedMemory, prefetch, maxRowGroupsInMemory, splitStart, splitLength, filter);
    }

    public ParquetViewOptions withUtf8Validation(boolean enabled) {
        return new ParquetViewOptions(columns, batchSize, enabled, verifyChecksums, maxPageBytes,
                nativeDecompression, batchScopedMemory, prefetch, maxRowGroupsInMemory, splitStart, splitLength, filter);
    }

    public ParquetViewOptions withChecksumVerification(boolean enabled) {
        return new ParquetViewOptions(columns, batchSize, validateUtf8, enabled, maxPageBytes,
                nativeDecompression, batchScopedMemory, prefetch, maxRowGroupsInMemory, splitStart, splitLength, filter);
    }

    public ParquetViewOptions withMaxPageBytes(long bytes) {
        return new ParquetViewOptions(columns, batchSize, validateUtf8, verifyChecksums, bytes,
                nativeDecompression, batchScopedMemory, prefetch, maxRowGroupsInMemory, splitStart, splitLength, filter);
    }

    public ParquetViewOptions withNativeDecompression(boolean enabled) {
        return new ParquetViewOptions(columns, batchSize, validateUtf8, verifyChecksums, maxPageBytes,
                enabled, batchScopedMemory, prefetch, maxRowGroupsInMemory, splitStart, splitLength, filter);
    }

    /** See {@link #batchScopedMemory()}: each batch is freed when the next one is read. */
    public ParquetViewOptions withBatchScopedMemory(boolean enabled) {
        return new ParquetViewOptions(columns, batchSize, validateUtf8, verifyChecksums, maxPageBytes,
                nativeDecompression, enabled, prefetch, maxRowGroupsInMemory, splitStart, splitLength, filter);
    }

    /** See {@link #prefetch()}: read the next row groups on {@code executor} (null: no prefetch). */
    public ParquetViewOptions withPrefetch(Executor executor) {
        return new ParquetViewOptions(columns, batchSize, validateUtf8, verifyChecksums, maxPageBytes,
                nativeDecompression, batchScopedMemory, executor, maxRowGroupsInMemory, splitStart, splitLength, filter);
    }

    /** See {@link #maxRowGroupsInMemory()}. */
    public ParquetViewOptions withMaxRowGroupsInMemory(int rowGroups) {
        return new ParquetViewOptions(columns, batchSize, validateUtf8, verifyChecksums, maxPageBytes,
                nativeDecompression, batchScopedMemory, prefetch, rowGroups, splitStart, splitLength, filter);
    }

    /**
     * See {@link #splitStart()}: read only the row groups whose midpoint lies in {@code [start, start + length)}.
     */
    public ParquetViewOptions withSplit(long start, long length) {
        return new ParquetViewOptions(columns, batchSize, validateUtf8, verifyChecksums, maxPageBytes,
                nativeDecompression, batchScopedMemory, prefetch, maxRowGroupsInMemory, start, length, filter);
    }

    /** See {@link #filter()}: skip the row groups that {@code filter}'s pruning proves empty (null: none). */
    public ParquetViewOptions withFilter(RowFilter filter) {
        return new ParquetViewOptions(columns, batchSize, validateUtf8, verifyChecksums, maxPageBytes,
                nativeDecompression, batchScopedMemory, prefetch, maxRowGroupsInMemory, splitStart, splitLength,
                filter);
    }

    /** Whether row group bytes {@code [start, start + length)} belong to this split, by their midpoint. */
    boolean splitHolds(long start, long length) {
        long midpoint = start + length / 2;
        return midpoint >= splitStart && midpoint - splitStart < splitLength;
    }
}
