package dev.stringview.parquet.internal;

import dev.stringview.ViewKind;
import dev.stringview.internal.reader.SubstringSearch;
import dev.stringview.ViewPredicate;
import dev.stringview.parquet.CorruptParquetException;
import dev.stringview.parquet.PageInfo;
import dev.stringview.parquet.PageInfo.PageViews;
import dev.stringview.parquet.ParquetType;
import dev.stringview.parquet.ParquetViewException;
import dev.stringview.parquet.UnsupportedParquetException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Reads the pages of one column chunk in order, straight from the memory-mapped file, and decodes their values
 * batch after batch: into views ({@link ViewSink}) for string and binary columns, into Arrow fixed-width values
 * ({@link FixedSink}) for every other flat type. Page headers are parsed here (bounded by the chunk), checksums
 * verified, compressed pages decompressed once into a buffer from the read's {@link ReadMemory}, definition levels
 * turned into validity bits, and the values handed to the decoder the page's encoding and the column's type call
 * for.
 *
 * <p>Every failure leaves as a {@link ParquetViewException} naming file, column, row group and page.
 */
public final class ColumnChunkReader implements AutoCloseable {
    private static final int PLAIN = 0;
    private static final int PLAIN_DICTIONARY = 2;
    private static final int RLE = 3;
    private static final int DELTA_LENGTH_BYTE_ARRAY = 6;
    private static final int DELTA_BYTE_ARRAY = 7;
    private static final int RLE_DICTIONARY = 8;
    private static final int DELTA_BINARY_PACKED = 5;
    private static final int BYTE_STREAM_SPLIT = 9;
    private static final int SCRATCH = 1024;

    /**
     * Where a column chunk lies and what it holds.
     *
     * @param fileName for messages
     * @param file the whole file, memory-mapped
     * @param start offset of the chunk's first page header (dictionary page if any)
     * @param length bytes of the chunk ({@code total_compressed_size})
     * @param numValues values in the chunk, nulls included (= rows for a flat column)
     * @param kind for columns read as views, their kind; null for fixed-width ones
     * @param type the column's type
     */
    public record Chunk(String fileName, MemorySegment file, String column, ViewKind kind, boolean optional,
            int rowGroup, CompressionCodecName codec, long start, long length, long numValues, ParquetType type) {}

    /**
     * Where one page of a chunk starts, as found by {@link #pageSpans}: enough to hand a range of data pages to
     * another reader.
     *
     * @param offset the page header's offset in the file
     * @param type {@link PageHeader#DATA_PAGE}, {@link PageHeader#DICTIONARY_PAGE}, ...
     * @param encoding the values' encoding
     * @param numValues values in the page (0 for pages that hold none)
     */
    public record PageSpan(long offset, int type, int encoding, int numValues) {}

    /**
     * The pages of {@code chunk}, found by parsing their headers only (no page body is read), or null if the
     * headers do not add up (the reader that reads the chunk whole then reports what is wrong).
     */
    public static java.util.List<PageSpan> pageSpans(Chunk chunk) {
        java.util.List<PageSpan> spans = new java.util.ArrayList<>();
        long end = chunk.start() + chunk.length();
        long position = chunk.start();
        long values = 0;
        try {
            while (values < chunk.numValues()) {
                if (position >= end) {
                    return null;
                }
                PageHeader h = PageHeader.parse(chunk.file(), position, end);
                long next = position + h.headerSize() + h.compressedSize();
                if (h.compressedSize() < 0 || next > end) {
                    return null;
                }
                boolean data = h.type() == PageHeader.DATA_PAGE || h.type() == PageHeader.DATA_PAGE_V2;
                spans.add(new PageSpan(position, h.type(), h.encoding(), data ? h.numValues() : 0));
                if (data) {
                    values += h.numValues();
                }
                position = next;
            }
        } catch (CorruptDataException | UnsupportedDataException | IndexOutOfBoundsException e) {
            return null;
        }
        return values == chunk.numValues() ? spans : null;
    }

    /** Settings shared by the chunks of one read. */
    public record Settings(boolean validateUtf8, boolean verifyChecksums, long maxPageBytes,
            boolean nativeDecompression) {}

    private final Chunk chunk;
    private final Settings settings;
    private final ReadMemory memory;
    private final Consumer<PageInfo> pageListener;
    private final MemorySegment file;
    private final long end;
    /** The chunk as one buffer for uncompressed pages (offsets fit in int32), else null: per-page slices. */
    private final MemorySegment chunkBuffer;
    private final PageDecompressor decompressor;
    private final DeltaState deltaState;
    /** For a fixed-width column, how its values are laid out; null for views. */
    private final FixedLayout layout;
    private final int[] scratchA = new int[SCRATCH];
    private final int[] scratchB = new int[SCRATCH];
    private final int[] levelScratch = new int[SCRATCH];
    private final FixedScratch fixedScratch = new FixedScratch();
    private final CRC32 crc = new CRC32();

