package dev.stringview.parquet.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the off-heap buffers of one read come from, and when they are freed.
 *
 * <ul>
 *   <li><b>Arena-scoped</b> ({@link #of}): every buffer comes from the caller's arena and lives as long as it.
 *       Memory grows with what has been read.
 *   <li><b>Batch-scoped</b> ({@link #batchScoped}): each batch's views and validity get an arena of their own,
 *       closed when the next batch starts. Every other buffer (a decompressed page, a dictionary, a block of
 *       rebuilt DELTA_BYTE_ARRAY values) gets an arena of its own too. Its reader {@linkplain #retire retires}
 *       it once it will not read it again, and it is closed when the next batch starts, because the batch being
 *       built may still point into it. Live memory stays at about one batch and a few pages per column, and a
 *       stale batch throws {@link IllegalStateException} instead of reading freed memory.
 * </ul>
 *
 * <p>Why free at all: memory then stays bounded however long the file, and a scan reuses memory that is warm
 * instead of faulting in fresh pages. Why confined arenas: closing a shared arena makes every JVM thread stop at a
 * handshake, and with one close per batch and per page that made batch-scoped Q20 scans 20-40% slower than
 * arena-scoped ones in a harness (docs/parquet.md); confined arenas close at no such cost. So a
 * batch-scoped read belongs to the thread that opened the reader: {@link #freeRetired} and {@link #close} from
 * another thread throw {@link WrongThreadException}, as reading its batches from another thread does.
 *
 * <p><b>Page pool</b> (batch-scoped only). {@code Arena.allocate} zero-fills every buffer and, for large ones,
 * faults in fresh memory. Decompressed pages therefore come from a pool of raw buffers instead: a page gets a raw
 * buffer of at least its size, seen through a segment whose scope is the page's own arena
 * ({@link MemorySegment#reinterpret(long, Arena, java.util.function.Consumer)}). Closing that arena, when the next
 * batch starts after the page was retired, makes every access through the page's segment throw as before, and
 * only then returns the raw buffer to the pool. So the pool never hands out memory a live batch can still reach:
 * a buffer retired while a batch is being built stays lent until that batch is stale. {@code reinterpret} is a
 * restricted method, so the pool is used only when the JVM grants this module native access; otherwise every page
 * is allocated afresh, as before. At most {@value #MAX_POOLED} raw buffers wait in the pool; more are freed.
 */
public final class ReadMemory implements AutoCloseable {
    private final Arena arena; // the caller's, or null when batch-scoped
    private final Thread owner; // batch-scoped: the only thread that may open and close the arenas
    private final List<Arena> retired = new ArrayList<>();
    private Arena batch;
    private int openArenas;

    /**
     * Whether pages come from the pool: {@code reinterpret} may be called, and the system property
     * {@code stringview.pagePool} is not {@code false} (the switch that measures the pool against fresh pages).
     */
    private static final boolean CAN_POOL = ReadMemory.class.getModule().isNativeAccessEnabled()
            && !"false".equals(System.getProperty("stringview.pagePool"));
    static final int MAX_POOLED = 8;

    /** Raw memory for pages: its own confined arena, so a buffer the pool does not keep can be freed. */
    private record Raw(Arena owner, MemorySegment memory) {}

    /** Raw buffers free for the next page, and those lent to a page's arena until that arena closes. */
    private final ArrayDeque<Raw> pooled = new ArrayDeque<>();
    private final Map<Arena, List<Raw>> lent = new IdentityHashMap<>();
    private long reused;

    private ReadMemory(Arena arena) {
        this.arena = arena;
        this.owner = Thread.currentThread();
    }

    /** Everything from {@code arena}, freed when its owner closes it. */
    public static ReadMemory of(Arena arena) {
        return new ReadMemory(arena);
    }

    /** An arena per batch and per buffer, freed as reading moves on, all confined to the calling thread. */
    public static ReadMemory batchScoped() {
        return new ReadMemory(null);
    }

    /**
     * The arena for the current batch's views and validity. When batch-scoped, it is opened on first use and
     * retired at once: the batch lives until the next {@link #freeRetired}, which comes when the next batch starts.
     */
    public Arena batchArena() {
        if (arena != null) {
            return arena;
        }
        if (batch == null) {
            batch = openBuffer();
            retire(batch);
        }
        return batch;
    }

    /** An arena for one buffer that its reader will {@link #retire}. */
    Arena openBuffer() {
        if (arena != null) {
            return arena;
        }
        openArenas++;
        return Arena.ofConfined();
    }

    /**
     * A buffer of {@code size} bytes for one page, valid while {@code pageArena} (from {@link #openBuffer}) is open.
     * Its bytes are whatever the pool's last user left: the caller overwrites all of it.
     */
    MemorySegment pageBuffer(Arena pageArena, long size) {
        if (arena != null || !CAN_POOL) {
            return pageArena.allocate(size, 8);
        }
        Raw raw = null;
        for (Raw r : pooled) {
            if (r.memory().byteSize() >= size && (raw == null || r.memory().byteSize() < raw.memory().byteSize())) {
                raw = r; // the smallest that fits
            }
        }
        if (raw != null) {
            pooled.remove(raw);
            reused++;
        } else {
            Arena owner = Arena.ofConfined();
            // Rounded up to a power of two (at least 64 KiB), so that pages of similar sizes can share buffers.
            long capacity = Math.max(64 << 10, Long.highestOneBit(Math.max(1, size - 1)) << 1);
            raw = new Raw(owner, owner.allocate(capacity, 8));
        }
        lent.computeIfAbsent(pageArena, a -> new ArrayList<>(1)).add(raw);
        return raw.memory().reinterpret(size, pageArena, null);
    }

    /** How many page buffers came from the pool instead of a new allocation (for tests). */
    public long reusedPageBuffers() {
        return reused;
    }

    /** Raw page buffers this object holds, lent or waiting in the pool (for tests). */
    public int pooledPageBuffers() {
        int n = pooled.size();
        for (List<Raw> l : lent.values()) {
            n += l.size();
        }
        return n;
    }

    /** Arenas this object opened and has not closed yet (0 when arena-scoped); for tests and diagnostics. */
    public int openArenas() {
        return openArenas;
    }

    /**
     * The reader of {@code buffer} will not read it again; the batch being built may still point into it, so it is
     * freed when the next batch starts. Null is ignored.
     */
    void retire(Arena buffer) {
        if (buffer != null && buffer != arena) {
            retired.add(buffer);
        }
    }

    /**
     * Frees every buffer retired until now, the last batch's arena among them. Called when a batch starts and when
     * a row group ends, before anything is read into the new batch, so nothing being read points into them.
     */
    public void freeRetired() {
        freeAll("nextBatch");
    }

    /**
     * Frees the current batch and every retired buffer (batch-scoped only; the caller's arena is the caller's).
     * Readers must have retired their buffers first.
     */
    @Override
    public void close() {
        freeAll("close");
    }

    /** Closes the batch's arena and every retired one, on the owner thread only ({@code operation}: the caller). */
    private void freeAll(String operation) {
        if (arena != null) {
            return;
        }
        checkOwner(operation);
        batch = null; // retired when it was opened: closed below
        Arena[] toClose = retired.toArray(new Arena[0]);
        retired.clear(); // before closing: a close that throws must not leave closed arenas listed
        for (Arena a : toClose) {
            openArenas--;
            a.close();
            List<Raw> back = lent.remove(a); // no segment of a's scope can be read any more
            if (back != null) {
                for (Raw raw : back) {
                    if (pooled.size() < MAX_POOLED && operation.equals("nextBatch")) {
                        pooled.add(raw);
                    } else {
                        raw.owner().close();
                    }
                }
            }
        }
        if (operation.equals("close")) {
            for (Raw raw : pooled) {
                raw.owner().close();
            }
            pooled.clear();
        }
    }

    /** Throws {@link WrongThreadException} unless batch-scoped memory is used from the thread that owns it. */
    public void checkOwner(String operation) {
        if (arena != null) {
            return;
        }
        Thread current = Thread.currentThread();
        if (current != owner) {
            throw new WrongThreadException("batch-scoped memory belongs to the thread that opened the reader: "
                    + "operation=" + operation + " owner=" + owner.getName() + " current=" + current.getName());
        }
    }
}
