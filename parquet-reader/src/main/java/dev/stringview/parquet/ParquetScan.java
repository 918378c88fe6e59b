package dev.stringview.parquet;

import dev.stringview.ViewColumn;
import dev.stringview.internal.reader.SubstringSearch;
import dev.stringview.parquet.internal.BloomFilters;
import dev.stringview.parquet.internal.BoundFilter;
import dev.stringview.parquet.internal.ColumnChunkReader;
import dev.stringview.parquet.internal.FilterBounds;
import dev.stringview.parquet.internal.FixedValues;
import dev.stringview.parquet.internal.RangeReads;
import dev.stringview.parquet.internal.ScanSwitches;
import dev.stringview.parquet.internal.PageHeader;
import dev.stringview.parquet.internal.PageIndex;
import dev.stringview.parquet.internal.ValueDomain;
import java.io.IOException;
import java.math.BigDecimal;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.hadoop.metadata.IndexReference;

/**
 * A scan of one Parquet file with a {@link RowFilter}: counts, row selections or batches, always in file order and
 * equal to what one {@link ParquetViewReader} reading the file from start to end and evaluating the filter on every
 * row gives. Work runs on the caller's {@link Executor} ({@link #withExecutor}); without one, on the calling thread.
 * The scan starts no thread and makes no pool.
 *
 * <ul>
 *   <li><b>Pruning</b> (always on; the tests and benchmarks turn it off through {@code internal.ScanSwitches} to
 *       measure it). From the one filter expression, for every unit of rows
 *       (a row group, or a page range of a row group) the scan works out, leaf by leaf and then up the tree, whether
 *       the filter may be TRUE on some row of it; a unit where it cannot is not read. The facts come from the row
 *       group's column statistics (every physical type, in its logical type's order; unreliable bounds ignored), its
 *       bloom filters ({@code =} and {@code IN}), its dictionaries (a string leaf's predicate run once per entry,
 *       when every data page of the chunk is dictionary-encoded), and the page index (per page of each filter
 *       column). NOT and IS NULL are sound because each fact says both whether a leaf may be TRUE and whether it
 *       may be FALSE, using null counts. {@link #plan} tells what is read and skipped.
 *   <li><b>Work units.</b> {@link #count} and {@link #select} split the row groups left into units, and, for a filter
 *       on one column, a row group into ranges of its data pages when there are fewer row groups than about four
 *       per task (a file written with one large row group still uses every core) or the page index excludes
 *       pages. Chunks with DELTA_BYTE_ARRAY pages are not split (their first value may borrow from the page before,
 *       PARQUET-246). Each unit is read with batch-scoped memory by the task that runs it.
 *   <li><b>Deciding rows.</b> A filter that is one string leaf is decided while pages are decoded, without batches:
 *       on dictionary-encoded pages the predicate runs once per dictionary entry and each row costs a bit lookup on
 *       its id; on PLAIN pages a substring filter is one search over the page's bytes, each occurrence mapped back
 *       to the value holding it (docs/decisions/011).
 *       Any other filter is evaluated on batches of its columns, in three-valued logic.
 *   <li><b>Batches.</b> {@link #forEachBatch} reads the filter's columns first, evaluates the filter per batch, and
 *       reads the other projected columns only for batches with a passing row (late materialization): their data
 *       pages inside batches without one are passed over by header, never decompressed or decoded. Row groups are
 *       read by tasks on the executor, at most {@code parallelism} ahead of the consumer, each into an arena of its
 *       own, and handed to the consumer on the calling thread in file order. A batch is valid only during the call
 *       that receives it. Memory is bounded by about {@code parallelism + 1} row groups of the projected columns.
 * </ul>
 *
 * <p>The file is mapped once per call into a shared arena that the scan owns and closes before returning; nothing
 * the scan allocated outlives the call (copy survivors out with {@code ViewColumn.compact} inside the consumer to
 * keep them). Every task the scan submits has finished when a call returns or throws. The executor must be able to
 * run {@code parallelism} tasks while the calling thread waits for them (a pool the calling thread is not part of).
 */
public final class ParquetScan {
    static {
        ScanSwitches.register(new ScanSwitches.Access() {
            @Override
            public ParquetScan withPruning(ParquetScan scan, boolean enabled) {
                return scan.withPruning(enabled);
            }

            @Override
            public ParquetScan withPageSearch(ParquetScan scan, boolean enabled) {
                return scan.withPageSearch(enabled);
            }

            @Override
            public ParquetScan withDictionaryPerThread(ParquetScan scan, boolean enabled) {
                return scan.withDictionaryPerThread(enabled);
            }
        });
    }

    /** Opens the scanned file once per call: {@code (arena, options, exactly)} as the reader's package overload. */
    private interface Input {
        ParquetViewReader open(Arena arena, ParquetViewOptions options, List<String> exactly) throws IOException;

        /** What the calls read from the source so far (zeros for a memory-mapped file). */
        default ReadCounters counters() {
            return new ReadCounters(0, 0, 0);
        }

        /** Counts a row group skipped whole. */
        default void skipped(long bytes) {}
    }

    private final Input path;
    private final ParquetViewOptions options;
    private final Executor executor;
    private final int parallelism;
    private final boolean statistics;
    private final boolean bloomFilters;
    private final boolean pageIndex;
    private final boolean dictionaries;
    private final boolean pageFiltering;
    private final boolean pageSearch;
    /** Chunks with a dictionary page split into one unit per thread at most (decision record 024). */
    private final boolean dictionaryPerThread;

