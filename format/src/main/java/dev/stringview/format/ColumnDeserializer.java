package dev.stringview.format;

import static dev.stringview.format.internal.Wire.LE_INT;
import static dev.stringview.format.internal.Wire.LE_LONG;

import dev.stringview.internal.reader.InlineViews;
import dev.stringview.Utf8;
import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.ViewLayout;
import dev.stringview.format.internal.AsciiBits;
import dev.stringview.format.internal.ByteSource;
import dev.stringview.format.internal.Lz4Block;
import dev.stringview.format.internal.SizeCodec;
import dev.stringview.format.internal.ViewLoops;
import dev.stringview.format.internal.Wire;
import dev.stringview.internal.reader.InlineWords;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a serialized column (either {@link ColumnFormat}, recognized by the header's version and type name) into
 * a {@link ViewColumn} whose memory comes from the caller's allocator.
 *
 * <p><b>No value is copied one by one.</b> Each block's chars stream is validated and turned into views where it
 * already is (the input segment, or the channel's or LZ4's scratch), then copied as a whole into one segment from
 * the allocator, which the views point into; only values of at most 12 bytes are copied, into their view, as the
 * Utf8View layout requires. A block whose values are all that short gets no chars segment at all. The
 * size-prefix format is read the same way: its values stream becomes a segment and the views point past each
 * length.
 *
 * <p><b>Memory.</b> Views, validity bitmap and chars segments come from the allocator passed to {@code read}; the
 * returned column lives until the allocator's owner frees that memory (closes the arena), and is readable from the
 * threads that arena allows. Reading from a segment copies what it uses out of it, so the input may be unmapped or
 * reused afterwards. Columns of more than 1 Mi rows get their views in a segment that doubles as blocks arrive, so
 * an arena then holds up to twice the final views. The deserializer's own native scratch lives in an automatic
 * arena that the garbage collector frees with the deserializer; no returned column points into it.
 *
 * <p><b>Bad input</b> throws {@link CorruptColumnException} naming block, row and field, never an
 * {@code OutOfMemoryError}: lengths are checked against the input's size when it is known (segments, seekable
 * channels), and otherwise memory grows with the bytes that actually arrive (docs/serialization.md).
 *
 * <p>A deserializer keeps scratch buffers between calls; it is not thread-safe.
 */
public final class ColumnDeserializer {
    /** Rows of views allocated on the header's word alone (16 MiB); more arrive with the blocks. */
    private static final int INITIAL_ROWS = 1 << 20;

    private final boolean validateUtf8;
    private final Lz4Block lz4 = new Lz4Block();
    private final SizeCodec sizeCodec = new SizeCodec(lz4);
    private int[] sizes = new int[0];
    private long[] blockValidity = new long[0];
    /** A block's LZ4-decoded chars or values stream. */
    private byte[] decodeScratch = new byte[0];
    /** A size-prefix block's views, built on the heap and copied to the column at once (see buildPrefixedViews). */
    private long[] views = new long[0];
    /** One view of a separated block's last rows, built by {@link #putView} (see ViewLoops). */
    private final long[] tailView = new long[2];
    /** A heap copy of a chars stream that lives in native memory, for ViewLoops. */
    private byte[] charsCopy = new byte[0];
    /** Native memory for the chars of blocks of values of at most 4 bytes, read by InlineViews (see nativeChars). */
    private MemorySegment nativeChars = MemorySegment.NULL;

    private static final VarHandle BYTES_LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BYTES_LE_INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private ColumnDeserializer(boolean validateUtf8) {
        this.validateUtf8 = validateUtf8;
    }

    /** A deserializer that checks UTF-8 columns are well-formed UTF-8. */
    public static ColumnDeserializer create() {
        return new ColumnDeserializer(true);
    }

    /** The same deserializer with UTF-8 checking on or off (off only for trusted input). */
    public ColumnDeserializer withUtf8Validation(boolean enabled) {
        return new ColumnDeserializer(enabled);
    }

    /** Reads the column that makes up all of {@code input}; trailing bytes are an error. */
    public ViewColumn read(MemorySegment input, SegmentAllocator allocator) throws IOException {
        ByteSource source = ByteSource.of(input);
        ViewColumn column = read(source, allocator);
        if (source.remaining() != 0) {
            throw new CorruptColumnException(-1, -1, "trailer", "trailingBytes=" + source.remaining() + " position="
                    + source.position());
        }
        return column;
    }

    /** Reads one column from {@code in}, leaving whatever follows it unread. */
    public ViewColumn read(ReadableByteChannel in, SegmentAllocator allocator) throws IOException {
        return read(ByteSource.of(in), allocator);
    }

