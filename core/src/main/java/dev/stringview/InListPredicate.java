package dev.stringview;

import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.Hashing;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

/**
 * {@code value IN (c1, c2, ...)}. The constants' first view words (length and prefix) key an open-addressing
 * table; a row probes it with its own first word, so rows matching no constant's length and prefix are
 * rejected from the view. Inline constants then compare the second word; long ones read the row's buffer.
 */
final class InListPredicate extends ViewPredicate {
    private final Constant[] constants;
    private final long[] keys; // word0 per slot
    private final int[] heads; // first constant index per slot, -1 when empty
    private final int[] next; // next constant with the same word0, -1 at the end
    private final int mask;

    InListPredicate(List<Constant> distinct) {
        this.constants = distinct.toArray(Constant[]::new);
        int capacity = Integer.highestOneBit(Math.max(4, constants.length * 4 - 1)) << 1;
        this.keys = new long[capacity];
        this.heads = new int[capacity];
        this.next = new int[constants.length];
        this.mask = capacity - 1;
        Arrays.fill(heads, -1);
        for (int c = 0; c < constants.length; c++) {
            long key = constants[c].word0;
            int slot = slot(key);
            while (heads[slot] >= 0 && keys[slot] != key) {
                slot = (slot + 1) & mask;
            }
            keys[slot] = key;
            next[c] = heads[slot];
            heads[slot] = c;
        }
    }

    private int slot(long word0) {
        return (int) Hashing.fmix64(word0) & mask;
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
        int slot = slot(w0);
        while (heads[slot] >= 0 && keys[slot] != w0) {
            slot = (slot + 1) & mask;
        }
        if (heads[slot] < 0 || !column.isValid(row)) {
            return false;
        }
        long w1 = views.get(LAYOUT_LE_LONG, at + 8);
        for (int c = heads[slot]; c >= 0; c = next[c]) {
            Constant constant = constants[c];
            if (constant.isInline() ? w1 == constant.word1
                    : constant.equalsAfterPrefix(column.bufferArray()[(int) w1], w1 >>> 32)) {
                return true;
            }
        }
        return false;
    }
}