    private long position;
    private long valuesSeen; // values of the pages started so far
    /** {@link #startAt}: the data page to jump to once the dictionary (if any) is read, else -1. */
    private long resumeOffset = -1;
    private long resumeValues;
    private int resumePage;
    private boolean resumeAfterDictionary;
    private int page = -1;
    private Dictionary dictionary;
    private FixedDictionary fixedDictionary;
    /** The arenas of the dictionary's and the current page's decompressed buffers (retired when done with). */
    private Arena dictionaryArena;
    private Arena pageArena;

    // current data page
    private PageHeader header;
    private HybridDecoder levels;
    /** The current page's decoder: {@link #decoder} for views, {@link #fixedDecoder} for fixed-width values. */
    private ValueDecoder decoder;
    private FixedDecoder fixedDecoder;
    private PageViews bufferViews;
    private int pageValuesLeft;
    private int pageNulls;

    public ColumnChunkReader(Chunk chunk, Settings settings, ReadMemory memory, Consumer<PageInfo> pageListener)
            throws ParquetViewException {
        this.chunk = chunk;
        this.settings = settings;
        this.memory = memory;
        this.pageListener = pageListener;
        this.file = chunk.file();
        this.position = chunk.start();
        this.end = chunk.start() + chunk.length();
        this.chunkBuffer = chunk.length() <= Integer.MAX_VALUE ? file.asSlice(chunk.start(), chunk.length()) : null;
        this.deltaState = new DeltaState(memory, settings.maxPageBytes());
        this.layout = chunk.type().isFixedWidth() ? new FixedLayout(chunk.type()) : null;
        CompressionCodecName codec = chunk.codec();
        if (codec == CompressionCodecName.UNCOMPRESSED) {
            this.decompressor = null;
        } else {
            this.decompressor = PageDecompressor.forCodec(codec, settings.nativeDecompression());
            if (decompressor == null) {
                throw new UnsupportedParquetException("unsupported compression codec", chunk.fileName(),
                        chunk.column(), chunk.rowGroup(), -1, "codec=" + codec
                                + " supported=UNCOMPRESSED,SNAPPY,GZIP,ZSTD,LZ4_RAW,LZ4,BROTLI");
            }
        }
    }

    /**
     * Makes this reader start at the data page at {@code offset} (from {@link #pageSpans}) instead of the chunk's
     * first, after reading the dictionary page first if {@code dictionaryFirst}. The chunk handed to the
     * constructor must then end where the range of pages to read ends, and count the values before the range
     * ({@code valuesBefore}) in its {@code numValues}. Only for chunks without DELTA_BYTE_ARRAY pages, whose first
     * value may borrow its prefix from the page before (PARQUET-246). Call before the first {@link #read}.
     *
     * @param pageIndex the page's index in the chunk (dictionary page included), for messages
     */
    public void startAt(long offset, long valuesBefore, int pageIndex, boolean dictionaryFirst) {
        if (page >= 0 || offset < chunk.start() || offset >= end || valuesBefore < 0
                || valuesBefore > chunk.numValues()) {
            throw new IllegalArgumentException("bad page range start: offset=" + offset + " valuesBefore="
                    + valuesBefore + " chunkStart=" + chunk.start() + " chunkEnd=" + end + " page=" + page);
        }
        resumeOffset = offset;
        resumeValues = valuesBefore;
        resumePage = pageIndex;
        resumeAfterDictionary = dictionaryFirst;
    }

    /**
     * Continues at the data page at {@code offset} once the current page is read to its end, skipping the pages in
     * between (a scan that proved by the page index that they hold no match). The dictionary, if read, is kept.
     * Same conditions as {@link #startAt}; {@code valuesBefore} counts the chunk's values before that page.
     */
    public void jumpTo(long offset, long valuesBefore, int pageIndex) {
        if (pageValuesLeft != 0 || resumeOffset >= 0 || offset < position || offset >= end
                || valuesBefore < valuesSeen || valuesBefore > chunk.numValues()) {
            throw new IllegalArgumentException("bad page jump: offset=" + offset + " valuesBefore=" + valuesBefore
                    + " position=" + position + " valuesSeen=" + valuesSeen + " chunkEnd=" + end
                    + " pageValuesLeft=" + pageValuesLeft);
        }
        resumeOffset = offset;
        resumeValues = valuesBefore;
        resumePage = pageIndex;
        resumeAfterDictionary = false;
    }