    /** Reads one column from {@code in}, leaving whatever follows it unread (the stream is not buffered here). */
    public ViewColumn read(InputStream in, SegmentAllocator allocator) throws IOException {
        return read(ByteSource.of(Channels.newChannel(in)), allocator);
    }

    // ------------------------------------------------------------------------------------------- internals

    private ViewColumn read(ByteSource in, SegmentAllocator allocator) throws IOException {
        MemorySegment start = in.next(7, -1, "magic");
        for (int i = 0; i < 4; i++) {
            if (start.get(ValueLayout.JAVA_BYTE, i) != ColumnFormat.MAGIC[i]) {
                throw new CorruptColumnException(-1, -1, "magic", String.format("magic=0x%08x expected=0x%08x",
                        Integer.reverseBytes(start.get(LE_INT, 0)), 0x5356434C));
            }
        }
        int version = start.get(Wire.LE_SHORT, 4) & 0xFFFF;
        int nameLength = start.get(ValueLayout.JAVA_BYTE, 6) & 0xFF;
        String typeName = new String(in.next(nameLength, -1, "typeName").toArray(ValueLayout.JAVA_BYTE),
                StandardCharsets.US_ASCII);
        ColumnFormat format = ColumnFormat.of(version, typeName).orElseThrow(() -> new CorruptColumnException(-1,
                -1, "typeName", "version=" + version + " typeName=" + printable(typeName)
                        + " known=String/1,StringV2/2"));
        MemorySegment h = in.next(Wire.HEADER_TAIL, -1, "header");
        int kindByte = h.get(ValueLayout.JAVA_BYTE, 0) & 0xFF;
        int sizesCodec = h.get(ValueLayout.JAVA_BYTE, 1) & 0xFF;
        int charsCodec = h.get(ValueLayout.JAVA_BYTE, 2) & 0xFF;
        long blockRows = h.get(LE_INT, 3) & 0xFFFF_FFFFL;
        long rows = h.get(LE_LONG, 7);
        long nulls = h.get(LE_LONG, 15);
        if (kindByte > Wire.KIND_BINARY) {
            throw new CorruptColumnException(-1, -1, "kind", "kind=" + kindByte + " known=0,1");
        }
        int maxSizesCodec = format == ColumnFormat.SEPARATED ? Wire.CODEC_LIGHTWEIGHT : Wire.CODEC_NONE;
        if (sizesCodec > maxSizesCodec) {
            throw new CorruptColumnException(-1, -1, "sizesCodec", "format=" + format + " sizesCodec=" + sizesCodec
                    + " max=" + maxSizesCodec);
        }
        if (charsCodec > Wire.CODEC_LZ4) {
            throw new CorruptColumnException(-1, -1, "charsCodec", "charsCodec=" + charsCodec + " max=1");
        }
        if (blockRows < 1 || blockRows > Wire.MAX_BLOCK_ROWS) {
            throw new CorruptColumnException(-1, -1, "blockRows", "blockRows=" + blockRows + " min=1 max="
                    + Wire.MAX_BLOCK_ROWS);
        }
        if (rows < 0 || rows > Integer.MAX_VALUE) {
            throw new CorruptColumnException(-1, -1, "rows", "rows=" + rows + " max=" + Integer.MAX_VALUE);
        }
        if (nulls < 0 || nulls > rows) {
            throw new CorruptColumnException(-1, -1, "nullCount", "nullCount=" + nulls + " rows=" + rows);
        }
        ViewKind kind = kindByte == Wire.KIND_UTF8 ? ViewKind.UTF8 : ViewKind.BINARY;
        Target target = new Target(allocator, (int) rows, nulls > 0);
        List<MemorySegment> buffers = new ArrayList<>();
        long block = 0;
        long nullsSoFar = 0;
        while (target.filled < rows) {
            MemorySegment bh = in.next(8, block, "blockHeader");
            long n = bh.get(LE_INT, 0) & 0xFFFF_FFFFL;
            long blockNulls = bh.get(LE_INT, 4) & 0xFFFF_FFFFL;
            long left = rows - target.filled;
            if (n < 1 || n > blockRows || n > left) {
                throw new CorruptColumnException(block, target.filled, "blockRows", "blockRows=" + n + " maxBlockRows="
                        + blockRows + " rowsLeft=" + left);
            }
            if (blockNulls > n || nullsSoFar + blockNulls > nulls) {
                throw new CorruptColumnException(block, target.filled, "blockNullCount", "blockNullCount=" + blockNulls
                        + " blockRows=" + n + " nullsSoFar=" + nullsSoFar + " nullCount=" + nulls);
            }
            readValidity(in, (int) n, (int) blockNulls, block, target.filled);
            target.reserve((int) n);
            if (format == ColumnFormat.SEPARATED) {
                readSeparatedBlock(in, kind, sizesCodec, (int) n, blockNulls > 0, block, target, buffers, allocator);
            } else {
                readPrefixedBlock(in, kind, (int) n, blockNulls > 0, block, target, buffers, allocator);
            }
            target.filled += (int) n;
            nullsSoFar += blockNulls;
            block++;
        }
        if (nullsSoFar != nulls) {
            throw new CorruptColumnException(block - 1, -1, "nullCount", "nullCount=" + nulls + " blockNullsSum="
                    + nullsSoFar);
        }
        return ViewColumns.fromViewsUnchecked(kind, (int) rows, target.views.asSlice(0, rows * 16),
                target.validity, buffers);
    }

