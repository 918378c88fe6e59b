package dev.stringview.benchmarks;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKernels;
import dev.stringview.ViewKind;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Suite 1, sorting: the row order of 1M values, ms per sort. {@link #views} is {@link ViewKernels#argsort} over
 * views into one contiguous heap; the baseline {@link #javaString} sorts a copy of the same values as a
 * {@code String[]} (Latin-1, so {@code compareTo} is the bytes' unsigned order); {@link #javaBytes} sorts a copy
 * of the {@code byte[][]} with {@link Arrays#compareUnsigned}; {@link #pointerLength} merge-sorts row ids over
 * {offset, length} pairs into the same heap, comparing big-endian words then bytes, as a C engine's memcmp would.
 *
 * <p>Data ({@code data}): {@code url}, URL-like values that all start with "http" (most with "https://www.") and
 * then a site, a path and a query, 25-90 bytes; {@code 8} and {@code 25}, Suite 1's values (20 distinct 4-byte
 * prefixes, then random symbols). Seeded: every run sorts the same values.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {Jvm.XMX, Jvm.NATIVE_ACCESS, Jvm.VECTOR})
public class ArgsortBenchmark {
    static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    @Param({"url", "8", "25"})
    public String data;

    /** Keep at 1M for comparable figures; smaller values are for the smoke test only. */
    @Param("1000000")
    public int rows;

    Arena arena;
    MemorySegment heap;
    int[] offsets;
    int[] lengths;
    ViewColumn views;
    String[] strings;
    byte[][] bytes;

    @Setup
    public void setup() {
        byte[][] values = values(data, rows);
        arena = Arena.ofShared();
        long total = 0;
        for (byte[] v : values) {
            total += v.length;
        }
        heap = arena.allocate(Math.max(1, total), 64);
        offsets = new int[rows];
        lengths = new int[rows];
        ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8).withUtf8Validation(false)
                .withExpectedRows(rows);
        int buffer = builder.adoptBuffer(heap);
        int at = 0;
        for (int row = 0; row < rows; row++) {
            MemorySegment.copy(values[row], 0, heap, ValueLayout.JAVA_BYTE, at, values[row].length);
            offsets[row] = at;
            lengths[row] = values[row].length;
            builder.appendView(buffer, at, values[row].length);
            at += values[row].length;
        }
        views = builder.build();
        bytes = values;
        strings = new String[rows];
        for (int row = 0; row < rows; row++) {
            strings[row] = new String(values[row], StandardCharsets.ISO_8859_1);
        }
    }

    @TearDown
    public void tearDown() {
        strings = null;
        bytes = null;
        arena.close();
    }

    /** This library: {@link ViewKernels#argsort}. */
    @Benchmark
    public int[] views() {
        return ViewKernels.argsort(views);
    }

    /** This library's top-k: {@link ViewKernels#argsortTopK} with k = 100, the first rows of {@link #views}. */
    @Benchmark
    public int[] viewsTop100() {
        return ViewKernels.argsortTopK(views, 100);
    }

    /** Baseline: {@code Arrays.sort} of a copy of the {@code String[]} (TimSort, {@code String.compareTo}). */
    @Benchmark
    public String[] javaString() {
        String[] copy = strings.clone();
        Arrays.sort(copy);
        return copy;
    }

    /** {@code Arrays.sort} of a copy of the {@code byte[][]} with {@link Arrays#compareUnsigned}. */
    @Benchmark
    public byte[][] javaBytes() {
        byte[][] copy = bytes.clone();
        Arrays.sort(copy, Arrays::compareUnsigned);
        return copy;
    }

    /** Stable merge sort of row ids over {offset, length} pairs into the heap. */
    @Benchmark
    public int[] pointerLength() {
        int[] order = new int[rows];
        for (int i = 0; i < rows; i++) {
            order[i] = i;
        }
        mergeSort(order, new int[rows], 0, rows);
        return order;
    }

    private void mergeSort(int[] rows, int[] scratch, int from, int to) {
        if (to - from <= 16) {
            for (int i = from + 1; i < to; i++) {
                int row = rows[i];
                int j = i - 1;
                while (j >= from && compare(rows[j], row) > 0) {
                    rows[j + 1] = rows[j];
                    j--;
                }
                rows[j + 1] = row;
            }
            return;
        }
        int middle = (from + to) >>> 1;
        mergeSort(rows, scratch, from, middle);
        mergeSort(rows, scratch, middle, to);
        if (compare(rows[middle - 1], rows[middle]) <= 0) {
            return;
        }
        System.arraycopy(rows, from, scratch, from, to - from);
        int a = from;
        int b = middle;
        for (int k = from; k < to; k++) {
            if (b >= to || (a < middle && compare(scratch[a], scratch[b]) <= 0)) {
                rows[k] = scratch[a++];
            } else {
                rows[k] = scratch[b++];
            }
        }
    }

    /** Unsigned bytewise order of two rows' bytes: big-endian words, then bytes, then lengths. */
    int compare(int rowA, int rowB) {
        long a = offsets[rowA];
        long b = offsets[rowB];
        int lengthA = lengths[rowA];
        int lengthB = lengths[rowB];
        int n = Math.min(lengthA, lengthB);
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long x = heap.get(BE_LONG, a + i);
            long y = heap.get(BE_LONG, b + i);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        for (; i < n; i++) {
            int c = (heap.get(ValueLayout.JAVA_BYTE, a + i) & 0xFF) - (heap.get(ValueLayout.JAVA_BYTE, b + i) & 0xFF);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(lengthA, lengthB);
    }

    private static final String[] SITES = {"example", "news", "shop", "video", "maps", "mail", "search", "wiki",
        "forum", "bank", "travel", "music", "sport", "weather", "cloud", "photos"};
    private static final String[] WORDS = {"index", "item", "page", "view", "list", "user", "product", "category",
        "article", "2024", "en", "de", "search", "results", "profile", "settings"};

    /** The values for {@code data}, seeded. */
    static byte[][] values(String data, int rows) {
        SplittableRandom random = new SplittableRandom(0x5EED_0015L);
        byte[][] values = new byte[rows][];
        if (!data.equals("url")) {
            int length = switch (data) {
                case "8" -> 8;
                case "25" -> 25;
                default -> throw new IllegalArgumentException("unknown data: data=" + data + " expected=url|8|25");
            };
            byte[][] prefixes = new byte[StringHeap.PREFIXES][4];
            for (byte[] p : prefixes) {
                StringHeap.fillRandom(random, p, 0, 4);
            }
            for (int row = 0; row < rows; row++) {
                byte[] v = new byte[length];
                System.arraycopy(prefixes[random.nextInt(prefixes.length)], 0, v, 0, 4);
                StringHeap.fillRandom(random, v, 4, length);
                values[row] = v;
            }
            return values;
        }
        StringBuilder url = new StringBuilder();
        for (int row = 0; row < rows; row++) {
            url.setLength(0);
            url.append(random.nextInt(10) == 0 ? "http://" : "https://");
            if (random.nextInt(4) != 0) {
                url.append("www.");
            }
            url.append(SITES[random.nextInt(SITES.length)]).append(".com");
            int segments = random.nextInt(4);
            for (int s = 0; s < segments; s++) {
                url.append('/').append(WORDS[random.nextInt(WORDS.length)]);
            }
            url.append("?id=").append(random.nextInt(1_000_000));
            values[row] = url.toString().getBytes(StandardCharsets.ISO_8859_1);
        }
        return values;
    }
}
