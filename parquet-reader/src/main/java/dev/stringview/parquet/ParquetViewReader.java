package dev.stringview.parquet;

import dev.stringview.SubstringSearch;
import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
import dev.stringview.ViewPredicate;
import dev.stringview.parquet.internal.ColumnChunkReader;
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
import java.util.ArrayList;
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
 * Reads flat BYTE_ARRAY columns of a local Parquet file into {@link ViewColumn}s, row group by row group, in
 * batches of a chosen number of rows, without copying string bytes where the encoding allows it.
 *
 * <p>The file is memory-mapped into the caller's arena. Views of uncompressed PLAIN and DELTA_LENGTH pages point
 * into the mapping itself; compressed pages are decompressed once into buffers from the same arena; dictionary
 * pages are decoded once per column chunk and data pages copy only 16-byte views; DELTA_BYTE_ARRAY values are
 * rebuilt once into arena buffers. By default, everything a batch references therefore lives exactly as long as
 * the arena:
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
 * <p>parquet-java reads the footer, schema and column-chunk metadata (through {@link SegmentInputFile} and a
 * {@link PlainParquetConfiguration}: no Hadoop file system, no JNI codecs). Page headers and pages are read here.
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

    private final String fileName;
    private final ReadMemory memory;
    private final MemorySegment file;
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

    private ParquetViewReader(String fileName, Arena arena, MemorySegment file, ParquetMetadata footer,
            long footerStart, List<ParquetColumn> allColumns, List<ParquetColumn> projection,
            ParquetViewOptions options) {
        this(fileName, arena, file, footer, footerStart, allColumns, projection, options, 0,
                footer.getBlocks().size(), null);
    }

    private ParquetViewReader(String fileName, Arena arena, MemorySegment file, ParquetMetadata footer,
            long footerStart, List<ParquetColumn> allColumns, List<ParquetColumn> projection,
            ParquetViewOptions options, int firstGroup, int endGroup, List<PageRange> ranges) {
        this.firstGroup = firstGroup;
        this.endGroup = endGroup;
        this.ranges = ranges;
        this.rowGroup = firstGroup - 1;
        this.nextRow = rowsBefore(footer, firstGroup);
        this.fileName = fileName;
        this.memory = options.batchScopedMemory() ? ReadMemory.batchScoped() : ReadMemory.of(arena);
        this.file = file;
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
        return new ParquetViewReader(fileName, arena, file, footer, footerStart, allColumns, partProjection,
                partOptions, group, group + 1, ranges == null ? null : List.copyOf(ranges));
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
    ColumnChunkReader.Chunk chunk(int group, ParquetColumn column) throws ParquetViewException {
        return chunkOf(group, column);
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
     * Maps {@code path} into {@code arena}, reads its footer and checks that the projected columns can be read.
     *
     * @throws UnsupportedParquetException for nested, repeated or non-BYTE_ARRAY columns and encrypted files
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
        String name = path.getFileName() == null ? path.toString() : path.getFileName().toString();
        MemorySegment file;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size < 12) {
                throw new CorruptParquetException("not a parquet file, too small", name, null, -1, -1,
                        "fileSize=" + size + " minSize=12", null);
            }
            file = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(path.toString(), null, "no such file: file=" + name);
        }
        long size = file.byteSize();
        int head = file.get(LE_INT, 0);
        int tail = file.get(LE_INT, size - 4);
        if (tail == MAGIC_PARE) {
            throw new UnsupportedParquetException("encrypted file (encrypted footer) is not supported", name, null,
                    -1, -1, "magic=PARE");
        }
        if (head != MAGIC_PAR1 || tail != MAGIC_PAR1) {
            throw new CorruptParquetException("not a parquet file, or truncated: magic bytes missing", name, null,
                    -1, -1, "fileSize=" + size + " headMagic=" + magic(head) + " tailMagic=" + magic(tail), null);
        }
        long footerLength = file.get(LE_INT, size - 8) & 0xFFFF_FFFFL;
        long footerStart = size - 8 - footerLength;
        if (footerStart < 4) {
            throw new CorruptParquetException("footer longer than the file", name, null, -1, -1,
                    "footerLength=" + footerLength + " fileSize=" + size, null);
        }
        ParquetMetadata footer = readFooter(name, file);
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
        ParquetViewReader reader = new ParquetViewReader(name, arena, file, footer, footerStart,
                java.util.Collections.unmodifiableList(all),
                List.copyOf(projection), options);
        reader.checkChunks();
        return reader;
    }

    private static String magic(int value) {
        byte[] b = {(byte) value, (byte) (value >>> 8), (byte) (value >>> 16), (byte) (value >>> 24)};
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(x >= 0x20 && x < 0x7F ? Character.toString(x) : String.format("\\x%02x", x & 0xFF));
        }
        return sb.toString();
    }

    private static ParquetMetadata readFooter(String name, MemorySegment file) throws ParquetViewException {
        ParquetReadOptions readOptions = ParquetReadOptions.builder(new PlainParquetConfiguration())
                .withCodecFactory(new SegmentCodecFactory())
                .build();
        try (ParquetFileReader reader = ParquetFileReader.open(new SegmentInputFile(file), readOptions)) {
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

    /** Describes a top-level field as a readable column, or says why it is not one. */
    private static ParquetColumn describe(Type field) {
        if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
            return null;
        }
        PrimitiveType primitive = field.asPrimitiveType();
        if (primitive.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.BINARY) {
            return null;
        }
        LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
        boolean utf8 = logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation;
        return new ParquetColumn(field.getName(), utf8 ? ViewKind.UTF8 : ViewKind.BINARY,
                field.isRepetition(Type.Repetition.OPTIONAL), logical == null ? "none" : logical.toString());
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
        PrimitiveType primitive = field.asPrimitiveType();
        if (primitive.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.BINARY) {
            throw new UnsupportedParquetException("not a BYTE_ARRAY column", file, field.getName(), -1, -1,
                    "physicalType=" + primitive.getPrimitiveTypeName());
        }
        return describe(field);
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
                chunkOf(g, column); // throws if missing, encrypted or out of range
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

    private ColumnChunkReader.Chunk chunkOf(int g, ParquetColumn column) throws ParquetViewException {
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
        return new ColumnChunkReader.Chunk(fileName, file, column.name(), column.kind(), column.optional(), g,
                codec, start, length, values);
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
        List<ViewColumn> columns = new ArrayList<>(projection.size());
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
            ViewSink sink = new ViewSink(memory.batchArena(), column.kind(), n, bits);
            readers[c].read(sink, 0, n);
            columns.add(sink.build());
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
    dev.stringview.ViewColumn dictionary(int g, ParquetColumn column, Arena arena) throws ParquetViewException {
        ColumnChunkReader reader = new ColumnChunkReader(chunkOf(g, column), settings, ReadMemory.of(arena), null);
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
     * With batch-scoped memory, the batch read last is freed as by {@link #nextBatch()}.
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

    private boolean nextRowGroup() throws ParquetViewException {
        closeReaders();
        memory.freeRetired(); // the last row group's pages and dictionaries: no batch points into them any more
        if (rowGroup + 1 >= endGroup) {
            return false;
        }
        rowGroup++;
        rowsLeftInGroup = footer.getBlocks().get(rowGroup).getRowCount();
        readers = new ColumnChunkReader[projection.size()];
        for (int c = 0; c < projection.size(); c++) {
            ColumnChunkReader.Chunk chunk = chunkOf(rowGroup, projection.get(c));
            if (ranges == null) {
                readers[c] = new ColumnChunkReader(chunk, settings, memory, null);
            } else {
                PageRange first = ranges.get(0);
                PageRange last = ranges.get(ranges.size() - 1);
                ColumnChunkReader.Chunk head = new ColumnChunkReader.Chunk(chunk.fileName(), chunk.file(),
                        chunk.column(), chunk.kind(), chunk.optional(), chunk.rowGroup(), chunk.codec(),
                        chunk.start(), last.end() - chunk.start(), last.valuesBefore() + last.values());
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
            ColumnChunkReader.Chunk chunk = chunkOf(g, target);
            try (Arena scratch = Arena.ofConfined();
                    ColumnChunkReader reader = new ColumnChunkReader(chunk, settings, ReadMemory.of(scratch),
                            pages::add)) {
                long left = chunk.numValues();
                while (left > 0) {
                    int n = (int) Math.min(batch, left);
                    reader.read(new ViewSink(scratch, target.kind(), n, bits), 0, n);
                    left -= n;
                }
            }
        }
        return pages;
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
            memory.close();
        }
    }
}
