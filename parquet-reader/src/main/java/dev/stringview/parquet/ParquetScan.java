package dev.stringview.parquet;

import dev.stringview.SubstringSearch;
import dev.stringview.ViewPredicate;
import dev.stringview.parquet.internal.BloomFilters;
import dev.stringview.parquet.internal.ColumnChunkReader;
import dev.stringview.parquet.internal.PageIndex;
import dev.stringview.parquet.internal.PageHeader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.hadoop.metadata.IndexReference;
import org.apache.parquet.schema.ColumnOrder;
import org.apache.parquet.schema.PrimitiveComparator;

/**
 * A scan of one Parquet file, on the calling thread or as tasks on the caller's {@link Executor}: counts, row
 * selections or batches, always in file order and equal to what one {@link ParquetViewReader} reading the file
 * from start to end gives.
 *
 * <ul>
 *   <li><b>Skipping.</b> With a {@link ColumnFilter} of kind {@code =}, {@code IN}, {@code <}, {@code >} or prefix,
 *       row groups whose min/max statistics exclude every match are not read ({@link #withStatistics}), nor, for
 *       {@code =} and {@code IN}, those whose bloom filter holds none of the constants ({@link #withBloomFilters}).
 *       Only statistics in unsigned byte order (Parquet's order for strings and plain binary) are used. In the
 *       row groups left, {@link #count} and {@link #select} skip the data pages whose page-index entry excludes
 *       every match ({@link #withPageIndex}); {@link #plan} tells what is read and skipped.
 *   <li><b>Work units.</b> {@link #count} and {@link #select} split the row groups left into units, and a row group
 *       into ranges of its data pages when there are fewer row groups than about four per task (a file written
 *       with one large row group still uses every task). Pages are found by their headers; a dictionary page is
 *       read by every range that needs it. Chunks with DELTA_BYTE_ARRAY pages are not split (their first value may
 *       borrow from the page before, PARQUET-246). Each unit is read with batch-scoped memory on the thread that
 *       runs it, so a task holds about one batch and a few pages at a time.
 *   <li><b>Deciding rows.</b> {@link #count} and {@link #select} decide rows as pages are decoded, without
 *       batches: on dictionary-encoded pages the predicate runs once per dictionary entry and each row costs a bit
 *       lookup on its id ({@link #withPageFiltering}); on PLAIN pages a substring filter is one search over the
 *       page's bytes, each occurrence mapped back to its value ({@link #withPageSearch}).
 *   <li><b>Batches.</b> {@link #forEachBatch} reads whole row groups as tasks, at most
 *       {@code parallelism} of them ahead of the consumer, each into an arena of its own, and hands the batches to the
 *       consumer on the calling thread in file order. A batch is valid only during the call that receives it: the
 *       row group's arena is closed once its last batch was consumed. Memory is therefore bounded by about
 *       {@code parallelism + 1} row groups of the projected columns.
 * </ul>
 *
 * <p>The file is mapped once per call into a shared arena that the scan owns and closes before returning; no
 * memory of the caller's is used, and nothing the scan allocated outlives the call (copy survivors out with
 * {@code ViewColumn.compact} inside the consumer to keep them). The scan starts no thread: by default everything
 * runs on the calling thread, and with {@link #withExecutor} its tasks run on the caller's executor, every one of
 * them ended before the call returns (unless the calling thread is interrupted meanwhile).
 */
public final class ParquetScan {
    private final Path path;
    private final ParquetViewOptions options;
    private final Executor executor; // null: everything on the calling thread
    private final int parallelism;
    private final boolean statistics;
    private final boolean bloomFilters;
    private final boolean pageFiltering;
    private final boolean pageIndex;
    private final boolean pageSearch;

