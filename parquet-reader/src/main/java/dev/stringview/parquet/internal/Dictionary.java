package dev.stringview.parquet.internal;

import java.lang.foreign.MemorySegment;

/**
 * A column chunk's dictionary, decoded once: the views of its entries as pairs of little-endian words (a long
 * entry's word1 holds its offset in {@link #buffer} and buffer index 0, filled in per batch), and the buffer
 * they point into: the dictionary page as mapped, or as decompressed. Every data page of the chunk shares it.
 */
final class Dictionary {
    final MemorySegment buffer;
    final long[] words;
    final int size;

    private Dictionary(MemorySegment buffer, long[] words, int size) {
        this.buffer = buffer;
        this.words = words;
        this.size = size;
    }

    /** Decodes {@code count} PLAIN values from {@code [start, end)} of {@code buffer}. */
    static Dictionary decode(MemorySegment buffer, long base, long start, long end, int count, boolean validateUtf8) {
        if ((long) count * 4 > end - start) {
            throw new CorruptDataException("dictionary claims more entries than its page holds: entries=" + count
                    + " pageSize=" + (end - start) + " minBytesPerEntry=4");
        }
        long[] words = new long[2 * count];
        long[] scratch = new long[2];
        long p = start;
        long watermark = start;
        boolean watermarkAtPrefix = true;
        int watermarkValue = 0;
        for (int i = 0; i < count; i++) {
            if (end - p < 4) {
                throw new CorruptDataException("dictionary entry length beyond page: entry=" + i + " offset="
                        + (p - base) + " pageSize=" + (end - base));
            }
            int length = buffer.get(ViewSink.LE_INT, p);
            long valueStart = p + 4;
            if (length < 0 || length > end - valueStart) {
                throw new CorruptDataException("dictionary entry beyond page: entry=" + i + " offset=" + (p - base)
                        + " length=" + length + " pageSize=" + (end - base));
            }
            if (length <= 12) {
                ViewSink.inlineWords(buffer, valueStart, length, scratch);
                words[2 * i] = scratch[0];
                words[2 * i + 1] = scratch[1];
            } else {
                if (valueStart > Integer.MAX_VALUE) {
                    throw new CorruptDataException("dictionary entry offset beyond int32: entry=" + i + " offset="
                            + valueStart);
                }
                words[2 * i] = (length & 0xFFFF_FFFFL) | ((long) buffer.get(ViewSink.LE_INT, valueStart) << 32);
                words[2 * i + 1] = valueStart << 32;
            }
            if (validateUtf8 && length >= 128) {
                Utf8Check.plainRun(buffer, watermark, p, watermarkAtPrefix, watermarkValue, base);
                watermark = valueStart;
                watermarkAtPrefix = false;
                watermarkValue = i;
            }
            p = valueStart + length;
        }
        if (validateUtf8) {
            Utf8Check.plainRun(buffer, watermark, p, watermarkAtPrefix, watermarkValue, base);
        }
        return new Dictionary(buffer, words, count);
    }
}