    /**
     * Decodes the next {@code count} rows into rows {@code row ..} of {@code sink}: a {@link ViewSink} for a column
     * read as views, a {@link FixedSink} for a fixed-width one.
     */
    public void read(ColumnSink sink, int row, int count) throws ParquetViewException {
        if ((sink instanceof FixedSink) != (layout != null)) {
            throw new IllegalArgumentException("sink does not fit the column: column=" + chunk.column() + " type="
                    + chunk.type() + " sink=" + sink.getClass().getSimpleName());
        }
        translatingFailures(() -> {
            readRows(sink, row, count);
            return 0;
        });
    }

    /**
     * Decides the next {@code count} rows by {@code predicate} without building a batch, and writes the positions of
     * those that match (0 = the first of these rows), ascending, to {@code hits}; returns how many matched. Rows of
     * dictionary-encoded pages are decided by their ids: the predicate runs once over the dictionary's entries
     * (the first time a page of this chunk needs it) and each row then costs one bit lookup, with no view built and
     * no string touched. Rows of other pages (PLAIN, DELTA_*, a dictionary writer's fallback to PLAIN mid-chunk)
     * are decoded into views in {@code sinkArena} page piece by page piece, while the page is hot, and decided
     * there, except PLAIN pages when {@code search} is given: {@code predicate} is then the substring test that
     * {@code search} runs, and one search over the page's bytes decides them with no view built
     * ({@link PlainDecoder#selectContaining}). Nulls never match.
     *
     * @param search {@code predicate}'s search if it is a substring test ({@link SubstringSearch#of(ViewPredicate)}),
     *     or null to decide PLAIN pages through views
     * @param hits room for at least {@code count} positions
     */
    public int filterRows(ViewPredicate predicate, SubstringSearch search, Arena sinkArena, int count, int[] hits)
            throws ParquetViewException {
        if (layout != null) {
            throw new UnsupportedParquetException("string predicate on a fixed-width column", chunk.fileName(),
                    chunk.column(), chunk.rowGroup(), -1, "type=" + chunk.type());
        }
        return translatingFailures(() -> filter(predicate, search, sinkArena, count, hits));
    }

    /**
     * The chunk's dictionary as a column of views into {@code arena} (entries in id order, none null), or null if
     * the chunk does not start with a dictionary page. For pruning by dictionary ({@code BoundFilter#dictionaryFacts});
     * call on a fresh reader, before any {@link #read}. The entries' bytes stay in the dictionary page's buffer,
     * which lives as long as this reader's memory.
     */
    public dev.stringview.ViewColumn dictionaryColumn(Arena arena) throws ParquetViewException {
        translatingFailures(() -> {
            PageHeader h = PageHeader.parse(file, position, end);
            long dataStart = position + h.headerSize();
            if (h.type() != PageHeader.DICTIONARY_PAGE || h.compressedSize() > end - dataStart
                    || h.uncompressedSize() > settings.maxPageBytes()) {
                return 0;
            }
            position = dataStart + h.compressedSize();
            readDictionary(h, dataStart);
            return 0;
        });
        if (dictionary == null) {
            return null;
        }
        int size = dictionary.size;
        ViewSink sink = new ViewSink(arena, chunk.kind(), size, null);
        long[] words = dictionary.words;
        int bufferIndex = -1;
        for (int i = 0; i < size; i++) {
            long w1 = words[2 * i + 1];
            if ((int) words[2 * i] > 12) {
                if (bufferIndex < 0) {
                    bufferIndex = sink.bufferIndex(dictionary.buffer);
                }
                w1 |= bufferIndex;
            }
            sink.put(i, words[2 * i], w1);
        }
        return sink.build();
    }

    /**
     * Skips the next {@code count} rows. Whole data pages inside them are passed over by their headers alone (never
     * decompressed nor decoded), except DELTA_BYTE_ARRAY pages, whose successor may borrow their last value
     * (PARQUET-246), and except while a page range is being entered ({@link #startAt}). The rows of a page that
     * starts or ends inside them are decoded into {@code scratch} and dropped.
     */
    public void skipRows(int count, Arena scratch) throws ParquetViewException {
        translatingFailures(() -> {
            int left = count;
            while (left > 0) {
                if (pageValuesLeft == 0) {
                    left -= skipWholePages(left);
                    if (left == 0) {
                        break;
                    }
                }
                int n = Math.min(left, valuesLeftInPage());
                int words = (n + 63) >>> 6;
                if (pieceBits.length < words) {
                    pieceBits = new long[words];
                }
                ViewSink sink = new ViewSink(scratch, chunk.kind(), n, levels == null ? null : pieceBits);
                decodePiece(sink, 0, n);
                endPiece(n);
                left -= n;
            }
            return 0;
        });
    }

