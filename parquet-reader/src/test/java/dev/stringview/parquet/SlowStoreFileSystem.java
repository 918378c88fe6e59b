package dev.stringview.parquet;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * A Hadoop file system that behaves like an object store in front of the local disk: scheme {@code slowstore:},
 * every request (a read that does not continue where the stream's last read ended, as an object store's GET
 * does not) waits {@code slowstore.latency.ms} (default 0) before its first byte and then streams at
 * {@code slowstore.bytes.per.second} (default unlimited), and every request is counted. Register it with
 * {@code fs.slowstore.impl} = this class. Used where no S3-compatible server can run inside the build
 * (docs/parquet.md, "File systems tested").
 */
public final class SlowStoreFileSystem extends FilterFileSystem {
    /** Read requests (positioned reads, or a seek followed by reads) since the JVM started. */
    public static final AtomicLong REQUESTS = new AtomicLong();
    public static final AtomicLong BYTES = new AtomicLong();

    private long latencyMs;
    private long bytesPerSecond;

    public SlowStoreFileSystem() {
        super(new RawLocalFileSystem());
    }

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(URI.create("file:///"), conf);
        latencyMs = conf.getLong("slowstore.latency.ms", 0);
        bytesPerSecond = conf.getLong("slowstore.bytes.per.second", 0);
    }

    @Override
    public String getScheme() {
        return "slowstore";
    }

    @Override
    public URI getUri() {
        return URI.create("slowstore:///");
    }

    @Override
    public Path makeQualified(Path path) {
        return new Path("slowstore", null, path.toUri().getPath());
    }

    @Override
    protected void checkPath(Path path) {}

    @Override
    public org.apache.hadoop.fs.FileStatus getFileStatus(Path f) throws IOException {
        org.apache.hadoop.fs.FileStatus s = fs.getFileStatus(local(f));
        s.setPath(f);
        return s;
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        FSDataInputStream in = fs.open(local(f), bufferSize);
        return new FSDataInputStream(new FSInputStream() {
            private long position;
            private long lastEnd = -1;

            @Override
            public void seek(long pos) {
                position = pos;
            }

            @Override
            public long getPos() {
                return position;
            }

            @Override
            public boolean seekToNewSource(long targetPos) {
                return false;
            }

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = read(position, b, off, len);
                if (n > 0) {
                    position += n;
                }
                return n;
            }

            @Override
            public int read(long pos, byte[] b, int off, int len) throws IOException {
                request(pos, len);
                int n = in.read(pos, b, off, len);
                lastEnd = pos + Math.max(0, n);
                return n;
            }

            @Override
            public void readFully(long pos, byte[] b, int off, int len) throws IOException {
                request(pos, len);
                in.readFully(pos, b, off, len);
                lastEnd = pos + len;
            }

            private synchronized void request(long pos, long bytes) throws IOException {
                SlowStoreFileSystem.this.request(pos != lastEnd, bytes);
            }

            @Override
            public void close() throws IOException {
                in.close();
            }
        });
    }

    private void request(boolean newRequest, long bytes) throws IOException {
        if (newRequest) {
            REQUESTS.incrementAndGet();
        }
        BYTES.addAndGet(bytes);
        long waitMs = (newRequest ? latencyMs : 0) + (bytesPerSecond > 0 ? bytes * 1000 / bytesPerSecond : 0);
        if (waitMs > 0) {
            try {
                Thread.sleep(waitMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("read interrupted");
            }
        }
    }

    private static Path local(Path f) {
        return new Path("file", null, f.toUri().getPath());
    }
}
