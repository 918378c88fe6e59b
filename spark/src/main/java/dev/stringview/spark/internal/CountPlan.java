package dev.stringview.spark.internal;

import dev.stringview.ViewPredicate;
import dev.stringview.ViewPredicates;
import dev.stringview.parquet.ColumnFilter;
import dev.stringview.parquet.ParquetScan;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.spark.internal.StringFilter.And;
import dev.stringview.spark.internal.StringFilter.Leaf;
import dev.stringview.spark.internal.StringFilter.Op;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.types.StructType;

/**
 * A pushed-down {@code COUNT(*)} / {@code COUNT(column)} without GROUP BY, shipped to the executors: per aggregate,
 * the rows it counts, as a {@link StringFilter} (null: every row). {@code COUNT(*)} counts the rows where the pushed
 * filter is TRUE; {@code COUNT(s)} those where it is TRUE and {@code s} is not null.
 *
 * <p>How a partition counts one aggregate ({@link #count}):
 * <ul>
 *   <li>no filter: the row group's row count from the footer, nothing read;
 *   <li>one leaf that core has a single predicate for ({@link #columnFilter}): parquet-reader's
 *       {@link ParquetScan#countRowGroup}, which skips by statistics, bloom filters and the page index, decides
 *       dictionary-encoded pages by their ids, and can count a slice of a row group, so one large row group still
 *       keeps every task slot busy;
 *   <li>anything else (AND/OR/NOT trees, several columns, null tests): the filter columns read in batches as the
 *       row scan reads them ({@link RowGroupReader}), counting the rows the filter keeps.
 * </ul>
 * All three are exact: they count the rows Spark would count after reading every row.
 */
