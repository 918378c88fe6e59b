package dev.stringview.parquet;

import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
import dev.stringview.ViewPredicate;
import dev.stringview.internal.reader.SubstringSearch;
import dev.stringview.parquet.internal.ColumnChunkReader;
import dev.stringview.parquet.internal.RangeReads;
import dev.stringview.parquet.internal.FixedLayout;
import dev.stringview.parquet.internal.FixedSink;
import dev.stringview.parquet.internal.ReadMemory;
import dev.stringview.parquet.internal.SegmentCodecFactory;
import dev.stringview.parquet.internal.SegmentInputFile;
import dev.stringview.parquet.internal.ViewSink;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.List;
import java.util.Objects;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.crypto.ParquetCryptoRuntimeException;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Reads the flat columns of a local Parquet file, row group by row group, in batches of a chosen number of rows:
 * string and binary (BYTE_ARRAY) columns into {@link ViewColumn}s, without copying string bytes where the encoding
 * allows it, and every other flat type into {@link FixedWidthColumn}s in Arrow's layout (docs/parquet.md, "Flat
 * types"), with one bulk copy per run of values where the page's bytes are already Arrow's.
 *
 * <p>The file is memory-mapped into the caller's arena. Views of uncompressed PLAIN and DELTA_LENGTH pages point
 * into the mapping itself; compressed pages are decompressed once into buffers from the same arena; dictionary
 * pages are decoded once per column chunk and data pages copy only 16-byte views; DELTA_BYTE_ARRAY values are
 * rebuilt once into arena buffers. A reader opened on a {@link ParquetSource} that does not hold the file in memory
 * reads the projected column chunks into the same memory instead of mapping the file. By default, everything a
 * batch references therefore lives exactly as long as the arena:
 * closing the arena unmaps the file and frees the pages, and any later access to a batch throws
 * {@link IllegalStateException}. Memory grows with what has been read until then.
 *
 * <p>With {@link ParquetViewOptions#withBatchScopedMemory batch-scoped memory}, a scan's memory stays bounded
 * instead: each batch, and the decompressed pages, dictionaries and rebuilt values it points into, are freed once
 * the next batch is read (or the reader closes), and a batch read after that throws
 * {@link IllegalStateException}. That memory is confined to the thread that opened the reader, and only closing
 * the reader frees it: close it (try-with-resources) from that thread. Only the mapping of the file stays with the
 * caller's arena.
 *
 * <p>parquet-java reads the footer, schema and column-chunk metadata (through an internal {@code InputFile} over the
 * file's tail and a {@code PlainParquetConfiguration}: no Hadoop file system, no JNI codecs). Page headers and pages
 * are read here.
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined();
 *      ParquetViewReader reader = ParquetViewReader.open(path, arena, ParquetViewOptions.defaults().withColumns("url"))) {
 *     for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
 *         ViewColumn urls = batch.column("url");
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>A reader is for one thread at a time (the arena's rules apply to the batches); with batch-scoped memory, for
 * the thread that opened it.
 */
public final class ParquetViewReader implements AutoCloseable {
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final int MAGIC_PAR1 = 0x3152_4150; // "PAR1" little-endian
    private static final int MAGIC_PARE = 0x4552_4150; // "PARE": encrypted footer
    /** The speculative tail read for the footer: most footers fit, and one request costs more than 64 KiB. */
    static final long FOOTER_READ = 64 << 10;

    private final String fileName;
    private final ReadMemory memory;
    /** The whole file when the source holds it in memory (a mapping), else null: chunks are read per row group. */
    private final MemorySegment file;
    /** The source's reads and their counters, shared with the parts of a scan. */
    private final RangeReads reads;
    /** The caller's arena (arena-scoped memory), or null. */
    private final Arena arena;
    /** Where row groups are prefetched, or null: only when chunks are read and the memory allows another thread. */
    private final Executor prefetch;
    /** The chunks of the row group being read (null when the file is in memory), and those fetched ahead. */
    private FetchedGroup current;
    private final ArrayDeque<FetchedGroup> ahead = new ArrayDeque<>();
    private final ParquetMetadata footer;
    private final long footerStart;
    private final List<ParquetColumn> allColumns;
    private final List<ParquetColumn> projection;
    private final ParquetViewOptions options;
    private final ColumnChunkReader.Settings settings;

    private int rowGroup = -1;
    private long rowsLeftInGroup;
    private long nextRow;
    /** The row groups this reader reads, {@code [firstGroup, endGroup)}: all of them unless it is a part. */
    private final int firstGroup;
    private final int endGroup;
    /**
     * A part reading ranges of one column chunk's data pages ({@link #part}), ascending, else null; the pages
     * between two ranges are skipped unread.
     */
    private final List<PageRange> ranges;
    /** With {@link #ranges}: the range being read and the rows left in it. */
    private int rangeIndex;
    private long rowsLeftInRange;
    private long groupFirstRow;
    private ColumnChunkReader[] readers = new ColumnChunkReader[0];
    private final long[][] validBits;
    private boolean closed;
    private final boolean dictionaryHeaderMissing;
    /** Row groups not read: outside the split or pruned by the options' filter; null when every one is read. */
    private boolean[] skip;

    private ParquetViewReader(String fileName, Arena arena, MemorySegment file, RangeReads reads,
            ParquetMetadata footer, long footerStart, List<ParquetColumn> allColumns, List<ParquetColumn> projection,
            ParquetViewOptions options) {
        this(fileName, arena, file, reads, footer, footerStart, allColumns, projection, options, 0,
                footer.getBlocks().size(), null);
    }

    private ParquetViewReader(String fileName, Arena arena, MemorySegment file, RangeReads reads,
            ParquetMetadata footer, long footerStart, List<ParquetColumn> allColumns, List<ParquetColumn> projection,
            ParquetViewOptions options, int firstGroup, int endGroup, List<PageRange> ranges) {
        this.firstGroup = firstGroup;
        this.endGroup = endGroup;
        this.ranges = ranges;
        this.rowGroup = firstGroup - 1;
        this.nextRow = rowsBefore(footer, firstGroup);
        this.fileName = fileName;
        this.memory = options.batchScopedMemory() ? ReadMemory.batchScoped() : ReadMemory.of(arena);
        this.file = file;
        this.reads = reads;
        this.arena = options.batchScopedMemory() ? null : arena;
        // Read-ahead fills arenas of the reader's own, so only batch-scoped memory prefetches: the caller's arena
        // may be confined to the caller's thread.
        this.prefetch = file == null && options.prefetch() != null && options.batchScopedMemory()
                ? options.prefetch() : null;
        this.footer = footer;
        this.footerStart = footerStart;
        this.allColumns = allColumns;
        this.projection = projection;
        this.options = options;
        this.settings = new ColumnChunkReader.Settings(options.validateUtf8(), options.verifyChecksums(),
                options.maxPageBytes(), options.nativeDecompression());
        this.validBits = new long[projection.size()][];
        this.dictionaryHeaderMissing = writtenBeforeParquet816Fix(footer.getFileMetaData().getCreatedBy());
    }

    /**
     * A range of data pages of one column chunk: the pages from the one at {@code offset} (its header) up to
     * {@code end}, holding {@code values} values after {@code valuesBefore} values of the chunk's earlier pages.
     * {@code dictionaryFirst}: the chunk starts with a dictionary page, read before the range.
     */
    record PageRange(long offset, long end, long valuesBefore, long values, int pageIndex,
            boolean dictionaryFirst) {}

    /**
     * A reader over one row group of this reader's file, or over ranges of its single projected column's pages,
     * sharing the mapping and footer. Opened on the thread that will read it (batch-scoped memory is confined to
     * it). {@code ranges} is null for the whole row group; else they are ascending and do not overlap, the pages
     * between them are not read, and no batch spans two ranges ({@link ViewBatch#firstRow} tells where each
     * starts). Buffers come from {@code arena} unless {@code partOptions} asks for batch-scoped memory (then
     * {@code arena} may be null).
     */
    ParquetViewReader part(int group, List<PageRange> ranges, Arena arena, ParquetViewOptions partOptions) {
        if (group < 0 || group >= footer.getBlocks().size()) {
            throw new IllegalArgumentException("no such row group: file=" + fileName + " rowGroup=" + group
                    + " rowGroups=" + footer.getBlocks().size());
        }
        if (ranges != null && ranges.isEmpty()) {
            throw new IllegalArgumentException("page ranges need at least one range: file=" + fileName
                    + " rowGroup=" + group);
        }
        for (int i = 1; ranges != null && i < ranges.size(); i++) {
            PageRange before = ranges.get(i - 1);
            if (ranges.get(i).offset() < before.end()
                    || ranges.get(i).valuesBefore() < before.valuesBefore() + before.values()) {
                throw new IllegalArgumentException("page ranges overlap or are out of order: file=" + fileName
                        + " rowGroup=" + group + " range=" + i + " offset=" + ranges.get(i).offset()
                        + " previousEnd=" + before.end());
            }
        }
        List<ParquetColumn> partProjection = projection;
        if (!partOptions.columns().isEmpty()) {
            partProjection = new ArrayList<>();
            for (String name : partOptions.columns()) {
                ParquetColumn c = projection.stream().filter(p -> p.name().equals(name)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("column not projected: file=" + fileName
                                + " column=" + name + " columns="
                                + projection.stream().map(ParquetColumn::name).toList()));
                partProjection.add(c);
            }
            partProjection = List.copyOf(partProjection);
        }
        if (ranges != null && partProjection.size() != 1) {
            throw new IllegalArgumentException("page ranges need exactly one column: file=" + fileName
                    + " columns=" + partProjection.size());
        }
        return new ParquetViewReader(fileName, arena, file, reads, footer, footerStart, allColumns, partProjection,
                partOptions.withPrefetch(null), group, group + 1, ranges == null ? null : List.copyOf(ranges));
    }

    /** The footer as parquet-java read it (statistics, bloom filter offsets) for scans in this package. */
    ParquetMetadata footer() {
        return footer;
    }

    /** Where the footer starts: the end of the pages, column indexes and bloom filters. */
    long dataEnd() {
        return footerStart;
    }

    /** The chunk of {@code column} in row group {@code group}, checked against the file. */
    ColumnChunkReader.Chunk chunk(int group, ParquetColumn column) throws IOException {
        return chunkOf(group, column, arena != null ? arena : Arena.ofAuto());
    }

    /** The rows of the row groups before {@code group}: the file row its first row is. */
    private static long rowsBefore(ParquetMetadata footer, int group) {
        long rows = 0;
        for (int g = 0; g < group; g++) {
            rows += footer.getBlocks().get(g).getRowCount();
        }
        return rows;
    }

    /** Whether {@code createdBy} names parquet-mr older than 1.2.9 (or without a version). */
    static boolean writtenBeforeParquet816Fix(String createdBy) {
        if (createdBy == null || !createdBy.startsWith("parquet-mr")) {
            return false;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("version (\\d+)\\.(\\d+)\\.(\\d+)")
                .matcher(createdBy);
        if (!m.find()) {
            return true;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        int patch = Integer.parseInt(m.group(3));
        return major < 1 || (major == 1 && (minor < 2 || (minor == 2 && patch < 9)));
    }

    /** Opens {@code path} with {@link ParquetViewOptions#defaults()}. */
    public static ParquetViewReader open(Path path, Arena arena) throws IOException {
        return open(path, arena, ParquetViewOptions.defaults());
    }

    /**
     * Maps {@code path} into {@code arena} ({@link ParquetSources#map}), reads its footer and checks that the
     * projected columns can be read. Views of uncompressed pages point straight into the mapping.
     *
     * @throws UnsupportedParquetException for nested or repeated columns, DECIMALs wider than 76 digits and
     *     encrypted files
     * @throws CorruptParquetException for a file that is not Parquet or whose footer is damaged
     * @throws IllegalArgumentException for a projected column the file does not have
     */
    public static ParquetViewReader open(Path path, Arena arena, ParquetViewOptions options) throws IOException {
        return open(path, arena, options, null);
    }

    /**
     * For {@link ParquetScan}: like {@link #open(Path, Arena, ParquetViewOptions)}, but when {@code exactly} is not
     * null the projection is {@code exactly}'s readable columns (possibly none), not the options' columns: a filter's
     * columns may include fixed-width ones that only the footer's metadata is read for.
     */
    static ParquetViewReader open(Path path, Arena arena, ParquetViewOptions options, List<String> exactly)
            throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(options, "options");
        return open(ParquetSources.map(path, arena), arena, options, exactly);
    }

    /**
     * Reads the footer of {@code source} (one read of its last 64 KiB, and a second only for a larger footer) and
     * checks that the projected columns can be read. Unless the source holds the file in memory, each row group's
     * projected column chunks are then read when the reader reaches it (or earlier, on the
     * {@linkplain ParquetViewOptions#prefetch() prefetch executor}), with gaps of up to 1 MiB between them merged
     * into one read, into segments from the reader's memory: the caller's {@code arena}, or with batch-scoped memory
     * the reader's own, freed once no batch points into them. The source stays the caller's: the reader never
     * closes it, and it must stay open until the reader is closed.
     *
     * @throws UnsupportedParquetException for nested, repeated or non-BYTE_ARRAY columns and encrypted files
     * @throws CorruptParquetException for a file that is not Parquet or whose footer is damaged
     * @throws IllegalArgumentException for a projected column the file does not have
     */
    public static ParquetViewReader open(ParquetSource source, Arena arena, ParquetViewOptions options)
            throws IOException {
        return open(source, arena, options, null);
    }

    /** {@link #open(ParquetSource, Arena, ParquetViewOptions)} with {@code exactly} as in the Path overload. */
    static ParquetViewReader open(ParquetSource source, Arena arena, ParquetViewOptions options, List<String> exactly)
            throws IOException {
        return open(new RangeReads(source), arena, options, exactly);
    }

    /** The same, counting into {@code reads} (a scan's, shared by its calls). */
    static ParquetViewReader open(RangeReads reads, Arena arena, ParquetViewOptions options, List<String> exactly)
            throws IOException {
        Objects.requireNonNull(reads, "reads");
        ParquetSource source = reads.source();
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(options, "options");
        String name = source.name();
        long size = source.length();
        if (size < 12) {
            throw new CorruptParquetException("not a parquet file, too small", name, null, -1, -1,
                    "fileSize=" + size + " minSize=12", null);
        }
        MemorySegment file = source.inMemory();
        if (file != null && file.byteSize() != size) {
            throw new IllegalArgumentException("source's bytes in memory differ from its length: file=" + name
                    + " length=" + size + " inMemory=" + file.byteSize());
        }
        ParquetMetadata footer;
        long footerStart;
        try (Arena tailArena = Arena.ofConfined()) {
            long tailStart = file != null ? 0 : Math.max(0, size - FOOTER_READ);
            MemorySegment tail = file != null ? file : readOrName(reads, tailStart, size - tailStart, tailArena, name);
            long tailSize = tail.byteSize();
            // Read from a source, the head magic is checked only when the tail read reaches it (as arrow-rs and
            // parquet-java do): a request for 4 bytes costs as much as the tail read.
            int head = tailStart == 0 ? tail.get(LE_INT, 0) : MAGIC_PAR1;
            int trailer = tail.get(LE_INT, tailSize - 4);
            if (trailer == MAGIC_PARE) {
                throw new UnsupportedParquetException("encrypted file (encrypted footer) is not supported", name,
                        null, -1, -1, "magic=PARE");
            }
            if (head != MAGIC_PAR1 || trailer != MAGIC_PAR1) {
                throw new CorruptParquetException("not a parquet file, or truncated: magic bytes missing", name,
                        null, -1, -1, "fileSize=" + size + " headMagic=" + magic(head) + " tailMagic="
                        + magic(trailer), null);
            }
            long footerLength = tail.get(LE_INT, tailSize - 8) & 0xFFFF_FFFFL;
            footerStart = size - 8 - footerLength;
            if (footerStart < 4) {
                throw new CorruptParquetException("footer longer than the file", name, null, -1, -1,
                        "footerLength=" + footerLength + " fileSize=" + size, null);
            }
            if (file == null) {
                // The rest of a footer longer than the speculative tail read.
                long from = Math.min(footerStart, tailStart);
                if (from < tailStart) {
                    MemorySegment whole = tailArena.allocate(size - from, 8);
                    MemorySegment.copy(readOrName(reads, from, tailStart - from, tailArena, name), 0, whole, 0,
                            tailStart - from);
                    MemorySegment.copy(tail, 0, whole, tailStart - from, tailSize);
                    tail = whole;
                    tailStart = from;
                }
            }
            footer = readFooter(name, tail, tailStart);
        }
        org.apache.parquet.hadoop.metadata.FileMetaData.EncryptionType encryption = footer.getFileMetaData().getEncryptionType();
        if (encryption != null && encryption != org.apache.parquet.hadoop.metadata.FileMetaData.EncryptionType.UNENCRYPTED) {
            throw new UnsupportedParquetException("encrypted file is not supported", name, null, -1, -1,
                    "encryption=" + encryption);
        }
        MessageType schema = footer.getFileMetaData().getSchema();
        List<ParquetColumn> all = new ArrayList<>();
        for (Type field : schema.getFields()) {
            all.add(describe(field));
        }
        List<String> wanted = exactly != null
                ? exactly.stream().filter(c -> all.stream().anyMatch(a -> a != null && a.name().equals(c))).toList()
                : options.columns().isEmpty()
                ? all.stream().filter(Objects::nonNull).map(ParquetColumn::name).toList()
                : options.columns();
        List<ParquetColumn> projection = new ArrayList<>();
        for (String column : wanted) {
            if (!schema.containsField(column)) {
                throw new IllegalArgumentException("no such column: file=" + name + " column=" + column
                        + " columns=" + schema.getFields().stream().map(Type::getName).toList());
            }
            if (projection.stream().anyMatch(c -> c.name().equals(column))) {
                throw new IllegalArgumentException("column projected twice: file=" + name + " column=" + column);
            }
            projection.add(check(name, schema.getType(column)));
        }
        ParquetViewReader reader = new ParquetViewReader(name, arena, file, reads, footer, footerStart,
                java.util.Collections.unmodifiableList(all),
                List.copyOf(projection), options);
        reader.checkChunks();
        try {
            reader.skip = reader.rowGroupsNotRead(options);
        } catch (IOException | RuntimeException e) {
            reader.close();
            throw e;
        }
        return reader;
    }

    /**
     * The row groups outside the options' split or pruned by their filter ({@link ParquetViewOptions#splitStart},
     * {@link ParquetViewOptions#filter}), or null when the reader reads every row group. Their bytes count as
     * skipped.
     */
    private boolean[] rowGroupsNotRead(ParquetViewOptions options) throws IOException {
        List<BlockMetaData> blocks = footer.getBlocks();
        boolean whole = options.splitStart() == 0 && options.splitLength() == Long.MAX_VALUE;
        if (whole && options.filter() == null) {
            return null;
        }
        boolean[] read = new boolean[blocks.size()];
        for (int g = 0; g < read.length; g++) {
            read[g] = whole || options.splitHolds(blocks.get(g).getStartingPos(), blocks.get(g).getCompressedSize());
        }
        if (options.filter() != null) {
            read = ParquetScan.mayPass(this, options.filter(), read);
        }
        boolean[] skipped = new boolean[read.length];
        for (int g = 0; g < read.length; g++) {
            skipped[g] = !read[g];
            if (skipped[g] && file == null) {
                for (ColumnChunkMetaData c : blocks.get(g).getColumns()) {
                    reads.skipped(c.getTotalSize());
                }
            }
        }
        return skipped;
    }

    /**
     * Whether this reader reads row group {@code g}: false for a row group outside its split or pruned by its
     * filter ({@link ParquetViewOptions#withSplit}, {@link ParquetViewOptions#withFilter}).
     */
    boolean readsRowGroup(int g) {
        return skip == null || !skip[g];
    }

    /** The first row group after {@code g} this reader reads, or {@code endGroup}. */
    private int nextGroupRead(int g) {
        int next = g + 1;
        while (next < endGroup && !readsRowGroup(next)) {
            next++;
        }
        return next;
    }

    private static String magic(int value) {
        byte[] b = {(byte) value, (byte) (value >>> 8), (byte) (value >>> 16), (byte) (value >>> 24)};
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(x >= 0x20 && x < 0x7F ? Character.toString(x) : String.format("\\x%02x", x & 0xFF));
        }
        return sb.toString();
    }

    /** Reads {@code length} bytes at {@code offset} for the footer, naming the file in an I/O error. */
    private static MemorySegment readOrName(RangeReads reads, long offset, long length, Arena arena, String name)
            throws IOException {
        try {
            return reads.readOne(offset, length, arena);
        } catch (IOException e) {
            throw new IOException("cannot read the footer: file=" + name + " offset=" + offset + " length=" + length
                    + " detail=\"" + e.getMessage() + "\"", e);
        }
    }

    /** The footer from {@code tail}, the file's bytes from {@code tailStart} to its end. */
    private static ParquetMetadata readFooter(String name, MemorySegment tail, long tailStart)
            throws ParquetViewException {
        ParquetReadOptions readOptions = ParquetReadOptions.builder(new PlainParquetConfiguration())
                .withCodecFactory(new SegmentCodecFactory())
                .build();
        try (ParquetFileReader reader = ParquetFileReader.open(new SegmentInputFile(tail, tailStart), readOptions)) {
            return reader.getFooter();
        } catch (ParquetCryptoRuntimeException e) {
            throw new UnsupportedParquetException("encrypted file is not supported", name, null, -1, -1,
                    "detail=\"" + e.getMessage() + "\"");
        } catch (IOException | RuntimeException e) {
            throw new CorruptParquetException("cannot read footer", name, null, -1, -1,
                    "detail=\"" + e + "\"", e);
        } catch (StackOverflowError e) {
            throw new CorruptParquetException("cannot read footer, nesting too deep", name, null, -1, -1, "", e);
        }
    }

    /** Describes a top-level field as a readable column, or null if it is not one. */
    private static ParquetColumn describe(Type field) {
        if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
            return null;
        }
        try {
            return describePrimitive(field);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** A flat primitive field as a column; {@link IllegalArgumentException} saying why its type is not read. */
    private static ParquetColumn describePrimitive(Type field) {
        PrimitiveType primitive = field.asPrimitiveType();
        ParquetType type = ParquetTypes.of(primitive);
        LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
        ViewKind kind = type.isFixedWidth() ? null
                : type.logical() == ParquetType.Logical.STRING ? ViewKind.UTF8 : ViewKind.BINARY;
        return new ParquetColumn(field.getName(), kind, field.isRepetition(Type.Repetition.OPTIONAL),
                logical == null ? "none" : logical.toString(), type);
    }

    private static ParquetColumn check(String file, Type field) throws UnsupportedParquetException {
        if (!field.isPrimitive()) {
            throw new UnsupportedParquetException("nested column is not supported", file, field.getName(), -1, -1,
                    "type=group repetition=" + field.getRepetition());
        }
        if (field.isRepetition(Type.Repetition.REPEATED)) {
            throw new UnsupportedParquetException("repeated column is not supported", file, field.getName(), -1,
                    -1, "repetition=REPEATED");
        }
        try {
            return describePrimitive(field);
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            int colon = message.indexOf(": ");
            throw new UnsupportedParquetException(colon < 0 ? message : message.substring(0, colon), file,
                    field.getName(), -1, -1, colon < 0 ? "" : message.substring(colon + 2));
        }
    }

    /** Checks every projected chunk's metadata against the file before any page is read. */
    private void checkChunks() throws ParquetViewException {
        List<BlockMetaData> blocks = footer.getBlocks();
        for (int g = 0; g < blocks.size(); g++) {
            BlockMetaData block = blocks.get(g);
            if (block.getRowCount() < 0) {
                throw new CorruptParquetException("negative row count", fileName, null, g, -1,
                        "rows=" + block.getRowCount(), null);
            }
            for (ParquetColumn column : projection) {
                place(g, column); // throws if missing, encrypted or out of range
            }
        }
    }

    /** The metadata of top-level column {@code name}'s chunk in row group {@code g} (the first such), or null. */
    ColumnChunkMetaData chunkMetaData(int g, String name) {
        for (ColumnChunkMetaData c : footer.getBlocks().get(g).getColumns()) {
            String[] path = c.getPath().toArray();
            if (path.length == 1 && path[0].equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** Where a column chunk lies in the file, checked against it. */
    private record Place(long start, long length, long values, CompressionCodecName codec) {}

    /**
     * The chunk of {@code column} in row group {@code g}. In a file held in memory its coordinates are the file's;
     * else the chunk is read now, alone, into the reader's memory, and its coordinates are the chunk's own (0 is its
     * first byte), as for every chunk a reader reads from a source ({@link #chunkFileOffset}).
     */
    private ColumnChunkReader.Chunk chunkOf(int g, ParquetColumn column, Arena target) throws IOException {
        Place p = place(g, column);
        if (file != null) {
            return new ColumnChunkReader.Chunk(fileName, file, column.name(), column.kind(), column.optional(), g,
                    p.codec(), p.start(), p.length(), p.values(), column.type());
        }
        MemorySegment bytes = readChunks(g, List.of(column), List.of(p), target, 0)[0];
        return chunkIn(g, column, p, bytes);
    }

    /** The chunk over {@code bytes}, its bytes as read from the source: chunk coordinates. */
    private ColumnChunkReader.Chunk chunkIn(int g, ParquetColumn column, Place p, MemorySegment bytes) {
        return new ColumnChunkReader.Chunk(fileName, bytes, column.name(), column.kind(), column.optional(), g,
                p.codec(), 0, bytes.byteSize(), p.values(), column.type());
    }

    /**
     * Where offset 0 of a chunk's coordinates lies in the file: 0 for a file in memory (the chunk's coordinates are
     * the file's), else the chunk's first byte. Page-index offsets are file offsets; subtract this to compare them
     * with page offsets in the chunk.
     */
    long chunkFileOffset(int g, ParquetColumn column) throws ParquetViewException {
        return file != null ? 0 : place(g, column).start();
    }

    /** Reads the chunks at {@code places} (of {@code columns}, row group {@code g}) from the source. */
    private MemorySegment[] readChunks(int g, List<ParquetColumn> columns, List<Place> places, Arena target,
            long skipped) throws IOException {
        List<RangeReads.Range> ranges = new ArrayList<>(places.size());
        for (Place p : places) {
            ranges.add(new RangeReads.Range(p.start(), p.length()));
        }
        try {
            return reads.read(ranges, target, skipped);
        } catch (IOException e) {
            StringBuilder where = new StringBuilder();
            for (int c = 0; c < columns.size(); c++) {
                where.append(c == 0 ? "" : ",").append(columns.get(c).name()).append('@')
                        .append(places.get(c).start()).append('+').append(places.get(c).length());
            }
            throw new IOException("cannot read column chunks: file=" + fileName + " rowGroup=" + g + " chunks=["
                    + where + "] detail=\"" + e.getMessage() + "\"", e);
        }
    }

    private Place place(int g, ParquetColumn column) throws ParquetViewException {
        BlockMetaData block = footer.getBlocks().get(g);
        ColumnChunkMetaData meta = chunkMetaData(g, column.name());
        if (meta == null) {
            throw new CorruptParquetException("column chunk missing from row group", fileName, column.name(), g,
                    -1, "chunks=" + block.getColumns().size(), null);
        }
        if (meta.isEncrypted()) {
            throw new UnsupportedParquetException("encrypted column is not supported", fileName, column.name(), g,
                    -1, "encrypted=true");
        }
        long start;
        long length;
        long values;
        CompressionCodecName codec;
        try {
            start = meta.getStartingPos();
            length = meta.getTotalSize();
            values = meta.getValueCount();
            codec = meta.getCodec();
        } catch (RuntimeException e) {
            throw new CorruptParquetException("unreadable column chunk metadata", fileName, column.name(), g, -1,
                    "detail=\"" + e + "\"", e);
        }
        if (start < 4 || length < 0 || length > footerStart - start) {
            throw new CorruptParquetException("column chunk outside the file's data", fileName, column.name(), g,
                    -1, "chunkOffset=" + start + " chunkLength=" + length + " dataEnd=" + footerStart, null);
        }
        if (values != block.getRowCount()) {
            throw new CorruptParquetException("column chunk value count differs from the row group's rows",
                    fileName, column.name(), g, -1, "numValues=" + values + " rows=" + block.getRowCount(), null);
        }
        if (dictionaryHeaderMissing) {
            // PARQUET-816: parquet-mr before 1.2.9 left the dictionary page header out of the chunk's size, so
            // its last page ends up to a header's size past the chunk. Read up to 100 bytes on, as Arrow C++ and
            // parquet-java (for the last chunk) do; the pages themselves stay bounds-checked.
            length += Math.min(100, footerStart - (start + length));
        }
        return new Place(start, length, values, codec);
    }

    /** The names of the schema's top-level fields, readable or not, in schema order. */
    public List<String> fieldNames() {
        return footer.getFileMetaData().getSchema().getFields().stream().map(Type::getName).toList();
    }

    /** Every top-level field of the schema: its description if this reader can read it, else null. */
    public List<ParquetColumn> schemaColumns() {
        return allColumns;
    }

    /** The columns each batch holds, in order. */
    public List<ParquetColumn> columns() {
        return projection;
    }

    public int rowGroupCount() {
        return footer.getBlocks().size();
    }

    public long rowCount() {
        long rows = 0;
        for (BlockMetaData block : footer.getBlocks()) {
            rows += block.getRowCount();
        }
        return rows;
    }

    public String fileName() {
        return fileName;
    }

    /**
     * The footer's key-value metadata (e.g. the writer's version and settings, which Spark reads to decide how to
     * rebase old dates), unmodifiable; empty when the footer has none.
     */
    public java.util.Map<String, String> keyValueMetadata() {
        java.util.Map<String, String> meta = footer.getFileMetaData().getKeyValueMetaData();
        return meta == null ? java.util.Map.of() : java.util.Collections.unmodifiableMap(meta);
    }

    /** Where batches and pages are allocated (for tests that check memory stays bounded). */
    ReadMemory memory() {
        return memory;
    }

    /** The memory-mapped file (for tests that check views point into it). */
    MemorySegment mappedFile() {
        return file;
    }

    /**
     * The next batch: up to {@code batchSize} rows, never spanning row groups. Null after the last row.
     *
     * @throws ParquetViewException naming file, column, row group and page for corrupt or unsupported pages
     */
    public ViewBatch nextBatch() throws IOException {
        if (closed) {
            throw new IllegalStateException("reader is closed: file=" + fileName);
        }
        memory.freeRetired(); // when batch-scoped, frees the previous batch and the buffers read past
        while (rowsLeftInGroup == 0) {
            if (!nextRowGroup()) {
                return null;
            }
        }
        int n = rowsOfNextBatch();
        List<Object> columns = new ArrayList<>(projection.size());
        List<String> names = new ArrayList<>(projection.size());
        for (int c = 0; c < projection.size(); c++) {
            ParquetColumn column = projection.get(c);
            long[] bits = null;
            if (column.optional()) {
                int words = (n + 63) >>> 6;
                if (validBits[c] == null || validBits[c].length < words) {
                    validBits[c] = new long[Math.max(words, (options.batchSize() + 63) >>> 6)];
                }
                bits = validBits[c];
            }
            columns.add(readColumn(readers[c], column, memory.batchArena(), n, bits));
            names.add(column.name());
        }
        ViewBatch batch = new ViewBatch(rowGroup, nextRow, n, names, columns);
        rowsLeftInGroup -= n;
        nextRow += n;
        return batch;
    }

    /**
     * Skips the rows the next {@code batches} calls of {@link #nextBatch} would return within the current row group
     * (the row group's remaining rows at most), and returns how many rows, or -1 after the last row. Data pages that
     * lie wholly inside the skipped rows are not decompressed nor decoded (only their headers are read); the rest of
     * a page that starts or ends inside them is decoded and dropped ({@link ColumnChunkReader#skipRows}). For
     * {@link ParquetScan}'s late materialization: the columns outside a filter are read only for batches where a
     * row passed it. Not for readers over page ranges.
     */
    long skipBatches(int batches) throws IOException {
        if (closed) {
            throw new IllegalStateException("reader is closed: file=" + fileName);
        }
        if (ranges != null) {
            throw new IllegalStateException("cannot skip batches of page ranges: file=" + fileName);
        }
        memory.freeRetired();
        while (rowsLeftInGroup == 0) {
            if (!nextRowGroup()) {
                return -1;
            }
        }
        long n = Math.min(rowsLeftInGroup, (long) batches * options.batchSize());
        for (long left = n; left > 0; ) {
            int step = (int) Math.min(left, Integer.MAX_VALUE);
            for (int c = 0; c < projection.size(); c++) {
                readers[c].skipRows(step, memory.batchArena());
            }
            left -= step;
        }
        rowsLeftInGroup -= n;
        nextRow += n;
        return n;
    }

    /**
     * The dictionary of column {@code column}'s chunk in row group {@code g}, as views into {@code arena}, or null
     * when the chunk has no dictionary page. For pruning by dictionary in {@link ParquetScan}.
     */
    dev.stringview.ViewColumn dictionary(int g, ParquetColumn column, Arena arena) throws IOException {
        ColumnChunkReader.Chunk chunk;
        ColumnChunkMetaData meta = chunkMetaData(g, column.name());
        if (file == null && meta != null && meta.hasDictionaryPage()
                && meta.getFirstDataPageOffset() > meta.getStartingPos()) {
            // From a source, only the dictionary page: the bytes before the first data page.
            Place p = place(g, column);
            Place head = new Place(p.start(), Math.min(p.length(), meta.getFirstDataPageOffset() - p.start()),
                    p.values(), p.codec());
            chunk = chunkIn(g, column, head, readChunks(g, List.of(column), List.of(head), arena, 0)[0]);
        } else {
            chunk = chunkOf(g, column, arena);
        }
        ColumnChunkReader reader = new ColumnChunkReader(chunk, settings, ReadMemory.of(arena), null);
        return reader.dictionaryColumn(arena);
    }

    /** The schema's top-level field {@code name} as a primitive type; an error naming it if missing or nested. */
    PrimitiveType primitiveType(String name) {
        MessageType schema = footer.getFileMetaData().getSchema();
        if (!schema.containsField(name)) {
            throw new IllegalArgumentException("no such column: file=" + fileName + " column=" + name
                    + " columns=" + fieldNames());
        }
        Type field = schema.getType(name);
        if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
            throw new IllegalArgumentException("filter on a nested or repeated column: file=" + fileName
                    + " column=" + name + " repetition=" + field.getRepetition());
        }
        return field.asPrimitiveType();
    }

    /** The readable string column {@code name} (from {@link #schemaColumns}), or null. */
    ParquetColumn stringColumn(String name) {
        for (ParquetColumn c : allColumns) {
            if (c != null && c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    /**
     * Moves to the start of row group {@code target}: the next batch is that row group's first. Row groups before
     * it are skipped without reading a page, so an engine can read one row group per task (the Spark source does).
     * With batch-scoped memory, the batch read last is freed as by {@link #nextBatch()}. A row group this reader
     * does not read (outside its {@linkplain ParquetViewOptions#withSplit split}, or pruned by its
     * {@linkplain ParquetViewOptions#withFilter filter}) is passed over: the next batch is from the first row group
     * after it that the reader reads.
     *
     * @throws IllegalArgumentException if {@code target} is not a row group of the file, or lies before the row
     *     group being read (a reader only moves forward)
     */
    public void seekRowGroup(int target) {
        if (closed) {
            throw new IllegalStateException("reader is closed: file=" + fileName);
        }
        int groups = footer.getBlocks().size();
        if (target < 0 || target >= groups || target < rowGroup
                || (target == rowGroup && rowsLeftInGroup < footer.getBlocks().get(target).getRowCount())) {
            throw new IllegalArgumentException("cannot seek to row group: file=" + fileName + " rowGroup=" + target
                    + " rowGroups=" + groups + " currentRowGroup=" + rowGroup);
        }
        if (target == rowGroup) {
            return; // already at its start
        }
        memory.freeRetired();
        closeReaders();
        memory.freeRetired();
        release(current);
        current = null;
        while (!ahead.isEmpty() && ahead.peekFirst().group() < target) {
            release(ahead.pollFirst());
        }
        rowGroup = target - 1;
        rowsLeftInGroup = 0;
        nextRow = rowsBefore(footer, target);
    }

    /**
     * For {@link ParquetScan}: decides the rows of the next batch of this reader's single projected column by
     * {@code predicate} without building the batch ({@link ColumnChunkReader#filterRows}: dictionary pages by id,
     * PLAIN pages by one search over the page when {@code search}, {@code predicate}'s substring search, is given).
     * Writes the matching rows' positions within the batch to {@code hits} (room for {@code batchSize}) and
     * returns how many, or -1 after the last row. The batch's first row in the file is then
     * {@link #lastFilteredRow}.
     */
    int nextMatches(ViewPredicate predicate, SubstringSearch search, int[] hits) throws IOException {
        if (closed) {
            throw new IllegalStateException("reader is closed: file=" + fileName);
        }
        if (projection.size() != 1) {
            throw new IllegalArgumentException("filtering needs exactly one column: file=" + fileName
                    + " columns=" + projection.size());
        }
        memory.freeRetired();
        while (rowsLeftInGroup == 0) {
            if (!nextRowGroup()) {
                return -1;
            }
        }
        int n = rowsOfNextBatch();
        lastFilteredRow = nextRow;
        int found = readers[0].filterRows(predicate, search, memory.batchArena(), n, hits);
        rowsLeftInGroup -= n;
        nextRow += n;
        return found;
    }

    /** The file row of the first row of the batch the last {@link #nextMatches} decided. */
    long lastFilteredRow() {
        return lastFilteredRow;
    }

    private long lastFilteredRow;

    /**
     * The rows of the next batch: up to the batch size, within the row group and, for a part over page ranges,
     * within the current range (moving to the next range, past the skipped pages, when the current one is done).
     * Counts them as read.
     */
    private int rowsOfNextBatch() {
        long left = rowsLeftInGroup;
        if (ranges != null) {
            if (rowsLeftInRange == 0) {
                PageRange next = ranges.get(++rangeIndex);
                readers[0].jumpTo(next.offset(), next.valuesBefore(), next.pageIndex());
                nextRow = groupFirstRow + next.valuesBefore();
                rowsLeftInRange = next.values();
            }
            left = Math.min(left, rowsLeftInRange);
        }
        int n = (int) Math.min(options.batchSize(), left);
        rowsLeftInRange -= n;
        return n;
    }

    private boolean nextRowGroup() throws IOException {
        closeReaders();
        memory.freeRetired(); // the last row group's pages and dictionaries: no batch points into them any more
        release(current); // and its chunks, when they are the reader's own
        current = null;
        int next = nextGroupRead(rowGroup);
        for (int g = rowGroup + 1; g < next; g++) {
            nextRow += footer.getBlocks().get(g).getRowCount(); // row groups not read keep the file's row numbers
        }
        if (next >= endGroup) {
            rowGroup = endGroup - 1;
            return false;
        }
        rowGroup = next;
        rowsLeftInGroup = footer.getBlocks().get(rowGroup).getRowCount();
        readers = new ColumnChunkReader[projection.size()];
        if (file == null && !projection.isEmpty()) {
            current = take(rowGroup);
        }
        for (int c = 0; c < projection.size(); c++) {
            ColumnChunkReader.Chunk chunk = current == null ? chunkOf(rowGroup, projection.get(c), null)
                    : chunkIn(rowGroup, projection.get(c), place(rowGroup, projection.get(c)), current.chunks()[c]);
            if (ranges == null) {
                readers[c] = new ColumnChunkReader(chunk, settings, memory, null);
            } else {
                PageRange first = ranges.get(0);
                PageRange last = ranges.get(ranges.size() - 1);
                ColumnChunkReader.Chunk head = new ColumnChunkReader.Chunk(chunk.fileName(), chunk.file(),
                        chunk.column(), chunk.kind(), chunk.optional(), chunk.rowGroup(), chunk.codec(),
                        chunk.start(), last.end() - chunk.start(), last.valuesBefore() + last.values(), chunk.type());
                readers[c] = new ColumnChunkReader(head, settings, memory, null);
                readers[c].startAt(first.offset(), first.valuesBefore(), first.pageIndex(), first.dictionaryFirst());
                groupFirstRow = nextRow;
                nextRow += first.valuesBefore();
                rangeIndex = 0;
                rowsLeftInRange = first.values();
                long values = 0;
                for (PageRange r : ranges) {
                    values += r.values();
                }
                rowsLeftInGroup = values;
            }
        }
        if (projection.isEmpty()) {
            nextRow += rowsLeftInGroup; // nothing to read: skip the row group's rows
            rowsLeftInGroup = 0;
        }
        return true;
    }

    /**
     * A row group's projected chunks read from the source: {@code chunks[c]} for projected column {@code c}, in
     * {@code arena} (the reader's own for batch-scoped memory, freed by {@link #release}; else the caller's), or,
     * while it is being read ahead, the read's outcome.
     */
    private record FetchedGroup(int group, Arena arena, MemorySegment[] chunks, CompletableFuture<MemorySegment[]> read) {}

    /**
     * The chunks of row group {@code g}: read ahead if a prefetch holds them (waiting for it), else read now. Then
     * starts reading the next row groups ahead, up to the memory bound.
     */
    private FetchedGroup take(int g) throws IOException {
        FetchedGroup next = ahead.peekFirst();
        FetchedGroup taken;
        if (next != null && next.group() == g) {
            ahead.removeFirst();
            try {
                taken = new FetchedGroup(g, next.arena(), next.read().join(), null);
            } catch (java.util.concurrent.CompletionException e) {
                release(next);
                Throwable cause = e.getCause();
                if (cause instanceof UncheckedIOException u) {
                    throw u.getCause();
                }
                if (cause instanceof RuntimeException r) {
                    throw r;
                }
                if (cause instanceof Error err) {
                    throw err;
                }
                throw new IOException(cause);
            }
        } else {
            dropAhead();
            Arena groupArena = groupArena();
            try {
                taken = new FetchedGroup(g, groupArena, fetch(g, groupArena), null);
            } catch (IOException | RuntimeException e) {
                release(new FetchedGroup(g, groupArena, null, null));
                throw e;
            }
        }
        if (prefetch != null) {
            int last = ahead.isEmpty() ? g : ahead.peekLast().group();
            while (ahead.size() + 1 < options.maxRowGroupsInMemory() && nextGroupRead(last) < endGroup) {
                int group = last = nextGroupRead(last);
                Arena groupArena = groupArena();
                CompletableFuture<MemorySegment[]> read = new CompletableFuture<>();
                ahead.addLast(new FetchedGroup(group, groupArena, null, read));
                try {
                    prefetch.execute(() -> {
                        try {
                            read.complete(fetch(group, groupArena));
                        } catch (IOException e) {
                            read.completeExceptionally(new UncheckedIOException(e));
                        } catch (Throwable t) {
                            read.completeExceptionally(t);
                        }
                    });
                } catch (RuntimeException rejected) {
                    // An executor that refuses work (shut down, saturated): read this group when it is reached.
                    ahead.removeLast();
                    release(new FetchedGroup(group, groupArena, null, null));
                    break;
                }
            }
        }
        return taken;
    }

    /** The arena a fetched row group's chunks live in: the caller's, or a new one of the reader's. */
    private Arena groupArena() {
        if (arena != null) {
            return arena;
        }
        openChunkArenas++;
        return Arena.ofShared();
    }

    /** Arenas of chunks read from the source that this reader opened and has not freed yet (for tests). */
    int openChunkArenas() {
        return openChunkArenas;
    }

    private int openChunkArenas;

    /** Reads row group {@code g}'s projected chunks (for a part over page ranges, up to its last range). */
    private MemorySegment[] fetch(int g, Arena target) throws IOException {
        List<Place> places = new ArrayList<>(projection.size());
        long wanted = 0;
        for (ParquetColumn column : projection) {
            Place p = place(g, column);
            if (ranges != null) {
                // Chunk coordinates start at 0, so the last range's end is the bytes this part needs.
                p = new Place(p.start(), Math.min(p.length(), ranges.get(ranges.size() - 1).end()), p.values(),
                        p.codec());
            }
            places.add(p);
            wanted += p.length();
        }
        long all = 0;
        for (ColumnChunkMetaData c : footer.getBlocks().get(g).getColumns()) {
            all += c.getTotalSize();
        }
        return readChunks(g, projection, places, target, Math.max(0, all - wanted));
    }

    /** Frees a fetched group's chunks when they are the reader's own (batch-scoped), once its read is over. */
    private void release(FetchedGroup group) {
        if (group == null) {
            return;
        }
        if (group.read() != null) {
            // Wait even when the memory is the caller's: no read of this reader outlives its close.
            try {
                group.read().join();
            } catch (RuntimeException ignored) {
                // the read failed: nothing of it is used, and its memory is freed below
            }
        }
        if (group.arena() == arena || group.arena() == null) {
            return; // the caller's arena: the caller frees it
        }
        group.arena().close();
        openChunkArenas--;
    }

    /** Waits for the row groups read ahead and frees them (a seek, or close). */
    private void dropAhead() {
        for (FetchedGroup g = ahead.pollFirst(); g != null; g = ahead.pollFirst()) {
            release(g);
        }
    }

    /** What this reader (and the parts of a scan over it) asked of the source so far. */
    public ReadCounters readCounters() {
        return reads.counters();
    }

    /** The source's reads, for the scans in this package (row groups skipped whole are counted there). */
    RangeReads reads() {
        return reads;
    }

    /**
     * The bloom filter at {@code offset} (header and bitset; {@code length} from the chunk's metadata, or -1 when
     * the writer did not record it: then the header is read first, and the bitset in a second read), or null when
     * it does not lie inside the file's data.
     */
    MemorySegment bloomFilter(long offset, int length, Arena target) throws IOException {
        if (length > 0) {
            return metadata(offset, length, target);
        }
        if (file != null) {
            return offset < 4 || offset >= footerStart ? null : file.asSlice(offset, footerStart - offset);
        }
        MemorySegment head = metadata(offset, Math.min(BLOOM_HEADER_READ, footerStart - offset), target);
        long size = head == null ? -1 : dev.stringview.parquet.internal.BloomFilters.size(head);
        return size < 0 ? null : size <= head.byteSize() ? head.asSlice(0, size) : metadata(offset, size, target);
    }

    /** Enough for any bloom filter header (a handful of Thrift fields). */
    private static final long BLOOM_HEADER_READ = 256;

    /** Whether the file is held in memory (chunk coordinates are then the file's). */
    boolean inMemory() {
        return file != null;
    }

    /** {@link #chunkFileOffset(int, ParquetColumn)} from the chunk's metadata. */
    long chunkFileOffset(ColumnChunkMetaData meta) {
        return file != null ? 0 : meta.getStartingPos();
    }

    /**
     * {@code length} bytes of metadata at {@code offset} (a page index, a bloom filter): a slice of the file held
     * in memory, else read from the source into {@code target}. Null if the range is not inside the file's data.
     */
    MemorySegment metadata(long offset, long length, Arena target) throws IOException {
        if (offset < 4 || length < 0 || length > footerStart - offset) {
            return null;
        }
        return file != null ? file.asSlice(offset, length) : reads.readOne(offset, length, target);
    }

    /**
     * Reads every page of {@code column} in every row group and describes each (kind, encoding, codec, values,
     * nulls, sizes, how its views were built). Decoded values go into a temporary arena, not this reader's.
     */
    public List<PageInfo> pages(String column) throws IOException {
        ParquetColumn target = null;
        for (ParquetColumn c : projection) {
            if (c.name().equals(column)) {
                target = c;
            }
        }
        if (target == null) {
            throw new IllegalArgumentException("column not projected: file=" + fileName + " column=" + column
                    + " columns=" + projection.stream().map(ParquetColumn::name).toList());
        }
        List<PageInfo> pages = new ArrayList<>();
        int batch = options.batchSize();
        long[] bits = target.optional() ? new long[(batch + 63) >>> 6] : null;
        for (int g = 0; g < footer.getBlocks().size(); g++) {
            try (Arena scratch = Arena.ofConfined();
                    ColumnChunkReader reader = new ColumnChunkReader(chunkOf(g, target, scratch), settings,
                            ReadMemory.of(scratch), pages::add)) {
                long left = place(g, target).values();
                while (left > 0) {
                    int n = (int) Math.min(batch, left);
                    readColumn(reader, target, scratch, n, bits);
                    left -= n;
                }
            }
        }
        return pages;
    }

    /**
     * Reads the next {@code n} rows of {@code column} from {@code reader} into {@code arena}: a {@link ViewColumn},
     * or a {@link FixedWidthColumn} for a fixed-width column. {@code bits}: the validity scratch of an optional
     * column, else null.
     */
    private static Object readColumn(ColumnChunkReader reader, ParquetColumn column, Arena arena, int n,
            long[] bits) throws ParquetViewException {
        if (column.isFixedWidth()) {
            FixedSink sink = new FixedSink(arena, new FixedLayout(column.type()), n, bits);
            reader.read(sink, 0, n);
            sink.finish();
            return new FixedWidthColumn(column.name(), column.type(), n, sink.values(), sink.validity(),
                    sink.nullCount());
        }
        ViewSink sink = new ViewSink(arena, column.kind(), n, bits);
        reader.read(sink, 0, n);
        return sink.build();
    }

    private void closeReaders() {
        for (ColumnChunkReader reader : readers) {
            if (reader != null) {
                reader.close();
            }
        }
        readers = new ColumnChunkReader[0];
    }

    /**
     * Stops reading. The batches stay valid until the arena closes (the arena is the caller's to close), or, with
     * batch-scoped memory, are freed now.
     */
    @Override
    public void close() {
        if (!closed) {
            memory.checkOwner("close"); // before anything changes: only the owner can free batch-scoped memory
            closed = true;
            closeReaders();
            dropAhead();
            release(current);
            current = null;
            memory.close();
        }
    }
}
