package dev.stringview.parquet.internal;

import dev.stringview.parquet.PageInfo.PageViews;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * RLE_DICTIONARY / PLAIN_DICTIONARY data pages: one byte of bit width, then hybrid-encoded ids. Each value costs
 * a copy of its dictionary entry's 16-byte view (with the batch's index of the dictionary buffer); the
 * dictionary's bytes are shared by every page and batch of the chunk.
 */
final class DictionaryDecoder extends ValueDecoder {
    private final Dictionary dictionary;
    private final int[] ids;
    private HybridDecoder decoder;

    DictionaryDecoder(MemorySegment buffer, long base, long start, long end, Dictionary dictionary, int[] scratch) {
        super(buffer, base, start, end, false);
        this.dictionary = dictionary;
        this.ids = scratch;
    }

    private void start() {
        if (decoder == null) {
            decoder = HybridDecoder.dictionaryIds(buffer, start, end, base);
        }
    }

    private void checkId(int id, int valueIndex) {
        if (id < 0 || id >= dictionary.size) {
            throw new CorruptDataException("dictionary id out of range: valueIndex=" + valueIndex + " id="
                    + (id & 0xFFFF_FFFFL) + " dictionarySize=" + dictionary.size);
        }
    }

    /**
     * Reads the next {@code validCount} ids and decides their rows by one bit lookup each: the rows
     * {@code rowBase + r} for {@code r} in {@code [0, rows)} that are valid ({@code validBits} null: all of them)
     * and whose id is set in {@code matches} are appended to {@code hits} from {@code found}. No view is built.
     *
     * @return the new number of hits
     */
    int selectMatching(long[] matches, int validCount, long[] validBits, int rowBase, int[] hits, int found) {
        start();
        int r = 0;
        int done = 0;
        while (done < validCount) {
            int n = Math.min(ids.length, validCount - done);
            decoder.read(ids, 0, n);
            for (int k = 0; k < n; k++) {
                if (validBits != null) {
                    while ((validBits[r >>> 6] & (1L << r)) == 0) {
                        r++;
                    }
                }
                int id = ids[k];
                checkId(id, decoded + done + k);
                if ((matches[id >>> 6] & (1L << id)) != 0) {
                    hits[found++] = rowBase + r;
                }
                r++;
            }
            done += n;
        }
        decoded += validCount;
        return found;
    }

    @Override
    void decode(ViewSink sink, int row, int count) {
        start();
        long[] words = dictionary.words;
        int bufferIndex = -1;
        int done = 0;
        while (done < count) {
            int n = Math.min(ids.length, count - done);
            decoder.read(ids, 0, n);
            for (int k = 0; k < n; k++) {
                int id = ids[k];
                checkId(id, decoded + done + k);
                long w0 = words[2 * id];
                long w1 = words[2 * id + 1];
                if ((int) w0 > 12) {
                    if (bufferIndex < 0) {
                        bufferIndex = sink.bufferIndex(dictionary.buffer);
                    }
                    w1 |= bufferIndex;
                }
                sink.put(row + done + k, w0, w1);
            }
            done += n;
        }
        decoded += count;
    }

    @Override
    PageViews views(PageViews bufferViews) {
        return PageViews.DICTIONARY;
    }
}
