package dev.stringview.benchmarks;

import dev.stringview.ByteView;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;

/**
 * Where {@link ByteViewBenchmark}'s lookup and stream-read time goes, next to the {@code String} / {@code byte[]}
 * baselines, in one JVM on the benchmark's own data ({@code Keys} and {@code Values}): each row is one part of
 * the work alone, all rows alternate round by round, and the printout is the median of thread CPU time per
 * operation. One JVM runs every row, so call sites shared by the rows (for example {@code ByteView.read}, which
 * sees native and heap allocators here) are less specialized than in a JMH fork: compare rows with each other,
 * not with JMH scores. Not run in the build except once, tiny, by a test.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.ByteViewKeyCosts [rounds] [rows] [readLength]
 * </pre>
 */
public final class ByteViewKeyCosts {

    private ByteViewKeyCosts() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        int readLength = args.length > 2 ? Integer.parseInt(args[2]) : 36;
        System.out.println(Demo.machine() + ", commit " + RunContext.commit() + ", rows=" + rows + " readLength="
                + readLength);
        run(rounds, rows, readLength, 20_000_000L).forEach((name, ns) ->
                System.out.println(String.format(Locale.ROOT, "%-34s %8.1f ns", name, ns)));
    }

    /** Median ns per operation of every row, in order; each timing repeats its row until {@code budget} operations. */
    static Map<String, Double> run(int rounds, int rows, int readLength, long budget) {
        ByteViewBenchmark.Keys k = new ByteViewBenchmark.Keys();
        k.rows = rows;
        k.setup();
        ByteViewBenchmark.Values v = new ByteViewBenchmark.Values();
        v.length = readLength;
        v.setup();
        try {
            int n = ByteViewBenchmark.BATCH;
            String[] stringKeys = new String[n];
            ByteView[] copyKeys = new ByteView[n];
            ByteView[] viewKeys = new ByteView[n];
            for (int i = 0; i < n; i++) {
                stringKeys[i] = k.strings[k.probeRows[i]];
                copyKeys[i] = k.copies[k.probeRows[i]];
                viewKeys[i] = k.views[k.probeRows[i]];
            }
            // Order and miss pairs of the keys as the sort and the map meet them: neighbours in sorted order
            // (they share long runs, as the sort's late compares do), random pairs (its early ones), and pairs of
            // one length with different bytes (equals past the length and prefix checks).
            Integer[] sorted = new Integer[k.strings.length];
            Arrays.setAll(sorted, i -> i);
            Arrays.sort(sorted, (x, y) -> k.strings[x].compareTo(k.strings[y]));
            Random pairs = new Random(0x5EED_0013L);
            String[] neighbourStrings = new String[2 * n];
            ByteView[] neighbourCopies = new ByteView[2 * n];
            String[] randomStrings = new String[2 * n];
            ByteView[] randomCopies = new ByteView[2 * n];
            String[] missStrings = new String[2 * n];
            ByteView[] missCopies = new ByteView[2 * n];
            for (int i = 0; i < n; i++) {
                int at = pairs.nextInt(sorted.length - 1);
                for (int j = 0; j < 2; j++) {
                    neighbourStrings[2 * i + j] = k.strings[sorted[at + j]];
                    neighbourCopies[2 * i + j] = k.copies[sorted[at + j]];
                    int row = pairs.nextInt(k.strings.length);
                    randomStrings[2 * i + j] = k.strings[row];
                    randomCopies[2 * i + j] = k.copies[row];
                }
                int a = k.probeRows[i];
                int b = a;
                for (int tries = 0; tries < 1000 && (b == a || k.strings[b].length() != k.strings[a].length()
                        || k.strings[b].equals(k.strings[a])); tries++) {
                    b = pairs.nextInt(k.strings.length);
                }
                missStrings[2 * i] = k.stringProbes[i];
                missStrings[2 * i + 1] = k.strings[b];
                missCopies[2 * i] = k.viewProbes[i];
                missCopies[2 * i + 1] = k.copies[b];
            }
            ByteViewBenchmark benchmark = new ByteViewBenchmark();
            byte[] transfer = new byte[8192];
            Map<String, LongSupplier> parts = new LinkedHashMap<>();
            // Lookups: whole, then the map walk alone (probe == key, so equals is never called), then equals alone.
            parts.put("lookup String", () -> benchmark.lookupString(k));
            parts.put("lookup ByteView, copy keys", () -> benchmark.lookupByteViewCopies(k));
            parts.put("lookup ByteView, column-view keys", () -> benchmark.lookupByteView(k));
            parts.put("lookup String, probe is the key", () -> lookups(k.stringMap, stringKeys));
            parts.put("lookup copies, probe is the key", () -> lookups(k.copyMap, copyKeys));
            parts.put("String.equals, equal pair", () -> equalPairs(k.stringProbes, stringKeys));
            parts.put("ByteView.equals, copy vs copy", () -> equalPairs(k.viewProbes, copyKeys));
            parts.put("ByteView.equals, copy vs view", () -> equalPairs(k.viewProbes, viewKeys));
            parts.put("String.equals, same-length miss", () -> equalNeighbours(missStrings));
            parts.put("ByteView.equals, same-length miss", () -> equalNeighbours(missCopies));
            parts.put("String.compareTo, sorted neighbours", () -> compareNeighbours(neighbourStrings));
            parts.put("ByteView.compareTo, sorted neighbours", () -> compareNeighbours(neighbourCopies));
            parts.put("String.compareTo, random pairs", () -> compareNeighbours(randomStrings));
            parts.put("ByteView.compareTo, random pairs", () -> compareNeighbours(randomCopies));
            parts.put("hashCode, copy (kept)", () -> hashes(copyKeys));
            parts.put("hashCode, column view (computed)", () -> hashes(viewKeys));
            // Column views as probes (a hash aggregation's case): each get computes the probe's hash from its
            // bytes; and what a view costs to make, with and without that hash (an eager hash's price).
            parts.put("lookup copies, column-view probes", () -> lookups(k.copyMap, viewKeys));
            parts.put("view(row), readLength-byte values", () -> views(v, false));
            parts.put("view(row) + hashCode, same values", () -> views(v, true));
            // Stream reads of readLength bytes: whole, and the parts of a read into native memory.
            parts.put("read, new byte[n] + readFully", () -> ByteViewSideBySide.Task.io(() -> benchmark.readByteArray(v)).length);
            parts.put("read, ByteView into heap slab", () -> ByteViewSideBySide.Task.io(() -> benchmark.readByteViewHeap(v)).length);
            parts.put("read, ByteView into native slab", () -> ByteViewSideBySide.Task.io(() -> benchmark.readByteView(v)).length);
            parts.put("read part: stream into one array", () -> streamOnly(v, transfer));
            parts.put("read part: slicing allocate only", () -> allocateOnly(v));
            parts.put("read part: allocate + stream + copy", () -> allocateReadCopy(v, transfer));
            return CoreBuilds.medianTimes(parts, rounds, Math.max(1, budget / n), n);
        } finally {
            k.tearDown();
            v.tearDown();
        }
    }

    private static <K> long lookups(Map<K, Integer> map, K[] probes) {
        long sum = 0;
        for (K probe : probes) {
            sum += map.get(probe);
        }
        return sum;
    }

    private static long equalPairs(Object[] a, Object[] b) {
        long sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i].equals(b[i]) ? 1 : 0;
        }
        return sum;
    }

    /** {@code equals} of the pairs {@code (values[2i], values[2i + 1])}: how many are equal. */
    private static long equalNeighbours(Object[] values) {
        long sum = 0;
        for (int i = 0; i < values.length; i += 2) {
            sum += values[i].equals(values[i + 1]) ? 1 : 0;
        }
        return sum;
    }

    /** {@code compareTo} of the pairs {@code (values[2i], values[2i + 1])}: the sum of the signs. */
    private static <T extends Comparable<T>> long compareNeighbours(T[] values) {
        long sum = 0;
        for (int i = 0; i < values.length; i += 2) {
            sum += Integer.signum(values[i].compareTo(values[i + 1]));
        }
        return sum;
    }

    private static long hashes(ByteView[] values) {
        long sum = 0;
        for (ByteView value : values) {
            sum += value.hashCode();
        }
        return sum;
    }

    /** {@code column.view(row)} of every row of {@code v}'s column, kept; with {@code hash}, each one's hash too. */
    private static long views(ByteViewBenchmark.Values v, boolean hash) {
        long sum = 0;
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            ByteView view = v.column.view(i);
            v.sinkObjects[i] = view;
            if (hash) {
                sum += view.hashCode();
            }
        }
        return sum;
    }

    private static long streamOnly(ByteViewBenchmark.Values v, byte[] transfer) {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        long sum = 0;
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            sum += in.read(transfer, 0, v.length);
        }
        return sum;
    }

    private static long allocateOnly(ByteViewBenchmark.Values v) {
        SegmentAllocator allocator = SegmentAllocator.slicingAllocator(v.readMemory);
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            v.sinkObjects[i] = allocator.allocate(v.length, 1);
        }
        return v.sinkObjects.length;
    }

    private static long allocateReadCopy(ByteViewBenchmark.Values v, byte[] transfer) {
        ByteArrayInputStream in = new ByteArrayInputStream(v.page);
        SegmentAllocator allocator = SegmentAllocator.slicingAllocator(v.readMemory);
        for (int i = 0; i < ByteViewBenchmark.BATCH; i++) {
            MemorySegment target = allocator.allocate(v.length, 1);
            in.read(transfer, 0, v.length);
            MemorySegment.copy(transfer, 0, target, ValueLayout.JAVA_BYTE, 0, v.length);
            v.sinkObjects[i] = target;
        }
        return v.sinkObjects.length;
    }
}