    private void readValidity(ByteSource in, int n, int blockNulls, long block, long firstRow) throws IOException {
        int words = (n + 63) >>> 6;
        if (blockValidity.length < words) {
            blockValidity = new long[Math.max(words, 2 * blockValidity.length)];
        }
        if (blockNulls == 0) {
            return;
        }
        int bytes = (n + 7) >>> 3;
        MemorySegment bits = in.next(bytes, block, "validity");
        Arrays.fill(blockValidity, 0, words, 0);
        MemorySegment.copy(bits, ValueLayout.JAVA_BYTE, 0, MemorySegment.ofArray(blockValidity),
                ValueLayout.JAVA_BYTE, 0, bytes);
        if ((n & 63) != 0) {
            blockValidity[words - 1] &= (1L << (n & 63)) - 1; // ignore padding bits
        }
        long valid = 0;
        for (int w = 0; w < words; w++) {
            valid += Long.bitCount(blockValidity[w]);
        }
        if (n - valid != blockNulls) {
            throw new CorruptColumnException(block, firstRow, "validity", "nullBits=" + (n - valid)
                    + " blockNullCount=" + blockNulls + " blockRows=" + n);
        }
    }

    private boolean isNull(int i) {
        return (blockValidity[i >>> 6] & (1L << i)) == 0;
    }

