package dev.stringview.parquet.internal;

import dev.stringview.internal.reader.SubstringSearch;
import dev.stringview.parquet.PageInfo.PageViews;
import java.lang.foreign.MemorySegment;

/**
 * PLAIN BYTE_ARRAY: {@code [int32 LE length][bytes]} repeated. Every view of a long value points straight at its
 * bytes in {@link #buffer} (the memory-mapped column chunk, or the decompressed page): nothing is copied but the
 * 16-byte view. UTF-8 is validated in runs broken only at lengths of 128 or more (see {@link Utf8Check}).
 *
 * <p>{@link #selectContaining} decides a substring filter without views: one search runs over the page's whole
 * values section and each occurrence is mapped back to the value holding it.
 */
final class PlainDecoder extends ValueDecoder {
    /** {@link #nextOccurrence} when the needle does not occur again in the page. */
    private static final long NONE = Long.MAX_VALUE;

    private final long bufferSize;
    private long position;
    private long watermark;
    private boolean watermarkAtPrefix = true;
    private int watermarkValue;
    /** The search {@link #occurrence} was found by (null: none yet), kept from one call to the next. */
    private SubstringSearch searchedFor;
    /** The first occurrence of {@link #searchedFor}'s needle at or after some position at most {@link #position}. */
    private long occurrence;

    PlainDecoder(MemorySegment buffer, long base, long start, long end, boolean validateUtf8) {
        super(buffer, base, start, end, validateUtf8);
        this.bufferSize = buffer.byteSize();
        this.position = start;
        this.watermark = start;
    }

    @Override
    void decode(ViewSink sink, int row, int count) {
        MemorySegment data = buffer;
        long p = position;
        long limit = end;
        int bufferIndex = -1;
        boolean validate = validateUtf8;
        for (int i = 0; i < count; i++) {
            int length = checkedLength(data, p, limit, i);
            long valueStart = p + 4;
            if (length <= 12) {
                sink.putInline(row + i, data, valueStart, length, bufferSize);
            } else {
                if (bufferIndex < 0) {
                    bufferIndex = sink.bufferIndex(data);
                }
                sink.putLong(row + i, length, data.get(ViewSink.LE_INT, valueStart), bufferIndex, valueStart);
            }
            if (validate && length >= 128) {
                validateRunBefore(p, decoded + i);
            }
            p = valueStart + length;
        }
        finishValues(count, p);
    }

    /**
     * Decides the next {@code count} rows of the page by whether their value contains {@code search}'s needle,
     * building no view: the rows that do are appended to {@code hits} (from {@code hits[found]}) as
     * {@code rowBase + i}; returns the new {@code found}. {@code valid}: bit {@code i} is set if row {@code i} of
     * these rows has a value (null: all have); null rows have no bytes in the page and never match.
     *
     * <p>The needle is searched for over the values section as one haystack (length prefixes included), so a long
     * run of values without it costs one screening pass and a length load per value. Occurrences are taken in
     * order; one counts for the value it starts in only if it ends inside that value too: one that starts in a
     * length prefix, or runs past the value's end into the next prefix and value, is dropped and the search goes
     * on from the byte after its start. After a match the search goes on from the value's end, since further
     * occurrences in the same value decide nothing. The occurrence found last is kept for the next call, so the
     * page's bytes are screened once however it is cut into batches. Values are checked against the page bounds
     * and validated as UTF-8 exactly as {@link #decode} does.
     */
    int selectContaining(SubstringSearch search, int count, long[] valid, int rowBase, int[] hits, int found) {
        MemorySegment data = buffer;
        long p = position;
        long limit = end;
        boolean validate = validateUtf8;
        int needle = search.needleLength();
        long at = searchedFor == search ? occurrence : nextOccurrence(search, p);
        int values = 0;
        for (int i = 0; i < count; i++) {
            if (valid != null && (valid[i >>> 6] & (1L << i)) == 0) {
                continue;
            }
            int length = checkedLength(data, p, limit, values);
            long valueStart = p + 4;
            long valueEnd = valueStart + length;
            while (at < valueStart) { // starts in a prefix or an earlier value, and did not count there
                at = nextOccurrence(search, at + 1);
            }
            if (at <= valueEnd - needle) {
                hits[found++] = rowBase + i;
                at = nextOccurrence(search, valueEnd);
            }
            if (validate && length >= 128) {
                validateRunBefore(p, decoded + values);
            }
            values++;
            p = valueEnd;
        }
        searchedFor = search;
        occurrence = at;
        finishValues(values, p);
        return found;
    }

    /** The first occurrence of the needle starting at or after {@code from} and ending inside the values section. */
    private long nextOccurrence(SubstringSearch search, long from) {
        if (from > end - search.needleLength()) {
            return NONE;
        }
        long at = search.indexOf(buffer, from, end - from);
        return at < 0 ? NONE : from + at;
    }

    /**
     * Validates the bytes from the watermark up to the length prefix at {@code prefix} of value {@code value},
     * whose length is 128 or more (its bytes may be non-ASCII; see {@link Utf8Check}), and moves the watermark to
     * that value's first byte.
     */
    private void validateRunBefore(long prefix, int value) {
        Utf8Check.plainRun(buffer, watermark, prefix, watermarkAtPrefix, watermarkValue, base);
        watermark = prefix + 4;
        watermarkAtPrefix = false;
        watermarkValue = value;
    }

    /** Ends a call that read {@code values} values, the last ending at {@code p}, validating the run left. */
    private void finishValues(int values, long p) {
        decoded += values;
        position = p;
        if (validateUtf8) {
            Utf8Check.plainRun(buffer, watermark, p, watermarkAtPrefix, watermarkValue, base);
            watermark = p;
            watermarkAtPrefix = true;
            watermarkValue = decoded;
        }
    }

    @Override
    PageViews views(PageViews bufferViews) {
        return bufferViews;
    }

    /**
     * The length prefix at {@code p}, checked so that the prefix and its value end by {@code limit}; past it, the
     * {@code done} values this call decoded are counted and the page error is thrown.
     */
    private int checkedLength(MemorySegment data, long p, long limit, int done) {
        if (limit - p < 4) {
            decoded += done;
            throw beyondPage("value length prefix beyond page", p, 4);
        }
        int length = data.get(ViewSink.LE_INT, p);
        if (length < 0 || length > limit - (p + 4)) {
            decoded += done;
            throw beyondPage("value beyond page", p, length);
        }
        return length;
    }
}
