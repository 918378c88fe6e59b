package dev.stringview.parquet.internal;

import dev.stringview.parquet.ParquetSource;
import dev.stringview.parquet.ReadCounters;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads byte ranges of a file from its {@link ParquetSource}, merging ranges whose gap is small into one request
 * (Trino's and arrow-rs's readers do the same with about 1 MiB), and counts what was read and skipped. The
 * counters are shared by a reader and the parts a scan splits it into, so they may be updated from several threads.
 */
public final class RangeReads {
    /** Ranges closer than this are read as one: a request costs more than reading 1 MiB from a store. */
    public static final long MAX_GAP = 1 << 20;

    /** A range of the file: {@code length} bytes from {@code offset}. */
    public record Range(long offset, long length) {
        public long end() {
            return offset + length;
        }
    }

    private final ParquetSource source;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong bytesRead = new AtomicLong();
    private final AtomicLong bytesSkipped = new AtomicLong();

    public RangeReads(ParquetSource source) {
        this.source = source;
    }

    public ParquetSource source() {
        return source;
    }

    /** The counters now. */
    public ReadCounters counters() {
        return new ReadCounters(requests.get(), bytesRead.get(), bytesSkipped.get());
    }

    /** Counts {@code bytes} as skipped without a read (a row group a scan proved holds no match). */
    public void skipped(long bytes) {
        bytesSkipped.addAndGet(bytes);
    }

    /**
     * Reads {@code ranges} (any order, may touch but not overlap) into segments from {@code arena}, one per range
     * in the order given; ranges less than {@link #MAX_GAP} apart share one request and one segment, of which each
     * range gets its slice. {@code skippedAround}: bytes of the unit being read that none of the ranges covers (for
     * the counters).
     */
    public MemorySegment[] read(List<Range> ranges, Arena arena, long skippedAround) throws IOException {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            order.add(i);
        }
        order.sort((a, b) -> Long.compare(ranges.get(a).offset(), ranges.get(b).offset()));
        MemorySegment[] out = new MemorySegment[ranges.size()];
        List<ParquetSource.Read> reads = new ArrayList<>();
        long gaps = 0;
        int i = 0;
        while (i < order.size()) {
            long start = ranges.get(order.get(i)).offset();
            long end = ranges.get(order.get(i)).end();
            int j = i + 1;
            while (j < order.size() && ranges.get(order.get(j)).offset() - end <= MAX_GAP
                    && ranges.get(order.get(j)).offset() >= end) {
                gaps += ranges.get(order.get(j)).offset() - end;
                end = Math.max(end, ranges.get(order.get(j)).end());
                j++;
            }
            MemorySegment merged = arena.allocate(end - start, 8);
            reads.add(new ParquetSource.Read(start, merged));
            for (int k = i; k < j; k++) {
                Range r = ranges.get(order.get(k));
                out[order.get(k)] = merged.asSlice(r.offset() - start, r.length());
            }
            i = j;
        }
        source.readAll(reads);
        long total = 0;
        for (ParquetSource.Read r : reads) {
            total += r.destination().byteSize();
        }
        requests.addAndGet(reads.size());
        bytesRead.addAndGet(total);
        bytesSkipped.addAndGet(Math.max(0, skippedAround - gaps));
        return out;
    }

    /** Reads one range into a segment from {@code arena}: metadata (footer, page index, bloom filter). */
    public MemorySegment readOne(long offset, long length, Arena arena) throws IOException {
        MemorySegment bytes = arena.allocate(length, 8);
        source.read(offset, bytes);
        requests.incrementAndGet();
        bytesRead.addAndGet(length);
        return bytes;
    }
}
