package dev.stringview;

import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * SQL LIKE in its general form (patterns that are not a plain equality, prefix, suffix or substring test; those
 * are compiled to the dedicated kernels by {@link ViewPredicates#like}). {@code %} matches any run of
 * characters and {@code _} exactly one: a code point in a UTF-8 column, a byte in a binary one. Rows shorter
 * than the pattern's minimum and rows whose prefix word contradicts the pattern's leading literal are ruled out
 * from the view before any byte is read.
 */
final class LikePredicate extends ViewPredicate {
    /** Pattern item: one character of any value ({@code _}). */
    static final int ANY = -1;
    /** Pattern item: any run of characters ({@code %}). */
    static final int STAR = -2;

    private final int[] items; // literal bytes 0..255, ANY or STAR; no two STARs in a row
    private final int minLength; // bytes a value needs at least
    private final long prefixMask; // leading literal bytes (up to 4) as a masked prefix word
    private final long prefixBits;

    LikePredicate(int[] items) {
        this.items = items.clone();
        int min = 0;
        int leadingLiterals = 0;
        boolean leading = true;
        for (int item : items) {
            if (item != STAR) {
                min++;
            }
            if (leading && item >= 0 && leadingLiterals < 4) {
                leadingLiterals++;
            } else {
                leading = false;
            }
        }
        this.minLength = min;
        long bits = 0;
        for (int k = 0; k < leadingLiterals; k++) {
            bits |= (long) items[k] << (8 * k);
        }
        this.prefixMask = Constant.lowBytesMask(leadingLiterals);
        this.prefixBits = bits;
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        int found = 0;
        if (selection == null) { // the row as induction variable lets the JIT hoist bounds checks
            for (int row = from; row < to; row++) {
                out[found] = row; // written always, kept only on a match: no branch to mispredict
                found += matches(column, views, row) ? 1 : 0;
            }
        } else {
            for (int i = from; i < to; i++) {
                int row = selection[i];
                out[found] = row;
                found += matches(column, views, row) ? 1 : 0;
            }
        }
        return found;
    }

    private boolean matches(ViewColumn column, MemorySegment views, int row) {
        long at = (long) row << 4;
        long w0 = views.get(LAYOUT_LE_LONG, at);
        int length = (int) w0;
        if (length < minLength || ((w0 >>> 32) & prefixMask) != prefixBits || !column.isValid(row)) {
            return false;
        }
        long w1 = views.get(LAYOUT_LE_LONG, at + 8);
        return matches(column.dataSegment(row, w0, w1), column.dataOffset(row, w0, w1), length,
                column.kind() == ViewKind.UTF8);
    }

    /**
     * Wildcard matching with one backtracking point (the latest {@code %}): linear for most patterns,
     * O(value x pattern) at worst, no allocation. Positions advance by whole characters in UTF-8 mode, so
     * {@code _} never matches part of a multi-byte character.
     */
    boolean matches(MemorySegment data, long offset, int length, boolean utf8) {
        int p = 0;
        int s = 0;
        int starP = -1;
        int starS = 0;
        while (s < length) {
            if (p < items.length) {
                int item = items[p];
                if (item == STAR) {
                    starP = p++;
                    starS = s;
                    continue;
                }
                if (item == ANY) {
                    s += characterLength(data, offset, s, length, utf8);
                    p++;
                    continue;
                }
                if ((data.get(ValueLayout.JAVA_BYTE, offset + s) & 0xFF) == item) {
                    s++;
                    p++;
                    continue;
                }
            }
            if (starP < 0) {
                return false;
            }
            p = starP + 1;
            starS += characterLength(data, offset, starS, length, utf8);
            s = starS;
        }
        while (p < items.length && items[p] == STAR) {
            p++;
        }
        return p == items.length;
    }

    private static int characterLength(MemorySegment data, long offset, int at, int length, boolean utf8) {
        if (!utf8) {
            return 1;
        }
        int lead = data.get(ValueLayout.JAVA_BYTE, offset + at) & 0xFF;
        int n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        return Math.min(n, length - at);
    }
}