    /** Passes over the data pages from {@link #position} that fit in {@code budget} rows; returns their rows. */
    private int skipWholePages(int budget) {
        int skipped = 0;
        while (resumeOffset < 0 && position < end && valuesSeen < chunk.numValues()) {
            PageHeader h = PageHeader.parse(file, position, end);
            long dataStart = position + h.headerSize();
            if (h.type() == PageHeader.DICTIONARY_PAGE && dictionary == null && valuesSeen == 0
                    && h.compressedSize() >= 0 && h.compressedSize() <= end - dataStart
                    && h.uncompressedSize() <= settings.maxPageBytes()) {
                // The chunk's dictionary, read as nextDataPage reads it, so the data pages after it can be passed
                // over too (later pages may still need it).
                page++;
                header = null;
                position = dataStart + h.compressedSize();
                verifyChecksum(h, dataStart);
                readDictionary(h, dataStart);
                continue;
            }
            boolean data = h.type() == PageHeader.DATA_PAGE || h.type() == PageHeader.DATA_PAGE_V2;
            if (!data || h.encoding() == DELTA_BYTE_ARRAY || h.numValues() <= 0 || h.numValues() > budget - skipped
                    || h.compressedSize() < 0 || h.compressedSize() > end - dataStart) {
                break; // the regular path reads (and checks) it
            }
            checkValueCount(h);
            page++;
            position = dataStart + h.compressedSize();
            skipped += h.numValues();
        }
        return skipped;
    }

    private int translatingFailures(java.util.function.IntSupplier body) throws ParquetViewException {
        try {
            return body.getAsInt();
        } catch (CorruptDataException e) {
            throw corrupt(e.getMessage(), e);
        } catch (UnsupportedDataException e) {
            String message = e.getMessage();
            int colon = message.indexOf(": ");
            throw new UnsupportedParquetException(colon < 0 ? message : message.substring(0, colon),
                    chunk.fileName(), chunk.column(), chunk.rowGroup(), page,
                    colon < 0 ? "" : message.substring(colon + 2));
        } catch (IndexOutOfBoundsException | ArithmeticException | IllegalArgumentException e) {
            // Every access is checked up front; this is the safety net for anything a check missed.
            throw corrupt("malformed page: " + e.getClass().getSimpleName() + " " + e.getMessage(), e);
        }
    }

    private CorruptParquetException corrupt(String message, Throwable cause) {
        int colon = message.indexOf(": ");
        String reason = colon < 0 ? message : message.substring(0, colon);
        String details = colon < 0 ? "" : message.substring(colon + 2);
        return new CorruptParquetException(reason, chunk.fileName(), chunk.column(), chunk.rowGroup(), page,
                details, cause);
    }

    private void readRows(ColumnSink sink, int row, int count) {
        while (count > 0) {
            int n = Math.min(count, valuesLeftInPage());
            decodePiece(sink, row, n);
            endPiece(n);
            row += n;
            count -= n;
        }
    }

    /** The values left in the current data page, starting the next one first if the current one is done. */
    private int valuesLeftInPage() {
        while (pageValuesLeft == 0) {
            nextDataPage();
            if (pageValuesLeft == 0) {
                finishPage(); // a page without values
            }
        }
        return pageValuesLeft;
    }

    private void endPiece(int n) {
        pageValuesLeft -= n;
        if (pageValuesLeft == 0) {
            finishPage();
        }
    }

    /** Decodes {@code n <= pageValuesLeft} values of the current page into rows {@code row ..} of {@code sink}. */
    private void decodePiece(ColumnSink sink, int row, int n) {
        if (levels == null) {
            decodeValues(sink, row, n);
        } else {
            long[] bits = sink.validBits();
            int valid = levels.readValidity(bits, row, n, levelScratch);
            if (valid == n) {
                decodeValues(sink, row, n);
            } else if (valid == 0) {
                sink.putNulls(row, n);
            } else {
                decodeAroundNulls(sink, bits, row, n);
            }
            pageNulls += n - valid;
        }
    }

    /** Decodes the next {@code n} values of the page into rows {@code row ..}, all of them valid. */
    private void decodeValues(ColumnSink sink, int row, int n) {
        if (fixedDecoder != null) {
            fixedDecoder.decode((FixedSink) sink, row, n);
        } else {
            decoder.decode((ViewSink) sink, row, n);
        }
    }

