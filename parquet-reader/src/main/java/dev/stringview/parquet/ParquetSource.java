package dev.stringview.parquet;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The bytes of one Parquet file, read by position: a local file, a channel, a Hadoop {@code FileSystem} path, an
 * object store, or anything else an engine can read ranges of. {@link ParquetSources} makes the common ones.
 *
 * <p>A reader asks for few, large ranges: one read at the end of the file for the footer, then, per row group, the
 * projected column chunks with small gaps between them merged into one range (docs/parquet.md, "The I/O plan").
 * Bytes land in segments the reader allocates from its own memory, and views then point into them: a value's
 * bytes cross from the source once and are never copied one by one. An implementation writes into each
 * {@code destination} only during the call, on the calling thread (the segment may belong to an arena confined to
 * it), and keeps no reference to it; the segment of {@link #inMemory} stays the source maker's and must outlive
 * every reader's batches.
 *
 * <p>Implementations must allow concurrent calls of {@link #read} from several threads (a scan reads row groups
 * in parallel, and the next row group is fetched while the current one is decoded). The source belongs to whoever
 * opened it: readers and scans never close a source they were given.
 */
public interface ParquetSource extends AutoCloseable {

    /** One positioned read: {@code destination.byteSize()} bytes starting at {@code position} of the file. */
    record Read(long position, MemorySegment destination) {}

    /** A short name for messages: the file name, or the last part of a URI. */
    String name();

    /** The file's length in bytes. */
    long length() throws IOException;

    /**
     * Reads exactly {@code destination.byteSize()} bytes starting at {@code position} into {@code destination}.
     *
     * @throws java.io.EOFException if the file ends first
     */
    void read(long position, MemorySegment destination) throws IOException;

    /**
     * Reads several ranges, in any order and possibly in parallel (Hadoop's {@code readVectored}), though each
     * destination is written on the calling thread (see the class comment). The default reads them one after another.
     */
    default void readAll(List<Read> reads) throws IOException {
        for (Read r : reads) {
            read(r.position(), r.destination());
        }
    }

    /**
     * The whole file as one segment, if this source already holds it in memory (a memory-mapped file), else null.
     * A reader then points views straight into it and never calls {@link #read}.
     */
    default MemorySegment inMemory() {
        return null;
    }

    /** Releases what the source holds (a channel, a stream). Memory the source handed out stays valid. */
    @Override
    void close() throws IOException;
}