    private void readSeparatedBlock(ByteSource in, ViewKind kind, int sizesCodec, int n, boolean hasNulls,
            long block, Target target, List<MemorySegment> buffers, SegmentAllocator allocator) throws IOException {
        long firstRow = target.filled;
        MemorySegment sh = in.next(5, block, "sizesHeader");
        int encoding = sh.get(ValueLayout.JAVA_BYTE, 0) & 0xFF;
        long encodedLength = sh.get(LE_INT, 1) & 0xFFFF_FFFFL;
        boolean allowed = encoding == SizeCodec.RAW || switch (sizesCodec) {
            case Wire.CODEC_LZ4 -> encoding == SizeCodec.LZ4;
            case Wire.CODEC_LIGHTWEIGHT -> encoding <= SizeCodec.DELTA_FRAME_OF_REFERENCE;
            default -> false;
        };
        if (!allowed) {
            throw new CorruptColumnException(block, -1, "sizesEncoding", "encoding=" + SizeCodec.name(encoding)
                    + " sizesCodec=" + sizesCodec);
        }
        if (sizes.length < n) {
            sizes = new int[Math.max(n, 2 * sizes.length)];
        }
        MemorySegment encodedSizes = in.next(encodedLength, block, "sizes");
        // Raw sizes in a heap input that stays valid (a segment read) are summarized where they are; a block whose
        // every value is long then reads them there in its view loop, and never copies them into the int[]
        // (rawSizes set); any other block copies them, as the raw decode does, and keeps the summary. Reads at
        // sizes 16-64 1.05x-1.31x faster than through the int[] with the same loop, in two side-by-side runs
        // (docs/serialization.md, "Raw sizes read where they arrive"); native input and channels keep the int[],
        // so that the loop sees one segment kind.
        MemorySegment rawSizes = null;
        SizeCodec.Summary summary = null;
        if (encoding == SizeCodec.RAW && encodedLength == 4L * n && !hasNulls && in.slicesStay()
                && encodedSizes.heapBase().orElse(null) instanceof byte[]) {
            summary = SizeCodec.summarize(encodedSizes, n);
            if (summary != null && summary.allLong()) {
                rawSizes = encodedSizes;
            } else if (summary != null) {
                MemorySegment.copy(encodedSizes, Wire.LE_INT, 0, sizes, 0, n);
            }
        }
        if (summary == null) { // every other encoding, and raw sizes with a sign bit set (named by the decode)
            summary = sizeCodec.decodeSummarized(encoding, encodedSizes, n, sizes, block, firstRow);
        }
        long sum = summary.sum();
        if (hasNulls) {
            checkNullRowsEmpty(n, block, firstRow);
        }
        MemorySegment ch = in.next(9, block, "charsHeader");
        int codec = ch.get(ValueLayout.JAVA_BYTE, 0) & 0xFF;
        long rawLength = ch.get(LE_LONG, 1);
        if (rawLength != sum) {
            throw new CorruptColumnException(block, -1, "chars", "charsLength=" + rawLength + " sizesSum=" + sum);
        }
        if (rawLength > Wire.MAX_BLOCK_BYTES) {
            throw new CorruptColumnException(block, -1, "chars", "charsLength=" + rawLength + " max="
                    + Wire.MAX_BLOCK_BYTES);
        }
        // All values inline: the bytes only pass through on their way into the views, so no arena memory.
        int longest = summary.longestClass();
        boolean inlineOnly = longest <= ViewLayout.INLINE_MAX;
        MemorySegment chars = readStream(in, codec, rawLength, block, "chars");
        byte[] array = heapArray(chars);
        int base = array == charsCopy ? 0 : (int) chars.address();
        boolean checkUtf8 = kind == ViewKind.UTF8 && validateUtf8;
        // A block of inline values only gets its views from InlineViews' vector form once that is warm, over a
        // native copy of the chars (the form is compiled for native chars; a heap segment among its calls would
        // slow every later call). The views' builder tests the chars for ASCII on its way (an OR of the bytes it
        // places), so UTF-8 is checked only when a byte is 0x80 or above.
        if (inlineOnly && InlineViews.vectorized()) {
            MemorySegment scratch = nativeChars(rawLength);
            MemorySegment.copy(MemorySegment.ofArray(array), base, scratch, 0, rawLength);
            long end = InlineViews.buildTestingAscii(sizes, 0, n, scratch, 0, target.views, firstRow * 16);
            if (end < 0 && checkUtf8) {
                checkUtf8(array, base, rawLength, n, block, firstRow);
            }
            target.setValidity(firstRow, n, hasNulls ? blockValidity : null);
            return;
        }
        // The block's buffer, when a view points into it, is allocated before the UTF-8 check so that the ASCII
        // test and the copy share one read of the chars (keepCheckingAscii); a corrupt block then leaves it in the
        // caller's arena, no larger than the bytes that arrived.
        MemorySegment kept = inlineOnly ? null : allocator.allocate(rawLength, 1);
        if (!keepCheckingAscii(array, base, (int) rawLength, kept, checkUtf8) && checkUtf8) {
            if (rawSizes != null) { // the check names rows from the int[]
                MemorySegment.copy(rawSizes, Wire.LE_INT, 0, sizes, 0, n);
            }
            checkUtf8(array, base, rawLength, n, block, firstRow);
        }
        int bufferIndex = buffers.size();
        if (kept != null) {
            buffers.add(kept);
        }
        if (rawSizes != null) {
            // Every value is long: each row's 8-byte load starts in the previous value or at the row's own first
            // 4 bytes, inside the chars, so no row is left for buildLastViews.
            ViewLoops.allLongRawSizes(rawSizes, n, MemorySegment.ofArray(array), base, bufferIndex, target.views,
                    firstRow * 16);
            target.setValidity(firstRow, n, null); // no nulls in the block
            return;
        }
        int wordRows = rowsWithWordRoom(sizes, n);
        int lastOffset = switch (longest) {
            case 4 -> ViewLoops.inline4(sizes, wordRows, MemorySegment.ofArray(array), base, target.views,
                    firstRow * 16);
            case 8 -> ViewLoops.inline8(sizes, wordRows, array, base, target.views, firstRow * 16);
            case ViewLayout.INLINE_MAX -> ViewLoops.inline12(sizes, wordRows, array, base, target.views, firstRow * 16);
            default -> summary.allLong()
                    ? ViewLoops.allLong(sizes, wordRows, MemorySegment.ofArray(array), base, bufferIndex,
                            target.views, firstRow * 16)
                    : ViewLoops.mixed(sizes, wordRows, array, base, bufferIndex, target.views, firstRow * 16);
        };
        buildLastViews(sizes, wordRows, n, lastOffset, array, base, (int) rawLength, bufferIndex, target.views,
                firstRow * 16);
        target.setValidity(firstRow, n, hasNulls ? blockValidity : null);
    }

