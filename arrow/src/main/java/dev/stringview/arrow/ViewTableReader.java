package dev.stringview.arrow;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Batches read one after the other from an Arrow IPC file or stream ({@link ArrowIpc#open}) or an imported C
 * stream ({@link ArrowCData#importStream}). Each batch is validated before it is returned. Its columns stay
 * readable until the arena given when the reader was opened closes, also after the reader itself is closed; closing
 * the reader releases the source (the file, or the producer's stream). Not thread-safe.
 */
public final class ViewTableReader implements Iterator<ViewTable>, AutoCloseable {
    /** Where the batches come from. */
    interface Source extends AutoCloseable {
        /** The next batch, or null at the end. */
        ViewTable read() throws Exception;

        @Override
        void close() throws Exception;
    }

    private final Source source;
    private ViewTable next;
    private boolean done;
    private boolean closed;
    private int batches;

    ViewTableReader(Source source) {
        this.source = source;
    }

    @Override
    public boolean hasNext() {
        if (next == null && !done) {
            if (closed) {
                throw new IllegalStateException("reader is closed: batchesRead=" + batches);
            }
            try {
                next = source.read();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new ArrowDataException("cannot read batch: batch=" + batches + " " + e.getMessage(), e);
            }
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