    private int filter(ViewPredicate predicate, SubstringSearch search, Arena sinkArena, int count, int[] hits) {
        int found = 0;
        int row = 0;
        while (count > 0) {
            int n = Math.min(count, valuesLeftInPage());
            int words = (n + 63) >>> 6;
            if (pieceBits.length < words) {
                pieceBits = new long[words];
            }
            if (decoder instanceof DictionaryDecoder ids) {
                long[] matches = dictionaryMatches(predicate);
                if (levels == null) {
                    found = ids.selectMatching(matches, n, null, row, hits, found);
                } else {
                    java.util.Arrays.fill(pieceBits, 0, words, 0L);
                    int valid = levels.readValidity(pieceBits, 0, n, levelScratch);
                    found = ids.selectMatching(matches, valid, pieceBits, row, hits, found);
                    pageNulls += n - valid;
                }
            } else if (search != null && decoder instanceof PlainDecoder plain) {
                if (levels == null) {
                    found = plain.selectContaining(search, n, null, row, hits, found);
                } else {
                    java.util.Arrays.fill(pieceBits, 0, words, 0L);
                    int valid = levels.readValidity(pieceBits, 0, n, levelScratch);
                    if (valid > 0) {
                        found = plain.selectContaining(search, n, valid == n ? null : pieceBits, row, hits, found);
                    }
                    pageNulls += n - valid;
                }
            } else {
                ViewSink sink = new ViewSink(sinkArena, chunk.kind(), n, levels == null ? null : pieceBits);
                decodePiece(sink, 0, n);
                if (pieceHits.length < n) {
                    pieceHits = new int[n];
                }
                int k = predicate.select(sink.build(), pieceHits);
                for (int i = 0; i < k; i++) {
                    hits[found + i] = row + pieceHits[i];
                }
                found += k;
            }
            endPiece(n);
            row += n;
            count -= n;
        }
        return found;
    }

    /**
     * Bit {@code id} is set if dictionary entry {@code id} matches {@code predicate}: decided once per dictionary
     * and predicate, over a column of the dictionary's views built in a scratch arena (the entries' bytes stay
     * where the dictionary page put them).
     */
    private long[] dictionaryMatches(ViewPredicate predicate) {
        if (matchesDictionary == dictionary && matchesPredicate == predicate) {
            return dictionaryMatches;
        }
        int size = dictionary.size;
        long[] matches = new long[Math.max(1, (size + 63) >>> 6)];
        try (Arena scratch = Arena.ofConfined()) {
            ViewSink sink = new ViewSink(scratch, chunk.kind(), size, null);
            long[] words = dictionary.words;
            int bufferIndex = -1;
            for (int i = 0; i < size; i++) {
                long w1 = words[2 * i + 1];
                if ((int) words[2 * i] > 12) {
                    if (bufferIndex < 0) {
                        bufferIndex = sink.bufferIndex(dictionary.buffer);
                    }
                    w1 |= bufferIndex;
                }
                sink.put(i, words[2 * i], w1);
            }
            int[] selected = new int[size];
            int k = predicate.select(sink.build(), selected);
            for (int i = 0; i < k; i++) {
                matches[selected[i] >>> 6] |= 1L << selected[i];
            }
        }
        matchesDictionary = dictionary;
        matchesPredicate = predicate;
        dictionaryMatches = matches;
        return matches;
    }

    private long[] pieceBits = new long[0];
    private int[] pieceHits = new int[0];
    private Dictionary matchesDictionary;
    private ViewPredicate matchesPredicate;
    private long[] dictionaryMatches;

    /** Decodes runs of valid rows and zeroes the views of null rows in {@code [row, row + n)}. */
    private void decodeAroundNulls(ColumnSink sink, long[] bits, int row, int n) {
        int end = row + n;
        int r = row;
        while (r < end) {
            boolean valid = (bits[r >>> 6] & (1L << r)) != 0;
            int s = r + 1;
            while (s < end && ((bits[s >>> 6] & (1L << s)) != 0) == valid) {
                s++;
            }
            if (valid) {
                decodeValues(sink, r, s - r);
            } else {
                sink.putNulls(r, s - r);
            }
            r = s;
        }
    }

    private void finishPage() {
        if (header.type() == PageHeader.DATA_PAGE_V2 && chunk.optional() && pageNulls != header.numNulls()) {
            throw new CorruptDataException("null count disagrees with page header: nulls=" + pageNulls
                    + " numNulls=" + header.numNulls() + " numValues=" + header.numValues());
        }
        if (pageListener != null) {
            pageListener.accept(info(header, header.numValues(), pageNulls,
                    header.numValues() == pageNulls ? PageViews.NONE
                            : fixedDecoder != null ? fixedDecoder.views() : decoder.views(bufferViews)));
        }
    }

