package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every Suite 1 implementation counts the same rows as a plain reference on the same data, for every heap,
 * length mix and kernel: the peers are correct, so their timings compare like with like. Also checks the data
 * has the shape the benchmarks describe (target rows, shared prefixes, selectivities).
 */
class PeerKernelsAgreeTest {
    @TestFactory
    Stream<DynamicTest> everyImplementationCountsTheSameRows() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String heap : List.of("scattered", "contiguous", "collision")) {
            for (String lengths : List.of("8", "25", "mix")) {
                for (Kernel kernel : Kernel.values()) {
                    tests.add(DynamicTest.dynamicTest(heap + "-" + lengths + "-" + kernel.param,
                            () -> check(heap, lengths, kernel)));
                }
            }
        }
        return tests.stream();
    }

    private static void check(String heap, String lengths, Kernel kernel) {
        PrefixCompareBenchmark benchmark = switch (heap) {
            case "scattered" -> new ScatteredHeapBenchmark();
            case "contiguous" -> new ContiguousHeapBenchmark();
            default -> new PrefixCollisionBatchBenchmark();
        };
        if (benchmark instanceof ScatteredHeapBenchmark s) {
            s.rows = 20_000;
            s.heapBytes = 20_000L * 64;
        } else if (benchmark instanceof ContiguousHeapBenchmark c) {
            c.rows = 20_000;
        } else {
            ((CacheResidentBatchBenchmark) benchmark).rows = 20_000;
        }
        benchmark.lengths = lengths;
        benchmark.kernel = kernel.param;
        benchmark.prepare("all");
        try {
            int expected = reference(benchmark.data, kernel);
            String where = "heap=" + heap + " lengths=" + lengths + " kernel=" + kernel.param;
            assertTrue(expected > 0 && expected < benchmark.data.rows, "degenerate selectivity: " + where
                    + " matches=" + expected);
            assertEquals(expected, benchmark.views(), "views " + where);
            assertEquals(expected, benchmark.pointerLength(), "pointerLength " + where);
            assertEquals(expected, benchmark.javaString(), "javaString " + where);
            assertEquals(expected, benchmark.javaBytes(), "javaBytes " + where);
            assertEquals(expected, benchmark.arrowVarChar(), "arrowVarChar " + where);
            assertEquals(expected, benchmark.arrowViewVarChar(), "arrowViewVarChar " + where);
        } finally {
            benchmark.tearDown();
        }
    }

    /** The obvious implementation, on Java strings (ASCII data, so char order is byte order). */
    private static int reference(StringHeap data, Kernel kernel) {
        String k = new String(data.constant(kernel), StandardCharsets.US_ASCII);
        int count = 0;
        for (int row = 0; row < data.rows; row++) {
            String value = new String(data.bytes(row), StandardCharsets.US_ASCII);
            boolean match = switch (kernel) {
                case EQUAL -> value.equals(k);
                case LESS_THAN -> value.compareTo(k) < 0;
                case STARTS_WITH -> value.startsWith(k);
                case CONTAINS -> value.contains(k);
            };
            count += match ? 1 : 0;
        }
        return count;
    }

    /** The four argsort implementations put the values in the same order, the order of the sorted strings. */
    @Test
    void everyArgsortSortsTheSameWay() {
        for (String data : List.of("url", "8", "25")) {
            ArgsortBenchmark benchmark = new ArgsortBenchmark();
            benchmark.data = data;
            benchmark.rows = 20_000;
            benchmark.setup();
            try {
                String[] expected = benchmark.strings.clone();
                java.util.Arrays.sort(expected);
                assertTrue(expected[0].compareTo(expected[expected.length - 1]) < 0, data);
                assertEquals(List.of(expected), List.of(benchmark.javaString()), "javaString " + data);
                assertEquals(List.of(expected), strings(benchmark, benchmark.views()), "views " + data);
                assertEquals(List.of(expected), strings(benchmark, benchmark.pointerLength()), "pointerLength " + data);
                byte[][] sortedBytes = benchmark.javaBytes();
                for (int i = 0; i < expected.length; i++) {
                    assertEquals(expected[i], new String(sortedBytes[i], StandardCharsets.ISO_8859_1), "javaBytes " + data);
                }
                if (data.equals("url")) {
                    assertTrue(List.of(expected).stream().allMatch(v -> v.startsWith("http")), "every URL shares a prefix");
                }
            } finally {
                benchmark.tearDown();
            }
        }
    }

    private static List<String> strings(ArgsortBenchmark benchmark, int[] order) {
        List<String> out = new ArrayList<>();
        for (int row : order) {
            out.add(benchmark.strings[row]);
        }
        return out;
    }

    @Test
    void dataHasTheDescribedShape() {
        try (StringHeap data = StringHeap.generate(StringHeap.Layout.SCATTERED, 100_000, "25", 100_000L * 256)) {
            int targets = 0;
            int samePrefix = 0;
            String target = new String(data.equal, StandardCharsets.US_ASCII);
            for (int row = 0; row < data.rows; row++) {
                String value = new String(data.bytes(row), StandardCharsets.US_ASCII);
                targets += value.equals(target) ? 1 : 0;
                samePrefix += value.startsWith(target.substring(0, 4)) ? 1 : 0;
                assertEquals(25, value.length());
                long offset = data.offsets[row];
                assertTrue(offset >= 0 && offset + 25 <= data.heap.byteSize());
            }
            assertTrue(targets > 800 && targets < 1200, "about 1% of rows are the target: " + targets);
            assertTrue(samePrefix > 5500 && samePrefix < 6500, "about 5% share its prefix (+1%): " + samePrefix);
            // rows are not laid out in row order
            int ascending = 0;
            for (int row = 1; row < data.rows; row++) {
                ascending += data.offsets[row] > data.offsets[row - 1] ? 1 : 0;
            }
            assertTrue(ascending < data.rows * 0.6, "scattered offsets: ascending=" + ascending);
        }
        try (StringHeap data = StringHeap.generate(StringHeap.Layout.CONTIGUOUS, 1000, "mix", 0)) {
            long expected = 0;
            for (int row = 0; row < data.rows; row++) {
                assertEquals(expected, data.offsets[row]);
                expected += data.lengths[row];
            }
            assertEquals(expected, data.heap.byteSize());
        }
    }
}
