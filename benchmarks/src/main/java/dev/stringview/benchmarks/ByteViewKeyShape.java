package dev.stringview.benchmarks;

import dev.stringview.ByteView;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * What separates a {@code HashMap<ByteView, V>} lookup of heap copies from a {@code HashMap<String, V>} one: the
 * {@code ByteView} code, or the size of the key object. Next to {@code String} it looks up, in one JVM, keys of
 * one other shape, all made from the same URL-like strings as {@link ByteViewBenchmark.Keys} (same generator, same
 * seed), each key right after its {@code String}, probes new equal objects, a full collection before timing:
 * <ul>
 *   <li>{@code byteView}: {@link ByteView#copyOf(String)}, a 32-byte object and its array;</li>
 *   <li>{@code key24}: {@link Key24}, a 24-byte object (array, kept hash, prefix; the size of a {@code String})
 *       whose {@code equals} is {@code String.equals}' work: class check, hash, whole-array equality;</li>
 *   <li>{@code key32}: {@link Key32}, the same class with 8 unused bytes, so 32 bytes like a {@code ByteView}.</li>
 * </ul>
 * {@code key24} against {@code key32} is the object size alone, with the same code; {@code key32} against
 * {@code byteView} is the code alone, with the same size. Only two key classes reach {@code HashMap.getNode} in
 * one JVM (the shape and {@code String}), so its {@code equals} call stays bimorphic and inlined for both: run one
 * shape per JVM. Prints medians of thread CPU time per lookup, rounds alternating.
 *
 * <pre>
 * java -Xmx6g -cp benchmarks/target/benchmarks.jar dev.stringview.benchmarks.ByteViewKeyShape SHAPE [rounds] [rows]
 * </pre>
 */
public final class ByteViewKeyShape {
    static final List<String> SHAPES = List.of("byteView", "key24", "key32");
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ByteViewKeyShape() {}

    public static void main(String[] args) {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: ByteViewKeyShape SHAPE [rounds] [rows]; shapes=" + SHAPES);
        }
        String shape = args[0];
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        int rows = args.length > 2 ? Integer.parseInt(args[2]) : 1_000_000;
        System.out.println(Demo.machine() + ", commit " + RunContext.commit() + ", shape=" + shape + " rows=" + rows);
        double[] r = run(shape, rounds, rows, 20_000_000L);
        System.out.println(String.format(Locale.ROOT, "lookup String %6.1f ns, %s %6.1f ns, %s / String %.2f", r[0],
                shape, r[1], shape, r[1] / r[0]));
    }

    /** Median ns per lookup of {@code String} keys and of {@code shape} keys, each timing about {@code budget} lookups. */
    static double[] run(String shape, int rounds, int rows, long budget) {
        Function<String, Object> make = switch (shape) {
            case "byteView" -> ByteView::copyOf;
            case "key24" -> Key24::new;
            case "key32" -> Key32::new;
            default -> throw new IllegalArgumentException("unknown shape: shape=" + shape + " known=" + SHAPES);
        };
        if (rounds < 1 || rows < 1) {
            throw new IllegalArgumentException("rounds and rows must be positive: rounds=" + rounds + " rows=" + rows);
        }
        // The strings of ByteViewBenchmark.Keys: same generator, same seed, same draws.
        Random random = new Random(0x5EED_0004L);
        String[] hosts = {"https://www.example.com/", "https://shop.example.org/", "http://news.site.net/",
            "https://www.google.com/search?q="};
        String[] strings = new String[rows];
        Object[] keys = new Object[rows];
        for (int i = 0; i < rows; i++) {
            strings[i] = hosts[random.nextInt(hosts.length)] + "item/" + random.nextInt(rows) + "/"
                    + "abcdefghijklmnopqrstuvwxyz".substring(random.nextInt(26)) + random.nextInt(1000);
            keys[i] = make.apply(strings[i]); // right after its String, as the benchmark's copies
        }
        int mapped = Math.min(rows, 100_000);
        Map<Object, Integer> stringMap = new HashMap<>();
        Map<Object, Integer> shapeMap = new HashMap<>();
        for (int i = 0; i < mapped; i++) {
            stringMap.put(strings[i], i);
            shapeMap.put(keys[i], i);
        }
        int n = ByteViewBenchmark.BATCH;
        Object[] stringProbes = new Object[n];
        Object[] shapeProbes = new Object[n];
        for (int i = 0; i < n; i++) {
            int key = random.nextInt(mapped);
            byte[] utf8 = strings[key].getBytes(StandardCharsets.UTF_8);
            stringProbes[i] = new String(utf8, StandardCharsets.UTF_8);
            shapeProbes[i] = make.apply(strings[key]);
        }
        System.gc(); // both sides slid into allocation order, as Keys.setup does
        long repeat = Math.max(1, budget / n);
        double[][] times = new double[2][rounds];
        for (int r = -2; r < rounds; r++) { // two uncounted warm-up rounds
            double s = time(stringMap, stringProbes, repeat);
            double k = time(shapeMap, shapeProbes, repeat);
            if (r >= 0) {
                times[0][r] = s;
                times[1][r] = k;
            }
        }
        return new double[] {CoreBuilds.median(times[0]), CoreBuilds.median(times[1])};
    }

    private static double time(Map<Object, Integer> map, Object[] probes, long repeat) {
        long sum = 0;
        long t0 = THREADS.getCurrentThreadCpuTime();
        for (long i = 0; i < repeat; i++) {
            sum += lookups(map, probes);
        }
        long elapsed = THREADS.getCurrentThreadCpuTime() - t0;
        if (sum == Long.MIN_VALUE) {
            System.out.println(sum); // keeps the work alive
        }
        return elapsed / (double) (repeat * probes.length);
    }

    private static long lookups(Map<Object, Integer> map, Object[] probes) {
        long sum = 0;
        for (Object probe : probes) {
            sum += map.get(probe);
        }
        return sum;
    }

    /**
     * A heap key of {@code String}'s size (12-byte header, three 4-byte fields): its array, its hash kept at
     * construction ({@code ByteView}'s hash function) and its first 4 bytes. {@code equals} does what
     * {@code String.equals} does (class check, then whole-array equality) after the hash and prefix.
     */
    static final class Key24 {
        final byte[] bytes;
        final int hash;
        final int prefix;

        Key24(String value) {
            this.bytes = value.getBytes(StandardCharsets.UTF_8); // the object first, then its array, as a copy
            this.hash = ByteView.copyOf(bytes).hashCode();
            this.prefix = bytes.length >= 4 ? bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24 : 0;
        }

        @Override
        public boolean equals(Object other) {
            return this == other || other instanceof Key24 that && hash == that.hash && prefix == that.prefix
                    && Arrays.equals(bytes, that.bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** {@link Key24} with 8 bytes more (an unused {@code long}): a 32-byte object, as a {@code ByteView} is. */
    static final class Key32 {
        final byte[] bytes;
        final int hash;
        final int prefix;
        final long unused;

        Key32(String value) {
            this.bytes = value.getBytes(StandardCharsets.UTF_8); // the object first, then its array, as a copy
            this.hash = ByteView.copyOf(bytes).hashCode();
            this.prefix = bytes.length >= 4 ? bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24 : 0;
            this.unused = hash;
        }

        @Override
        public boolean equals(Object other) {
            return this == other || other instanceof Key32 that && hash == that.hash && prefix == that.prefix
                    && Arrays.equals(bytes, that.bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
