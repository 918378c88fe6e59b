package dev.stringview.flink.internal;

import dev.stringview.flink.internal.StringFilter.And;
import dev.stringview.flink.internal.StringFilter.Leaf;
import dev.stringview.flink.internal.StringFilter.Or;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveComparator;

/**
 * Decides from a row group's column-chunk statistics whether a pushed {@link StringFilter} can be TRUE on any of
 * its rows, so that the input format makes no split for row groups where it cannot. Errs towards reading: a row
 * group is skipped only when the statistics prove that no row passes.
 *
 * <p>Bounds are used only in unsigned byte order (Parquet's order for strings; parquet-java already drops the
 * bounds of old writers that used the signed order, PARQUET-686), which is the order of our kernels and of Flink's
 * string comparison on UTF-8 bytes. Writers may truncate bounds: a truncated min stays a lower bound and a
 * truncated max is rounded up, so both stay bounds.
 */
final class RowGroupStatistics {
    /** One column chunk's statistics: null bounds when unknown, {@code nulls} -1 when unknown. */
    record ColumnStats(byte[] min, byte[] max, long nulls, long rows) {
        boolean allNull() {
            return rows > 0 && nulls == rows;
        }
    }

    private RowGroupStatistics() {}

    /** Per row group of {@code footer}: the statistics of the top-level {@code columns}, by name. */
    static List<Map<String, ColumnStats>> of(ParquetMetadata footer, Set<String> columns) {
        List<Map<String, ColumnStats>> out = new ArrayList<>();
        for (BlockMetaData block : footer.getBlocks()) {
            Map<String, ColumnStats> stats = new HashMap<>();
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                String[] path = chunk.getPath().toArray();
                if (path.length != 1 || !columns.contains(path[0])) {
                    continue;
                }
                Statistics<?> s;
                try {
                    s = chunk.getStatistics();
                } catch (RuntimeException e) {
                    continue; // unreadable statistics prove nothing
                }
                if (s == null || s.isEmpty()) {
                    continue;
                }
                long nulls = s.isNumNullsSet() ? s.getNumNulls() : -1;
                byte[] min = null;
                byte[] max = null;
                if (s.hasNonNullValue() && s.comparator() == PrimitiveComparator.UNSIGNED_LEXICOGRAPHICAL_BINARY_COMPARATOR
                        && s.genericGetMin() instanceof Binary lo && s.genericGetMax() instanceof Binary hi) {
                    min = lo.getBytes();
                    max = hi.getBytes();
                }
                stats.put(path[0], new ColumnStats(min, max, nulls, block.getRowCount()));
            }
            out.add(stats);
        }
        return out;
    }

    /** Whether some row of the row group may make {@code filter} TRUE. */
    static boolean mayBeTrue(StringFilter filter, Map<String, ColumnStats> stats) {
        return switch (filter) {
            case Leaf l -> leafMayBeTrue(l, stats.get(l.column()));
            case And a -> a.children().stream().allMatch(c -> mayBeTrue(c, stats));
            case Or o -> o.children().stream().anyMatch(c -> mayBeTrue(c, stats));
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
            return false; // a value predicate is never TRUE on a null
        }
        byte[] min = s.min();
        byte[] max = s.max();
        if (min == null || max == null) {
            return true;
        }
        List<byte[]> c = l.constants();
        return switch (l.op()) {
            case EQ -> within(c.get(0), min, max);
            case NE -> !(Arrays.equals(min, max) && Arrays.equals(min, c.get(0)));
            case LT -> Arrays.compareUnsigned(min, c.get(0)) < 0;
            case LE -> Arrays.compareUnsigned(min, c.get(0)) <= 0;
            case GT -> Arrays.compareUnsigned(max, c.get(0)) > 0;
            case GE -> Arrays.compareUnsigned(max, c.get(0)) >= 0;
            case IN -> c.stream().anyMatch(v -> within(v, min, max));
            case LIKE -> likeMayMatch(new String(c.get(0), StandardCharsets.UTF_8), l.escape(), min, max);
            default -> true;
        };
    }

    /**
     * A LIKE pattern without wildcards matches only its literal (an equality); otherwise every match starts with
     * the literal text before the first unescaped {@code %} or {@code _}.
     */
    private static boolean likeMayMatch(String pattern, Character escape, byte[] min, byte[] max) {
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
                return prefixMayOccur(prefix.toByteArray(), min, max);
            }
            byte[] bytes = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
            prefix.write(bytes, 0, bytes.length);
        }
        return within(prefix.toByteArray(), min, max);
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
