package dev.stringview.spark.internal;

import dev.stringview.parquet.ChunkBounds;
import dev.stringview.spark.internal.StringFilter.And;
import dev.stringview.spark.internal.StringFilter.Leaf;
import dev.stringview.spark.internal.StringFilter.Not;
import dev.stringview.spark.internal.StringFilter.Or;
import java.util.Map;

/**
 * Decides from a row group's column statistics whether a {@link StringFilter} can be TRUE on any of its rows, so
 * that row groups where it cannot are never read. Always errs towards reading: a row group is skipped only when
 * the statistics prove no row can pass.
 *
 * <p>The bounds and null counts are {@link ChunkBounds}, shared with ParquetScan and the Flink connector.
 */
final class RowGroupStatistics {
    private RowGroupStatistics() {}

    /** Whether some row of the row group may make {@code filter} TRUE. */
    static boolean mayBeTrue(StringFilter filter, Map<String, ChunkBounds> stats) {
        return switch (filter) {
            case Leaf l -> leafMayBeTrue(l, stats.get(l.column()));
            case And a -> mayBeTrue(a.left(), stats) && mayBeTrue(a.right(), stats);
            case Or o -> mayBeTrue(o.left(), stats) || mayBeTrue(o.right(), stats);
            case Not n -> mayBeFalse(n.child(), stats);
        };
    }

    /** Whether some row of the row group may make {@code filter} FALSE. */
    static boolean mayBeFalse(StringFilter filter, Map<String, ChunkBounds> stats) {
        return switch (filter) {
            case Leaf l -> leafMayBeFalse(l, stats.get(l.column()));
            case And a -> mayBeFalse(a.left(), stats) || mayBeFalse(a.right(), stats);
            case Or o -> mayBeFalse(o.left(), stats) && mayBeFalse(o.right(), stats);
            case Not n -> mayBeTrue(n.child(), stats);
        };
    }

    private static boolean leafMayBeTrue(Leaf l, ChunkBounds s) {
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
        return switch (l.op()) {
            case EQ -> s.mayContain(l.constants().get(0));
            case NE -> s.mayDiffer(l.constants().get(0));
            case LT -> s.mayBeLess(l.constants().get(0), false);
            case LE -> s.mayBeLess(l.constants().get(0), true);
            case GT -> s.mayBeGreater(l.constants().get(0), false);
            case GE -> s.mayBeGreater(l.constants().get(0), true);
            case IN -> l.constants().stream().anyMatch(s::mayContain);
            case STARTS_WITH -> s.mayStartWith(l.constants().get(0));
            case STARTS_WITH_ANY -> l.constants().stream().anyMatch(s::mayStartWith);
            default -> true; // ENDS_WITH, CONTAINS, LIKE_ANY: bounds say nothing
        };
    }

    private static boolean leafMayBeFalse(Leaf l, ChunkBounds s) {
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
}
