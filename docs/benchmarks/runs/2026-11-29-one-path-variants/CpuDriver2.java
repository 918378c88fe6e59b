package dev.stringview.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.LongSupplier;

/**
 * Thread-CPU-time driver for a shared, overloaded machine: runs a benchmark method of the module's own JMH classes
 * (their setup, their method bodies) until warm by CPU time, then reports the best of five CPU-time slices per
 * operation. Modes: argsort (ArgsortBenchmark.views/javaString, data=url,8,25, 1M rows), bv (ByteViewBenchmark
 * read* and lookup*, length 36, 1M keys), pointer (PrefixCollisionBatchBenchmark.pointerLength).
 */
public class CpuDriver2 {
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    static long sink;

    static void measure(String name, double opsPerCall, double warmCpuSeconds, LongSupplier call) {
        long c0 = MX.getCurrentThreadCpuTime();
        while (MX.getCurrentThreadCpuTime() - c0 < (long) (warmCpuSeconds * 1e9)) sink += call.getAsLong();
        double best = Double.MAX_VALUE;
        for (int rep = 0; rep < 5; rep++) {
            long s = MX.getCurrentThreadCpuTime();
            int n = 0;
            do { sink += call.getAsLong(); n++; } while (MX.getCurrentThreadCpuTime() - s < 200_000_000L);
            best = Math.min(best, (MX.getCurrentThreadCpuTime() - s) / (double) n / opsPerCall);
        }
        System.out.printf("%s %.3f ns/op cpu%n", name, best);
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "argsort" -> {
                for (String data : args[1].split(",")) {
                    ArgsortBenchmark b = new ArgsortBenchmark();
                    b.data = data; b.rows = 1_000_000;
                    b.setup();
                    measure("argsort.views data=" + data, 1e6, 3, () -> b.views().length);
                    if (args.length > 2) measure("argsort.javaString data=" + data, 1e6, 3, () -> b.javaString().length);
                    b.tearDown();
                }
            }
            case "bv" -> {
                ByteViewBenchmark bench = new ByteViewBenchmark();
                ByteViewBenchmark.Values v = new ByteViewBenchmark.Values();
                v.length = 36; v.setup();
                int batch = ByteViewBenchmark.BATCH;
                measure("readByteView", batch, 2, () -> { try { return bench.readByteView(v).length; } catch (Exception e) { throw new RuntimeException(e); } });
                measure("readByteViewHeap", batch, 2, () -> { try { return bench.readByteViewHeap(v).length; } catch (Exception e) { throw new RuntimeException(e); } });
                measure("readByteArray", batch, 2, () -> { try { return bench.readByteArray(v).length; } catch (Exception e) { throw new RuntimeException(e); } });
                measure("readString", batch, 2, () -> { try { return bench.readString(v).length; } catch (Exception e) { throw new RuntimeException(e); } });
                v.tearDown();
                ByteViewBenchmark.Keys k = new ByteViewBenchmark.Keys();
                k.rows = 1_000_000; k.setup();
                measure("lookupByteView", batch, 2, () -> bench.lookupByteView(k));
                measure("lookupByteViewCopies", batch, 2, () -> bench.lookupByteViewCopies(k));
                measure("lookupString", batch, 2, () -> bench.lookupString(k));
                try {
                    java.lang.reflect.Method m = ByteViewBenchmark.class.getMethod("lookupBytes", ByteViewBenchmark.Keys.class);
                    measure("lookupBytes", batch, 2, () -> { try { return (long) m.invoke(bench, k); } catch (Exception e) { throw new RuntimeException(e); } });
                } catch (NoSuchMethodException e) {
                    System.out.println("lookupBytes absent");
                }
                k.tearDown();
            }
            case "pointer" -> {
                for (String kernel : args[1].split(",")) {
                    for (String length : args[2].split(",")) {
                        PrefixCollisionBatchBenchmark b = new PrefixCollisionBatchBenchmark();
                        b.lengths = length; b.kernel = kernel; b.rows = 8192; b.prefixes = 1;
                        b.prepare("pointerLength");
                        measure("pointerLength " + kernel + " " + length, 8192, 2, b::pointerLength);
                        b.tearDown();
                    }
                }
            }
            case "heap" -> { // heap contiguous|scattered kernels lengths methods
                for (String kernel : args[2].split(",")) {
                    for (String length : args[3].split(",")) {
                        for (String method : args[4].split(",")) {
                            PrefixCompareBenchmark b;
                            int rows;
                            if (args[1].equals("contiguous")) {
                                ContiguousHeapBenchmark c = new ContiguousHeapBenchmark();
                                c.rows = rows = 10_000_000;
                                b = c;
                            } else {
                                ScatteredHeapBenchmark c = new ScatteredHeapBenchmark();
                                c.rows = rows = 1_000_000;
                                c.heapBytes = 268435456L;
                                b = c;
                            }
                            b.lengths = length; b.kernel = kernel;
                            b.prepare(method);
                            measure(args[1] + " " + method + " " + kernel + " " + length, rows, 2,
                                    method.equals("views") ? b::views : b::pointerLength);
                            b.tearDown();
                        }
                    }
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("sink " + (sink & 1));
    }
}
