package dev.stringview.benchmarks;

import dev.stringview.ByteView;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Where a stream read spends its time next to {@code new byte[n]} + {@code readFully} and the {@code String} peer
 * ({@code readString}): {@link ByteViewBenchmark}'s read rows and the same work taken apart, each row a loop of its
 * own over {@link ByteViewBenchmark.Values}' page through a fresh {@link ByteArrayInputStream} (as the benchmark
 * does, so C2 sees the stream's exact type on every row), rows alternating round by round in one JVM, medians of
 * thread CPU time per value, and the heap bytes each row allocates per value once compiled (the thread's allocation
 * counter, as {@code -prof gc}'s {@code gc.alloc.rate.norm}).
 * <ul>
 *   <li>Lengths 1 to 12 (inline values): the {@code part:} rows build a stand-in object of {@code ByteView}'s shape
 *       (two longs and a reference, 32 bytes) the way {@code ByteView.read} does, leaving out one piece at a time;
 *       the {@code form:} rows are the transfer arrays tried: one per thread-id slot (what {@code ByteView} does),
 *       a fresh array per read, a {@code ThreadLocal}.</li>
 *   <li>Longer values: {@code ByteView.read} into the native slab and its parts without any {@code ByteView} code
 *       (the slicing allocator alone, the stream alone, allocate + stream + copy).</li>
 *   <li>With {@code heap}: {@code ByteView.read} into the heap slab and the two peers only, alone in the JVM as in
 *       a JMH fork.</li>
 * </ul>
 * The stand-ins that share one transfer array between threads are for measuring only. Not run in the build except
 * once, tiny, by a test.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.ByteViewReadParts [rounds] [length] [heap]
 * </pre>
 */
public final class ByteViewReadParts {
    private static final VarHandle LE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final ThreadLocal<byte[]> TRANSFER = ThreadLocal.withInitial(() -> new byte[8192]);
    /** One array for every thread: only for timing what {@link #TRANSFER}'s lookup costs. */
    private static final byte[] SHARED = new byte[8192];

    private ByteViewReadParts() {}

    /** {@code ByteView}'s shape: 12 bytes of header, two longs, one reference. */
    static final class Words {
        final long word0;
        final long word1;
        final Object data;

        Words(long word0, long word1, Object data) {
            this.word0 = word0;
            this.word1 = word1;
            this.data = data;
        }
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        int length = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        boolean heap = args.length > 2 && args[2].equals("heap");
        System.out.println(Demo.machine() + ", commit " + RunContext.commit() + ", length=" + length);
        run(rounds, length, 20_000_000L, heap).forEach((name, ns) ->
                System.out.println(String.format(Locale.ROOT, "%s %8.2f ns", name, ns)));
    }

    /** Median ns per value of every row, in order; each timing repeats its row until {@code budget} values. */
    static Map<String, Double> run(int rounds, int length, long budget) {
        return run(rounds, length, budget, false);
    }

    /**
     * {@link #run(int, int, long)}; with {@code heap}, {@code ByteView.read} into the heap slab
     * ({@code readByteViewHeap}) and the two peers only.
     */
    static Map<String, Double> run(int rounds, int length, long budget, boolean heap) {
        if (length < 1) {
            throw new IllegalArgumentException("lengths of 1 or more only: length=" + length);
        }
        ByteViewBenchmark.Values v = new ByteViewBenchmark.Values();
        v.length = length;
        v.setup();
        try {
            ByteViewBenchmark benchmark = new ByteViewBenchmark();
            Map<String, LongSupplier> parts = new LinkedHashMap<>();
            parts.put("readByteArray (new byte[n] + readFully)", () -> io(() -> benchmark.readByteArray(v)).length);
            parts.put("readString (+ new String(bytes, UTF_8))", () -> io(() -> benchmark.readString(v)).length);
            if (heap) {
                // Alone in its JVM, as in a JMH fork: a read call site that also sees the native allocator is
                // compiled for both.
                parts.put("readByteViewHeap (ByteView.read, heap slab)",
                        () -> io(() -> benchmark.readByteViewHeap(v)).length);
            } else {
                parts.put("readByteView (ByteView.read)", () -> io(() -> benchmark.readByteView(v)).length);
            }
            if (heap) {
                // nothing else: the parts below are those of the native read
            } else if (length > 12) {
                parts.put("part: slicing allocate only", () -> allocateOnly(v));
                parts.put("part: array, stream only", () -> streamOnly(v, false));
                parts.put("part: allocate, stream, copy to target", () -> allocateStreamCopy(v, false));
                parts.put("form: prefix read on its own, then the rest", () -> allocateStreamCopy(v, true));
            } else {
                parts.put("new byte[n] + read loop on the stream", () -> arrayReadLoop(v));
                parts.put("form: thread-id slot array, literal count", () -> literal(v, 0));
                parts.put("form: new byte[count], literal count", () -> literal(v, 1));
                parts.put("form: ThreadLocal array, literal count", () -> literal(v, 2));
                parts.put("part: ThreadLocal array, words, object", () -> standIn(v, true, true));
                parts.put("part: shared array, words, object", () -> standIn(v, false, true));
                parts.put("part: ThreadLocal array, object, no words", () -> standIn(v, true, false));
                parts.put("part: shared array, object, no words", () -> standIn(v, false, false));
                parts.put("part: ThreadLocal array, stream only", () -> streamOnly(v, true));
                parts.put("part: shared array, stream only", () -> streamOnly(v, false));
                parts.put("part: new byte[12], words, object", () -> freshArray(v));
                parts.put("part: ThreadLocal array, readNBytes, shifts", () -> readNBytesShifts(v));
                parts.put("part: ThreadLocal array, constant-length read", () -> constantLength(v));
                parts.put("new byte[n] + readNBytes on the stream", () -> arrayReadNBytes(v));
                if (length == 8 || length == 12) {
                    parts.put("peer: DataInputStream.readLong (+ readInt)", () -> dataInputWords(v));
                }
            }
            int n = ByteViewBenchmark.BATCH;
            Map<String, Double> times = CoreBuilds.medianTimes(parts, rounds, Math.max(1, budget / n), n);
            Map<String, Double> named = new LinkedHashMap<>();
            // Heap bytes per value after the timing rounds (compiled code): what escape analysis left allocated.
            parts.forEach((name, part) -> named.put(String.format(Locale.ROOT, "%-44s %6.1f B", name,
                    allocatedPerValue(part, n)), times.get(name)));
            return named;
        } finally {
            v.tearDown();
        }
    }

    /** Heap bytes this thread allocates per value over 64 calls of {@code part} (each {@code n} values). */
    private static double allocatedPerValue(LongSupplier part, int n) {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long sink = 0;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 64; i++) {
            sink += part.getAsLong();
        }
        long bytes = threads.getCurrentThreadAllocatedBytes() - before;
        return sink == Long.MIN_VALUE ? -1 : bytes / (64.0 * n);
    }

    private static long arrayReadLoop(ByteViewBenchmark.Values v) {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        int length = v.length;
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            byte[] value = new byte[length];
            readFully(in, value, length);
            v.sinkObjects[i] = value;
        }
        return v.sinkObjects.length;
    }

    private static long standIn(ByteViewBenchmark.Values v, boolean threadLocal, boolean words) {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        int length = v.length;
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            byte[] small = threadLocal ? TRANSFER.get() : SHARED;
            readFully(in, small, length);
            v.sinkObjects[i] = words ? inline(small, length) : new Words(length, i, null);
        }
        return v.sinkObjects.length;
    }

    private static final class Owned {
        final Thread owner;
        final byte[] bytes;

        Owned(Thread owner, byte[] bytes) {
            this.owner = owner;
            this.bytes = bytes;
        }
    }

    private static final Owned[] SLOTS = new Owned[64];

    private static byte[] slot() {
        Thread t = Thread.currentThread();
        int i = (int) t.threadId() & 63;
        Owned o = SLOTS[i];
        if (o != null && o.owner == t) {
            return o.bytes;
        }
        o = new Owned(t, new byte[16]);
        SLOTS[i] = o;
        return o.bytes;
    }

    private static long literal(ByteViewBenchmark.Values v, int how) {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        int length = v.length;
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            v.sinkObjects[i] = switch (length) {
                case 8 -> {
                    byte[] small = how == 0 ? slot() : how == 1 ? new byte[8] : TRANSFER.get();
                    readFully(in, small, 8);
                    long low = 0;
                    for (int j = 0; j < 8; j++) {
                        low |= (small[j] & 0xFFL) << (8 * j);
                    }
                    yield new Words(8 | (low << 32), low >>> 32, null);
                }
                case 12 -> {
                    byte[] small = how == 0 ? slot() : how == 1 ? new byte[12] : TRANSFER.get();
                    readFully(in, small, 12);
                    yield inline(small, 12);
                }
                default -> {
                    byte[] small = how == 0 ? slot() : how == 1 ? new byte[12] : TRANSFER.get();
                    readFully(in, small, length);
                    yield inline(small, length);
                }
            };
        }
        return v.sinkObjects.length;
    }

    private static long allocateOnly(ByteViewBenchmark.Values v) {
        SegmentAllocator allocator = SegmentAllocator.slicingAllocator(v.readMemory);
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            v.sinkObjects[i] = allocator.allocate(v.length, 1);
        }
        return v.sinkObjects.length;
    }

    /**
     * A long value's read into native memory without the view: allocate, stream into the shared array, copy to the
     * target, take the prefix ({@code prefixFirst}: the first 4 bytes in a read of their own, built from bytes).
     */
    private static long allocateStreamCopy(ByteViewBenchmark.Values v, boolean prefixFirst) {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        SegmentAllocator allocator = SegmentAllocator.slicingAllocator(v.readMemory);
        int length = v.length;
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            MemorySegment target = allocator.allocate(length, 1);
            int prefix;
            if (prefixFirst) {
                readFully(in, SHARED, 4);
                prefix = (SHARED[0] & 0xFF) | (SHARED[1] & 0xFF) << 8 | (SHARED[2] & 0xFF) << 16 | SHARED[3] << 24;
                readFully(in, SHARED, 4, length - 4);
                MemorySegment.copy(SHARED, 0, target, ValueLayout.JAVA_BYTE, 0, length);
            } else {
                readFully(in, SHARED, length);
                prefix = (int) LE_INT.get(SHARED, 0);
                MemorySegment.copy(SHARED, 0, target, ValueLayout.JAVA_BYTE, 0, length);
            }
            v.sinkObjects[i] = new Words(length | (long) prefix << 32, 0, target);
        }
        return v.sinkObjects.length;
    }

    private static long streamOnly(ByteViewBenchmark.Values v, boolean threadLocal) {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        int length = v.length;
        long sum = 0;
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            byte[] small = threadLocal ? TRANSFER.get() : SHARED;
            readFully(in, small, length);
            sum += small.length;
        }
        return sum;
    }

    private static long readNBytesShifts(ByteViewBenchmark.Values v) {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        int length = v.length;
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            byte[] small = TRANSFER.get();
            if (in.readNBytes(small, 0, length) != length) {
                throw new IllegalStateException("stream ended: length=" + length);
            }
            // Masks by shifts instead of table loads: bits past the value's last byte cleared.
            long lo = (long) LE_LONG.get(small, 0);
            long hi = (int) LE_INT.get(small, 8) & 0xFFFF_FFFFL;
            int drop = 8 * (12 - length); // 0..88 bits of the 96 read
            lo = drop >= 32 ? lo & (-1L >>> Math.min(drop - 32, 63)) & (drop - 32 >= 64 ? 0 : -1L) : lo;
            hi = drop < 32 ? hi & (0xFFFF_FFFFL >>> drop) : 0;
            v.sinkObjects[i] = new Words((length & 0xFFFF_FFFFL) | (lo << 32), (lo >>> 32) | (hi << 32), null);
        }
        return v.sinkObjects.length;
    }

    private static long constantLength(ByteViewBenchmark.Values v) {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        int length = v.length;
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            byte[] small = TRANSFER.get();
            switch (length) {
                case 8 -> readFully(in, small, 8);
                case 12 -> readFully(in, small, 12);
                default -> readFully(in, small, length);
            }
            v.sinkObjects[i] = inline(small, length);
        }
        return v.sinkObjects.length;
    }

    private static long arrayReadNBytes(ByteViewBenchmark.Values v) {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        int length = v.length;
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            byte[] value = new byte[length];
            if (in.readNBytes(value, 0, length) != length) {
                throw new IllegalStateException("stream ended: length=" + length);
            }
            v.sinkObjects[i] = value;
        }
        return v.sinkObjects.length;
    }

    /** The JDK's own read of 8 (12) bytes that are then used: {@code readLong} (and {@code readInt}). */
    private static long dataInputWords(ByteViewBenchmark.Values v) {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(v.page));
        boolean twelve = v.length == 12;
        try {
            for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
                long lo = in.readLong();
                long hi = twelve ? in.readInt() : 0;
                v.sinkObjects[i] = new Words(lo, hi, null);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return v.sinkObjects.length;
    }

    private static long freshArray(ByteViewBenchmark.Values v) {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        int length = v.length;
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            byte[] small = new byte[12];
            readFully(in, small, length);
            v.sinkObjects[i] = inline(small, length);
        }
        return v.sinkObjects.length;
    }

    /** The two view words of {@code length} (1..12) bytes at the start of {@code array} (at least 12 long). */
    private static Words inline(byte[] array, int length) {
        long lo = (long) LE_LONG.get(array, 0) & (length >= 8 ? -1L : (1L << (8 * length)) - 1);
        long hi = ((int) LE_INT.get(array, 8) & 0xFFFF_FFFFL) & (length <= 8 ? 0 : (1L << (8 * (length - 8))) - 1);
        return new Words((length & 0xFFFF_FFFFL) | (lo << 32), (lo >>> 32) | (hi << 32), null);
    }

    private static void readFully(InputStream in, byte[] array, int count) {
        readFully(in, array, 0, count);
    }

    private static void readFully(InputStream in, byte[] array, int offset, int count) {
        try {
            int done = 0;
            while (done < count) {
                int n = in.read(array, offset + done, count - done);
                if (n < 0) {
                    throw new EOFException("stream ended: count=" + count + " read=" + done);
                }
                done += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Object[] io(ByteViewSideBySide.Task.IoCall call) {
        return ByteViewSideBySide.Task.io(call);
    }
}
