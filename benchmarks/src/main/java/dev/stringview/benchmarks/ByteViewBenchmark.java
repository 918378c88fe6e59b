package dev.stringview.benchmarks;

import dev.stringview.ByteView;
import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link ByteView} as a key type (seed 004), against {@code String}, {@code byte[]} and heap {@code ByteBuffer}
 * slices. Scores are ns per value; run with {@code -prof gc} and {@code gc.alloc.rate.norm} is the heap bytes
 * allocated per value, which for the {@code heap*} methods is the heap each kept value costs (nothing else is
 * allocated in them). Off-heap bytes (a long ByteView's bytes in its arena) are not in that figure.
 *
 * <ul>
 *   <li>{@code heap*}: make {@link #BATCH} values of {@code length} bytes. {@code heapByteView} takes them from a
 *       column ({@code column.view(row)}: bytes stay in the column's buffer), {@code heapByteViewCopy} copies a
 *       {@code byte[]} ({@code ByteView.copyOf}), the others build the JDK types from the same bytes.</li>
 *   <li>{@code read*}: read {@link #BATCH} values of {@code length} bytes from a stream: {@code ByteView.read} into
 *       a slicing allocator over native memory ({@code readByteView}) or over one heap {@code byte[]}
 *       ({@code readByteViewHeap}; the view keeps the array, no segment object per value), both allocated once per
 *       trial and reused, against {@code new byte[n]} + {@code readFully} per value (byteview: 16.7 vs 37 ns at
 *       36 B) and against that plus {@code new String(bytes, UTF_8)} ({@code readString}, the peer).</li>
 *   <li>{@code lookup*}: {@link #BATCH} {@code HashMap.get} of URL-like keys. The probes are the same kind on both
 *       sides: new heap objects equal to a key, whose hash is known after the first lookup ({@code String} caches
 *       it, {@code ByteView.copyOf} computes it at construction). {@code lookupByteView} looks them up in a map
 *       keyed by column views (bytes in native memory), {@code lookupByteViewCopies} in a map keyed by heap
 *       copies ({@code ByteView.copyOf(String)}, each made right after its {@code String}); {@code lookupBytes}
 *       is the {@code byte[]}-wrapper peer ({@code Arrays.equals}, its {@code Arrays.hashCode} kept).</li>
 *   <li>{@code sort*}: sort {@code rows} URL-like keys (a copy of the array each time, in both):
 *       {@code sortByteView} sorts column views (bytes in the column's native buffers),
 *       {@code sortByteViewCopies} the heap copies of the lookup keys, both with {@link ByteView#comparator()};
 *       {@code sortByteViewRadix} and {@code sortByteViewCopiesRadix} sort the same arrays with
 *       {@link ByteView#sort(ByteView[])}.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {Jvm.XMX})
public class ByteViewBenchmark {
    static final int BATCH = 1024;

    /** Values of one length, as bytes, in a column and as one stream. */
    @State(Scope.Benchmark)
    public static class Values {
        @Param({"0", "8", "12", "16", "36", "128"})
        public int length;

        Arena arena;
        byte[][] bytes;
        byte[] page;
        ViewColumn column;
        MemorySegment readMemory;
        MemorySegment readHeapMemory;
        final Object[] sinkObjects = new Object[BATCH];

        @Setup(Level.Trial)
        public void setup() {
            arena = Arena.ofShared();
            Random random = new Random(0x5EED_0004L + length);
            bytes = new byte[BATCH][];
            page = new byte[BATCH * length];
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8);
            for (int i = 0; i < BATCH; i++) {
                byte[] value = new byte[length];
                for (int j = 0; j < length; j++) {
                    value[j] = (byte) ('a' + random.nextInt(26));
                }
                bytes[i] = value;
                System.arraycopy(value, 0, page, i * length, length);
                builder.append(value);
            }
            column = builder.build();
            readMemory = arena.allocate((long) BATCH * (length + 16) + 64, 16);
            readHeapMemory = MemorySegment.ofArray(new byte[BATCH * (length + 16) + 64]);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    /** URL-like keys: a few hosts, paths and query strings, 30 to 90 bytes. */
    @State(Scope.Benchmark)
    public static class Keys {
        @Param("1000000")
        public int rows;

        Arena arena;
        String[] strings;
        ByteView[] views;
        ByteView[] copies;
        Map<String, Integer> stringMap;
        Map<ByteView, Integer> viewMap;
        Map<ByteView, Integer> copyMap;
        Map<BytesKey, Integer> bytesMap;
        String[] stringProbes;
        ByteView[] viewProbes;
        BytesKey[] bytesProbes;

        @Setup(Level.Trial)
        public void setup() {
            arena = Arena.ofShared();
            Random random = new Random(0x5EED_0004L);
            String[] hosts = {"https://www.example.com/", "https://shop.example.org/", "http://news.site.net/",
                "https://www.google.com/search?q="};
            strings = new String[rows];
            copies = new ByteView[rows];
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8).withExpectedRows(rows);
            for (int i = 0; i < rows; i++) {
                strings[i] = hosts[random.nextInt(hosts.length)] + "item/" + random.nextInt(rows) + "/"
                        + "abcdefghijklmnopqrstuvwxyz".substring(random.nextInt(26)) + random.nextInt(1000);
                // Each key's copy right after its String: both are an object next to its own array, made in
                // one pass, so neither side gets a better heap layout than the other.
                copies[i] = ByteView.copyOf(strings[i]);
                builder.append(strings[i]);
            }
            ViewColumn column = builder.build();
            views = new ByteView[rows];
            for (int i = 0; i < rows; i++) {
                views[i] = column.view(i);
            }
            int mapped = Math.min(rows, 100_000);
            stringMap = new HashMap<>();
            viewMap = new HashMap<>();
            copyMap = new HashMap<>();
            bytesMap = new HashMap<>();
            for (int i = 0; i < mapped; i++) {
                stringMap.put(strings[i], i);
                viewMap.put(views[i], i);
                copyMap.put(copies[i], i);
                bytesMap.put(new BytesKey(strings[i].getBytes(StandardCharsets.UTF_8)), i);
            }
            stringProbes = new String[BATCH];
            viewProbes = new ByteView[BATCH];
            bytesProbes = new BytesKey[BATCH];
            for (int i = 0; i < BATCH; i++) {
                int key = random.nextInt(mapped);
                byte[] utf8 = strings[key].getBytes(StandardCharsets.UTF_8);
                // Probes of one kind on both sides: a new heap object equal to a key, its hash known after the
                // first lookup (String caches it; a copy computes it at construction).
                stringProbes[i] = new String(utf8, StandardCharsets.UTF_8);
                viewProbes[i] = ByteView.copyOf(utf8);
                bytesProbes[i] = new BytesKey(utf8.clone());
            }
            // A full collection slides every survivor into allocation order, where each key's String and its
            // copy were made side by side and the three maps' nodes were put side by side: both sides get the
            // same layout, whichever young collections happened to run during setup (with the same code, the
            // copies/String lookup ratio moved from 1.83 to 1.50 between -Xmx6g and -Xmx8g without it).
            System.gc();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    // ---------------------------------------------------------------------------------- heap per value

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object[] heapByteView(Values v) {
        for (int i = 0; i < BATCH; i++) {
            v.sinkObjects[i] = v.column.view(i);
        }
        return v.sinkObjects;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object[] heapByteViewCopy(Values v) {
        for (int i = 0; i < BATCH; i++) {
            v.sinkObjects[i] = ByteView.copyOf(v.bytes[i]);
        }
        return v.sinkObjects;
    }

    /** Baseline: the JVM's usual key type. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object[] heapString(Values v) {
        for (int i = 0; i < BATCH; i++) {
            v.sinkObjects[i] = new String(v.bytes[i], StandardCharsets.ISO_8859_1);
        }
        return v.sinkObjects;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object[] heapBytes(Values v) {
        for (int i = 0; i < BATCH; i++) {
            v.sinkObjects[i] = v.bytes[i].clone();
        }
        return v.sinkObjects;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object[] heapByteBufferSlice(Values v) {
        ByteBuffer whole = ByteBuffer.wrap(v.page);
        for (int i = 0; i < BATCH; i++) {
            v.sinkObjects[i] = whole.slice(i * v.length, v.length);
        }
        return v.sinkObjects;
    }

    // --------------------------------------------------------------------------------- from a stream

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object[] readByteView(Values v) throws IOException {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        SegmentAllocator allocator = SegmentAllocator.slicingAllocator(v.readMemory);
        for (int i = 0; i < BATCH; i++) {
            v.sinkObjects[i] = ByteView.read(in, v.length, allocator);
        }
        return v.sinkObjects;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object[] readByteViewHeap(Values v) throws IOException {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        SegmentAllocator allocator = SegmentAllocator.slicingAllocator(v.readHeapMemory);
        for (int i = 0; i < BATCH; i++) {
            v.sinkObjects[i] = ByteView.read(in, v.length, allocator);
        }
        return v.sinkObjects;
    }

    /**
     * Baseline: {@code new byte[n]} and a {@code readFully} loop, on the same stream as the {@code ByteView} rows (a
     * {@code ByteArrayInputStream} read directly, a loop of {@code read(array, offset, count)} calls until the value
     * is complete, as {@code ByteView.read} and {@code DataInputStream.readFully} do), so both sides make the same
     * calls on the same stream class.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object[] readByteArray(Values v) throws IOException {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        for (int i = 0; i < BATCH; i++) {
            byte[] value = new byte[v.length];
            readFully(in, value);
            v.sinkObjects[i] = value;
        }
        return v.sinkObjects;
    }

    /**
     * Peer: a {@code String} key from a stream, the way an engine gets one: {@code new byte[n]}, the same
     * {@code readFully} loop, then {@code new String(bytes, UTF_8)} (which validates and copies the bytes).
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object[] readString(Values v) throws IOException {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        for (int i = 0; i < BATCH; i++) {
            byte[] value = new byte[v.length];
            readFully(in, value);
            v.sinkObjects[i] = new String(value, StandardCharsets.UTF_8);
        }
        return v.sinkObjects;
    }

    /** {@code DataInputStream.readFully}'s loop, on the stream itself. */
    private static void readFully(InputStream in, byte[] value) throws IOException {
        int done = 0;
        while (done < value.length) {
            int n = in.read(value, done, value.length - done);
            if (n < 0) {
                throw new EOFException("stream ended inside a value: length=" + value.length + " read=" + done);
            }
            done += n;
        }
    }

    // ------------------------------------------------------------------------------ lookups and sorting

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long lookupByteView(Keys k) {
        long sum = 0;
        for (ByteView probe : k.viewProbes) {
            sum += k.viewMap.get(probe);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long lookupByteViewCopies(Keys k) {
        long sum = 0;
        for (ByteView probe : k.viewProbes) {
            sum += k.copyMap.get(probe);
        }
        return sum;
    }

    /** Baseline: {@code HashMap<String, V>} (String caches its hash after the first lookup). */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long lookupString(Keys k) {
        long sum = 0;
        for (String probe : k.stringProbes) {
            sum += k.stringMap.get(probe);
        }
        return sum;
    }

    /**
     * Peer: {@code HashMap} keyed by a {@code byte[]} wrapper, the usual engine key for raw bytes
     * ({@code Arrays.equals}, and {@code Arrays.hashCode} computed once at construction, as {@code ByteView.copyOf}
     * does).
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long lookupBytes(Keys k) {
        long sum = 0;
        for (BytesKey probe : k.bytesProbes) {
            sum += k.bytesMap.get(probe);
        }
        return sum;
    }

    /** A {@code byte[]} as a map key: its bytes decide equality, its hash is computed once. */
    static final class BytesKey {
        final byte[] bytes;
        final int hash;

        BytesKey(byte[] bytes) {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof BytesKey that && Arrays.equals(bytes, that.bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    @Benchmark
    public ByteView[] sortByteView(Keys k) {
        ByteView[] copy = k.views.clone();
        Arrays.sort(copy, ByteView.comparator());
        return copy;
    }

    @Benchmark
    public ByteView[] sortByteViewCopies(Keys k) {
        ByteView[] copy = k.copies.clone();
        Arrays.sort(copy, ByteView.comparator());
        return copy;
    }

    /** {@link ByteView#sort} (a normalized-key radix sort, no comparator) of the column views. */
    @Benchmark
    public ByteView[] sortByteViewRadix(Keys k) {
        ByteView[] copy = k.views.clone();
        ByteView.sort(copy);
        return copy;
    }

    /** {@link ByteView#sort} of the heap copies. */
    @Benchmark
    public ByteView[] sortByteViewCopiesRadix(Keys k) {
        ByteView[] copy = k.copies.clone();
        ByteView.sort(copy);
        return copy;
    }

    /** Baseline: {@code Arrays.sort(String[])}. */
    @Benchmark
    public String[] sortString(Keys k) {
        String[] copy = k.strings.clone();
        Arrays.sort(copy);
        return copy;
    }
}