    private PageInfo info(PageHeader h, long values, long nulls, PageViews views) {
        String kind = switch (h.type()) {
            case PageHeader.DICTIONARY_PAGE -> "DICTIONARY";
            case PageHeader.DATA_PAGE -> "DATA_V1";
            case PageHeader.DATA_PAGE_V2 -> "DATA_V2";
            default -> h.typeName();
        };
        return new PageInfo(chunk.column(), chunk.rowGroup(), page, kind, encodingName(h.encoding()),
                chunk.codec().name(), values, nulls, h.compressedSize(), h.uncompressedSize(), views);
    }

    private void verifyChecksum(PageHeader h, long dataStart) {
        if (h.hasCrc() && settings.verifyChecksums()) {
            crc.reset();
            crc.update(file.asSlice(dataStart, h.compressedSize()).asByteBuffer());
            if ((int) crc.getValue() != h.crc()) {
                throw new CorruptDataException("page checksum mismatch: crc=" + Integer.toUnsignedString(
                        (int) crc.getValue()) + " expected=" + Integer.toUnsignedString(h.crc())
                        + " compressedSize=" + h.compressedSize());
            }
        }
    }

    private void nextDataPage() {
        while (true) {
            if (resumeOffset >= 0 && (dictionary != null || fixedDictionary != null || !resumeAfterDictionary)) {
                position = resumeOffset;
                valuesSeen = resumeValues;
                page = resumePage - 1;
                resumeOffset = -1;
            }
            if (valuesSeen >= chunk.numValues()) {
                throw new CorruptDataException("more values read than the column chunk holds: numValues="
                        + chunk.numValues());
            }
            if (position >= end) {
                throw new CorruptDataException("column chunk ends before its values: valuesRead=" + valuesSeen
                        + " numValues=" + chunk.numValues() + " chunkOffset=" + chunk.start() + " chunkLength="
                        + chunk.length());
            }
            page++;
            header = null;
            PageHeader h = PageHeader.parse(file, position, end);
            long dataStart = position + h.headerSize();
            if (h.compressedSize() > end - dataStart) {
                throw new CorruptDataException("page beyond its column chunk: offset=" + dataStart
                        + " compressedSize=" + h.compressedSize() + " chunkEnd=" + end);
            }
            if (h.uncompressedSize() > settings.maxPageBytes()) {
                throw new CorruptDataException("page larger than the page limit: uncompressedSize="
                        + h.uncompressedSize() + " maxPageBytes=" + settings.maxPageBytes());
            }
            position = dataStart + h.compressedSize();
            verifyChecksum(h, dataStart);
            if (resumeOffset >= 0 && h.type() != PageHeader.DICTIONARY_PAGE) {
                throw new CorruptDataException("page range expects a dictionary page first: pageType="
                        + h.typeName() + " offset=" + (dataStart - h.headerSize()));
            }
            switch (h.type()) {
                case PageHeader.DICTIONARY_PAGE -> readDictionary(h, dataStart);
                case PageHeader.DATA_PAGE -> {
                    startV1(h, dataStart);
                    return;
                }
                case PageHeader.DATA_PAGE_V2 -> {
                    startV2(h, dataStart);
                    return;
                }
                default -> {
                    // index pages and unknown page types carry no values: skip them
                }
            }
        }
    }

    private void checkValueCount(PageHeader h) {
        if (h.numValues() > chunk.numValues() - valuesSeen) {
            throw new CorruptDataException("page holds more values than its column chunk: numValues="
                    + h.numValues() + " valuesBefore=" + valuesSeen + " chunkValues=" + chunk.numValues());
        }
        valuesSeen += h.numValues();
    }

