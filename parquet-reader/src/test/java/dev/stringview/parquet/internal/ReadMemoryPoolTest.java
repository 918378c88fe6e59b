package dev.stringview.parquet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The page pool of batch-scoped {@link ReadMemory}: a raw buffer goes back to the pool only once the arena of the
 * page it was lent to is closed (the next batch has started after the page was retired), so it is never handed out
 * while a live batch can still read it. The test JVM grants native access (surefire argLine), so the pool is on.
 */
class ReadMemoryPoolTest {
    @Test
    void aRetiredPageIsNotReusedBeforeTheNextBatchStarts() {
        try (ReadMemory memory = ReadMemory.batchScoped()) {
            Arena first = memory.openBuffer();
            MemorySegment page1 = memory.pageBuffer(first, 1000);
            page1.fill((byte) 7);
            memory.retire(first); // its reader moved on; the batch being built may still point into it
            Arena second = memory.openBuffer();
            MemorySegment page2 = memory.pageBuffer(second, 1000);
            assertNotEquals(page1.address(), page2.address(), "a retired page's memory lent again within the batch");
            page2.fill((byte) 9);
            assertEquals(7, page1.get(ValueLayout.JAVA_BYTE, 999), "the retired page still holds its bytes");
            assertEquals(0, memory.reusedPageBuffers());

            memory.freeRetired(); // the next batch starts: page 1 is stale
            assertThrows(IllegalStateException.class, () -> page1.get(ValueLayout.JAVA_BYTE, 0));
            Arena third = memory.openBuffer();
            MemorySegment page3 = memory.pageBuffer(third, 900);
            assertEquals(1, memory.reusedPageBuffers(), "the freed page's buffer is reused");
            assertEquals(page1.address(), page3.address());
            assertEquals(900, page3.byteSize());
            assertEquals(1000, page2.byteSize());
            assertEquals(9, page2.get(ValueLayout.JAVA_BYTE, 999), "a page still lent is untouched");
            memory.retire(second);
            memory.retire(third);
        }
    }

    /**
     * Many pages per batch, retired in the middle of batches, in random sizes: every page's bytes stay intact until
     * the batch after its retirement starts; buffers are reused; the pool stays bounded; close frees all.
     */
    @Test
    void pagesStayIntactWhileTheirBatchLivesAcrossManyBatches() {
        long seed = 1123;
        Random random = new Random(seed);
        ReadMemory memory = ReadMemory.batchScoped();
        record Page(Arena arena, MemorySegment segment, byte fill) {}
        List<Page> live = new ArrayList<>(); // pages the current batch may still read (lent or retired this batch)
        Page current = null;
        for (int batch = 0; batch < 300; batch++) {
            memory.freeRetired();
            live.removeIf(p -> !p.arena().scope().isAlive());
            int pages = random.nextInt(4);
            for (int p = 0; p < pages; p++) {
                if (current != null) {
                    memory.retire(current.arena());
                }
                Arena arena = memory.openBuffer();
                long size = 1 + random.nextInt(random.nextBoolean() ? 2000 : 300_000);
                byte fill = (byte) random.nextInt(256);
                MemorySegment segment = memory.pageBuffer(arena, size);
                segment.fill(fill);
                current = new Page(arena, segment, fill);
                live.add(current);
                for (Page other : live) {
                    long last = other.segment().byteSize() - 1;
                    assertEquals(other.fill(), other.segment().get(ValueLayout.JAVA_BYTE, last),
                            "a live page was overwritten: seed=" + seed + " batch=" + batch);
                    assertEquals(other.fill(), other.segment().get(ValueLayout.JAVA_BYTE, 0),
                            "a live page was overwritten: seed=" + seed + " batch=" + batch);
                }
            }
            assertTrue(memory.pooledPageBuffers() <= ReadMemory.MAX_POOLED + live.size(),
                    "pool bounded: pooled=" + memory.pooledPageBuffers() + " live=" + live.size());
        }
        assertTrue(memory.reusedPageBuffers() > 100, "reused=" + memory.reusedPageBuffers());
        if (current != null) {
            memory.retire(current.arena());
        }
        memory.close();
        assertEquals(0, memory.pooledPageBuffers(), "close frees every page buffer");
        assertEquals(0, memory.openArenas());
    }

    @Test
    void arenaScopedReadsAllocateFromTheCallersArena() {
        try (Arena arena = Arena.ofConfined()) {
            ReadMemory memory = ReadMemory.of(arena);
            MemorySegment a = memory.pageBuffer(memory.openBuffer(), 100);
            assertEquals(100, a.byteSize());
            assertEquals(0, memory.pooledPageBuffers());
            assertEquals(0, memory.reusedPageBuffers());
        }
    }
}
