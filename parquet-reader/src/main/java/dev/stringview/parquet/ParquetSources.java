package dev.stringview.parquet;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The {@link ParquetSource}s this library provides: a memory-mapped local file (what {@link ParquetViewReader#open(
 * Path, Arena)} uses), any {@link SeekableByteChannel}, a parquet-java {@link InputFile}, a Hadoop
 * {@code FileSystem} path ({@code hdfs:}, {@code s3a:}, {@code gs:}, {@code abfs:}, {@code viewfs:} ... whatever the
 * caller's {@link Configuration} serves), and bytes already in memory.
 *
 * <p><b>Memory.</b> {@link #map} maps the file into the caller's arena: the mapping lives until the caller closes
 * that arena, not the source. {@link #memory} wraps the caller's segment. The other sources allocate no off-heap
 * memory: they read into the reader's segments and hold a channel or stream, which {@link ParquetSource#close}
 * closes.
 */
public final class ParquetSources {
    /** The largest piece one {@link ByteBuffer} can hold; longer reads go piece by piece. */
    private static final int MAX_PIECE = 1 << 30;

    private ParquetSources() {}

    /**
     * {@code path} memory-mapped into {@code arena}: the mapping lives until the caller closes the arena, and views
     * point straight into it. {@link ParquetSource#close()} does nothing.
     */
    public static ParquetSource map(Path path, Arena arena) throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(arena, "arena");
        String name = nameOf(path.getFileName() == null ? path.toString() : path.getFileName().toString());
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            return memory(channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena), name);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(path.toString(), null, "no such file: file=" + name);
        }
    }

    /**
     * The local files a path names, as Spark's and Hive's readers list a table: the file itself, or the regular
     * files under a directory, recursively, leaving out every file with a name, or under a directory with a name,
     * starting with '_' or '.' ({@code _SUCCESS}, {@code _temporary/}, {@code .crc}, {@code .hidden/}), sorted by
     * path. Names are not checked for a {@code .parquet} suffix (Hive's files have none). A directory without
     * such files gives an empty list.
     *
     * @throws java.nio.file.NoSuchFileException if {@code path} is neither a file nor a directory
     */
    public static List<Path> files(Path path) throws IOException {
        Objects.requireNonNull(path, "path");
        if (Files.isRegularFile(path)) {
            return List.of(path);
        }
        if (!Files.isDirectory(path)) {
            throw new NoSuchFileException(path.toString(), null, "neither a file nor a directory: path=" + path);
        }
        try (Stream<Path> walk = Files.walk(path)) {
            return walk.filter(Files::isRegularFile).filter(p -> !hidden(path.relativize(p))).sorted().toList();
        }
    }

    private static boolean hidden(Path relative) {
        for (Path part : relative) {
            String name = part.toString();
            if (name.startsWith("_") || name.startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    /** A file's bytes already in memory ({@code bytes} stays the caller's: it must outlive every reader's batches). */
    public static ParquetSource memory(MemorySegment bytes, String name) {
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(name, "name");
        return new ParquetSource() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public long length() {
                return bytes.byteSize();
            }

            @Override
            public void read(long position, MemorySegment destination) throws IOException {
                checkRange(name, position, destination.byteSize(), bytes.byteSize());
                MemorySegment.copy(bytes, position, destination, 0, destination.byteSize());
            }

            @Override
            public MemorySegment inMemory() {
                return bytes;
            }

            @Override
            public void close() {}
        };
    }

    /**
     * Positioned reads from {@code channel}; closing the source closes the channel. A {@link FileChannel} is read
     * with positional reads, concurrently; any other channel under a lock (position, then read).
     */
    public static ParquetSource channel(SeekableByteChannel channel, String name) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(name, "name");
        return new ParquetSource() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public long length() throws IOException {
                return channel.size();
            }

            @Override
            public void read(long position, MemorySegment destination) throws IOException {
                long size = destination.byteSize();
                checkRange(name, position, size, Long.MAX_VALUE);
                inPieces(destination, (done, piece) -> {
                    if (channel instanceof FileChannel file) {
                        while (piece.hasRemaining()) {
                            if (file.read(piece, position + done + piece.position()) < 0) {
                                throw eof(name, position, size, position + done + piece.position());
                            }
                        }
                        return;
                    }
                    synchronized (channel) {
                        channel.position(position + done);
                        while (piece.hasRemaining()) {
                            if (channel.read(piece) < 0) {
                                throw eof(name, position, size, position + done + piece.position());
                            }
                        }
                    }
                });
            }

            @Override
            public void close() throws IOException {
                channel.close();
            }
        };
    }

    /**
     * Reads through a parquet-java {@link InputFile} (an engine's own file abstraction, Hadoop's
     * {@code HadoopInputFile}, ...): one stream, opened now, used under a lock. Closing the source closes the stream.
     */
    public static ParquetSource inputFile(InputFile file, String name) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(name, "name");
        long length = file.getLength();
        SeekableInputStream stream = file.newStream();
        return new ParquetSource() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public long length() {
                return length;
            }

            @Override
            public void read(long position, MemorySegment destination) throws IOException {
                long size = destination.byteSize();
                checkRange(name, position, size, length);
                synchronized (stream) {
                    stream.seek(position);
                    inPieces(destination, (done, piece) -> stream.readFully(piece));
                }
            }

            @Override
            public void close() throws IOException {
                stream.close();
            }
        };
    }

    /**
     * {@code path} through Hadoop's {@link FileSystem} for {@code conf}: any scheme it serves ({@code hdfs:},
     * {@code s3a:}, {@code gs:}, {@code abfs:}, {@code viewfs:}, {@code file:} ...). Needs the Hadoop client classes
     * at run time ({@code hadoop-client-api} and {@code hadoop-client-runtime}, or an engine's Hadoop). Reads are
     * positioned reads straight into the destination where the stream supports them ({@code in:preadbytebuffer},
     * as HDFS does); else a seek and sequential reads through a 1 MiB heap buffer, under a lock. Closing the source closes the stream, not the file system
     * (Hadoop caches and shares it).
     */
    public static ParquetSource hadoop(org.apache.hadoop.fs.Path path, Configuration conf) throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(conf, "conf");
        FileSystem fs = path.getFileSystem(conf);
        FileStatus status;
        try {
            status = fs.getFileStatus(path);
        } catch (java.io.FileNotFoundException e) {
            throw new NoSuchFileException(null, null, "no such file: file=" + path);
        }
        return hadoop(fs.open(path), status.getLen(), nameOf(path.getName()));
    }

    /** An open Hadoop stream of a file of {@code length} bytes (an engine's own); closing the source closes it. */
    public static ParquetSource hadoop(FSDataInputStream in, long length, String name) {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(name, "name");
        boolean direct = in.hasCapability(StreamCapabilities.PREADBYTEBUFFER);
        return new ParquetSource() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public long length() {
                return length;
            }

            @Override
            public void read(long position, MemorySegment destination) throws IOException {
                long size = destination.byteSize();
                checkRange(name, position, size, length);
                if (direct) {
                    inPieces(destination, (done, piece) -> in.readFully(position + done, piece));
                    return;
                }
                // One seek, then sequential reads: an object store's stream serves them from one request.
                byte[] buffer = new byte[(int) Math.min(size, 1 << 20)];
                synchronized (in) {
                    in.seek(position);
                    for (long done = 0; done < size; ) {
                        int n = (int) Math.min(buffer.length, size - done);
                        in.readFully(buffer, 0, n);
                        MemorySegment.copy(MemorySegment.ofArray(buffer), 0, destination, done, n);
                        done += n;
                    }
                }
            }

            @Override
            public void close() throws IOException {
                in.close();
            }
        };
    }

    /** Reads one piece of a destination: the piece at {@code done} bytes into it, as a buffer to fill whole. */
    @FunctionalInterface
    private interface PieceRead {
        void read(long done, ByteBuffer piece) throws IOException;
    }

    /** Hands {@code destination} to {@code read} in pieces a {@link ByteBuffer} can hold, in order. */
    private static void inPieces(MemorySegment destination, PieceRead read) throws IOException {
        long size = destination.byteSize();
        for (long done = 0; done < size; ) {
            ByteBuffer piece = destination.asSlice(done, Math.min(MAX_PIECE, size - done)).asByteBuffer();
            read.read(done, piece);
            done += piece.capacity();
        }
    }

    private static String nameOf(String name) {
        return name.isEmpty() ? "(unnamed)" : name;
    }

    private static void checkRange(String name, long position, long size, long length) throws IOException {
        if (position < 0 || size < 0 || position > length - size) {
            throw new EOFException("read outside the file: file=" + name + " offset=" + position + " length=" + size
                    + " fileSize=" + length);
        }
    }

    private static EOFException eof(String name, long position, long size, long at) {
        return new EOFException("file ended inside a read: file=" + name + " offset=" + position + " length=" + size
                + " endedAt=" + at);
    }
}