    /**
     * The page's bytes: in place (uncompressed) or decompressed into a new buffer, whose arena is kept in
     * {@link #pageArena} (the dictionary's moves to {@link #dictionaryArena}). The previous page's buffer is retired
     * only here, when the next page starts: until then its decoder may still be asked for values, even once its
     * last row was read into a batch.
     */
    private MemorySegment pageBuffer(long dataStart, long compressedSize, long uncompressedSize, boolean compressed) {
        memory.retire(pageArena);
        pageArena = null;
        if (!compressed) {
            bufferViews = PageViews.IN_PLACE_FILE;
            if (chunkBuffer != null) {
                bufferBase = dataStart - chunk.start();
                return chunkBuffer;
            }
            bufferBase = 0;
            return file.asSlice(dataStart, compressedSize);
        }
        bufferViews = PageViews.IN_PLACE_DECOMPRESSED;
        bufferBase = 0;
        MemorySegment in = file.asSlice(dataStart, compressedSize);
        if (uncompressedSize == 0) {
            return MemorySegment.ofArray(new byte[0]);
        }
        decompressor.checkPlausible(in, uncompressedSize);
        pageArena = memory.openBuffer();
        MemorySegment out = memory.pageBuffer(pageArena, uncompressedSize);
        decompressor.decompress(in, out);
        return out;
    }

    private long bufferBase;

    private void readDictionary(PageHeader h, long dataStart) {
        if (dictionary != null || fixedDictionary != null) {
            throw new CorruptDataException("second dictionary page in column chunk: entries=" + h.numValues());
        }
        if (valuesSeen > 0) {
            throw new CorruptDataException("dictionary page after data pages: valuesBefore=" + valuesSeen);
        }
        if (h.encoding() != PLAIN && h.encoding() != PLAIN_DICTIONARY) {
            throw new UnsupportedDataException("wrong encoding " + encodingName(h.encoding())
                    + " for dictionary page of column " + chunk.column() + ": encoding=" + h.encoding());
        }
        boolean compressed = decompressor != null;
        MemorySegment buffer = pageBuffer(dataStart, h.compressedSize(), h.uncompressedSize(), compressed);
        dictionaryArena = pageArena; // lives as long as this reader
        pageArena = null;
        long base = bufferBase;
        long size = compressed ? h.uncompressedSize() : h.compressedSize();
        if (layout != null && layout.physicalWidth >= 0) {
            fixedDictionary = FixedDictionary.decode(layout, buffer, base, base + size, h.numValues());
        } else {
            dictionary = Dictionary.decode(buffer, base, base, base + size, h.numValues(),
                    settings.validateUtf8() && chunk.kind() == ViewKind.UTF8);
        }
        if (pageListener != null) {
            pageListener.accept(info(h, h.numValues(), 0, bufferViews));
        }
    }

    private void startV1(PageHeader h, long dataStart) {
        checkValueCount(h);
        boolean compressed = decompressor != null;
        MemorySegment buffer = pageBuffer(dataStart, h.compressedSize(), h.uncompressedSize(), compressed);
        long base = bufferBase;
        long limit = base + (compressed ? h.uncompressedSize() : h.compressedSize());
        long p = base;
        levels = null;
        if (chunk.optional()) {
            if (h.defLevelEncoding() != RLE) {
                throw new UnsupportedDataException("unsupported definition level encoding: encoding="
                        + encodingName(h.defLevelEncoding()));
            }
            if (limit - p < 4) {
                throw new CorruptDataException("definition levels length beyond page: offset=0 pageSize="
                        + (limit - base));
            }
            int length = buffer.get(ViewSink.LE_INT, p);
            if (length < 0 || length > limit - p - 4) {
                throw new CorruptDataException("definition levels beyond page: offset=0 length=" + length
                        + " pageSize=" + (limit - base));
            }
            levels = new HybridDecoder(buffer, p + 4, p + 4 + length, 1, "definition levels", base);
            p += 4 + length;
        }
        startValues(h, buffer, base, p, limit);
    }

    private void startV2(PageHeader h, long dataStart) {
        checkValueCount(h);
        long levelBytes = (long) h.repLevelsByteLength() + h.defLevelsByteLength();
        if (levelBytes > h.compressedSize() || levelBytes > h.uncompressedSize()) {
            throw new CorruptDataException("levels longer than the page: repLevelsByteLength="
                    + h.repLevelsByteLength() + " defLevelsByteLength=" + h.defLevelsByteLength()
                    + " compressedSize=" + h.compressedSize() + " uncompressedSize=" + h.uncompressedSize());
        }
        if (h.numNulls() > h.numValues()) {
            throw new CorruptDataException("more nulls than values: numNulls=" + h.numNulls() + " numValues="
                    + h.numValues());
        }
        levels = null;
        if (chunk.optional()) {
            long levelStart = dataStart + h.repLevelsByteLength();
            levels = new HybridDecoder(file, levelStart, levelStart + h.defLevelsByteLength(), 1,
                    "definition levels", dataStart);
        } else if (h.numNulls() > 0) {
            throw new CorruptDataException("nulls in a required column: numNulls=" + h.numNulls());
        }
        boolean compressed = decompressor != null && h.compressed();
        long valuesStart = dataStart + levelBytes;
        long compressedValues = h.compressedSize() - levelBytes;
        long uncompressedValues = h.uncompressedSize() - levelBytes;
        MemorySegment buffer = pageBuffer(valuesStart, compressedValues, uncompressedValues, compressed);
        long base = bufferBase;
        long limit = base + (compressed ? uncompressedValues : compressedValues);
        startValues(h, buffer, base, base, limit);
    }