    /**
     * The first {@code length} bytes of this reader's native chars scratch, grown to the largest block of values of
     * at most 4 bytes seen (at most 4 bytes a row of a block whose chars have arrived); freed by the GC with the
     * reader.
     */
    private MemorySegment nativeChars(long length) {
        if (nativeChars.byteSize() < length) {
            nativeChars = Arena.ofAuto().allocate(Math.max(length, Math.min(Wire.MAX_BLOCK_BYTES,
                    2 * nativeChars.byteSize())), 64);
        }
        return nativeChars.asSlice(0, length);
    }

    /**
     * Checks that the block's chars ({@code rawLength} bytes at {@code array[base]}), not all ASCII, are valid UTF-8
     * and that no value starts inside a character. UTF-8 is checked on the heap bytes the view loops read: one kind
     * of segment for Utf8, whose checks ran several times slower once its code had also seen native segments.
     */
    private void checkUtf8(byte[] array, int base, long rawLength, int n, long block, long firstRow)
            throws CorruptColumnException {
        MemorySegment heapChars = MemorySegment.ofArray(array).asSlice(base, rawLength);
        long bad = Utf8.firstInvalid(heapChars, 0, rawLength);
        if (bad >= 0) {
            throw utf8Error(block, firstRow, bad, n);
        }
        int badStart = firstContinuationStart(sizes, n, array, base);
        if (badStart >= 0) {
            throw valueEndsInsideACharacter(heapChars, badStart, block, firstRow, n);
        }
    }

    /** Null rows have length 0 (docs/serialization.md); a forged size on one is named with its row. */
    private void checkNullRowsEmpty(int n, long block, long firstRow) throws CorruptColumnException {
        for (int i = 0; i < n; i++) {
            if (sizes[i] != 0 && isNull(i)) {
                throw new CorruptColumnException(block, firstRow + i, "sizes", "nullRowSize=" + sizes[i]);
            }
        }
    }

    /** A byte of 0x80 or above in a word of {@link AsciiBits}' ORs. */
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

    /**
     * Chars streams above this size are copied alone when not tested for ASCII: a 64 MiB stream (size 1,024) took
     * 1.6x as long through {@link AsciiBits#copyHighBits} as through {@code MemorySegment.copy}, probably because
     * only a copy that large gets the C library's non-temporal stores; tested, it is still faster fused (1.09x).
     */
    private static final int COPY_ALONE_MIN = 16 << 20;

    /**
     * Copies {@code bytes[from, from + length)} into {@code kept} (when not null) and, when {@code testAscii},
     * tells whether they are all ASCII; returns false when ASCII was not tested. With a buffer to fill, the test
     * rides on the copy ({@link AsciiBits#copyHighBits}, one read of the chars, vectorized by C2), which is faster
     * than the copy alone up to {@link #COPY_ALONE_MIN} bytes, so the trusted read takes it too.
     */
    private static boolean keepCheckingAscii(byte[] bytes, int from, int length, MemorySegment kept,
            boolean testAscii) {
        long high;
        if (kept == null) {
            high = testAscii ? AsciiBits.highBits(bytes, from, length) : 0;
        } else if (!testAscii && length > COPY_ALONE_MIN) {
            MemorySegment.copy(MemorySegment.ofArray(bytes), from, kept, 0, length);
            high = 0;
        } else {
            high = AsciiBits.copyHighBits(MemorySegment.ofArray(bytes), from, kept, length);
        }
        return testAscii && (high & HIGH_BITS) == 0;
    }

    /**
     * The first non-empty row of the block whose first byte is a continuation byte ({@code 10xxxxxx}), or -1. The
     * whole chars stream being valid UTF-8, no such row means every value is valid UTF-8 on its own.
     */
    private static int firstContinuationStart(int[] sizes, int n, byte[] bytes, int base) {
        int p = base;
        for (int i = 0; i < n; i++) {
            int length = sizes[i];
            if (length > 0 && (bytes[p] & 0xC0) == 0x80) {
                return i;
            }
            p += length;
        }
        return -1;
    }

    /**
     * The error for a value starting with a continuation byte inside a valid stream: the non-empty value before
     * it (if any) ends inside a character, so that one is the first bad row.
     */
    private CorruptColumnException valueEndsInsideACharacter(MemorySegment heapChars, int badStart, long block,
            long firstRow, int n) {
        int previous = badStart - 1;
        while (previous >= 0 && sizes[previous] == 0) {
            previous--;
        }
        if (previous < 0) {
            return utf8Error(block, firstRow, 0, n);
        }
        long previousAt = 0;
        for (int i = 0; i < previous; i++) {
            previousAt += sizes[i];
        }
        long bad = Utf8.firstInvalid(heapChars, previousAt, sizes[previous]);
        return new CorruptColumnException(block, firstRow + previous, "utf8", "byteOffset=" + bad + " length="
                + sizes[previous]);
    }

