package dev.stringview.flink.internal;

import dev.stringview.Comparison;
import dev.stringview.ViewColumn;
import dev.stringview.ViewPredicate;
import dev.stringview.ViewPredicates;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A pushed filter on string columns, as Flink hands it over ({@code AND}/{@code OR} of leaves; Flink splits the
 * top-level conjunction into separate filters, which the source ANDs again). Only TRUE matters: a source filter
 * keeps the rows where it is TRUE, and without {@code NOT} a row is TRUE for {@code AND}/{@code OR} exactly when
 * its children are, so FALSE and UNKNOWN need not be told apart. Serializable: it travels with the input format.
 */
sealed interface StringFilter extends Serializable {
    enum Op { EQ, NE, LT, LE, GT, GE, IN, LIKE, IS_NULL, IS_NOT_NULL }

    /**
     * A predicate on one column. {@code constants}: one for comparisons and LIKE (the pattern), any number for
     * IN, none for the null tests. {@code escape} is LIKE's escape character, or null for none.
     */
    record Leaf(String column, Op op, List<byte[]> constants, Character escape) implements StringFilter {
        public Leaf {
            constants = List.copyOf(constants);
        }

        @Override
        public String toString() {
            return op + "(" + column + constants.stream().map(c -> ", '" + new String(c, StandardCharsets.UTF_8) + "'")
                    .reduce("", String::concat) + ")";
        }
    }

    record And(List<StringFilter> children) implements StringFilter {
        public And {
            children = List.copyOf(children);
        }
    }

    record Or(List<StringFilter> children) implements StringFilter {
        public Or {
            children = List.copyOf(children);
        }
    }

    /** The columns the filter reads. */
    default Set<String> columns() {
        Set<String> out = new LinkedHashSet<>();
        collect(this, out);
        return out;
    }

    private static void collect(StringFilter f, Set<String> out) {
        switch (f) {
            case Leaf l -> out.add(l.column());
            case And a -> a.children().forEach(c -> collect(c, out));
            case Or o -> o.children().forEach(c -> collect(c, out));
        }
    }

    /** Compiles the kernels against the order of the batch's view columns. Not thread-safe (scratch bitmaps). */
    default Compiled compile(List<String> columnNames) {
        return new Compiled(node(this, columnNames));
    }

    private static Node node(StringFilter f, List<String> names) {
        return switch (f) {
            case Leaf l -> {
                int index = names.indexOf(l.column());
                if (index < 0) {
                    throw new IllegalArgumentException("filter column not read: column=" + l.column() + " columns="
                            + names);
                }
                yield new LeafNode(index, l.op(), kernel(l));
            }
            case And a -> new ListNode(true, a.children().stream().map(c -> node(c, names)).toArray(Node[]::new));
            case Or o -> new ListNode(false, o.children().stream().map(c -> node(c, names)).toArray(Node[]::new));
        };
    }

    private static ViewPredicate kernel(Leaf l) {
        List<byte[]> c = l.constants();
        return switch (l.op()) {
            case EQ -> ViewPredicates.equalTo(c.get(0));
            case NE -> ViewPredicates.notEqualTo(c.get(0));
            case LT -> ViewPredicates.compare(Comparison.LESS_THAN, c.get(0));
            case LE -> ViewPredicates.compare(Comparison.LESS_THAN_OR_EQUAL, c.get(0));
            case GT -> ViewPredicates.compare(Comparison.GREATER_THAN, c.get(0));
            case GE -> ViewPredicates.compare(Comparison.GREATER_THAN_OR_EQUAL, c.get(0));
            case IN -> ViewPredicates.in(c);
            case LIKE -> ViewPredicates.like(new String(c.get(0), StandardCharsets.UTF_8), l.escape());
            case IS_NULL, IS_NOT_NULL -> null;
        };
    }

    /** A filter with its kernels compiled, for one reader. */
    final class Compiled {
        private final Node root;
        private long[][] scratch = new long[0][];
        private int scratchUsed;

        private Compiled(Node root) {
            this.root = root;
        }

        /**
         * Writes the rows of the batch where the filter is TRUE to {@code out}, ascending, and returns their number.
         * {@code columns} are the batch's view columns in the order given to {@link #compile}.
         */
        int select(List<ViewColumn> columns, int rows, int[] out) {
            int words = (rows + 63) >>> 6;
            scratchUsed = 0;
            long[] t = bitmap(words);
            root.eval(this, columns, rows, t);
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
    }

    sealed interface Node permits LeafNode, ListNode {
        /** Sets {@code t} to the rows (0..rows-1) where the node is TRUE; the words' other bits are zero. */
        void eval(Compiled ctx, List<ViewColumn> columns, int rows, long[] t);
    }

    record LeafNode(int column, Op op, ViewPredicate kernel) implements Node {
        @Override
        public void eval(Compiled ctx, List<ViewColumn> columns, int rows, long[] t) {
            ViewColumn c = columns.get(column);
            int words = (rows + 63) >>> 6;
            if (kernel != null) {
                kernel.mask(c, t); // null rows never match (SQL semantics)
                return;
            }
            // The column's validity a word at a time (core's ViewColumn.validBits), not row by row.
            for (int w = 0; w < words; w++) {
                int count = Math.min(64, rows - (w << 6));
                long valid = c.validBits(w << 6, count);
                t[w] = op == Op.IS_NULL ? ~valid & (-1L >>> (64 - count)) : valid;
            }
        }
    }

    record ListNode(boolean and, Node[] children) implements Node {
        @Override
        public void eval(Compiled ctx, List<ViewColumn> columns, int rows, long[] t) {
            int words = (rows + 63) >>> 6;
            children[0].eval(ctx, columns, rows, t);
            long[] other = ctx.bitmap(words);
            for (int i = 1; i < children.length; i++) {
                children[i].eval(ctx, columns, rows, other);
                for (int w = 0; w < words; w++) {
                    t[w] = and ? t[w] & other[w] : t[w] | other[w];
                }
            }
        }
    }
}
