package dev.stringview.parquet.internal;

import dev.stringview.parquet.PageInfo.PageViews;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * RLE_DICTIONARY / PLAIN_DICTIONARY data pages of a fixed-width column: hybrid-encoded ids
 * ({@link HybridDecoder#dictionaryIds}), each copying its entry's Arrow value from the {@link FixedDictionary}.
 */
final class DictionaryFixedDecoder extends FixedDecoder {
    private final FixedDictionary dictionary;
    private final int[] ids;
    private HybridDecoder decoder;

    DictionaryFixedDecoder(MemorySegment buffer, long base, long start, long end, FixedLayout layout,
            FixedDictionary dictionary, int[] scratch) {
        super(buffer, base, start, end, layout);
        this.dictionary = dictionary;
        this.ids = scratch;
    }

    @Override
    void decode(FixedSink sink, int row, int count) {
        if (decoder == null) {
            decoder = HybridDecoder.dictionaryIds(buffer, start, end, base);
        }
        MemorySegment from = dictionary.values;
        MemorySegment to = sink.values;
        int size = dictionary.size;
        int width = dictionary.width;
        int done = 0;
        while (done < count) {
            int n = Math.min(ids.length, count - done);
            decoder.read(ids, 0, n);
            for (int k = 0; k < n; k++) {
                int id = ids[k];
                if (id < 0 || id >= size) {
                    throw new CorruptDataException("dictionary id out of range: valueIndex=" + (decoded + done + k)
                            + " id=" + (id & 0xFFFF_FFFFL) + " dictionarySize=" + size);
                }
            }
            long at = (long) (row + done) * width;
            switch (width) {
                case 1 -> {
                    for (int k = 0; k < n; k++) {
                        to.set(ValueLayout.JAVA_BYTE, at + k, from.get(ValueLayout.JAVA_BYTE, ids[k]));
                    }
                }
                case 2 -> {
                    for (int k = 0; k < n; k++) {
                        to.set(FixedLayout.LE_SHORT, at + 2L * k, from.get(FixedLayout.LE_SHORT, 2L * ids[k]));
                    }
                }
                case 4 -> {
                    for (int k = 0; k < n; k++) {
                        to.set(ViewSink.LE_INT, at + 4L * k, from.get(ViewSink.LE_INT, 4L * ids[k]));
                    }
                }
                case 8 -> {
                    for (int k = 0; k < n; k++) {
                        to.set(ViewSink.LE_LONG, at + 8L * k, from.get(ViewSink.LE_LONG, 8L * ids[k]));
                    }
                }
                case 16 -> {
                    for (int k = 0; k < n; k++) {
                        long src = 16L * ids[k];
                        to.set(ViewSink.LE_LONG, at + 16L * k, from.get(ViewSink.LE_LONG, src));
                        to.set(ViewSink.LE_LONG, at + 16L * k + 8, from.get(ViewSink.LE_LONG, src + 8));
                    }
                }
                default -> {
                    for (int k = 0; k < n; k++) {
                        MemorySegment.copy(from, (long) width * ids[k], to, at + (long) width * k, width);
                    }
                }
            }
            done += n;
        }
        decoded += count;
    }

    @Override
    PageViews views() {
        return PageViews.DICTIONARY;
    }
}