    /**
     * How many of the block's first rows start at least 12 bytes before the end of the chars, so that their views
     * can be built from two 8-byte loads at the value's start and four bytes further (the chars are
     * {@code sizes[0..n)} long, checked by the caller). The rows after them, fewer than 13 plus any empty rows
     * among them, go through {@link #buildLastViews}.
     */
    static int rowsWithWordRoom(int[] sizes, int n) {
        int first = n;
        long bytesAfter = 0;
        while (first > 0 && bytesAfter < ViewLayout.INLINE_MAX) {
            bytesAfter += sizes[--first];
        }
        return bytesAfter >= ViewLayout.INLINE_MAX ? first + 1 : first;
    }

    /**
     * The views of rows {@code [from, n)}, the last ones, whose 12 bytes from their start may run past the chars'
     * end ({@code charsLength} bytes at {@code bytes[base]}; row {@code from} at {@code offset}): through
     * {@link #putView}, which reads the bytes that exist one by one, never past the chars' end (the array may
     * hold other data there, e.g. the rest of the input).
     */
    private void buildLastViews(int[] sizes, int from, int n, int offset, byte[] bytes, int base, int charsLength,
            int bufferIndex, MemorySegment out, long outAt) {
        // putView loads words only where 12 bytes of the chars are left; the rest byte by byte.
        int wordsEnd = base + charsLength - ViewLayout.INLINE_MAX;
        for (int i = from; i < n; i++) {
            putView(bytes, base + offset, wordsEnd, sizes[i], bufferIndex, offset, tailView, 0);
            out.set(LE_LONG, outAt + 16L * i, tailView[0]);
            out.set(LE_LONG, outAt + 16L * i + 8, tailView[1]);
            offset += sizes[i];
        }
    }

    /**
     * Writes the view of the {@code length}-byte value at {@code bytes[p]} as {@code out[2i], out[2i + 1]}:
     * inline (one long and one int load, masked, while {@code p <= wordsEnd}), or length, prefix,
     * {@code bufferIndex} and {@code offset}, the value's offset in the block's buffer.
     */
    private static void putView(byte[] bytes, int p, int wordsEnd, int length, int bufferIndex, int offset,
            long[] out, int i) {
        if (length <= ViewLayout.INLINE_MAX) {
            long lo;
            long hi;
            if (p <= wordsEnd) {
                lo = (long) BYTES_LE_LONG.get(bytes, p) & InlineWords.inlineLowMask(length);
                hi = ((int) BYTES_LE_INT.get(bytes, p + 8)) & InlineWords.inlineHighMask(length);
            } else { // the array's last bytes
                lo = gather(bytes, p, Math.min(length, 8));
                hi = gather(bytes, p + 8, Math.max(length - 8, 0));
            }
            out[2 * i] = InlineWords.inlineWord0(length, lo);
            out[2 * i + 1] = InlineWords.inlineWord1(lo, hi);
        } else {
            out[2 * i] = length | ((long) (int) BYTES_LE_INT.get(bytes, p) << 32);
            out[2 * i + 1] = bufferIndex | ((long) offset << 32);
        }
    }

    /** Up to 8 bytes at {@code at}, little-endian, one by one (the end of an array). */
    private static long gather(byte[] bytes, int at, int count) {
        long word = 0;
        for (int i = 0; i < count; i++) {
            word |= (bytes[at + i] & 0xFFL) << (i << 3);
        }
        return word;
    }

    private void readPrefixedBlock(ByteSource in, ViewKind kind, int n, boolean hasNulls, long block,
            Target target, List<MemorySegment> buffers, SegmentAllocator allocator) throws IOException {
        long firstRow = target.filled;
        MemorySegment ch = in.next(9, block, "valuesHeader");
        int codec = ch.get(ValueLayout.JAVA_BYTE, 0) & 0xFF;
        long rawLength = ch.get(LE_LONG, 1);
        if (rawLength < n || rawLength > Wire.MAX_BLOCK_BYTES) { // every row has at least its 1-byte length
            throw new CorruptColumnException(block, -1, "values", "valuesLength=" + rawLength + " blockRows=" + n
                    + " max=" + Wire.MAX_BLOCK_BYTES);
        }
        MemorySegment values = readStream(in, codec, rawLength, block, "values");
        int bufferIndex = buffers.size();
        boolean checkUtf8 = kind == ViewKind.UTF8 && validateUtf8;
        if (views.length < 2 * n) {
            views = new long[Math.max(2 * n, 2 * views.length)];
        }
        byte[] array = heapArray(values);
        int base = array == charsCopy ? 0 : (int) values.address();
        boolean anyLong = buildPrefixedViews(array, base, (int) rawLength,
                MemorySegment.ofArray(array).asSlice(base, rawLength), n, hasNulls, checkUtf8, bufferIndex, block,
                firstRow);
        MemorySegment.copy(views, 0, target.views, LE_LONG, firstRow * 16, 2 * n);
        if (anyLong) {
            buffers.add(keep(values, allocator));
        }
        target.setValidity(firstRow, n, hasNulls ? blockValidity : null);
    }

