package dev.stringview.parquet.internal;

import dev.stringview.Utf8;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * UTF-8 validation of page bytes in long runs instead of value by value (core's {@link Utf8#firstInvalid} does the
 * work).
 *
 * <p><b>PLAIN</b> (values and dictionary pages): each value is preceded by its 4-byte little-endian length. A
 * length below 128 is four ASCII bytes ({@code len, 0, 0, 0}), so validating the prefixes along with the values
 * changes nothing: no ASCII byte can continue a multi-byte sequence, so a sequence cut at the end of one value is
 * still caught, and so is a value that starts with a continuation byte. Decoders keep a watermark and validate
 * {@code [watermark, prefix)} only when they meet a length of 128 or more (whose bytes may not be ASCII), and at
 * the end of each decode call.
 *
 * <p><b>DELTA_LENGTH_BYTE_ARRAY and rebuilt DELTA_BYTE_ARRAY values</b> lie back to back with nothing between
 * them. The whole run is validated at once; then each value must start on a character boundary, that is not
 * with a continuation byte ({@code 10xxxxxx}). A valid run split only at character boundaries splits into valid
 * values, so together the two checks equal validating each value alone.
 */
final class Utf8Check {
    private Utf8Check() {}

    /**
     * Validates a run of PLAIN-encoded bytes {@code [from, to)} of {@code buffer}. {@code fromPrefix} says whether
     * the run starts at a length prefix (else at the first byte of value {@code firstValue}, whose prefix is
     * just before). On failure the value holding the bad byte is named.
     */
    static void plainRun(MemorySegment buffer, long from, long to, boolean fromPrefix, int firstValue, long base) {
        if (to <= from) {
            return;
        }
        long bad = Utf8.firstInvalid(buffer, from, to - from);
        if (bad < 0) {
            return;
        }
        long at = from + bad;
        // Walk the values of the run to name the one holding the bad byte.
        long q = from;
        int value = firstValue;
        if (!fromPrefix) {
            long end = q + buffer.get(ViewSink.LE_INT, q - 4);
            if (at < end) {
                throw invalid(value, at - base, (int) (end - q));
            }
            q = end;
            value++;
        }
        while (q + 4 <= to) {
            int length = buffer.get(ViewSink.LE_INT, q);
            long end = q + 4 + length;
            if (at < end) {
                throw invalid(value, at - base, length);
            }
            q = end;
            value++;
        }
        throw invalid(value, at - base, -1);
    }

    /**
     * Validates values lying back to back from {@code from}, of the given lengths ({@code lengths[0..count)}),
     * the first being value {@code firstValue} of the page.
     */
    static void contiguous(MemorySegment buffer, long from, int[] lengths, int count, int firstValue, long base) {
        long end = from;
        for (int i = 0; i < count; i++) {
            end += lengths[i];
        }
        if (end == from) {
            return;
        }
        long bad = Utf8.firstInvalid(buffer, from, end - from);
        long p = from;
        for (int i = 0; i < count; i++) {
            int length = lengths[i];
            if (bad >= 0 && from + bad < p + length) {
                throw invalid(firstValue + i, from + bad - base, length);
            }
            if (length > 0 && i > 0 && (buffer.get(ValueLayout.JAVA_BYTE, p) & 0xC0) == 0x80) {
                throw invalid(firstValue + i, p - base, length);
            }
            p += length;
        }
        if (bad >= 0) {
            throw invalid(firstValue + count - 1, from + bad - base, -1);
        }
    }

    private static CorruptDataException invalid(int value, long offset, int length) {
        return new CorruptDataException("invalid UTF-8 in a string column: valueIndex=" + value + " offset="
                + offset + " length=" + length);
    }
}