    private void startValues(PageHeader h, MemorySegment buffer, long base, long start, long limit) {
        boolean utf8 = settings.validateUtf8() && chunk.kind() == ViewKind.UTF8;
        int encoding = h.encoding();
        if (encoding != DELTA_BYTE_ARRAY) {
            deltaState.reset();
        }
        decoder = null;
        fixedDecoder = null;
        boolean viaViews = layout == null || layout.physicalWidth < 0
                || (layout.type().physical() == ParquetType.Physical.FIXED_LEN_BYTE_ARRAY
                        && (encoding == DELTA_BYTE_ARRAY || encoding == DELTA_LENGTH_BYTE_ARRAY));
        if (viaViews) {
            decoder = switch (encoding) {
                case PLAIN -> new PlainDecoder(buffer, base, start, limit, utf8);
                case PLAIN_DICTIONARY, RLE_DICTIONARY -> {
                    if (dictionary == null) {
                        throw new CorruptDataException("dictionary-encoded page without a dictionary page: encoding="
                                + encodingName(encoding));
                    }
                    yield new DictionaryDecoder(buffer, base, start, limit, dictionary, scratchA);
                }
                case DELTA_LENGTH_BYTE_ARRAY -> new DeltaLengthDecoder(buffer, base, start, limit, utf8, scratchA);
                case DELTA_BYTE_ARRAY -> new DeltaByteArrayDecoder(buffer, base, start, limit, utf8, scratchA,
                        scratchB, deltaState);
                default -> throw wrongEncoding(encoding);
            };
            if (layout != null) { // DECIMAL on BYTE_ARRAY, or FIXED_LEN_BYTE_ARRAY in DELTA pages
                fixedDecoder = new ViewsToFixedDecoder(decoder, layout, fixedScratch);
                decoder = null;
            }
        } else {
            ParquetType.Physical physical = layout.type().physical();
            fixedDecoder = switch (encoding) {
                case PLAIN -> new PlainFixedDecoder(buffer, base, start, limit, layout);
                case PLAIN_DICTIONARY, RLE_DICTIONARY -> {
                    if (fixedDictionary == null) {
                        throw new CorruptDataException("dictionary-encoded page without a dictionary page: encoding="
                                + encodingName(encoding));
                    }
                    yield new DictionaryFixedDecoder(buffer, base, start, limit, layout, fixedDictionary, scratchA);
                }
                case RLE -> {
                    if (physical != ParquetType.Physical.BOOLEAN) {
                        throw wrongEncoding(encoding);
                    }
                    yield new RleBooleanDecoder(buffer, base, start, limit, layout, levelScratch);
                }
                case BYTE_STREAM_SPLIT -> {
                    if (physical == ParquetType.Physical.BOOLEAN || physical == ParquetType.Physical.INT96) {
                        throw wrongEncoding(encoding);
                    }
                    yield new ByteStreamSplitDecoder(buffer, base, start, limit, layout, fixedScratch);
                }
                case DELTA_BINARY_PACKED -> {
                    if (physical != ParquetType.Physical.INT32 && physical != ParquetType.Physical.INT64) {
                        throw wrongEncoding(encoding);
                    }
                    yield new DeltaFixedDecoder(buffer, base, start, limit, layout, fixedScratch);
                }
                default -> throw wrongEncoding(encoding);
            };
        }
        header = h;
        pageValuesLeft = h.numValues();
        pageNulls = 0;
    }

    private UnsupportedDataException wrongEncoding(int encoding) {
        return new UnsupportedDataException("wrong encoding " + encodingName(encoding) + " for column "
                + chunk.column() + ": encoding=" + encoding + " type=" + chunk.type());
    }

    static String encodingName(int encoding) {
        Encoding e = Encoding.findByValue(encoding);
        return e == null ? "UNKNOWN(" + encoding + ")" : e.name();
    }

    /** Releases the decompressor and retires this reader's buffers (the current batch may still point into them). */
    @Override
    public void close() {
        memory.retire(pageArena);
        memory.retire(dictionaryArena);
        pageArena = null;
        dictionaryArena = null;
        deltaState.close();
        if (decompressor != null) {
            decompressor.close();
        }
    }
}
