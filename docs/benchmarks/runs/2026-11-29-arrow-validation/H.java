package dev.stringview.benchmarks;

import dev.stringview.*;
import dev.stringview.arrow.*;
import java.lang.foreign.*;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.*;
import org.apache.arrow.memory.*;
import org.apache.arrow.vector.*; import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.*;
import java.lang.management.*;

public class H {
    static ThreadMXBean T = ManagementFactory.getThreadMXBean();
    static long sum(MemorySegment s) {
        long acc = 0; long i = 0; long n = s.byteSize();
        for (; n - i >= 1024; i += 1024) { for (int k = 0; k < 1024; k += 8) acc |= s.get(ValueLayout.JAVA_LONG_UNALIGNED, i + k); }
        for (; i < n; i++) acc += s.get(ValueLayout.JAVA_BYTE, i);
        return acc;
    }
    public static void main(String[] a) throws Exception {
        int rows = 1 << 20;
        Arena arena = Arena.ofShared();
        BufferAllocator allocator = new RootAllocator();
        HitsGenerator hits = new HitsGenerator();
        List<ViewTable> batches = new ArrayList<>();
        long dataBytes = 0; int buffers = 0;
        for (int from = 0; from < rows; from += 8192) {
            ViewColumnBuilder b = ViewColumns.builder(arena, ViewKind.UTF8).withExpectedRows(8192);
            for (int r = from; r < from + 8192; r++) b.append(hits.row(r)[0]);
            ViewColumn c = b.build();
            for (int i = 0; i < c.bufferCount(); i++) { dataBytes += c.buffer(i).byteSize(); buffers++; }
            batches.add(ViewTable.of("URL", c));
        }
        System.out.println("dataBytes=" + dataBytes + " buffers=" + buffers);
        Path ipc = Files.createTempFile("h", ".arrow");
        try (FileChannel out = FileChannel.open(ipc, StandardOpenOption.WRITE);
             ArrowIpcWriter w = ArrowIpcWriter.file(out, List.of("URL"), List.of(ViewKind.UTF8), allocator)) {
            for (ViewTable t : batches) w.write(t);
        }
        System.out.println("file=" + Files.size(ipc));
        // in-memory columns for the validation-only timing
        List<ViewColumn> cols = new ArrayList<>();
        for (ViewTable t : batches) cols.add(t.column(0));
        String[] names = {"arrowJava", "ours", "fromViewsOnly", "utf8WholeBuffers", "sumLongs", "ajUnchecked", "ajValidated", "oursBatchScoped", "fromViewsHot", "ajReadPass"};
        long[] best = new long[names.length]; Arrays.fill(best, Long.MAX_VALUE);
        String only = System.getProperty("only", ""); int iters = Integer.getInteger("iters", 40);
        for (int it = 0; it < iters; it++) {
            for (int k = 0; k < names.length; k++) {
                if (!only.isEmpty() && !(","+only+",").contains(","+k+",")) continue;
                long t0 = T.getCurrentThreadCpuTime();
                long x = 0;
                switch (k) {
                    case 0 -> { try (FileChannel ch = FileChannel.open(ipc); ArrowFileReader r = new ArrowFileReader(ch, allocator)) { while (r.loadNextBatch()) x += r.getVectorSchemaRoot().getRowCount(); } }
                    case 1 -> { try (Arena read = Arena.ofConfined(); ViewTableReader r = ArrowIpc.open(ipc, allocator, read)) { while (r.hasNext()) x += r.next().column(0).size(); } }
                    case 2 -> { for (ViewColumn c : cols) { List<MemorySegment> bs = new ArrayList<>(); for (int i = 0; i < c.bufferCount(); i++) bs.add(c.buffer(i)); x += ViewColumns.fromViews(ViewKind.UTF8, c.size(), c.views(), null, bs).size(); } }
                    case 3 -> { for (ViewColumn c : cols) for (int i = 0; i < c.bufferCount(); i++) x += Utf8.isValid(c.buffer(i), 0, c.buffer(i).byteSize()) ? 1 : 0; }
                    case 4 -> { for (ViewColumn c : cols) for (int i = 0; i < c.bufferCount(); i++) { MemorySegment s = c.buffer(i); long n = s.byteSize() & ~7L; for (long j = 0; j < n; j += 8) x += s.get(ValueLayout.JAVA_LONG_UNALIGNED, j); } }
                    case 5, 6 -> { try (FileChannel ch = FileChannel.open(ipc); ArrowFileReader r = new ArrowFileReader(ch, allocator)) { while (r.loadNextBatch()) { try (Arena ba = Arena.ofConfined()) { FieldVector v = r.getVectorSchemaRoot().getVector(0); x += (k == 5 ? dev.stringview.arrow.ArrowVectors.fromVectorUnchecked(v, ba) : dev.stringview.arrow.ArrowVectors.fromVector(v, ba)).size(); } } } }
                    case 8 -> { for (int rep = 0; rep < 32; rep++) for (ViewColumn c : cols.subList(0, 4)) { List<MemorySegment> bs = new ArrayList<>(); for (int i = 0; i < c.bufferCount(); i++) bs.add(c.buffer(i)); x += ViewColumns.fromViews(ViewKind.UTF8, c.size(), c.views(), null, bs).size(); } }
                    case 9 -> { try (FileChannel ch = FileChannel.open(ipc); ArrowFileReader r = new ArrowFileReader(ch, allocator)) { while (r.loadNextBatch()) { try (Arena ba = Arena.ofConfined()) { FieldVector v = r.getVectorSchemaRoot().getVector(0); ViewColumn c = dev.stringview.arrow.ArrowVectors.fromVectorUnchecked(v, ba); x += sum(c.views()); for (int i = 0; i < c.bufferCount(); i++) x += sum(c.buffer(i)); } } } }
                    case 7 -> { try (Arena read = Arena.ofConfined(); ViewTableReader r = ArrowIpc.open(ipc, allocator, read)) { while (true) { try (Arena ba = Arena.ofConfined()) { ViewTable t = r.nextInto(ba); if (t == null) break; x += t.column(0).size(); } } } }
                }
                long t = T.getCurrentThreadCpuTime() - t0;
                if (it >= 10) best[k] = Math.min(best[k], t);
                if (x == 42) System.out.println();
            }
        }
        for (int k = 0; k < names.length; k++) System.out.printf("%s %.2f ms%n", names[k], best[k] / 1e6);
        Files.delete(ipc);
    }
}
