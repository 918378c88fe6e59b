package dev.stringview.benchmarks;

import dev.stringview.ByteView;
import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * Where a {@code HashMap<ByteView, V>} lookup spends its time, next to {@code HashMap<String, V>}, in one JVM:
 * the probe's hash (heap {@code byte[]} memory, as {@code ByteView.copyOf} makes it), a column view's hash (native
 * memory), {@code equals} of a heap probe and a native key, and whole lookups of both key types. Same URL-like keys
 * and seed as {@link ByteViewBenchmark}'s {@code Keys}. Prints ns per operation for 8 rounds (the first ones are
 * warm-up). To compare two versions of core, run it once with each core on the class path, alternating.
 *
 * <pre>java -cp core/target/classes:benchmarks/target/classes dev.stringview.benchmarks.ByteViewKeyCosts</pre>
 */
public final class ByteViewKeyCosts {
    private ByteViewKeyCosts() {}

    public static void main(String[] args) {
        int rows = 1_000_000;
        int mapped = 100_000;
        int probesCount = ByteViewBenchmark.BATCH;
        int repeats = 2000;
        try (Arena arena = Arena.ofShared()) {
            Random random = new Random(0x5EED_0004L);
            String[] hosts = {"https://www.example.com/", "https://shop.example.org/", "http://news.site.net/",
                "https://www.google.com/search?q="};
            String[] strings = new String[rows];
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8).withExpectedRows(rows);
            for (int i = 0; i < rows; i++) {
                strings[i] = hosts[random.nextInt(hosts.length)] + "item/" + random.nextInt(rows) + "/"
                        + "abcdefghijklmnopqrstuvwxyz".substring(random.nextInt(26)) + random.nextInt(1000);
                builder.append(strings[i]);
            }
            ViewColumn column = builder.build();
            Map<ByteView, Integer> viewMap = new HashMap<>();
            Map<String, Integer> stringMap = new HashMap<>();
            for (int i = 0; i < mapped; i++) {
                viewMap.put(column.view(i), i);
                stringMap.put(strings[i], i);
            }
            ByteView[] probes = new ByteView[probesCount];
            ByteView[] keys = new ByteView[probesCount];
            String[] stringProbes = new String[probesCount];
            for (int i = 0; i < probesCount; i++) {
                int key = random.nextInt(mapped);
                byte[] utf8 = strings[key].getBytes(StandardCharsets.UTF_8);
                probes[i] = ByteView.copyOf(utf8);
                keys[i] = column.view(key);
                stringProbes[i] = new String(utf8, StandardCharsets.UTF_8);
            }
            double n = (double) repeats * probesCount;
            long sink = 0;
            for (int round = 0; round < 8; round++) {
                long t0 = System.nanoTime();
                for (int r = 0; r < repeats; r++) {
                    for (ByteView probe : probes) {
                        sink += probe.hashCode();
                    }
                }
                long t1 = System.nanoTime();
                for (int r = 0; r < repeats; r++) {
                    for (ByteView key : keys) {
                        sink += key.hashCode();
                    }
                }
                long t2 = System.nanoTime();
                for (int r = 0; r < repeats; r++) {
                    for (int i = 0; i < probesCount; i++) {
                        sink += probes[i].equals(keys[i]) ? 1 : 0;
                    }
                }
                long t3 = System.nanoTime();
                for (int r = 0; r < repeats; r++) {
                    for (ByteView probe : probes) {
                        sink += viewMap.get(probe);
                    }
                }
                long t4 = System.nanoTime();
                for (int r = 0; r < repeats; r++) {
                    for (String probe : stringProbes) {
                        sink += stringMap.get(probe);
                    }
                }
                long t5 = System.nanoTime();
                System.out.printf("round=%d hashHeap=%.1f hashNative=%.1f equalsHeapNative=%.1f getByteView=%.1f"
                        + " getString=%.1f ns%n", round, (t1 - t0) / n, (t2 - t1) / n, (t3 - t2) / n, (t4 - t3) / n,
                        (t5 - t4) / n);
            }
            System.out.println("checksum=" + sink);
        }
    }
}
