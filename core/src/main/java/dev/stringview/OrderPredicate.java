package dev.stringview;

import static dev.stringview.ViewLayout.INLINE_MAX;
import static dev.stringview.ViewLayout.LAYOUT_LE_LONG;

import dev.stringview.internal.ByteRanges;
import java.lang.foreign.MemorySegment;

/**
 * {@code value < constant} and the other orderings, in unsigned bytewise order. The zero-padded 4-byte prefix,
 * read big-endian, orders like the bytes, so a differing prefix decides the row from the view alone; two inline
 * values with equal prefixes are decided by their second view words; only a long value with the constant's
 * prefix reads its buffer.
 */
final class OrderPredicate extends ViewPredicate {
    /** Outcome of a null row: bit 3 is never set in a {@link Comparison} accept mask. */
    private static final int NULL_OUTCOME = 3;

    private final Constant constant;
    private final int acceptMask;

    OrderPredicate(Constant constant, Comparison comparison) {
        this.constant = constant;
        this.acceptMask = comparison.acceptMask;
    }

    @Override
    int selectRows(ViewColumn column, int[] selection, int from, int to, int[] out) {
        MemorySegment views = column.viewSegment();
        // Prefixes read big-endian and zero-extended: their order is the bytes' unsigned order, and the difference
        // of two fits a long with its sign.
        long kp = Integer.toUnsignedLong(constant.prefixBigEndian);
        int mask = acceptMask;
        boolean hasNulls = column.hasNulls();
        int found = 0;
        // The per-row work is written into both loops rather than called: a separately compiled helper grows too
        // large (every segment access carries its checks) for the JIT to inline it back into the loop.
        if (selection == null) { // the row as induction variable lets the JIT hoist bounds checks
            for (int row = from; row < to; row++) {
                long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
                int outcome = prefixOutcome(w0, kp);
                if (outcome == 1 || hasNulls) {
                    outcome = slowOutcome(column, views, row, outcome);
                }
                out[found] = row; // written always, kept only on a match: no branch to mispredict
                found += (mask >>> outcome) & 1;
            }
        } else {
            for (int i = from; i < to; i++) {
                int row = selection[i];
                long w0 = views.get(LAYOUT_LE_LONG, (long) row << 4);
                int outcome = prefixOutcome(w0, kp);
                if (outcome == 1 || hasNulls) {
                    outcome = slowOutcome(column, views, row, outcome);
                }
                out[found] = row;
                found += (mask >>> outcome) & 1;
            }
        }
        return found;
    }

    /**
     * 0, 1 or 2 as the prefix of view word {@code w0} is less than, equal to or greater than {@code kp}, in
     * arithmetic only: a branch here would be mispredicted half the time.
     */
    private static int prefixOutcome(long w0, long kp) {
        long difference = Integer.toUnsignedLong(Integer.reverseBytes((int) (w0 >>> 32))) - kp;
        return 1 + (int) (difference >> 63) + (int) (-difference >>> 63);
    }

    /**
     * The outcome of a row the prefixes could not decide, or of any row of a column with nulls: 0, 1 or 2 for
     * less, equal or greater, and {@link #NULL_OUTCOME} (a bit no accept mask sets) for a null row.
     */
    private int slowOutcome(ViewColumn column, MemorySegment views, int row, int prefixOutcome) {
        if (!column.isValid(row)) {
            return NULL_OUTCOME;
        }
        if (prefixOutcome != 1) {
            return prefixOutcome;
        }
        long at = (long) row << 4;
        long w0 = views.get(LAYOUT_LE_LONG, at);
        return Integer.signum(compareSamePrefix(column, row, w0, views.get(LAYOUT_LE_LONG, at + 8))) + 1;
    }

    /** Compares a non-null row whose zero-padded prefix equals the constant's. */
    private int compareSamePrefix(ViewColumn column, int row, long w0, long w1) {
        int length = (int) w0;
        if (length <= INLINE_MAX && constant.isInline()) {
            int c = Long.compareUnsigned(Long.reverseBytes(w1), Long.reverseBytes(constant.word1));
            return c != 0 ? c : Integer.compare(length, constant.length);
        }
        if (length <= 4 || constant.length <= 4) {
            return Integer.compare(length, constant.length); // the shorter one is a prefix of the other
        }
        return ByteRanges.compare(column.dataSegment(row, w0, w1), column.dataOffset(row, w0, w1) + 4, length - 4,
                constant.segment, 4, constant.length - 4);
    }
}
