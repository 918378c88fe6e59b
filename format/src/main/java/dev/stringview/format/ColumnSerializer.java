package dev.stringview.format;

import static dev.stringview.format.internal.Wire.LE_INT;
import static dev.stringview.format.internal.Wire.LE_LONG;

import dev.stringview.ViewColumn;
import dev.stringview.ViewKind;
import dev.stringview.ViewLayout;
import dev.stringview.format.internal.CharsGather;
import dev.stringview.format.internal.Lz4Block;
import dev.stringview.format.internal.SizeCodec;
import dev.stringview.format.internal.Wire;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Writes a {@link ViewColumn} in one of the {@link ColumnFormat}s with one of the {@link ColumnCodec}s, in blocks
 * of rows (65,535 by default, seed 003's block size) so that large columns stream. The byte layout is in
 * docs/serialization.md.
 *
 * <p>A serializer keeps its codec state and scratch buffers (heap arrays as large as the largest block) between
 * calls, so reuse one per thread; it is not thread-safe. It reads the column on the calling thread (its segments
 * must be accessible there), never changes or frees it, and keeps no reference to it after {@code write} returns.
 */
public final class ColumnSerializer {
    /** Rows per block unless {@link #withBlockRows} says otherwise. */
    public static final int DEFAULT_BLOCK_ROWS = 65_535;
    /** Most rows per block. */
    public static final int MAX_BLOCK_ROWS = Wire.MAX_BLOCK_ROWS;

    private final ColumnFormat format;
    private final ColumnCodec codec;
    private final int blockRows;
    private final Lz4Block lz4 = new Lz4Block();
    private final SizeCodec sizeCodec = new SizeCodec(lz4);

    private int[] sizes = new int[0];
    private final CharsGather gather = new CharsGather();
    private byte[] packed = new byte[0];
    private byte[] head = new byte[0];

    private ColumnSerializer(ColumnFormat format, ColumnCodec codec, int blockRows) {
        this.format = Objects.requireNonNull(format, "format");
        this.codec = Objects.requireNonNull(codec, "codec");
        if (format == ColumnFormat.SIZE_PREFIX && codec == ColumnCodec.LIGHTWEIGHT) {
            throw new IllegalArgumentException("the lightweight codec codes a sizes stream, which the size-prefix "
                    + "format has not: format=" + format + " codec=" + codec);
        }
        if (blockRows < 1 || blockRows > MAX_BLOCK_ROWS) {
            throw new IllegalArgumentException("rows per block out of range: blockRows=" + blockRows + " min=1 max="
                    + MAX_BLOCK_ROWS);
        }
        this.blockRows = blockRows;
    }

    /** A serializer for {@code format} and {@code codec} ({@link ColumnCodec#LIGHTWEIGHT} needs {@link ColumnFormat#SEPARATED}). */
    public static ColumnSerializer of(ColumnFormat format, ColumnCodec codec) {
        return new ColumnSerializer(format, codec, DEFAULT_BLOCK_ROWS);
    }

    /** The same serializer with at most {@code rows} rows per block (1 to {@link #MAX_BLOCK_ROWS}). */
    public ColumnSerializer withBlockRows(int rows) {
        return new ColumnSerializer(format, codec, rows);
    }

    public ColumnFormat format() {
        return format;
    }

    public ColumnCodec codec() {
        return codec;
    }

    /** Writes {@code column} to {@code out} (not closed); returns the bytes written. */
    public long write(ViewColumn column, OutputStream out) throws IOException {
        return write(column, Channels.newChannel(out));
    }

    /** Writes {@code column} to {@code out} (not closed); returns the bytes written. */
    public long write(ViewColumn column, WritableByteChannel out) throws IOException {
        long written = writeHeader(column, out);
        MemorySegment views = column.views();
        MemorySegment[] buffers = new MemorySegment[column.bufferCount()];
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = column.buffer(i);
        }
        int rows = column.size();
        boolean maybeNulls = column.nullCount() > 0;
        int start = 0;
        while (start < rows) {
            // A block ends at blockRows rows, or earlier when its bytes would outgrow int32 offsets.
            int end = start;
            long bytes = 0;
            int limit = (int) Math.min(rows, (long) start + blockRows);
            while (end < limit) {
                long length = maybeNulls && column.isNull(end) ? 0 : views.get(LE_INT, (long) end * 16);
                long cost = format == ColumnFormat.SIZE_PREFIX ? length + varintLength((int) length) : length;
                if (bytes + cost > Wire.MAX_BLOCK_BYTES) {
                    if (end == start) {
                        throw new IllegalArgumentException("value too long for one block: row=" + end + " length="
                                + length + " max=" + Wire.MAX_BLOCK_BYTES);
                    }
                    break;
                }
                bytes += cost;
                end++;
            }
            written += writeBlock(column, views, buffers, start, end - start, (int) bytes, out);
            start = end;
        }
        return written;
    }

    // ------------------------------------------------------------------------------------------- internals

    private long writeHeader(ViewColumn column, WritableByteChannel out) throws IOException {
        byte[] name = format.typeName().getBytes(StandardCharsets.US_ASCII);
        MemorySegment h = MemorySegment.ofArray(new byte[7 + name.length + Wire.HEADER_TAIL]);
        MemorySegment.copy(ColumnFormat.MAGIC, 0, h, ValueLayout.JAVA_BYTE, 0, 4);
        h.set(Wire.LE_SHORT, 4, (short) format.version());
        h.set(ValueLayout.JAVA_BYTE, 6, (byte) name.length);
        MemorySegment.copy(name, 0, h, ValueLayout.JAVA_BYTE, 7, name.length);
        long at = 7 + name.length;
        h.set(ValueLayout.JAVA_BYTE, at, (byte) (column.kind() == ViewKind.UTF8 ? Wire.KIND_UTF8 : Wire.KIND_BINARY));
        int sizesCodec = format == ColumnFormat.SIZE_PREFIX ? Wire.CODEC_NONE : switch (codec) {
            case NONE -> Wire.CODEC_NONE;
            case LZ4 -> Wire.CODEC_LZ4;
            case LIGHTWEIGHT -> Wire.CODEC_LIGHTWEIGHT;
        };
        h.set(ValueLayout.JAVA_BYTE, at + 1, (byte) sizesCodec);
        h.set(ValueLayout.JAVA_BYTE, at + 2, (byte) (codec == ColumnCodec.NONE ? Wire.CODEC_NONE : Wire.CODEC_LZ4));
        h.set(LE_INT, at + 3, blockRows);
        h.set(LE_LONG, at + 7, column.size());
        h.set(LE_LONG, at + 15, column.nullCount());
        return CharsGather.writeFully(out, h.asByteBuffer());
    }

    private long writeBlock(ViewColumn column, MemorySegment views, MemorySegment[] buffers, int start, int n,
            int bytes, WritableByteChannel out) throws IOException {
        boolean maybeNulls = column.nullCount() > 0;
        int nulls = 0;
        int validityBytes = (n + 7) >>> 3;
        byte[] validity = null;
        if (maybeNulls) {
            validity = new byte[validityBytes];
            for (int i = 0; i < n; i++) {
                if (column.isNull(start + i)) {
                    nulls++;
                } else {
                    validity[i >>> 3] |= (byte) (1 << (i & 7));
                }
            }
        }
        // The value bytes: chars (separated) or varint + bytes (size-prefix), staged in one array at their stream
        // positions, except runs of long values long enough to go to the channel straight from the column's
        // buffer (CharsGather).
        if (sizes.length < n) {
            sizes = new int[Math.max(n, 1024)];
        }
        boolean prefixed = format == ColumnFormat.SIZE_PREFIX;
        MemorySegment staged = MemorySegment.ofArray(gather.reset(bytes, buffers, codec == ColumnCodec.NONE));
        // Long values that lie one after another in the same buffer (a builder's column, a Parquet page's values)
        // are one run: MemorySegment.copy costs tens of nanoseconds a call whatever the length, which was most of a
        // block's time at 64 bytes a value. A run ends at the first long value that does not continue it both in
        // its buffer and in the stream (an inline value, a size-prefix varint, another buffer or offset); closeRun
        // then copies it to its place in the staging array or leaves that place empty and writes it directly.
        long at = 0;
        int runBuffer = -1;
        long runFrom = 0; // in the run's buffer
        long runTo = 0;
        long runAt = 0; // in the stream
        for (int i = 0; i < n; i++) {
            long view = (long) (start + i) * 16;
            long w0 = views.get(LE_LONG, view);
            int length = nulls > 0 && column.isNull(start + i) ? 0 : (int) w0;
            sizes[i] = length;
            if (prefixed) {
                at = putVarint(staged, at, length);
            }
            if (length <= ViewLayout.INLINE_MAX) {
                if (length > 0) {
                    long w1 = views.get(LE_LONG, view + 8);
                    staged.set(LE_LONG, at, (w0 >>> 32) | (w1 << 32));
                    staged.set(LE_INT, at + 8, (int) (w1 >>> 32));
                }
            } else {
                long w1 = views.get(LE_LONG, view + 8);
                int buffer = (int) w1;
                long offset = w1 >>> 32;
                if (buffer != runBuffer || offset != runTo || at != runAt + (runTo - runFrom)) {
                    if (runBuffer >= 0) {
                        gather.closeRun(runBuffer, runFrom, runTo, runAt);
                    }
                    runBuffer = buffer;
                    runFrom = offset;
                    runTo = offset;
                    runAt = at;
                }
                runTo += length;
            }
            at += length;
        }
        if (runBuffer >= 0) {
            gather.closeRun(runBuffer, runFrom, runTo, runAt);
        }
        // Block head: rows, nulls, validity, then the sizes stream (separated) and the chars stream's header.
        int maxSizes = prefixed ? 0 : 5 + Math.max(sizeCodec.maxEncodedLength(n), 4 * n);
        int headLength = 8 + validityBytes + maxSizes + 17;
        if (head.length < headLength) {
            head = new byte[headLength];
        }
        MemorySegment h = MemorySegment.ofArray(head);
        h.set(LE_INT, 0, n);
        h.set(LE_INT, 4, nulls);
        long hp = 8;
        if (nulls > 0) {
            MemorySegment.copy(validity, 0, h, ValueLayout.JAVA_BYTE, hp, validityBytes);
            hp += validityBytes;
        }
        if (!prefixed) {
            MemorySegment stream = h.asSlice(hp + 5);
            long encoded = switch (codec) {
                case NONE -> SizeCodec.RAW | (long) SizeCodec.encodeRaw(sizes, n, stream) << 8;
                case LZ4 -> {
                    MemorySegment raw = scratch(4L * n);
                    SizeCodec.encodeRaw(sizes, n, raw);
                    yield SizeCodec.LZ4 | (long) lz4.compress(raw, stream) << 8;
                }
                case LIGHTWEIGHT -> sizeCodec.encodeLightweight(sizes, n, stream, scratch(4L * n));
            };
            h.set(ValueLayout.JAVA_BYTE, hp, (byte) encoded);
            h.set(LE_INT, hp + 1, (int) (encoded >>> 8));
            hp += 5 + (encoded >>> 8);
        }
        // The chars stream: LZ4 when asked for and smaller, else the bytes as they are.
        if (codec != ColumnCodec.NONE && at > 0) {
            MemorySegment body = staged.asSlice(0, at); // all staged: no direct runs with a codec
            int bound = lz4.maxCompressedLength((int) at);
            if (packed.length < bound) {
                packed = new byte[bound];
            }
            int compressed = lz4.compress(body, MemorySegment.ofArray(packed));
            if (compressed < at) {
                h.set(ValueLayout.JAVA_BYTE, hp, (byte) Wire.CODEC_LZ4);
                h.set(LE_LONG, hp + 1, at);
                h.set(LE_LONG, hp + 9, compressed);
                hp += 17;
                return CharsGather.writeFully(out, ByteBuffer.wrap(head, 0, (int) hp))
                        + CharsGather.writeFully(out, ByteBuffer.wrap(packed, 0, compressed));
            }
        }
        h.set(ValueLayout.JAVA_BYTE, hp, (byte) Wire.CODEC_NONE);
        h.set(LE_LONG, hp + 1, at);
        hp += 9;
        return CharsGather.writeFully(out, ByteBuffer.wrap(head, 0, (int) hp)) + gather.writeTo(out, at);
    }

    private byte[] rawSizes = new byte[0];

    /** Scratch for a block's sizes as raw int32 (the LZ4 input). */
    private MemorySegment scratch(long bytes) {
        if (rawSizes.length < bytes) {
            rawSizes = new byte[(int) bytes];
        }
        return MemorySegment.ofArray(rawSizes).asSlice(0, bytes);
    }

    private static long putVarint(MemorySegment out, long at, int value) {
        int v = value;
        while ((v & ~0x7F) != 0) {
            out.set(ValueLayout.JAVA_BYTE, at++, (byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.set(ValueLayout.JAVA_BYTE, at++, (byte) v);
        return at;
    }

    private static int varintLength(int value) {
        return value < (1 << 7) ? 1 : value < (1 << 14) ? 2 : value < (1 << 21) ? 3 : value < (1 << 28) ? 4 : 5;
    }
}