    /**
     * The views of a size-prefix block's {@code n} rows into {@link #views}, the same array loop as
     * {@link ViewLoops#mixed} so that the benchmark's baseline is not slowed by segment accesses the separated reader
     * no longer makes: per row a LEB128 length (each byte checked against the stream's end), the null and length
     * checks, UTF-8 of the value on its own, then its view. Returns whether any value is longer than 12 bytes.
     */
    private boolean buildPrefixedViews(byte[] bytes, int base, int rawLength, MemorySegment heapValues, int n,
            boolean hasNulls, boolean checkUtf8, int bufferIndex, long block, long firstRow)
            throws CorruptColumnException {
        long[] out = views;
        boolean anyLong = false;
        int wordsEnd = bytes.length - ViewLayout.INLINE_MAX;
        int at = 0;
        for (int i = 0; i < n; i++) {
            // Unsigned LEB128: 7 bits per byte, low groups first, high bit set on all but the last byte.
            long length = 0;
            int shift = 0;
            while (true) {
                if (at >= rawLength) {
                    throw new CorruptColumnException(block, firstRow + i, "length", "truncatedVarint offset=" + at
                            + " valuesLength=" + rawLength);
                }
                int b = bytes[base + at++] & 0xFF;
                length |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    break;
                }
                shift += 7;
                if (shift > 28) {
                    throw new CorruptColumnException(block, firstRow + i, "length", "varintTooLong offset=" + at);
                }
            }
            if (length > rawLength - at) {
                throw new CorruptColumnException(block, firstRow + i, "length", "length=" + length + " offset=" + at
                        + " valuesLength=" + rawLength);
            }
            if (hasNulls && length != 0 && isNull(i)) {
                throw new CorruptColumnException(block, firstRow + i, "length", "nullRowLength=" + length);
            }
            int len = (int) length;
            if (checkUtf8) {
                long bad = Utf8.firstInvalid(heapValues, at, len);
                if (bad >= 0) {
                    throw new CorruptColumnException(block, firstRow + i, "utf8", "byteOffset=" + bad + " length="
                            + len);
                }
            }
            anyLong |= len > ViewLayout.INLINE_MAX;
            putView(bytes, base + at, wordsEnd, len, bufferIndex, at, out, i);
            at += len;
        }
        if (at != rawLength) {
            throw new CorruptColumnException(block, -1, "values", "trailingBytes=" + (rawLength - at)
                    + " valuesLength=" + rawLength);
        }
        return anyLong;
    }

    /**
     * The bytes of {@code segment} in a heap array for the view loops: the segment's own array when it is a heap
     * segment over a {@code byte[]} (bytes at {@code segment.address()}), else a copy in {@link #charsCopy} (at 0).
     */
    private byte[] heapArray(MemorySegment segment) {
        if (segment.heapBase().orElse(null) instanceof byte[] array) {
            return array;
        }
        long length = segment.byteSize();
        if (charsCopy.length < length) {
            charsCopy = new byte[(int) Math.max(length, Math.min(Wire.MAX_BLOCK_BYTES, 2L * charsCopy.length))];
        }
        MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, 0, charsCopy, 0, (int) length);
        return charsCopy;
    }

    /**
     * A stream of {@code rawLength} bytes after its codec byte and length, valid until the next read from
     * {@code in}: a slice of the input segment (no copy), the channel source's scratch, or for LZ4 this reader's
     * decode scratch. The readers validate it and build the views from it, then {@link #keep} it if a view points
     * into it: one copy of the bytes into the caller's memory, the only one for a heap input.
     */
    private MemorySegment readStream(ByteSource in, int codec, long rawLength, long block, String field)
            throws IOException {
        if (codec == Wire.CODEC_NONE) {
            return in.next(rawLength, block, field);
        }
        if (codec != Wire.CODEC_LZ4) {
            throw new CorruptColumnException(block, -1, field + "Codec", "codec=" + codec + " known=0,1");
        }
        long stored = in.next(8, block, field + "Header").get(LE_LONG, 0);
        if (stored < 0 || !Lz4Block.plausible(stored, rawLength)) {
            throw new CorruptColumnException(block, -1, field, "codec=lz4 storedLength=" + stored + " rawLength="
                    + rawLength + " maxRatio=" + Lz4Block.MAX_RATIO);
        }
        MemorySegment compressed = in.next(stored, block, field);
        if (decodeScratch.length < rawLength) {
            decodeScratch = new byte[(int) Math.max(rawLength, Math.min(Wire.MAX_BLOCK_BYTES,
                    2L * decodeScratch.length))];
        }
        MemorySegment out = MemorySegment.ofArray(decodeScratch).asSlice(0, rawLength);
        lz4.decompress(compressed, out, block, field);
        return out;
    }

    /** {@code stream} copied into a segment of {@code allocator}: the block's buffer, which its views point into. */
    private static MemorySegment keep(MemorySegment stream, SegmentAllocator allocator) {
        MemorySegment kept = allocator.allocate(stream.byteSize(), 1);
        MemorySegment.copy(stream, 0, kept, 0, stream.byteSize());
        return kept;
    }

    private CorruptColumnException utf8Error(long block, long firstRow, long badOffset, int n) {
        long at = 0;
        for (int i = 0; i < n; i++) {
            if (badOffset < at + sizes[i] || (sizes[i] > 0 && badOffset == at)) {
                return new CorruptColumnException(block, firstRow + i, "utf8", "byteOffset=" + (badOffset - at)
                        + " length=" + sizes[i]);
            }
            at += sizes[i];
        }
        return new CorruptColumnException(block, -1, "utf8", "charsOffset=" + badOffset);
    }

    private static String printable(String s) {
        StringBuilder out = new StringBuilder();
        for (char c : s.toCharArray()) {
            out.append(c >= 0x20 && c < 0x7F ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return out.toString();
    }

    /** The column's views and validity, grown as blocks arrive (never on the header's word alone beyond 1 Mi rows). */
    private static final class Target {
        private final SegmentAllocator allocator;
        private final int rows;
        private final boolean nullable;
        MemorySegment views;
        MemorySegment validity;
        int filled;

        Target(SegmentAllocator allocator, int rows, boolean nullable) {
            this.allocator = allocator;
            this.rows = rows;
            this.nullable = nullable;
            allocate(Math.min(rows, INITIAL_ROWS));
        }

        void reserve(int blockRows) {
            long need = (long) filled + blockRows;
            long capacity = views.byteSize() / 16;
            if (need > capacity) {
                MemorySegment oldViews = views;
                MemorySegment oldValidity = validity;
                allocate((int) Math.min(rows, Math.max(need, 2 * capacity)));
                MemorySegment.copy(oldViews, 0, views, 0, (long) filled * 16);
                if (nullable) {
                    MemorySegment.copy(oldValidity, 0, validity, 0, oldValidity.byteSize());
                }
            }
        }

        private void allocate(int capacity) {
            views = allocator.allocate((long) capacity * 16, 16);
            if (nullable) {
                validity = allocator.allocate(((capacity + 63L) >>> 6) << 3, 8);
                validity.fill((byte) 0);
            }
        }

        /**
         * Sets the validity bits of rows {@code [first, first + n)}: from {@code bits} (bit {@code i} of the block
         * in word {@code i / 64}, bits past {@code n} clear), or all valid if null. 64 rows at a time, ORed into the
         * up to nine bytes they cover. A null row's view is already zero: its size is 0 (checked by both readers),
         * and the view of an empty value is two zero words.
         */
        void setValidity(long first, int n, long[] bits) {
            if (!nullable) {
                return;
            }
            for (int w = 0; w << 6 < n; w++) {
                int count = Math.min(64, n - (w << 6));
                long word = bits == null ? -1L : bits[w];
                if (count < 64) {
                    word &= (1L << count) - 1;
                }
                long bit = first + ((long) w << 6);
                long at = bit >>> 3;
                int shift = (int) (bit & 7);
                long low = word << shift;
                for (int k = 0; k < 8 && low >>> (k << 3) != 0; k++) {
                    orByte(at + k, (byte) (low >>> (k << 3)));
                }
                if (shift != 0) {
                    orByte(at + 8, (byte) (word >>> (64 - shift)));
                }
            }
        }

        /** ORs {@code bits} into validity byte {@code index}; a zero never writes (the byte may be past the end). */
        private void orByte(long index, byte bits) {
            if (bits != 0) {
                validity.set(ValueLayout.JAVA_BYTE, index, (byte) (validity.get(ValueLayout.JAVA_BYTE, index) | bits));
            }
        }
    }
}
