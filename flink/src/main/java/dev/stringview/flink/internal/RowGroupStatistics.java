package dev.stringview.flink.internal;

import dev.stringview.flink.internal.StringFilter.And;
import dev.stringview.flink.internal.StringFilter.Leaf;
import dev.stringview.flink.internal.StringFilter.Or;
import dev.stringview.parquet.ChunkBounds;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Decides from a row group's column-chunk statistics whether a pushed {@link StringFilter} can be TRUE on any of
 * its rows, so that the input format makes no split for row groups where it cannot. Errs towards reading: a row
 * group is skipped only when the statistics prove that no row passes.
 *
 * <p>The bounds and null counts are {@link ChunkBounds}, shared with ParquetScan and the Spark source.
 */
final class RowGroupStatistics {
    private RowGroupStatistics() {}

    /** Whether some row of the row group may make {@code filter} TRUE. */
    static boolean mayBeTrue(StringFilter filter, Map<String, ChunkBounds> stats) {
        return switch (filter) {
            case Leaf l -> leafMayBeTrue(l, stats.get(l.column()));
            case And a -> a.children().stream().allMatch(c -> mayBeTrue(c, stats));
            case Or o -> o.children().stream().anyMatch(c -> mayBeTrue(c, stats));
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
            return false; // a value predicate is never TRUE on a null
        }
        List<byte[]> c = l.constants();
        return switch (l.op()) {
            case EQ -> s.mayContain(c.get(0));
            case NE -> s.mayDiffer(c.get(0));
            case LT -> s.mayBeLess(c.get(0), false);
            case LE -> s.mayBeLess(c.get(0), true);
            case GT -> s.mayBeGreater(c.get(0), false);
            case GE -> s.mayBeGreater(c.get(0), true);
            case IN -> c.stream().anyMatch(s::mayContain);
            case LIKE -> likeMayMatch(new String(c.get(0), StandardCharsets.UTF_8), l.escape(), s);
            default -> true;
        };
    }

    /**
     * A LIKE pattern without wildcards matches only its literal (an equality); otherwise every match starts with
     * the literal text before the first unescaped {@code %} or {@code _}.
     */
    private static boolean likeMayMatch(String pattern, Character escape, ChunkBounds s) {
        ByteArrayOutputStream prefix = new ByteArrayOutputStream();
        for (int i = 0; i < pattern.length(); ) {
            int cp = pattern.codePointAt(i);
            i += Character.charCount(cp);
            if (escape != null && cp == escape) {
                if (i >= pattern.length()) {
                    return true; // a malformed pattern: the kernel reports it, the statistics decide nothing
                }
                cp = pattern.codePointAt(i);
                i += Character.charCount(cp);
            } else if (cp == '%' || cp == '_') {
                return s.mayStartWith(prefix.toByteArray());
            }
            byte[] bytes = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
            prefix.write(bytes, 0, bytes.length);
        }
        return s.mayContain(prefix.toByteArray());
    }
}
