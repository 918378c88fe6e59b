package dev.stringview.spark.internal;

import dev.stringview.spark.internal.StringFilter.And;
import dev.stringview.spark.internal.StringFilter.Leaf;
import dev.stringview.spark.internal.StringFilter.Not;
import dev.stringview.spark.internal.StringFilter.Or;
import java.util.Arrays;
import java.util.Map;

/**
 * Decides from a row group's column statistics whether a {@link StringFilter} can be TRUE on any of its rows, so
 * that row groups where it cannot are never read. Always errs towards reading: a row group is skipped only when
 * the statistics prove no row can pass.
 *
 * <p>Min and max are the footer's column-chunk statistics as parquet-java presents them: it drops min/max of
 * binary columns whose writer used the old signed byte order (PARQUET-686), so the bounds that remain are in
 * unsigned byte order, which is the order our kernels and Spark's UTF8_BINARY collation use. Writers may truncate
 * them; a truncated min is still a lower bound and writers round a truncated max up, so both stay bounds.
 */
final class RowGroupStatistics {
    /** One column chunk's statistics: null bounds when unknown, {@code nulls} -1 when unknown. */
    record ColumnStats(byte[] min, byte[] max, long nulls, long rows) {
        boolean allNull() {
            return nulls == rows;
        }
    }

    private RowGroupStatistics() {}

    /** Whether some row of the row group may make {@code filter} TRUE. */
    static boolean mayBeTrue(StringFilter filter, Map<String, ColumnStats> stats) {
        return switch (filter) {
            case Leaf l -> leafMayBeTrue(l, stats.get(l.column()));
            case And a -> mayBeTrue(a.left(), stats) && mayBeTrue(a.right(), stats);
            case Or o -> mayBeTrue(o.left(), stats) || mayBeTrue(o.right(), stats);
            case Not n -> mayBeFalse(n.child(), stats);
        };
    }

    /** Whether some row of the row group may make {@code filter} FALSE. */
    static boolean mayBeFalse(StringFilter filter, Map<String, ColumnStats> stats) {
        return switch (filter) {
            case Leaf l -> leafMayBeFalse(l, stats.get(l.column()));
            case And a -> mayBeFalse(a.left(), stats) || mayBeFalse(a.right(), stats);
            case Or o -> mayBeFalse(o.left(), stats) && mayBeFalse(o.right(), stats);
            case Not n -> mayBeTrue(n.child(), stats);
        };
    }

    private static boolean leafMayBeTrue(Leaf l, ColumnStats s) {
        if (s == null) {
            return true;
        }
        switch (l.op()) {
            case IS_NULL:
                return s.nulls() != 0;
            case IS_NOT_NULL:
                return !s.allNull();
            default:
                break;
        }
        if (s.allNull()) {
            return false; // every value predicate is UNKNOWN on a null
        }
        byte[] min = s.min();
        byte[] max = s.max();
        if (min == null || max == null) {
            return true;
        }
        return switch (l.op()) {
            case EQ -> within(l.constants().get(0), min, max);
            case NE -> !(Arrays.equals(min, max) && Arrays.equals(min, l.constants().get(0)));
            case LT -> Arrays.compareUnsigned(min, l.constants().get(0)) < 0;
            case LE -> Arrays.compareUnsigned(min, l.constants().get(0)) <= 0;
            case GT -> Arrays.compareUnsigned(max, l.constants().get(0)) > 0;
            case GE -> Arrays.compareUnsigned(max, l.constants().get(0)) >= 0;
            case IN -> l.constants().stream().anyMatch(c -> within(c, min, max));
            case STARTS_WITH -> prefixMayOccur(l.constants().get(0), min, max);
            case STARTS_WITH_ANY -> l.constants().stream().anyMatch(p -> prefixMayOccur(p, min, max));
            default -> true; // ENDS_WITH, CONTAINS, LIKE_ANY: bounds say nothing
        };
    }

    private static boolean leafMayBeFalse(Leaf l, ColumnStats s) {
        if (s == null) {
            return true;
        }
        return switch (l.op()) {
            case IS_NULL -> !s.allNull();
            case IS_NOT_NULL -> s.nulls() != 0;
            // A value predicate is FALSE only on non-null rows, and never with a NULL among its constants.
            default -> !l.nullConstant() && !s.allNull();
        };
    }

    private static boolean within(byte[] value, byte[] min, byte[] max) {
        return Arrays.compareUnsigned(min, value) <= 0 && Arrays.compareUnsigned(value, max) <= 0;
    }

    /**
     * Whether a value starting with {@code prefix} may lie in [min, max]: such values lie in [prefix,
     * prefix + 0xFF...], which meets [min, max] exactly when {@code max >= prefix} and min cut to the prefix's
     * length is {@code <= prefix}.
     */
    private static boolean prefixMayOccur(byte[] prefix, byte[] min, byte[] max) {
        byte[] minCut = Arrays.copyOf(min, Math.min(min.length, prefix.length));
        return Arrays.compareUnsigned(max, prefix) >= 0 && Arrays.compareUnsigned(minCut, prefix) <= 0;
    }
}
