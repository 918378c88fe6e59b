package dev.stringview.benchmarks;

import dev.stringview.Utf8;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * {@link Utf8#isValid(MemorySegment, long, long)} over the same seeded text in a native and a heap segment, called in
 * alternating rounds in one JVM so that the JIT sees both segment kinds (the case of issue 11, where a loop shared by
 * both kinds ran about 8x slower on native memory). Timed by the CPU time of the calling thread; prints the median
 * nanoseconds per KiB of each kind and their ratio. A single file with no dependency but core, so it also runs
 * against an older build: {@code java -cp <benchmarks.jar> <this file> [rounds] [KiB] [nonAsciiPercent]}.
 */
public final class Utf8SegmentKindSideBySide {
    private Utf8SegmentKindSideBySide() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 41;
        int kib = args.length > 1 ? Integer.parseInt(args[1]) : 4096;
        int nonAsciiPercent = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        byte[] text = text(kib * 1024, nonAsciiPercent, new Random(42));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment offHeap = arena.allocate(text.length, 8);
            MemorySegment.copy(MemorySegment.ofArray(text), 0, offHeap, 0, text.length);
            MemorySegment onHeap = MemorySegment.ofArray(text);
            long[][] times = new long[2][rounds];
            for (int round = 0; round < rounds; round++) {
                for (int kind = 0; kind < 2; kind++) {
                    MemorySegment segment = kind == 0 ? offHeap : onHeap;
                    long start = threads.getCurrentThreadCpuTime();
                    // validated in pieces of 64 bytes to 4 KiB, as values and runs of values are
                    long at = 0;
                    int piece = 64;
                    while (at < text.length) {
                        long length = Math.min(piece, text.length - at);
                        while (at + length < text.length && (text[(int) (at + length)] & 0xC0) == 0x80) {
                            length++; // pieces end on character boundaries, as values do
                        }
                        if (!Utf8.isValid(segment, at, length)) {
                            throw new IllegalStateException("generated text rejected: at=" + at);
                        }
                        at += length;
                        piece = piece >= 4096 ? 64 : piece * 2;
                    }
                    times[kind][round] = threads.getCurrentThreadCpuTime() - start;
                }
            }
            int skip = rounds / 4;
            double nativeNs = median(times[0], skip) / kib;
            double heapNs = median(times[1], skip) / kib;
            System.out.printf(Locale.ROOT, "%s, KiB=%d nonAscii=%d%% rounds=%d (%d not counted), CPU ns per KiB%n",
                    System.getProperty("java.vm.version"), kib, nonAsciiPercent, rounds, skip);
            System.out.printf(Locale.ROOT, "native %10.1f ns/KiB%nheap   %10.1f ns/KiB%nnative/heap %.2fx%n", nativeNs,
                    heapNs, nativeNs / heapNs);
        }
    }

    private static double median(long[] times, int skip) {
        long[] counted = Arrays.copyOfRange(times, skip, times.length);
        Arrays.sort(counted);
        return counted[counted.length / 2];
    }

    /**
     * Well-formed text of exactly {@code size} bytes: ASCII words, with about {@code nonAsciiPercent} of the
     * characters two to four bytes long; ASCII fills the end so no character is cut.
     */
    private static byte[] text(int size, int nonAsciiPercent, Random random) {
        byte[] out = new byte[size];
        int at = 0;
        while (at < size) {
            byte[] piece;
            if (random.nextInt(100) < nonAsciiPercent) {
                int[] samples = {0xE9, 0x4E2D, 0x1F600};
                piece = Character.toString(samples[random.nextInt(samples.length)]).getBytes(StandardCharsets.UTF_8);
            } else {
                piece = new byte[] {(byte) (random.nextInt(10) == 0 ? ' ' : 'a' + random.nextInt(26))};
            }
            if (at + piece.length > size) {
                piece = new byte[] {'a'};
            }
            System.arraycopy(piece, 0, out, at, piece.length);
            at += piece.length;
        }
        return out;
    }
}
