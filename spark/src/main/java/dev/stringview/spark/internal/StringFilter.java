package dev.stringview.spark.internal;

import dev.stringview.Comparison;
import dev.stringview.ViewColumn;
import dev.stringview.ViewPredicate;
import dev.stringview.ViewPredicates;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A pushed-down filter on string columns, in SQL's three-valued logic, evaluated by stringview's kernels.
 *
 * <p>The tree is built on the driver from Spark's V2 predicates ({@link PredicateTranslator}) and shipped to the
 * executors, so it holds only serializable descriptions (operator, column, constants); each executor compiles the
 * leaves into {@link ViewPredicate}s once per partition ({@link #compile}).
 *
 * <p>Evaluation gives two bitmaps per batch: the rows where the filter is TRUE and where it is FALSE; the rest are
 * UNKNOWN (SQL NULL). A leaf is TRUE where its kernel matches, FALSE on the other non-null rows (or nowhere, when a
 * constant is NULL: {@code s IN ('a', NULL)} is never false), UNKNOWN on null rows. {@code NOT} swaps TRUE and
 * FALSE, so {@code NOT (s = 'a')} keeps neither the 'a' rows nor the null rows, as Spark itself does. Only the
 * TRUE rows reach Spark.
 */
public sealed interface StringFilter extends Serializable {
    /** Leaf operators. {@code LIKE_ANY} and {@code STARTS_WITH_ANY} come from this module's V2 functions. */
    enum Op { EQ, NE, LT, LE, GT, GE, IN, STARTS_WITH, ENDS_WITH, CONTAINS, IS_NULL, IS_NOT_NULL, LIKE_ANY,
        STARTS_WITH_ANY }

    /**
     * A predicate on one column: {@code constants} has one element for comparisons and string functions, any
     * number for {@code IN} and the functions over arrays, none for the null tests. {@code nullConstant} says a
     * NULL stood among the constants (the leaf is then never FALSE).
     */
    record Leaf(String column, Op op, List<byte[]> constants, boolean nullConstant) implements StringFilter {
        public Leaf {
            constants = List.copyOf(constants);
        }

        @Override
        public String toString() {
            List<String> shown = new ArrayList<>();
            for (byte[] c : constants) {
                shown.add("'" + new String(c, java.nio.charset.StandardCharsets.UTF_8) + "'");
            }
            if (nullConstant) {
                shown.add("NULL");
            }
            return op + "(" + column + (shown.isEmpty() ? "" : ", " + String.join(", ", shown)) + ")";
        }
    }

    record And(StringFilter left, StringFilter right) implements StringFilter {
        @Override
        public String toString() {
            return "(" + left + " AND " + right + ")";
        }
    }

    record Or(StringFilter left, StringFilter right) implements StringFilter {
        @Override
        public String toString() {
            return "(" + left + " OR " + right + ")";
        }
    }

    record Not(StringFilter child) implements StringFilter {
        @Override
        public String toString() {
            return "NOT " + child;
        }
    }

    /** The columns the filter reads. */
    default Set<String> columns() {
        Set<String> out = new java.util.LinkedHashSet<>();
        collectColumns(this, out);
        return out;
    }

    private static void collectColumns(StringFilter f, Set<String> out) {
        switch (f) {
            case Leaf l -> out.add(l.column());
            case And a -> {
                collectColumns(a.left(), out);
                collectColumns(a.right(), out);
            }
            case Or o -> {
                collectColumns(o.left(), out);
                collectColumns(o.right(), out);
            }
            case Not n -> collectColumns(n.child(), out);
        }
    }

    /** Compiles the leaves against the batch's column order: {@code columnNames.indexOf(leaf.column())}. */
    default Compiled compile(List<String> columnNames) {
        return Compiled.of(this, columnNames);
    }

    /** A filter with its kernels compiled, for one reader (not thread-safe: it keeps scratch bitmaps). */
    final class Compiled {
        private final Node root;
        private long[][] scratch = new long[0][];
        private int scratchUsed;

        private Compiled(Node root) {
            this.root = root;
        }

        static Compiled of(StringFilter filter, List<String> columnNames) {
            return new Compiled(node(filter, columnNames));
        }

        private static Node node(StringFilter f, List<String> names) {
            return switch (f) {
                case Leaf l -> {
                    int index = names.indexOf(l.column());
                    if (index < 0) {
                        throw new IllegalArgumentException("filter column not read: column=" + l.column()
                                + " columns=" + names);
                    }
                    yield new LeafNode(index, l.op(), kernels(l), l.nullConstant());
                }
                case And a -> new BinaryNode(true, node(a.left(), names), node(a.right(), names));
                case Or o -> new BinaryNode(false, node(o.left(), names), node(o.right(), names));
                case Not n -> new NotNode(node(n.child(), names));
            };
        }

        /** The kernels whose matches are OR'ed into the leaf's TRUE rows (none for the null tests). */
        private static ViewPredicate[] kernels(Leaf l) {
            List<byte[]> c = l.constants();
            return switch (l.op()) {
                case EQ -> one(ViewPredicates.equalTo(c.get(0)));
                case NE -> one(ViewPredicates.notEqualTo(c.get(0)));
                case LT -> one(ViewPredicates.compare(Comparison.LESS_THAN, c.get(0)));
                case LE -> one(ViewPredicates.compare(Comparison.LESS_THAN_OR_EQUAL, c.get(0)));
                case GT -> one(ViewPredicates.compare(Comparison.GREATER_THAN, c.get(0)));
                case GE -> one(ViewPredicates.compare(Comparison.GREATER_THAN_OR_EQUAL, c.get(0)));
                case IN -> one(ViewPredicates.in(c));
                case STARTS_WITH -> one(ViewPredicates.startsWith(c.get(0)));
                case ENDS_WITH -> one(ViewPredicates.endsWith(c.get(0)));
                case CONTAINS -> one(ViewPredicates.contains(c.get(0)));
                case IS_NULL, IS_NOT_NULL -> new ViewPredicate[0];
                // Spark's LIKE escape character is the backslash (the functions' row path matches the same way).
                case LIKE_ANY -> c.stream().map(p -> ViewPredicates.like(
                        new String(p, java.nio.charset.StandardCharsets.UTF_8), '\\')).toArray(ViewPredicate[]::new);
                case STARTS_WITH_ANY -> c.stream().map(ViewPredicates::startsWith).toArray(ViewPredicate[]::new);
            };
        }

        private static ViewPredicate[] one(ViewPredicate p) {
            return new ViewPredicate[] {p};
        }

        /**
         * Writes the rows of the batch where the filter is TRUE to {@code out}, ascending, and returns how many
         * there are. {@code columns} are the batch's string columns in the order given to {@link #compile}
         * (entries the filter does not read may be null).
         */
        public int select(List<ViewColumn> columns, int rows, int[] out) {
            int words = (rows + 63) >>> 6;
            scratchUsed = 0;
            long[] t = bitmap(words);
            long[] f = bitmap(words);
            root.eval(this, columns, rows, t, f);
            int n = 0;
            for (int w = 0; w < words; w++) {
                long bits = t[w];
                while (bits != 0) {
                    out[n++] = (w << 6) + Long.numberOfTrailingZeros(bits);
                    bits &= bits - 1;
                }
            }
            return n;
        }

        private long[] bitmap(int words) {
            if (scratchUsed == scratch.length) {
                scratch = Arrays.copyOf(scratch, scratch.length + 4);
            }
            long[] b = scratch[scratchUsed];
            if (b == null || b.length < words) {
                b = new long[words];
                scratch[scratchUsed] = b;
            }
            scratchUsed++;
            return b;
        }

        private sealed interface Node permits LeafNode, BinaryNode, NotNode {
            /** Sets t (TRUE rows) and f (FALSE rows) for rows 0..rows-1; other bits of the words are zero. */
            void eval(Compiled ctx, List<ViewColumn> columns, int rows, long[] t, long[] f);
        }

        private record LeafNode(int column, Op op, ViewPredicate[] kernels, boolean nullConstant) implements Node {
            @Override
            public void eval(Compiled ctx, List<ViewColumn> columns, int rows, long[] t, long[] f) {
                ViewColumn c = columns.get(column);
                int words = (rows + 63) >>> 6;
                valid(c, rows, f); // f holds the non-null rows for now
                if (op == Op.IS_NULL || op == Op.IS_NOT_NULL) {
                    for (int w = 0; w < words; w++) {
                        long valid = f[w];
                        long isNull = ~valid & lastWordMask(w, words, rows);
                        t[w] = op == Op.IS_NULL ? isNull : valid;
                        f[w] = op == Op.IS_NULL ? valid : isNull;
                    }
                    return;
                }
                Arrays.fill(t, 0, words, 0L); // no kernel (an empty list of patterns): never TRUE
                if (kernels.length > 0) {
                    kernels[0].mask(c, t);
                }
                if (kernels.length > 1) {
                    long[] more = ctx.bitmap(words);
                    for (int k = 1; k < kernels.length; k++) {
                        kernels[k].mask(c, more);
                        for (int w = 0; w < words; w++) {
                            t[w] |= more[w];
                        }
                    }
                }
                for (int w = 0; w < words; w++) {
                    f[w] = nullConstant ? 0 : f[w] & ~t[w];
                }
            }
        }

        private record BinaryNode(boolean and, Node left, Node right) implements Node {
            @Override
            public void eval(Compiled ctx, List<ViewColumn> columns, int rows, long[] t, long[] f) {
                int words = (rows + 63) >>> 6;
                left.eval(ctx, columns, rows, t, f);
                long[] t2 = ctx.bitmap(words);
                long[] f2 = ctx.bitmap(words);
                right.eval(ctx, columns, rows, t2, f2);
                for (int w = 0; w < words; w++) {
                    if (and) {
                        t[w] &= t2[w];
                        f[w] |= f2[w];
                    } else {
                        t[w] |= t2[w];
                        f[w] &= f2[w];
                    }
                }
            }
        }

        private record NotNode(Node child) implements Node {
            @Override
            public void eval(Compiled ctx, List<ViewColumn> columns, int rows, long[] t, long[] f) {
                child.eval(ctx, columns, rows, f, t);
            }
        }

        /** Writes the column's non-null rows as bits (bit set = valid), a word at a time from its bitmap. */
        private static void valid(ViewColumn c, int rows, long[] bits) {
            int words = (rows + 63) >>> 6;
            if (c.nullCount() == 0) {
                for (int w = 0; w < words; w++) {
                    bits[w] = lastWordMask(w, words, rows);
                }
                return;
            }
            for (int w = 0; w < words; w++) {
                bits[w] = c.validBits(w << 6, Math.min(64, rows - (w << 6)));
            }
        }

        private static long lastWordMask(int w, int words, int rows) {
            return w < words - 1 || (rows & 63) == 0 ? -1L : (1L << (rows & 63)) - 1;
        }
    }
}