    private ParquetScan(Input path, ParquetViewOptions options, Executor executor, int parallelism,
            boolean statistics, boolean bloomFilters, boolean pageIndex, boolean dictionaries, boolean pageFiltering,
            boolean pageSearch, boolean dictionaryPerThread) {
        this.path = Objects.requireNonNull(path, "path");
        this.options = Objects.requireNonNull(options, "options");
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be positive: parallelism=" + parallelism);
        }
        this.executor = executor;
        this.parallelism = executor == null ? 1 : parallelism;
        this.statistics = statistics;
        this.bloomFilters = bloomFilters;
        this.pageIndex = pageIndex;
        this.dictionaries = dictionaries;
        this.pageFiltering = pageFiltering;
        this.pageSearch = pageSearch;
        this.dictionaryPerThread = dictionaryPerThread;
    }

    /** A scan of {@code path}: default read options, the calling thread only, all pruning on. */
    public static ParquetScan of(Path path) {
        Objects.requireNonNull(path, "path");
        return new ParquetScan((arena, options, exactly) -> ParquetViewReader.open(path, arena, options, exactly),
                ParquetViewOptions.defaults(), null, 1, true, true, true, true, true, true, true);
    }

    /**
     * A scan of the file {@code source} reads (a channel, HDFS, an object store: {@link ParquetSources}), as
     * {@link #of(Path)}. Each call reads the footer once, then each unit reads the chunks of its row group it needs
     * (the I/O plan of {@link ParquetViewReader#open(ParquetSource, Arena, ParquetViewOptions)}); from a source
     * that does not hold the file in memory a row group is a unit of its own, never cut into page ranges that would
     * each read the chunk again. The source stays the caller's and must allow concurrent reads.
     */
    public static ParquetScan of(ParquetSource source) {
        Objects.requireNonNull(source, "source");
        RangeReads reads = new RangeReads(source);
        Input input = new Input() {
            @Override
            public ParquetViewReader open(Arena arena, ParquetViewOptions options, List<String> exactly)
                    throws IOException {
                return ParquetViewReader.open(reads, arena, options, exactly);
            }

            @Override
            public ReadCounters counters() {
                return reads.counters();
            }

            @Override
            public void skipped(long bytes) {
                reads.skipped(bytes);
            }
        };
        return new ParquetScan(input, ParquetViewOptions.defaults(), null, 1, true, true, true, true, true, true, true);
    }

    /**
     * What every call of this scan, and of the scans made from it by the {@code with} methods, read from its source
     * so far: requests, bytes read, and bytes not read (chunks outside the columns a unit needed, and row groups
     * skipped whole). Zeros for a scan of a memory-mapped {@link Path}, which reads through the mapping.
     */
    public ReadCounters readCounters() {
        return path.counters();
    }

    /**
     * Read options: batch size, UTF-8 validation, checksums, page limit, native decompression. The columns are the
     * scan's to choose and the memory mode is the scan's (see the class comment), so those two are ignored.
     */
    public ParquetScan withOptions(ParquetViewOptions readOptions) {
        return new ParquetScan(path, readOptions, executor, parallelism, statistics, bloomFilters, pageIndex,
                dictionaries, pageFiltering, pageSearch, dictionaryPerThread);
    }

    /**
     * Runs the scan's work as up to {@code parallelism} tasks at a time on {@code executor}, which the caller owns
     * (and shuts down). A null executor runs everything on the calling thread.
     */
    public ParquetScan withExecutor(Executor executor, int parallelism) {
        return new ParquetScan(path, options, executor, parallelism, statistics, bloomFilters, pageIndex,
                dictionaries, pageFiltering, pageSearch, dictionaryPerThread);
    }

    /**
     * Ablation for tests and benchmarks ({@link ScanSwitches}): whether to prune by metadata at all (on by
     * default): statistics, bloom filters, dictionaries and the page index. Off, every row group and page is read:
     * the reference that pruning is tested against.
     */
    ParquetScan withPruning(boolean enabled) {
        return new ParquetScan(path, options, executor, parallelism, enabled, enabled, enabled, enabled,
                pageFiltering, pageSearch, dictionaryPerThread);
    }

    /**
     * Ablation for tests and benchmarks ({@link ScanSwitches}): whether a single-leaf substring filter
     * ({@code CONTAINS}, or a LIKE {@code '%literal%'}) is decided on PLAIN pages by one search over each page's
     * bytes, each occurrence mapped back to the value holding it, with no view built (on by default). An occurrence
     * counts only if it lies wholly inside one value. Off, PLAIN pages are decoded into views and decided by the
     * predicate.
     */
    ParquetScan withPageSearch(boolean enabled) {
        return new ParquetScan(path, options, executor, parallelism, statistics, bloomFilters, pageIndex,
                dictionaries, pageFiltering, enabled, dictionaryPerThread);
    }

    /**
     * Ablation for benchmarks ({@link ScanSwitches}): whether a chunk that starts with a dictionary page is cut into
     * at most one unit per thread (on by default), since every unit decompresses and decodes the dictionary again
     * (and decides the predicate over it). Off, it is cut as finely as any other chunk.
     */
    ParquetScan withDictionaryPerThread(boolean enabled) {
        return new ParquetScan(path, options, executor, parallelism, statistics, bloomFilters, pageIndex,
                dictionaries, pageFiltering, pageSearch, enabled);
    }

    /** Ablation for tests: row-group statistics only. */
    ParquetScan withStatistics(boolean enabled) {
        return new ParquetScan(path, options, executor, parallelism, enabled, bloomFilters, pageIndex, dictionaries,
                pageFiltering, pageSearch, dictionaryPerThread);
    }

    /** Ablation for tests: bloom filters only. */
    ParquetScan withBloomFilters(boolean enabled) {
        return new ParquetScan(path, options, executor, parallelism, statistics, enabled, pageIndex, dictionaries,
                pageFiltering, pageSearch, dictionaryPerThread);
    }

    /** Ablation for tests: the page index only. */
    ParquetScan withPageIndex(boolean enabled) {
        return new ParquetScan(path, options, executor, parallelism, statistics, bloomFilters, enabled, dictionaries,
                pageFiltering, pageSearch, dictionaryPerThread);
    }

    /** Ablation for tests: dictionaries only. */
    ParquetScan withDictionaries(boolean enabled) {
        return new ParquetScan(path, options, executor, parallelism, statistics, bloomFilters, pageIndex, enabled,
                pageFiltering, pageSearch, dictionaryPerThread);
    }

    /**
     * Ablation for tests: off, a single string leaf is decided on batches of views like any other filter, instead
     * of while pages are decoded (dictionary ids, page search).
     */
    ParquetScan withPageFiltering(boolean enabled) {
        return new ParquetScan(path, options, executor, parallelism, statistics, bloomFilters, pageIndex,
                dictionaries, enabled, pageSearch, dictionaryPerThread);
    }

    /** Tasks run at a time (1 without an executor). */
    public int parallelism() {
        return parallelism;
    }

    /**
     * What a scan with a filter reads and what its metadata lets it skip, as {@link #plan} finds it.
     *
     * @param rowGroups the file's row groups
     * @param rowGroupsSkipped row groups not read: by statistics, bloom filters, dictionaries, or because the page
     *     index excludes every page
     * @param pagesRead data pages of the filter's column read (counted for a filter on one column only)
     * @param pagesSkipped data pages of that column the page index excludes, in row groups not skipped whole
     */
    public record Plan(int rowGroups, int rowGroupsSkipped, long pagesRead, long pagesSkipped) {
        @Override
        public String toString() {
            return "rowGroups=" + rowGroups + " rowGroupsSkipped=" + rowGroupsSkipped + " pagesRead=" + pagesRead
                    + " pagesSkipped=" + pagesSkipped;
        }
    }

    /**
     * What {@link #count} and {@link #select} with {@code filter} read and skip, found from the metadata, the
     * dictionaries and the page headers only (no data page is read).
     */
    public Plan plan(RowFilter filter) throws IOException {
        Objects.requireNonNull(filter, "filter");
        try (Arena arena = Arena.ofConfined(); ParquetViewReader file = openFor(filter, List.of(), arena)) {
            BoundFilter bound = bind(file, filter);
            long[] counts = new long[3];
            units(file, bound, counts);
            return new Plan(file.rowGroupCount(), (int) counts[0], counts[1], counts[2]);
        }
    }

    /** Delivers batches to {@link #forEachBatch}; the batch and the bitmap are valid only during the call. */
    @FunctionalInterface
    public interface BatchConsumer {
        /**
         * @param batch the projected columns of rows {@code [batch.firstRow(), + batch.rowCount())}
         * @param passing bit {@code r} ({@code passing[r / 64]}, bit {@code r % 64}) set where the filter is TRUE
         *     for row {@code r} of the batch; null when the scan has no filter (every row)
         */
        void accept(ViewBatch batch, long[] passing) throws IOException;
    }

    /**
     * The row groups a scan with {@code filter} reads, ascending: every row group minus those its metadata
     * (statistics, bloom filters, dictionaries, page index) proves hold no row where the filter is TRUE.
     */
    public List<Integer> rowGroupsToRead(RowFilter filter) throws IOException {
        Objects.requireNonNull(filter, "filter");
        try (Arena arena = Arena.ofConfined(); ParquetViewReader file = openFor(filter, List.of(), arena)) {
            return rowGroupsToRead(file, bind(file, filter));
        }
    }

    /** The number of rows where {@code filter} is TRUE. */
    public long count(RowFilter filter) throws IOException {
        long[][] parts = run(filter, false);
        long total = 0;
        for (long[] p : parts) {
            total += p[0];
        }
        return total;
    }

    /**
     * The number of rows of row group {@code rowGroup} where {@code filter} is TRUE, or of one slice of it, on the
     * calling thread (the executor does not apply): for engines that count row groups, or slices of one, as
     * separate tasks and add the counts up. For a filter on one column, the row group's data pages that the page
     * index keeps are cut into about {@code slices} ranges of similar value counts, as {@link #count} cuts them;
     * this counts the ranges {@code r} with {@code r % slices == slice}. So the counts of slices
     * {@code 0 .. slices-1} add up to the row group's count, whatever the file: a row group that cannot be cut
     * (a filter on several columns, one data page, DELTA_BYTE_ARRAY pages) is counted whole by slice 0, and a row
     * group that pruning rules out counts 0 in every slice.
     */
    public long countRowGroup(RowFilter filter, int rowGroup, int slice, int slices) throws IOException {
        Objects.requireNonNull(filter, "filter");
        if (slices < 1 || slice < 0 || slice >= slices) {
            throw new IllegalArgumentException("slice out of range: slice=" + slice + " slices=" + slices);
        }
        try (Arena mapping = Arena.ofConfined(); ParquetViewReader file = openFor(filter, List.of(), mapping)) {
            if (rowGroup < 0 || rowGroup >= file.rowGroupCount()) {
                throw new IllegalArgumentException("no such row group: file=" + file.fileName() + " rowGroup="
                        + rowGroup + " rowGroups=" + file.rowGroupCount());
            }
            BoundFilter bound = bind(file, filter);
            if (!mayPass(file, rowGroup, bound)) {
                return 0;
            }
            List<Unit> units = groupUnits(file, rowGroup, bound, slices, slices, null);
            long count = 0;
            for (int u = slice; u < units.size(); u += slices) {
                count += runUnit(file, units.get(u), bound, false)[0];
            }
            return count;
        }
    }

    /** The rows where {@code filter} is TRUE, as row numbers in the file (from 0), ascending. */
    public long[] select(RowFilter filter) throws IOException {
        long[][] parts = run(filter, true);
        int total = 0;
        for (long[] p : parts) {
            total = Math.addExact(total, p.length);
        }
        long[] rows = new long[total];
        int at = 0;
        for (long[] p : parts) {
            System.arraycopy(p, 0, rows, at, p.length);
            at += p.length;
        }
        return rows;
    }

    private ParquetViewOptions readOptions(List<String> columns) {
        return options.withColumns(columns).withBatchScopedMemory(false);
    }

    /**
     * The file, opened with the filter's readable string columns plus {@code extra} as its projection (the
     * projection only decides which chunks are checked up front; value columns are found in the footer).
     */
    /**
     * The file, its projection {@code extra} plus the filter's readable (string) columns: only those chunks are
     * checked up front. Value columns of the filter are found in the footer.
     */
    private ParquetViewReader openFor(RowFilter filter, List<String> extra, Arena arena) throws IOException {
        List<String> projection = new ArrayList<>(extra);
        for (String c : filter == null ? List.<String>of() : filter.columns()) {
            if (!projection.contains(c)) {
                projection.add(c);
            }
        }
        ParquetViewReader file = path.open(arena, readOptions(List.of()), projection);
        for (String c : extra) {
            if (file.stringColumn(c) == null) {
                file.close();
                path.open(arena, readOptions(List.of(c)), null).close(); // throws the reader's error for it
            }
        }
        return file;
    }

    private static final java.lang.foreign.ValueLayout.OfInt LE_INT =
            java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.foreign.ValueLayout.OfShort LE_SHORT =
            java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.foreign.ValueLayout.OfLong LE_LONG =
            java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * {@link FixedWidthColumn#getLong} of rows {@code 0..count-1} (any value at a null row), read from the values
     * buffer in one loop for 32- and 64-bit integers, through {@code getLong} for the rest.
     */
    static void readLongs(FixedWidthColumn column, int count, long[] out) {
        ParquetType type = column.type();
        MemorySegment values = column.values();
        boolean integer = type.logical() != ParquetType.Logical.DECIMAL;
        if (integer && (type.physical() == ParquetType.Physical.INT64 || type.physical() == ParquetType.Physical.INT96)
                && type.byteWidth() == 8 && values.byteSize() >= 8L * count) {
            for (int r = 0; r < count; r++) {
                out[r] = values.get(LE_LONG, 8L * r);
            }
        } else if (integer && type.physical() == ParquetType.Physical.INT32 && type.byteWidth() == 4
                && values.byteSize() >= 4L * count) {
            if (type.signed()) {
                for (int r = 0; r < count; r++) {
                    out[r] = values.get(LE_INT, 4L * r);
                }
            } else {
                for (int r = 0; r < count; r++) {
                    out[r] = values.get(LE_INT, 4L * r) & 0xFFFF_FFFFL;
                }
            }
        } else if (integer && type.physical() == ParquetType.Physical.INT32 && type.byteWidth() == 2
                && values.byteSize() >= 2L * count) {
            for (int r = 0; r < count; r++) {
                short v = values.get(LE_SHORT, 2L * r);
                out[r] = type.signed() ? v : v & 0xFFFF;
            }
        } else if (integer && type.physical() == ParquetType.Physical.INT32 && type.byteWidth() == 1
                && values.byteSize() >= count) {
            for (int r = 0; r < count; r++) {
                byte v = values.get(java.lang.foreign.ValueLayout.JAVA_BYTE, r);
                out[r] = type.signed() ? v : v & 0xFF;
            }
        } else {
            for (int r = 0; r < count; r++) {
                out[r] = column.isNull(r) ? 0 : column.getLong(r);
            }
        }
    }

    /** Pruning only, for {@link ParquetViewOptions#filter()}: every source on, no file of its own to open. */
    private static final ParquetScan PRUNING = new ParquetScan((arena, options, exactly) -> {
        throw new IllegalStateException("a pruning-only scan opens no file");
    }, ParquetViewOptions.defaults(), null, 1, true, true, true, true, true, true, true);

    /**
     * For {@link ParquetViewOptions#filter()}: which of {@code candidates} (row groups of {@code file}) the filter
     * may be TRUE on, by statistics, bloom filters, dictionaries and the page index, as a scan prunes them.
     */
    static boolean[] mayPass(ParquetViewReader file, RowFilter filter, boolean[] candidates) throws IOException {
        BoundFilter bound = bind(file, filter);
        boolean[] may = new boolean[candidates.length];
        for (int g = 0; g < candidates.length; g++) {
            may[g] = candidates[g] && PRUNING.mayPass(file, g, bound);
        }
        return may;
    }

    private static BoundFilter bind(ParquetViewReader file, RowFilter filter) {
        return BoundFilter.bind(filter, column -> ValueDomain.of(file.primitiveType(column)));
    }

    /** One unit of work: a row group (ranges null), or ranges of the single filter column's pages. */
    private record Unit(int rowGroup, List<ParquetViewReader.PageRange> ranges) {}

    /** Per unit, in order: the count (one element) or the selected rows. */
    private long[][] run(RowFilter filter, boolean select) throws IOException {
        Objects.requireNonNull(filter, "filter");
        try (Arena mapping = Arena.ofShared(); ParquetViewReader file = openFor(filter, List.of(), mapping)) {
            BoundFilter bound = bind(file, filter);
            List<Unit> units = units(file, bound, null);
            long[][] results = new long[units.size()][];
            if (executor == null || units.size() <= 1) {
                for (int u = 0; u < units.size(); u++) {
                    results[u] = runUnit(file, units.get(u), bound, select);
                }
                return results;
            }
            AtomicInteger next = new AtomicInteger();
            List<CompletableFuture<Void>> tasks = new ArrayList<>();
            for (int t = 0; t < Math.min(parallelism, units.size()); t++) {
                Runnable task = () -> {
                    for (int u = next.getAndIncrement(); u < units.size(); u = next.getAndIncrement()) {
                        try {
                            results[u] = runUnit(file, units.get(u), bound, select);
                        } catch (IOException e) {
                            next.set(units.size()); // the others stop at their next unit
                            throw new UncheckedIOException(e);
                        } catch (RuntimeException | Error e) {
                            next.set(units.size());
                            throw e;
                        }
                    }
                };
                try {
                    tasks.add(CompletableFuture.runAsync(task, executor));
                } catch (RuntimeException rejected) {
                    // The executor refused a task: the ones it took stop at their next unit, and finish before
                    // the mapping they read is closed.
                    next.set(units.size());
                    awaitAll(tasks);
                    throw rejected;
                }
            }
            awaitAll(tasks);
            return results;
        }
    }

    /** The columns a unit's reader reads: the filter's, all of them string columns on this reader. */
    private static List<String> filterColumns(BoundFilter bound) {
        return bound.columns();
    }

    private long[] runUnit(ParquetViewReader file, Unit unit, BoundFilter bound, boolean select) throws IOException {
        if (bound.columns().isEmpty()) {
            return constantUnit(file, unit, bound, select);
        }
        ParquetViewOptions partOptions = readOptions(filterColumns(bound)).withBatchScopedMemory(true);
        long count = 0;
        long[] rows = select ? new long[64] : null;
        int[] hits = new int[partOptions.batchSize()];
        BoundFilter.StringLeaf leaf = bound.singleStringLeaf();
        try (ParquetViewReader part = file.part(unit.rowGroup(), unit.ranges(), null, partOptions)) {
            if (pageFiltering && leaf != null) {
                SubstringSearch search = pageSearch ? SubstringSearch.of(leaf.predicate()).orElse(null) : null;
                for (int n = part.nextMatches(leaf.predicate(), search, hits); n >= 0;
                        n = part.nextMatches(leaf.predicate(), search, hits)) {
                    if (select) {
                        rows = appendRows(rows, count, part.lastFilteredRow(), hits, n);
                    }
                    count += n;
                }
                return select ? Arrays.copyOf(rows, (int) count) : new long[] {count};
            }
            int words = (partOptions.batchSize() + 63) >>> 6;
            long[] passing = new long[words];
            long[] failing = new long[words];
            for (ViewBatch batch = part.nextBatch(); batch != null; batch = part.nextBatch()) {
                bound.evaluate(rows(batch, c -> ValueDomain.of(file.primitiveType(c))), passing, failing);
                int n = 0;
                for (int w = 0; w < (batch.rowCount() + 63) >>> 6; w++) {
                    for (long bits = passing[w]; bits != 0; bits &= bits - 1) {
                        hits[n++] = (w << 6) + Long.numberOfTrailingZeros(bits);
                    }
                }
                if (select) {
                    rows = appendRows(rows, count, batch.firstRow(), hits, n);
                }
                count += n;
            }
        }
        return select ? Arrays.copyOf(rows, (int) count) : new long[] {count};
    }

    /**
     * A unit under a filter that reads no column (an empty AND or OR, or NOT of one): the tree is the same on every
     * row, and its facts with no leaf are exact, so every row of the row group passes or none does.
     */
    private static long[] constantUnit(ParquetViewReader file, Unit unit, BoundFilter bound, boolean select) {
        boolean pass = (bound.facts(leaf -> BoundFilter.UNKNOWN) & BoundFilter.MAY_TRUE) != 0;
        List<BlockMetaData> blocks = file.footer().getBlocks();
        long rows = pass ? blocks.get(unit.rowGroup()).getRowCount() : 0;
        if (!select) {
            return new long[] {rows};
        }
        long first = 0;
        for (int g = 0; g < unit.rowGroup(); g++) {
            first += blocks.get(g).getRowCount();
        }
        long[] out = new long[Math.toIntExact(rows)];
        for (int i = 0; i < out.length; i++) {
            out[i] = first + i;
        }
        return out;
    }

    /**
     * A batch as the filter's input: string columns as the batch's views, fixed-width columns through their
     * {@link FixedWidthColumn} accessors, compared in the domain {@code domains} gives for the column (from the
     * file's schema, {@link ValueDomain#of}).
     */
    static BoundFilter.Rows rows(ViewBatch batch, java.util.function.Function<String, ValueDomain> domains) {
        return new BoundFilter.Rows() {
            @Override
            public int size() {
                return batch.rowCount();
            }

            @Override
            public ViewColumn strings(String column) {
                return batch.column(column);
            }

            @Override
            public FixedValues values(String column) {
                FixedWidthColumn values = batch.fixedWidthColumn(column);
                ValueDomain domain = domains.apply(column);
                return new FixedValues() {
                    @Override
                    public int size() {
                        return values.rowCount();
                    }

                    @Override
                    public ValueDomain domain() {
                        return domain;
                    }

                    @Override
                    public boolean isNull(int row) {
                        return values.isNull(row);
                    }

                    @Override
                    public long getLong(int row) {
                        return values.getLong(row);
                    }

                    @Override
                    public void getLongs(int count, long[] out) {
                        readLongs(values, count, out);
                    }

                    @Override
                    public boolean mayHaveNulls() {
                        return values.nullCount() != 0;
                    }

                    @Override
                    public double getDouble(int row) {
                        return values.getDouble(row);
                    }

                    @Override
                    public BigDecimal getDecimal(int row) {
                        return values.getDecimal(row);
                    }

                    @Override
                    public boolean getBoolean(int row) {
                        return values.getBoolean(row);
                    }
                };
            }

            @Override
            public long validBits(String column, int from, int count) {
                int index = batch.columnNames().indexOf(column);
                if (index < 0 || !batch.isFixedWidth(index)) {
                    return batch.column(column).validBits(from, count);
                }
                FixedWidthColumn values = batch.fixedWidthColumn(index);
                long bits = 0;
                for (int i = 0; i < count; i++) {
                    bits |= values.isNull(from + i) ? 0 : 1L << i;
                }
                return bits;
            }
        };
    }

    /** {@code rows} (holding {@code count}) with {@code firstRow + hits[0 .. n)} appended, grown if needed. */
    private static long[] appendRows(long[] rows, long count, long firstRow, int[] hits, int n) {
        if (count + n > rows.length) {
            rows = Arrays.copyOf(rows, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(count + n, 2L * rows.length)));
        }
        for (int i = 0; i < n; i++) {
            rows[(int) count + i] = firstRow + hits[i];
        }
        return rows;
    }

    /**
     * Reads the projected {@code columns} of the row groups where {@code filter} may be TRUE (all row groups if it
     * is null) and hands every batch holding a row where it is TRUE to {@code consumer} on the calling thread, in
     * file order, with the bitmap of those rows. The filter's columns are read first; the other projected columns
     * are read only for batches with a passing row (see the class comment). A batch is valid during its call only.
     */
    public void forEachBatch(List<String> columns, RowFilter filter, BatchConsumer consumer) throws IOException {
        Objects.requireNonNull(columns, "columns");
        Objects.requireNonNull(consumer, "consumer");
        List<String> projection = List.copyOf(columns);
        try (Arena mapping = Arena.ofShared(); ParquetViewReader file = openFor(filter, projection, mapping)) {
            BoundFilter bound = filter == null ? null : bind(file, filter);
            List<Integer> groups = bound == null ? allGroups(file) : rowGroupsToRead(file, bound);
            countSkipped(file, groups);
            if (executor == null) {
                for (int g : groups) {
                    try (Arena arena = Arena.ofConfined()) {
                        for (Delivery d : readGroup(file, g, arena, projection, bound)) {
                            consumer.accept(d.batch(), d.passing());
                        }
                    }
                }
                return;
            }
            ArrayDeque<CompletableFuture<GroupBatches>> ahead = new ArrayDeque<>();
            int submitted = 0;
            try {
                while (submitted < groups.size() && ahead.size() < parallelism) {
                    ahead.add(submitGroup(file, groups.get(submitted++), projection, bound));
                }
                while (!ahead.isEmpty()) {
                    GroupBatches done = await(ahead.poll());
                    try (Arena arena = done.arena()) {
                        if (submitted < groups.size()) {
                            ahead.add(submitGroup(file, groups.get(submitted++), projection, bound));
                        }
                        for (Delivery d : done.batches()) {
                            consumer.accept(d.batch(), d.passing());
                        }
                    }
                }
            } finally {
                // On failure: let the row groups in flight finish, then free them (a running read's arena cannot be
                // closed under it, and no task may outlive the call).
                for (CompletableFuture<GroupBatches> f : ahead) {
                    try {
                        f.get().arena().close();
                    } catch (ExecutionException | RuntimeException e) {
                        // that read failed and closed its own arena
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        }
    }

    private record Delivery(ViewBatch batch, long[] passing) {}

    private record GroupBatches(Arena arena, List<Delivery> batches) {}

    private CompletableFuture<GroupBatches> submitGroup(ParquetViewReader file, int group, List<String> projection,
            BoundFilter bound) {
        return CompletableFuture.supplyAsync(() -> {
            Arena arena = Arena.ofShared(); // read here, consumed on the caller's thread
            try {
                return new GroupBatches(arena, readGroup(file, group, arena, projection, bound));
            } catch (IOException e) {
                arena.close();
                throw new UncheckedIOException(e);
            } catch (RuntimeException | Error e) {
                arena.close();
                throw e;
            }
        }, executor);
    }

    /**
     * Row group {@code group}'s batches with a passing row: the filter's columns read and evaluated first, the other
     * projected columns read only for batches with a passing row and skipped (by page header where whole pages
     * lie inside skipped batches) for the rest.
     */
    private List<Delivery> readGroup(ParquetViewReader file, int group, Arena arena, List<String> projection,
            BoundFilter bound) throws IOException {
        List<Delivery> out = new ArrayList<>();
        if (bound == null) {
            try (ParquetViewReader part = file.part(group, null, arena, readOptions(projection))) {
                for (ViewBatch b = part.nextBatch(); b != null; b = part.nextBatch()) {
                    out.add(new Delivery(b, null));
                }
            }
            return out;
        }
        // A filter without columns is evaluated on the projection's batches (it is the same on every row).
        List<String> filterColumns = bound.columns().isEmpty() ? projection : filterColumns(bound);
        List<String> rest = projection.stream().filter(c -> !filterColumns.contains(c)).toList();
        try (ParquetViewReader filterPart = file.part(group, null, arena, readOptions(filterColumns));
                ParquetViewReader restPart = rest.isEmpty() ? null
                        : file.part(group, null, arena, readOptions(rest))) {
            int words = (options.batchSize() + 63) >>> 6;
            int skipped = 0; // batches without a passing row since the last one read: skipped in one go
            for (ViewBatch f = filterPart.nextBatch(); f != null; f = filterPart.nextBatch()) {
                long[] passing = new long[words];
                bound.evaluate(rows(f, c -> ValueDomain.of(file.primitiveType(c))), passing, new long[words]);
                boolean any = false;
                for (long w : passing) {
                    any |= w != 0;
                }
                if (!any) {
                    skipped++;
                    continue;
                }
                if (restPart != null && skipped > 0) {
                    restPart.skipBatches(skipped);
                }
                skipped = 0;
                ViewBatch r = restPart == null ? null : restPart.nextBatch();
                List<ViewColumn> cols = new ArrayList<>();
                for (String c : projection) {
                    cols.add(filterColumns.contains(c) ? f.column(c) : r.column(c));
                }
                out.add(new Delivery(new ViewBatch(f.rowGroup(), f.firstRow(), f.rowCount(), projection, cols),
                        passing));
            }
        }
        return out;
    }

    private static List<Integer> allGroups(ParquetViewReader file) {
        List<Integer> groups = new ArrayList<>();
        for (int g = 0; g < file.rowGroupCount(); g++) {
            if (file.readsRowGroup(g)) {
                groups.add(g);
            }
        }
        return groups;
    }

    private List<Integer> rowGroupsToRead(ParquetViewReader file, BoundFilter bound) throws IOException {
        List<Integer> groups = new ArrayList<>();
        for (int g = 0; g < file.rowGroupCount(); g++) {
            if (file.readsRowGroup(g) && mayPass(file, g, bound)) {
                groups.add(g);
            }
        }
        return groups;
    }

    // ---- pruning

    /**
     * Whether the filter may be TRUE on some row of row group {@code g}, by everything the metadata tells: each
     * leaf's facts are those every enabled source (statistics, bloom filter, dictionary) allows, then the tree
     * combines them; the page index then checks the row group range by range.
     */
    private boolean mayPass(ParquetViewReader file, int g, BoundFilter bound) throws IOException {
        BlockMetaData block = file.footer().getBlocks().get(g);
        long rows = block.getRowCount();
        Map<String, ColumnChunkMetaData> metas = new HashMap<>();
        Map<String, ValueDomain> domains = new HashMap<>();
        for (String c : bound.columns()) {
            ColumnChunkMetaData meta = file.chunkMetaData(g, c);
            if (meta == null) {
                return true; // the reader reports the missing chunk
            }
            metas.put(c, meta);
            domains.put(c, ValueDomain.of(file.primitiveType(c)));
        }
        Map<BoundFilter.Node, Integer> known = new HashMap<>();
        try (Arena scratch = Arena.ofConfined()) {
            Map<String, ViewColumn> dictionaryOf = new HashMap<>();
            BoundFilter.LeafFacts facts = leaf -> known.computeIfAbsent(leaf, l -> {
                String c = BoundFilter.column(l);
                ColumnChunkMetaData meta = metas.get(c);
                int f = BoundFilter.UNKNOWN;
                if (statistics) {
                    Object[] b = FilterBounds.statistics(meta, domains.get(c));
                    f &= BoundFilter.boundsFacts(l, domains.get(c), b == null ? null : b[0], b == null ? null : b[1],
                            FilterBounds.nullCount(meta), rows);
                }
                if (bloomFilters && (f & BoundFilter.MAY_TRUE) != 0 && bloomExcludes(file, meta, l)) {
                    f &= ~BoundFilter.MAY_TRUE;
                }
                if (dictionaries && f != 0 && l instanceof BoundFilter.StringLeaf) {
                    ViewColumn dictionary = dictionaryOf.computeIfAbsent(c, k -> dictionaryIfOnlyDictionaryPages(
                            file, g, meta, k, scratch));
                    if (dictionary != null) {
                        // Every non-null value is an entry; a null row makes the leaf neither TRUE nor FALSE.
                        f &= BoundFilter.dictionaryFacts(l, dictionary);
                    }
                }
                return f;
            });
            if ((bound.facts(facts) & BoundFilter.MAY_TRUE) == 0) {
                return false;
            }
        }
        return !pageIndex || pageIndexMayPass(file, g, bound, metas, domains, rows);
    }

    private boolean bloomExcludes(ParquetViewReader file, ColumnChunkMetaData meta, BoundFilter.Node leaf) {
        List<byte[]> probes = BoundFilter.bloomProbes(leaf);
        if (probes == null) {
            return false;
        }
        long offset;
        try {
            offset = meta.getBloomFilterOffset();
        } catch (RuntimeException e) {
            return false;
        }
        int length;
        try {
            length = meta.getBloomFilterLength();
        } catch (RuntimeException e) {
            length = -1;
        }
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment bytes = file.bloomFilter(offset, length, scratch);
            return bytes != null && BloomFilters.excludeAll(bytes, probes);
        } catch (IOException e) {
            return false; // an unreadable filter proves nothing; the chunk is read and any fault reported then
        }
    }

    /**
     * The chunk's dictionary when its encoding statistics say every data page is dictionary-encoded (so every
     * non-null value is an entry), else null. Files without encoding statistics are not pruned this way: their
     * encodings list cannot tell a v2 dictionary page's PLAIN from PLAIN data pages.
     */
    private static ViewColumn dictionaryIfOnlyDictionaryPages(ParquetViewReader file, int g, ColumnChunkMetaData meta,
            String column, Arena scratch) {
        try {
            EncodingStats stats = meta.getEncodingStats();
            ParquetColumn c = file.stringColumn(column);
            if (c == null || stats == null || !stats.hasDictionaryPages() || !stats.hasDictionaryEncodedPages()
                    || stats.hasNonDictionaryEncodedPages()) {
                return null;
            }
            return file.dictionary(g, c, scratch);
        } catch (IOException | RuntimeException e) {
            return null; // an unreadable dictionary proves nothing; the read reports it
        }
    }

    /** A column chunk's page index with the domain to read its bounds in, or null when unusable. */
    private static PageIndex pageIndexOf(ParquetViewReader file, ColumnChunkMetaData meta, ValueDomain domain) {
        try {
            if (!FilterBounds.pageIndexUsable(meta, domain)) {
                return null;
            }
            IndexReference columnIndex = meta.getColumnIndexReference();
            IndexReference offsetIndex = meta.getOffsetIndexReference();
            if (columnIndex == null || offsetIndex == null) {
                return null;
            }
            long from = Math.min(columnIndex.getOffset(), offsetIndex.getOffset());
            long to = Math.max(columnIndex.getOffset() + columnIndex.getLength(),
                    offsetIndex.getOffset() + offsetIndex.getLength());
            try (Arena scratch = Arena.ofConfined()) {
                // Writers put a chunk's column index and offset index side by side: one read for both.
                MemorySegment bytes = file.metadata(from, to - from, scratch);
                if (bytes == null) {
                    return null;
                }
                PageIndex index = PageIndex.read(bytes, bytes.byteSize(), columnIndex.getOffset() - from,
                        columnIndex.getLength(), offsetIndex.getOffset() - from, offsetIndex.getLength());
                // Page offsets in the file; a chunk read from a source has its own coordinates.
                return index == null ? null : index.shifted(-file.chunkFileOffset(meta));
            }
        } catch (IOException | RuntimeException e) {
            return null; // unreadable metadata proves nothing
        }
    }

    /** Facts for {@code leaf} on page {@code p} of {@code index}. */
    private static int pageFacts(BoundFilter.Node leaf, PageIndex index, int p, ValueDomain domain, long pageRows) {
        long nulls = index.nullPages()[p] ? pageRows : index.nullCounts() == null ? -1 : index.nullCounts()[p];
        Object min = index.nullPages()[p] ? null : FilterBounds.pageBound(index.mins()[p], domain);
        Object max = index.nullPages()[p] ? null : FilterBounds.pageBound(index.maxs()[p], domain);
        return BoundFilter.boundsFacts(leaf, domain, min, max, nulls, pageRows);
    }

    /**
     * Whether, by the page indexes of the filter's columns, some range of rows of the row group may hold a passing
     * row. The row group is cut at every page boundary of every filter column; in each piece each leaf's facts
     * come from the page of its column that holds the piece. A column without a usable index leaves its leaves
     * unknown.
     */
    private static boolean pageIndexMayPass(ParquetViewReader file, int g, BoundFilter bound,
            Map<String, ColumnChunkMetaData> metas, Map<String, ValueDomain> domains, long rows) {
        Map<String, PageIndex> indexes = new HashMap<>();
        TreeSet<Long> cuts = new TreeSet<>();
        for (String c : bound.columns()) {
            PageIndex index = pageIndexOf(file, metas.get(c), domains.get(c));
            if (index == null || !consistent(index, rows)) {
                continue;
            }
            indexes.put(c, index);
            for (long r : index.firstRows()) {
                cuts.add(r);
            }
        }
        if (indexes.isEmpty() || rows == 0) {
            return true;
        }
        cuts.add(0L);
        for (long start : cuts) {
            if (start >= rows) {
                continue;
            }
            BoundFilter.LeafFacts facts = leaf -> {
                String c = BoundFilter.column(leaf);
                PageIndex index = indexes.get(c);
                if (index == null) {
                    return BoundFilter.UNKNOWN;
                }
                int p = pageOf(index, start);
                long pageRows = (p + 1 < index.pageCount() ? index.firstRows()[p + 1] : rows) - index.firstRows()[p];
                return pageFacts(leaf, index, p, domains.get(c), pageRows);
            };
            if ((bound.facts(facts) & BoundFilter.MAY_TRUE) != 0) {
                return true;
            }
        }
        return false;
    }

    /** Whether the offset index's first rows start at 0 and ascend strictly below {@code rows}. */
    private static boolean consistent(PageIndex index, long rows) {
        long[] first = index.firstRows();
        if (first.length == 0 || first[0] != 0) {
            return false;
        }
        for (int i = 1; i < first.length; i++) {
            if (first[i] <= first[i - 1] || first[i] >= rows) {
                return false;
            }
        }
        return true;
    }

    /** The page holding row {@code row} (first rows ascend from 0). */
    private static int pageOf(PageIndex index, long row) {
        int i = Arrays.binarySearch(index.firstRows(), row);
        return i >= 0 ? i : -i - 2;
    }

    // ---- units

    /**
     * Units for the row groups to read: whole groups, or, for a filter on one string column, page ranges when
     * groups are fewer than the work wants or the page index excludes pages. With {@code counts}
     * (rowGroupsSkipped, pagesRead, pagesSkipped), every read chunk's page headers are parsed to count its pages.
     */
    private List<Unit> units(ParquetViewReader file, BoundFilter bound, long[] counts) throws IOException {
        List<Integer> groups = rowGroupsToRead(file, bound);
        if (counts == null) {
            countSkipped(file, groups);
        }
        List<Unit> units = new ArrayList<>();
        // About four units per task: each row group split into this many page ranges.
        int pieces = parallelism == 1 || groups.isEmpty() || !file.inMemory() ? 1
                : Math.max(1, (4 * parallelism + groups.size() - 1) / groups.size());
        // A chunk with a dictionary: each unit reads the dictionary page again, so no more units than threads.
        int dictionaryPieces = !dictionaryPerThread || groups.isEmpty() ? pieces
                : Math.max(1, (parallelism + groups.size() - 1) / groups.size());
        if (counts != null) {
            counts[0] = file.rowGroupCount() - groups.size();
        }
        for (int g : groups) {
            units.addAll(groupUnits(file, g, bound, pieces, dictionaryPieces, counts));
        }
        return units;
    }

    /** Counts the bytes of the row groups not in {@code read} as skipped. */
    private void countSkipped(ParquetViewReader file, List<Integer> read) {
        List<BlockMetaData> blocks = file.footer().getBlocks();
        for (int g = 0; g < blocks.size(); g++) {
            if (!read.contains(g)) {
                for (ColumnChunkMetaData c : blocks.get(g).getColumns()) {
                    path.skipped(c.getTotalSize());
                }
            }
        }
    }

    /** The units of row group {@code g} (one of those to read): whole, or cut into about {@code pieces}. */
    private List<Unit> groupUnits(ParquetViewReader file, int g, BoundFilter bound, int pieces, int dictionaryPieces,
            long[] counts)
            throws IOException {
        List<String> columns = bound.columns();
        ParquetColumn column = columns.size() == 1 ? file.stringColumn(columns.get(0)) : null;
        if (column == null) {
            return List.of(new Unit(g, null)); // several columns: their pages do not line up
        }
        if (!file.inMemory()) {
            // From a source, finding pages means reading the chunk: the unit that reads it decides them instead.
            return List.of(new Unit(g, null));
        }
        List<List<ParquetViewReader.PageRange>> split = null;
        if (pieces > 1 || pageIndex || counts != null) {
            ColumnChunkReader.Chunk chunk = file.chunk(g, column);
            List<ColumnChunkReader.PageSpan> spans = ColumnChunkReader.pageSpans(chunk);
            boolean[] keep = pageIndex && spans != null ? pagesThatMayPass(file, g, column, bound, spans) : null;
            boolean dictionary = spans != null && !spans.isEmpty()
                    && spans.get(0).type() == PageHeader.DICTIONARY_PAGE;
            split = spans == null ? null : pageRanges(chunk, spans, keep,
                    dictionary ? Math.min(pieces, dictionaryPieces) : pieces);
            if (counts != null) {
                countPages(spans, split == null ? null : keep, counts);
            }
        }
        if (split == null) {
            return List.of(new Unit(g, null));
        }
        List<Unit> units = new ArrayList<>();
        for (List<ParquetViewReader.PageRange> ranges : split) {
            units.add(new Unit(g, ranges));
        }
        return units;
    }

    /** Adds a chunk's data pages to {@code counts}: read unless {@code keep} (null: all read) skips them. */
    private static void countPages(List<ColumnChunkReader.PageSpan> spans, boolean[] keep, long[] counts) {
        int dataPages = 0;
        int kept = 0;
        for (ColumnChunkReader.PageSpan s : spans == null ? List.<ColumnChunkReader.PageSpan>of() : spans) {
            if (s.type() == PageHeader.DATA_PAGE || s.type() == PageHeader.DATA_PAGE_V2) {
                kept += keep == null || keep[dataPages] ? 1 : 0;
                dataPages++;
            }
        }
        if (dataPages > 0 && kept == 0) {
            counts[0]++;
        }
        counts[1] += kept;
        counts[2] += dataPages - kept;
    }

    /**
     * Per data page of the single filter column's chunk (in {@code spans} order): false if its page-index entry
     * proves the filter is TRUE on none of its rows. Null if the chunk has no usable page index (none, unreadable,
     * bounds not in the column's order, or an offset index that does not agree with the page headers).
     */
    private static boolean[] pagesThatMayPass(ParquetViewReader file, int g, ParquetColumn column, BoundFilter bound,
            List<ColumnChunkReader.PageSpan> spans) {
        ColumnChunkMetaData meta = file.chunkMetaData(g, column.name());
        if (meta == null) {
            return null;
        }
        ValueDomain domain = ValueDomain.of(file.primitiveType(column.name()));
        PageIndex index = pageIndexOf(file, meta, domain);
        if (index == null) {
            return null;
        }
        boolean[] keep = new boolean[index.pageCount()];
        int page = 0;
        long rows = 0;
        for (ColumnChunkReader.PageSpan s : spans) {
            if (s.type() != PageHeader.DATA_PAGE && s.type() != PageHeader.DATA_PAGE_V2) {
                continue;
            }
            // A flat column's values are its rows, so a page's first row is the values before it.
            if (page >= index.pageCount() || index.offsets()[page] != s.offset() || index.firstRows()[page] != rows) {
                return null;
            }
            int p = page;
            long pageRows = s.numValues();
            keep[page] = (bound.facts(leaf -> pageFacts(leaf, index, p, domain, pageRows))
                    & BoundFilter.MAY_TRUE) != 0;
            rows += s.numValues();
            page++;
        }
        return page == index.pageCount() ? keep : null;
    }

    /** The chunk's data pages cut into about {@code pieces} page ranges (see below), every page read. */
    static List<ParquetViewReader.PageRange> pageRanges(ColumnChunkReader.Chunk chunk, int pieces) {
        List<ColumnChunkReader.PageSpan> spans = ColumnChunkReader.pageSpans(chunk);
        List<List<ParquetViewReader.PageRange>> units = spans == null ? null : pageRanges(chunk, spans, null, pieces);
        return units == null ? null : units.stream().map(u -> u.get(0)).toList();
    }

    /**
     * The chunk's data pages that {@code keep} keeps (all if it is null) cut into about {@code pieces} units of
     * similar value counts, each a list of ranges of consecutive kept pages; or null if the chunk is to be read
     * whole (nothing to skip and no split wanted, or it cannot be split: DELTA_BYTE_ARRAY pages, a misplaced
     * dictionary, one data page). Empty if no page is kept.
     */
    static List<List<ParquetViewReader.PageRange>> pageRanges(ColumnChunkReader.Chunk chunk,
            List<ColumnChunkReader.PageSpan> spans, boolean[] keep, int pieces) {
        boolean dictionaryFirst = !spans.isEmpty() && spans.get(0).type() == PageHeader.DICTIONARY_PAGE;
        int dataPages = 0;
        int keptPages = 0;
        long keptValues = 0;
        boolean cannotSplit = false;
        for (ColumnChunkReader.PageSpan s : spans) {
            if (s.type() == PageHeader.DATA_PAGE || s.type() == PageHeader.DATA_PAGE_V2) {
                if (keep == null || keep[dataPages]) {
                    keptPages++;
                    keptValues += s.numValues();
                }
                dataPages++;
                cannotSplit |= s.encoding() == 7; // DELTA_BYTE_ARRAY
            } else if (s.type() == PageHeader.DICTIONARY_PAGE && s != spans.get(0)) {
                cannotSplit = true; // a misplaced dictionary: let the whole-chunk reader report it
            }
        }
        if (dataPages > 0 && keptPages == 0) {
            return List.of(); // no page can match: nothing to read
        }
        if (cannotSplit || dataPages < 2 || (keptPages == dataPages && pieces <= 1)) {
            return null;
        }
        long perPiece = Math.max(1, (keptValues + pieces - 1) / pieces);
        long chunkEnd = chunk.start() + chunk.length();
        List<List<ParquetViewReader.PageRange>> units = new ArrayList<>();
        List<ParquetViewReader.PageRange> unit = new ArrayList<>();
        long unitValues = 0;
        long valuesBefore = 0; // values of the chunk's pages before span i
        long rangeValuesBefore = 0;
        int first = -1; // span index of the current range's first data page
        long values = 0;
        int page = 0;
        for (int i = 0; i < spans.size(); i++) {
            ColumnChunkReader.PageSpan s = spans.get(i);
            if (s.type() != PageHeader.DATA_PAGE && s.type() != PageHeader.DATA_PAGE_V2) {
                continue;
            }
            boolean kept = keep == null || keep[page++];
            if (kept) {
                if (first < 0) {
                    first = i;
                    rangeValuesBefore = valuesBefore;
                }
                values += s.numValues();
            }
            valuesBefore += s.numValues();
            boolean last = i == spans.size() - 1;
            boolean unitFull = unitValues + values >= perPiece;
            if (first >= 0 && (!kept || unitFull || last)) {
                // The range ends before this page if it is skipped, else after it.
                long end = !kept ? s.offset() : last ? chunkEnd : spans.get(i + 1).offset();
                unit.add(new ParquetViewReader.PageRange(spans.get(first).offset(), end, rangeValuesBefore, values,
                        first, dictionaryFirst));
                unitValues += values;
                values = 0;
                first = -1;
            }
            if (unitValues >= perPiece && !unit.isEmpty()) {
                units.add(unit);
                unit = new ArrayList<>();
                unitValues = 0;
            }
        }
        if (!unit.isEmpty()) {
            units.add(unit);
        }
        return units;
    }

    private static void awaitAll(List<? extends CompletableFuture<?>> tasks) throws IOException {
        Throwable failure = null;
        for (CompletableFuture<?> t : tasks) {
            try {
                t.get();
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause();
                }
            } catch (InterruptedException e) {
                // Wait for the rest regardless: no task may outlive the call (they read the mapping it closes).
                for (CompletableFuture<?> other : tasks) {
                    try {
                        other.join();
                    } catch (CompletionException | java.util.concurrent.CancellationException ignored) {
                        // reported by the interruption below
                    }
                }
                Thread.currentThread().interrupt();
                throw new IOException("scan interrupted", e);
            }
        }
        if (failure != null) {
            rethrow(failure);
        }
    }

    private static <T> T await(CompletableFuture<T> future) throws IOException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            rethrow(e.getCause());
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("scan interrupted", e);
        }
    }

    private static void rethrow(Throwable t) throws IOException {
        if (t instanceof CompletionException c && c.getCause() != null) {
            t = c.getCause();
        }
        if (t instanceof UncheckedIOException u) {
            throw u.getCause();
        }
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IOException(t);
    }
}