record CountPlan(StructType table, List<StringFilter> counts, int batchSize, boolean validateUtf8)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    CountPlan {
        counts = java.util.Collections.unmodifiableList(new ArrayList<>(counts)); // may hold nulls
    }

    /** Whether every aggregate is counted without the row reader, so that slicing a row group pays. */
    boolean sliceable() {
        return counts.stream().allMatch(f -> f == null || columnFilter(f) != null);
    }

    /** The counts of one partition, one per aggregate. */
    long[] count(CountPartition p) throws IOException {
        long[] out = new long[counts.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = count(p, counts.get(i));
        }
        return out;
    }

    private long count(CountPartition p, StringFilter filter) throws IOException {
        if (filter == null) {
            return p.slice() == 0 ? p.rows() : 0;
        }
        ColumnFilter single = columnFilter(filter);
        if (single != null) {
            return ParquetScan.of(Path.of(p.file()))
                    .withOptions(ParquetViewOptions.defaults().withBatchSize(batchSize)
                            .withUtf8Validation(validateUtf8))
                    .countRowGroup(single, p.rowGroup(), p.slice(), p.slices());
        }
        if (p.slice() != 0) {
            return 0; // read whole by slice 0
        }
        long n = 0;
        ScanPlan plan = ScanPlan.of(table, new StructType(), filter, batchSize, validateUtf8);
        try (RowGroupReader reader = new RowGroupReader(new RowGroupPartition(p.file(), p.rowGroup(), p.rows()),
                plan)) {
            while (reader.next()) {
                n += reader.get().numRows();
            }
        }
        return n;
    }

    /**
     * {@code filter} as one parquet-reader column filter whose matches are exactly its TRUE rows, or null. A value
     * leaf is TRUE exactly where its kernel matches a non-null value, which is what a {@link ColumnFilter} counts
     * (it never matches a null); a NULL among IN's constants only removes FALSE rows. {@code COUNT(s)}'s extra
     * {@code s IS NOT NULL} is dropped when a value leaf on {@code s} already implies it. Equality, IN, {@code <},
     * {@code >} and prefix keep their kinds, so that statistics, bloom filters and the page index can skip.
     */
    static ColumnFilter columnFilter(StringFilter filter) {
        Leaf l = singleValueLeaf(filter);
        if (l == null) {
            return null;
        }
        String column = l.column();
        List<byte[]> c = l.constants();
        List<String> text = utf8(c);
        return switch (l.op()) {
            case EQ -> text != null ? ColumnFilter.equalTo(column, text.get(0))
                    : ColumnFilter.of(column, ViewPredicates.equalTo(c.get(0)));
            case IN -> c.isEmpty() ? null : text != null ? ColumnFilter.in(column, text.toArray(String[]::new))
                    : ColumnFilter.of(column, ViewPredicates.in(c));
            case LT -> text != null ? ColumnFilter.lessThan(column, text.get(0))
                    : of(column, ViewPredicates.compare(dev.stringview.Comparison.LESS_THAN, c.get(0)));
            case GT -> text != null ? ColumnFilter.greaterThan(column, text.get(0))
                    : of(column, ViewPredicates.compare(dev.stringview.Comparison.GREATER_THAN, c.get(0)));
            case LE -> of(column, ViewPredicates.compare(dev.stringview.Comparison.LESS_THAN_OR_EQUAL, c.get(0)));
            case GE -> of(column, ViewPredicates.compare(dev.stringview.Comparison.GREATER_THAN_OR_EQUAL,
                    c.get(0)));
            case NE -> of(column, ViewPredicates.notEqualTo(c.get(0)));
            case STARTS_WITH -> text != null ? ColumnFilter.startsWith(column, text.get(0))
                    : of(column, ViewPredicates.startsWith(c.get(0)));
            case ENDS_WITH -> of(column, ViewPredicates.endsWith(c.get(0)));
            case CONTAINS -> of(column, ViewPredicates.contains(c.get(0)));
            case STARTS_WITH_ANY -> c.size() != 1 ? null : text != null
                    ? ColumnFilter.startsWith(column, text.get(0)) : of(column, ViewPredicates.startsWith(c.get(0)));
            case LIKE_ANY -> c.size() != 1 ? null
                    : of(column, ViewPredicates.like(new String(c.get(0), StandardCharsets.UTF_8), '\\'));
            case IS_NULL, IS_NOT_NULL -> null;
        };
    }

    /**
     * The one value leaf that decides {@code filter}, or null: {@code filter} must be an AND of leaves of which one
     * is a value predicate on a column {@code s} and every other is {@code s IS NOT NULL}, which the value leaf
     * implies (it is TRUE only on non-null rows). Spark adds such null tests itself ({@code URL LIKE '%google%'}
     * arrives as {@code URL IS NOT NULL AND CONTAINS(URL, 'google')}), and {@code COUNT(s)} adds one.
     */
    private static Leaf singleValueLeaf(StringFilter filter) {
        List<Leaf> leaves = new ArrayList<>();
        if (!andedLeaves(filter, leaves)) {
            return null;
        }
        Leaf value = null;
        for (Leaf l : leaves) {
            if (l.op() == Op.IS_NULL) {
                return null;
            }
            if (l.op() != Op.IS_NOT_NULL) {
                if (value != null) {
                    return null;
                }
                value = l;
            }
        }
        for (Leaf l : leaves) {
            if (value == null || !l.column().equals(value.column())) {
                return null;
            }
        }
        return value;
    }

    private static boolean andedLeaves(StringFilter f, List<Leaf> out) {
        return switch (f) {
            case Leaf l -> out.add(l);
            case And a -> andedLeaves(a.left(), out) && andedLeaves(a.right(), out);
            default -> false;
        };
    }

    private static ColumnFilter of(String column, ViewPredicate predicate) {
        return ColumnFilter.of(column, predicate);
    }

    /** The constants as strings when each is valid UTF-8 (so that the string factories see the same bytes). */
    private static List<String> utf8(List<byte[]> constants) {
        List<String> out = new ArrayList<>();
        for (byte[] b : constants) {
            try {
                String s = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(b)).toString();
                if (!Arrays.equals(s.getBytes(StandardCharsets.UTF_8), b)) {
                    return null;
                }
                out.add(s);
            } catch (CharacterCodingException e) {
                return null;
            }
        }
        return out;
    }
}
