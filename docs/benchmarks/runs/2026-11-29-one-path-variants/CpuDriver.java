package dev.stringview.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** Throwaway driver (not in the repo): thread CPU ns per row of views() for PrefixCollision/ContiguousHeap cells. */
public class CpuDriver {
    public static void main(String[] args) throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        String[] kernels = args[0].split(",");
        String[] lengths = args[1].split(",");
        int seconds = Integer.parseInt(args[2]);
        for (String kernel : kernels) {
            for (String length : lengths) {
                PrefixCollisionBatchBenchmark b = new PrefixCollisionBatchBenchmark();
                b.lengths = length; b.kernel = kernel; b.rows = 8192; b.prefixes = 1;
                b.prepare("views");
                long sink = 0;
                long end = System.nanoTime() + seconds * 1_000_000_000L; // warm-up by wall time
                while (System.nanoTime() < end) sink += b.views();
                double best = Double.MAX_VALUE;
                for (int rep = 0; rep < 5; rep++) {
                    long c0 = mx.getCurrentThreadCpuTime();
                    int n = 0;
                    while (mx.getCurrentThreadCpuTime() - c0 < 200_000_000L) { sink += b.views(); n++; }
                    double ns = (mx.getCurrentThreadCpuTime() - c0) / (double) n / 8192;
                    best = Math.min(best, ns);
                }
                System.out.printf("%s %s %.3f ns/row cpu (sink %d)%n", kernel, length, best, sink & 1);
                b.tearDown();
            }
        }
    }
}