    private ParquetScan(Path path, ParquetViewOptions options, Executor executor, int parallelism,
            boolean statistics, boolean bloomFilters, boolean pageFiltering, boolean pageIndex, boolean pageSearch) {
        this.path = Objects.requireNonNull(path, "path");
        this.options = Objects.requireNonNull(options, "options");
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be positive: parallelism=" + parallelism);
        }
        this.executor = executor;
        this.parallelism = parallelism;
        this.statistics = statistics;
        this.bloomFilters = bloomFilters;
        this.pageFiltering = pageFiltering;
        this.pageIndex = pageIndex;
        this.pageSearch = pageSearch;
    }

    /**
     * A scan of {@code path}: default read options, on the calling thread, statistics, bloom filters and the page
     * index used.
     */
    public static ParquetScan of(Path path) {
        return new ParquetScan(path, ParquetViewOptions.defaults(), null, 1, true, true, true, true, true);
    }

    /**
     * Read options: batch size, UTF-8 validation, checksums, page limit, native decompression. The columns are the
     * scan's to choose and the memory mode is the scan's (see the class comment), so those two are ignored.
     */
    public ParquetScan withOptions(ParquetViewOptions readOptions) {
        return new ParquetScan(path, readOptions, executor, parallelism,
                statistics, bloomFilters, pageFiltering, pageIndex, pageSearch);
    }

    /**
     * Runs the scan as up to {@code parallelism} tasks at once on {@code executor}, the caller's: the scan starts no
     * thread and never shuts the executor down. Every task a call submits has ended when the call returns or
     * throws, unless the calling thread was interrupted while it waited. The executor must run tasks while the
     * calling thread waits for them (one whose only thread is the caller's would never finish). A
     * {@code parallelism} of 1, or a null executor, runs everything on the calling thread, the default.
     *
     * @throws IllegalArgumentException when {@code parallelism} is not positive
     */
    public ParquetScan withExecutor(Executor executor, int parallelism) {
        return new ParquetScan(path, options, executor, parallelism, statistics, bloomFilters, pageFiltering,
                pageIndex, pageSearch);
    }

    /** Whether to skip row groups by their min/max statistics (on by default). */
    public ParquetScan withStatistics(boolean enabled) {
        return new ParquetScan(path, options, executor, parallelism,
                enabled, bloomFilters, pageFiltering, pageIndex, pageSearch);
    }

    /** Whether to skip row groups by their bloom filters, for {@code =} and {@code IN} (on by default). */
    public ParquetScan withBloomFilters(boolean enabled) {
        return new ParquetScan(path, options, executor, parallelism,
                statistics, enabled, pageFiltering, pageIndex, pageSearch);
    }

    /**
     * Whether {@link #count} and {@link #select} decide rows while decoding pages (on by default): dictionary pages
     * by their ids (the predicate runs once per distinct dictionary value, then one bit lookup per row), other
     * pages page piece by page piece. Off, they build batches of views and run the predicate over each batch: the
     * plain scan, kept as the reference the other is tested against and measured next to.
     */
    public ParquetScan withPageFiltering(boolean enabled) {
        return new ParquetScan(path, options, executor, parallelism,
                statistics, bloomFilters, enabled, pageIndex, pageSearch);
    }

    /**
     * Whether {@link #count} and {@link #select} skip data pages by the page index (on by default): a page whose
     * column-index entry says it holds only nulls, or whose min/max bounds exclude every match of an {@code =},
     * {@code IN}, {@code <}, {@code >} or prefix filter, is not read, nor decompressed. Used only where the offset
     * index agrees with the page headers, the bounds are in unsigned byte order, and the chunk has no
     * DELTA_BYTE_ARRAY page (whose first value may borrow from the page before, PARQUET-246).
     */
    public ParquetScan withPageIndex(boolean enabled) {
        return new ParquetScan(path, options, executor, parallelism,
                statistics, bloomFilters, pageFiltering, enabled, pageSearch);
    }

    /**
     * Whether {@link #count} and {@link #select} decide a substring filter ({@code ViewPredicates.contains}, a LIKE
     * pattern {@code '%literal%'}) on PLAIN pages by one search over each page's bytes, mapping every occurrence
     * back to the value holding it, with no view built (on by default; only with {@link #withPageFiltering}). An
     * occurrence counts only if it lies wholly inside one value: never across a length prefix or two values. Off,
     * PLAIN pages are decoded into views piece by piece and decided by the predicate, kept to compare with.
     */
    public ParquetScan withPageSearch(boolean enabled) {
        return new ParquetScan(path, options, executor, parallelism,
                statistics, bloomFilters, pageFiltering, pageIndex, enabled);
    }

    /**
     * What a scan with a filter reads and what its metadata lets it skip, as {@link #plan} finds it.
     *
     * @param rowGroups the file's row groups
     * @param rowGroupsSkipped row groups not read: by statistics, bloom filters, or because the page index
     *     excludes every page
     * @param pagesRead data pages read
     * @param pagesSkipped data pages the page index excludes, in row groups that statistics and bloom filters
     *     did not skip (pages of row groups skipped whole by those are counted in neither)
     */
    public record Plan(int rowGroups, int rowGroupsSkipped, long pagesRead, long pagesSkipped) {
        @Override
        public String toString() {
            return "rowGroups=" + rowGroups + " rowGroupsSkipped=" + rowGroupsSkipped + " pagesRead=" + pagesRead
                    + " pagesSkipped=" + pagesSkipped;
        }
    }

    /**
     * What {@link #count} and {@link #select} with {@code filter} read and skip, found from the metadata and the
     * page headers only (no page is read).
     */
    public Plan plan(ColumnFilter filter) throws IOException {
        Objects.requireNonNull(filter, "filter");
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader file = ParquetViewReader.open(path, arena, readOptions(List.of(filter.column())))) {
            long[] counts = new long[3];
            units(file, filter, counts);
            return new Plan(file.rowGroupCount(), (int) counts[0], counts[1], counts[2]);
        }
    }

    /** The most tasks a call runs at once ({@link #withExecutor}); 1 when it runs on the calling thread. */
    public int parallelism() {
        return executor == null ? 1 : parallelism;
    }

    /** Delivers batches to {@link #forEachBatch}; the batch is valid only during the call. */
    @FunctionalInterface
    public interface BatchConsumer {
        void accept(ViewBatch batch) throws IOException;
    }

    /**
     * The row groups a scan with {@code filter} reads, ascending: every row group minus those its metadata proves
     * hold no match.
     */
    public List<Integer> rowGroupsToRead(ColumnFilter filter) throws IOException {
        try (Arena arena = Arena.ofConfined();
                ParquetViewReader reader = ParquetViewReader.open(path, arena, readOptions(List.of(filter.column())))) {
            return rowGroupsToRead(reader, filter);
        }
    }

    /** The number of rows matching {@code filter}. */
    public long count(ColumnFilter filter) throws IOException {
        long[][] parts = run(filter, false);
        long total = 0;
        for (long[] p : parts) {
            total += p[0];
        }
        return total;
    }

    /**
     * The number of rows of row group {@code rowGroup} matching {@code filter}, or of one slice of it, on the calling
     * thread (the scan's executor does not apply): for engines that count row groups, or slices of one, as
     * separate tasks and add the counts up. The row group's data pages that the page index keeps are cut into about
     * {@code slices} ranges of similar value counts, as {@link #count} cuts them for its tasks; this counts the
     * ranges {@code r} with {@code r % slices == slice}. So the counts of slices {@code 0 .. slices-1} add up to the
     * row group's count, whatever the file: a chunk that cannot be cut (one data page, DELTA_BYTE_ARRAY pages) is
     * counted whole by slice 0, and a row group that statistics or bloom filters rule out counts 0 in every slice.
     */
    public long countRowGroup(ColumnFilter filter, int rowGroup, int slice, int slices) throws IOException {
        Objects.requireNonNull(filter, "filter");
        if (slices < 1 || slice < 0 || slice >= slices) {
            throw new IllegalArgumentException("slice out of range: slice=" + slice + " slices=" + slices);
        }
        try (Arena mapping = Arena.ofConfined();
                ParquetViewReader file = ParquetViewReader.open(path, mapping, readOptions(List.of(filter.column())))) {
            if (rowGroup < 0 || rowGroup >= file.rowGroupCount()) {
                throw new IllegalArgumentException("no such row group: file=" + file.fileName() + " rowGroup="
                        + rowGroup + " rowGroups=" + file.rowGroupCount());
            }
            ParquetColumn column = file.columns().get(0);
            if (filter.canSkip() && provablyNoMatch(file, rowGroup, column, filter)) {
                return 0;
            }
            List<Unit> units = groupUnits(file, rowGroup, column, filter, slices, null);
            ParquetViewOptions partOptions = readOptions(List.of(filter.column())).withBatchScopedMemory(true);
            long count = 0;
            for (int u = slice; u < units.size(); u += slices) {
                count += runUnit(file, units.get(u), partOptions, filter.predicate(), false)[0];
            }
            return count;
        }
    }

    /** The rows matching {@code filter}, as row numbers in the file (from 0), ascending. */
    public long[] select(ColumnFilter filter) throws IOException {
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

    /** One unit of work: a row group (ranges null), or ranges of its pages. */
    private record Unit(int rowGroup, List<ParquetViewReader.PageRange> ranges) {}

    /** Per unit, in order: the count (one element) or the selected rows. */
    private long[][] run(ColumnFilter filter, boolean select) throws IOException {
        Objects.requireNonNull(filter, "filter");
        try (Arena mapping = Arena.ofShared();
                ParquetViewReader file = ParquetViewReader.open(path, mapping, readOptions(List.of(filter.column())))) {
            List<Unit> units = units(file, filter, null);
            long[][] results = new long[units.size()][];
            ParquetViewOptions partOptions = readOptions(List.of(filter.column())).withBatchScopedMemory(true);
            ViewPredicate predicate = filter.predicate();
            int tasks = Math.min(parallelism(), units.size());
            if (tasks <= 1) {
                for (int u = 0; u < units.size(); u++) {
                    results[u] = runUnit(file, units.get(u), partOptions, predicate, select);
                }
                return results;
            }
            AtomicInteger next = new AtomicInteger();
            List<Future<?>> workers = new ArrayList<>();
            try {
                for (int t = 0; t < tasks; t++) {
                    workers.add(submit(() -> {
                        for (int u = next.getAndIncrement(); u < units.size(); u = next.getAndIncrement()) {
                            try {
                                results[u] = runUnit(file, units.get(u), partOptions, predicate, select);
                            } catch (IOException e) {
                                next.set(units.size()); // the others stop at their next unit
                                throw new UncheckedIOException(e);
                            } catch (RuntimeException | Error e) {
                                next.set(units.size());
                                throw e;
                            }
                        }
                        return null;
                    }));
                }
                awaitAll(workers);
            } finally {
                // After a failure to submit, the tasks already submitted stop at their next unit and are waited for
                // (after a normal end they are done).
                next.set(units.size());
                awaitQuietly(workers);
            }
            return results;
        }
    }

    private long[] runUnit(ParquetViewReader file, Unit unit, ParquetViewOptions partOptions,
            ViewPredicate predicate, boolean select) throws IOException {
        long count = 0;
        long[] rows = select ? new long[64] : null;
        int[] hits = null;
        try (ParquetViewReader part = file.part(unit.rowGroup(), unit.ranges(), null, partOptions)) {
            if (pageFiltering) {
                hits = new int[partOptions.batchSize()];
                SubstringSearch search = pageSearch ? SubstringSearch.of(predicate).orElse(null) : null;
                for (int n = part.nextMatches(predicate, search, hits); n >= 0;
                        n = part.nextMatches(predicate, search, hits)) {
                    if (select) {
                        rows = appendRows(rows, count, part.lastFilteredRow(), hits, n);
                    }
                    count += n;
                }
                return select ? Arrays.copyOf(rows, (int) count) : new long[] {count};
            }
            for (ViewBatch batch = part.nextBatch(); batch != null; batch = part.nextBatch()) {
                if (!select) {
                    count += predicate.count(batch.column(0));
                    continue;
                }
                if (hits == null || hits.length < batch.rowCount()) {
                    hits = new int[batch.rowCount()];
                }
                int n = predicate.select(batch.column(0), hits);
                rows = appendRows(rows, count, batch.firstRow(), hits, n);
                count += n;
            }
        }
        return select ? Arrays.copyOf(rows, (int) count) : new long[] {count};
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
     * Reads the projected {@code columns} of the row groups {@code filter} may match (all row groups if it is null)
     * and hands every batch to {@code consumer} on the calling thread, in file order. The filter only skips row
     * groups here; the batches hold every row of the row groups read. A batch is valid during its call only.
     */
    public void forEachBatch(List<String> columns, ColumnFilter filter, BatchConsumer consumer) throws IOException {
        Objects.requireNonNull(columns, "columns");
        Objects.requireNonNull(consumer, "consumer");
        List<String> projection = new ArrayList<>(columns);
        if (filter != null && !projection.contains(filter.column())) {
            projection.add(filter.column()); // for its statistics; batches then hold it too
        }
        try (Arena mapping = Arena.ofShared();
                ParquetViewReader file = ParquetViewReader.open(path, mapping, readOptions(projection))) {
            List<Integer> groups = filter == null ? allGroups(file) : rowGroupsToRead(file, filter);
            ParquetViewOptions partOptions = readOptions(projection);
            int tasks = parallelism();
            if (tasks == 1) {
                for (int g : groups) {
                    try (Arena arena = Arena.ofConfined()) {
                        for (ViewBatch b : readGroup(file, g, arena, partOptions)) {
                            consumer.accept(b);
                        }
                    }
                }
                return;
            }
            ArrayDeque<Future<GroupBatches>> ahead = new ArrayDeque<>();
            int submitted = 0;
            try {
                while (submitted < groups.size() && ahead.size() < tasks) {
                    ahead.add(submitGroup(file, groups.get(submitted++), partOptions));
                }
                while (!ahead.isEmpty()) {
                    GroupBatches done = await(ahead.poll());
                    try (Arena arena = done.arena()) {
                        if (submitted < groups.size()) {
                            ahead.add(submitGroup(file, groups.get(submitted++), partOptions));
                        }
                        for (ViewBatch b : done.batches()) {
                            consumer.accept(b);
                        }
                    }
                }
            } finally {
                // On failure: let the row groups in flight finish, then free them (a running read's arena cannot be
                // closed under it).
                for (Future<GroupBatches> f : ahead) {
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

    private record GroupBatches(Arena arena, List<ViewBatch> batches) {}

    private Future<GroupBatches> submitGroup(ParquetViewReader file, int group, ParquetViewOptions partOptions) {
        return submit(() -> {
            Arena arena = Arena.ofShared(); // read here, consumed on the caller's thread
            try {
                return new GroupBatches(arena, readGroup(file, group, arena, partOptions));
            } catch (IOException | RuntimeException | Error e) {
                arena.close();
                throw e;
            }
        });
    }

    private static List<ViewBatch> readGroup(ParquetViewReader file, int group, Arena arena,
            ParquetViewOptions partOptions) throws IOException {
        List<ViewBatch> batches = new ArrayList<>();
        try (ParquetViewReader part = file.part(group, null, arena, partOptions)) {
            for (ViewBatch b = part.nextBatch(); b != null; b = part.nextBatch()) {
                batches.add(b);
            }
        }
        return batches;
    }

    private static List<Integer> allGroups(ParquetViewReader file) {
        List<Integer> groups = new ArrayList<>();
        for (int g = 0; g < file.rowGroupCount(); g++) {
            groups.add(g);
        }
        return groups;
    }

    private List<Integer> rowGroupsToRead(ParquetViewReader file, ColumnFilter filter) throws IOException {
        List<Integer> groups = new ArrayList<>();
        List<BlockMetaData> blocks = file.footer().getBlocks();
        ParquetColumn column = file.columns().stream().filter(c -> c.name().equals(filter.column())).findFirst()
                .orElseThrow();
        for (int g = 0; g < blocks.size(); g++) {
            if (!filter.canSkip() || !provablyNoMatch(file, g, column, filter)) {
                groups.add(g);
            }
        }
        return groups;
    }

    private boolean provablyNoMatch(ParquetViewReader file, int g, ParquetColumn column, ColumnFilter filter)
            throws IOException {
        BlockMetaData block = file.footer().getBlocks().get(g);
        ColumnChunkMetaData meta = file.chunkMetaData(g, column.name());
        if (meta == null) {
            return false; // the reader reports the missing chunk
        }
        if (statistics && statisticsExclude(meta, block.getRowCount(), filter)) {
            return true;
        }
        List<byte[]> probes = filter.probes();
        if (!bloomFilters || probes == null) {
            return false;
        }
        long offset;
        try {
            offset = meta.getBloomFilterOffset();
        } catch (RuntimeException e) {
            return false;
        }
        return BloomFilters.excludeAll(file.mappedFile(), file.dataEnd(), offset, probes);
    }

    private static boolean statisticsExclude(ColumnChunkMetaData meta, long rows, ColumnFilter filter) {
        ChunkBounds bounds = ChunkBounds.of(meta, rows);
        if (bounds == null) {
            return false;
        }
        if (bounds.allNull() && !bounds.hasBounds()) {
            return true; // every value is null, and these predicates match no null
        }
        return bounds.hasBounds() && !filter.mayMatch(bounds);
    }

    /**
     * Units for the row groups to read: whole groups, or page ranges when groups are fewer than the work wants or
     * the page index excludes pages. With {@code counts} (rowGroupsSkipped, pagesRead, pagesSkipped), every read
     * chunk's page headers are parsed to count its pages.
     */
    private List<Unit> units(ParquetViewReader file, ColumnFilter filter, long[] counts) throws IOException {
        List<Integer> groups = rowGroupsToRead(file, filter);
        List<Unit> units = new ArrayList<>();
        // About four units per task: each row group split into this many page ranges.
        int pieces = parallelism() == 1 || groups.isEmpty() ? 1
                : Math.max(1, (4 * parallelism() + groups.size() - 1) / groups.size());
        ParquetColumn column = file.columns().get(0);
        if (counts != null) {
            counts[0] = file.rowGroupCount() - groups.size();
        }
        for (int g : groups) {
            units.addAll(groupUnits(file, g, column, filter, pieces, counts));
        }
        return units;
    }

    /** The units of row group {@code g} (one of those to read): whole, or cut into about {@code pieces}. */
    private List<Unit> groupUnits(ParquetViewReader file, int g, ParquetColumn column, ColumnFilter filter,
            int pieces, long[] counts) throws IOException {
        boolean useIndex = pageIndex && filter.canSkip();
        List<List<ParquetViewReader.PageRange>> split = null;
        if (pieces > 1 || useIndex || counts != null) {
            ColumnChunkReader.Chunk chunk = file.chunk(g, column);
            List<ColumnChunkReader.PageSpan> spans = ColumnChunkReader.pageSpans(chunk);
            boolean[] keep = useIndex && spans != null ? pagesThatMayMatch(file, g, column, filter, spans) : null;
            split = spans == null ? null : pageRanges(chunk, spans, keep, pieces);
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
     * Per data page of the chunk (in {@code spans} order): false if its page-index entry proves that no row
     * matches {@code filter} (only nulls, or bounds that exclude every match). Null if the chunk has no usable page
     * index: none, unreadable, bounds not in unsigned byte order, or an offset index that does not agree with the
     * page headers (page offsets and first rows).
     */
    private static boolean[] pagesThatMayMatch(ParquetViewReader file, int g, ParquetColumn column,
            ColumnFilter filter, List<ColumnChunkReader.PageSpan> spans) {
        ColumnChunkMetaData meta = file.chunkMetaData(g, column.name());
        PageIndex index;
        try {
            if (meta == null || (Object) meta.getPrimitiveType().comparator()
                    != PrimitiveComparator.UNSIGNED_LEXICOGRAPHICAL_BINARY_COMPARATOR
                    || meta.getPrimitiveType().columnOrder().getColumnOrderName()
                            != ColumnOrder.ColumnOrderName.TYPE_DEFINED_ORDER) {
                return null; // bounds in another order (signed: DECIMAL), or no defined order at all
            }
            IndexReference columnIndex = meta.getColumnIndexReference();
            IndexReference offsetIndex = meta.getOffsetIndexReference();
            if (columnIndex == null || offsetIndex == null) {
                return null;
            }
            index = PageIndex.read(file.mappedFile(), file.dataEnd(), columnIndex.getOffset(),
                    columnIndex.getLength(), offsetIndex.getOffset(), offsetIndex.getLength());
        } catch (RuntimeException e) {
            return null; // unreadable metadata proves nothing
        }
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
            keep[page] = !index.nullPages()[page]
                    && filter.mayMatch(new ChunkBounds(index.mins()[page], index.maxs()[page], -1, -1));
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

    private static void awaitAll(List<Future<?>> workers) throws IOException {
        Throwable failure = null;
        for (Future<?> w : workers) {
            try {
                w.get();
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("scan interrupted", e);
            }
        }
        if (failure != null) {
            rethrow(failure);
        }
    }

    /** Waits for every one of {@code workers} to end, ignoring how; stops waiting when the thread is interrupted. */
    private static void awaitQuietly(List<Future<?>> workers) {
        for (Future<?> w : workers) {
            try {
                w.get();
            } catch (ExecutionException | java.util.concurrent.CancellationException e) {
                // reported by awaitAll, or the call is failing already
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static <T> T await(Future<T> future) throws IOException {
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

    /** Runs {@code task} on the caller's executor. */
    private <T> Future<T> submit(Callable<T> task) {
        FutureTask<T> future = new FutureTask<>(task);
        executor.execute(future);
        return future;
    }
}
