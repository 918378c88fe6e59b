package dev.stringview.arrow;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Batches read one after the other from an Arrow IPC file or stream ({@link ArrowIpc#open}) or an imported C
 * stream ({@link ArrowCData#importStream}). Each batch is validated before it is returned. Its columns stay
 * readable until the arena given when the reader was opened (or to {@link #nextInto}) closes, also after the reader
 * itself is closed; the caller closes that arena. Closing the reader releases the source (the file, or the
 * producer's stream). Not thread-safe.
 */
public final class ViewTableReader implements Iterator<ViewTable>, AutoCloseable {
    /** Where the batches come from. */
    interface Source extends AutoCloseable {
        /** The next batch with its columns in {@code arena}, or null at the end. */
        ViewTable read(java.lang.foreign.Arena arena) throws Exception;

        @Override
        void close() throws Exception;
    }

    private final Source source;
    private final java.lang.foreign.Arena arena;
    private ViewTable next;
    private boolean done;
    private boolean closed;
    private int batches;

    ViewTableReader(Source source, java.lang.foreign.Arena arena) {
        this.source = source;
        this.arena = arena;
    }

    @Override
    public boolean hasNext() {
        if (next == null && !done) {
            if (closed) {
                throw new IllegalStateException("reader is closed: batchesRead=" + batches);
            }
            next = read(arena);
            done = next == null;
        }
        return next != null;
    }

    @Override
    public ViewTable next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more batches: batchesRead=" + batches);
        }
        ViewTable result = next;
        next = null;
        batches++;
        return result;
    }

    /**
     * The next batch with its columns (and the references they hold on the source's buffers) in {@code batchArena}
     * instead of the reader's arena, or null at the end. Closing {@code batchArena} before asking for the next batch
     * lets the source reuse the batch's memory, as engines do; the reader's arena then holds nothing. A batch that
     * {@link #hasNext} has already read stays in the reader's arena and is returned first.
     */
    public ViewTable nextInto(java.lang.foreign.Arena batchArena) {
        if (next != null) {
            ViewTable result = next;
            next = null;
            batches++;
            return result;
        }
        if (done) {
            return null;
        }
        if (closed) {
            throw new IllegalStateException("reader is closed: batchesRead=" + batches);
        }
        ViewTable result = read(batchArena);
        if (result == null) {
            done = true;
        } else {
            batches++;
        }
        return result;
    }

    private ViewTable read(java.lang.foreign.Arena into) {
        try {
            return source.read(into);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new ArrowDataException("cannot read batch: batch=" + batches + " " + e.getMessage(), e);
        }
    }

    /** Number of batches returned so far. */
    public int batchesRead() {
        return batches;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            source.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot close reader: " + e.getMessage(), e);
        }
    }
}
