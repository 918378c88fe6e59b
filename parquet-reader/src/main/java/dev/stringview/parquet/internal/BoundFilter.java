package dev.stringview.parquet.internal;

import dev.stringview.Comparison;
import dev.stringview.ViewColumn;
import dev.stringview.ViewPredicate;
import dev.stringview.ViewPredicates;
import dev.stringview.parquet.RowFilter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * A {@link RowFilter} bound to a file's columns: string leaves compiled to core's predicates, value leaves'
 * constants normalized to their column's {@link ValueDomain}. Evaluates batches in SQL's three-valued logic (a TRUE
 * and a FALSE bitmap; NULL is neither) and derives, for any source of facts about a unit of rows (row-group
 * statistics, a bloom filter, a page's index entry, a dictionary), whether the expression may be TRUE and may be
 * FALSE on some row of the unit. Immutable and safe to share between threads.
 */
public final class BoundFilter {
    /** Bit of a facts value: the expression (or a leaf) may be TRUE for some row of the unit. */
    public static final int MAY_TRUE = 1;
    /** Bit of a facts value: it may be FALSE for some row of the unit. */
    public static final int MAY_FALSE = 2;
    /** Nothing known: both outcomes possible. */
    public static final int UNKNOWN = MAY_TRUE | MAY_FALSE;

    /** A node of the bound tree. */
    public sealed interface Node permits StringLeaf, ValueLeaf, NullLeaf, AndNode, OrNode, NotNode {}

    /**
     * A string leaf: {@code op} and {@code constants} as in {@link RowFilter.StringTest} (a LIKE is {@code like} with
     * its literal {@code prefix}), and the core predicate that decides it.
     */
    public record StringLeaf(String column, RowFilter.Op op, List<byte[]> constants, boolean like, byte[] prefix,
            ViewPredicate predicate) implements Node {}

    /** A value leaf: {@code keys} normalized to {@code domain}. */
    public record ValueLeaf(String column, RowFilter.Op op, ValueDomain domain, Object[] keys) implements Node {}

    public record NullLeaf(String column) implements Node {}

    public record AndNode(List<Node> children) implements Node {}

    public record OrNode(List<Node> children) implements Node {}

    public record NotNode(Node child) implements Node {}

    /** The rows of one batch the filter reads: its string and value columns by name. */
    public interface Rows {
        int size();

        /** The string column {@code column} of the batch. */
        ViewColumn strings(String column);

        /** The fixed-width column {@code column} of the batch. */
        FixedValues values(String column);

        /**
         * Bit {@code i} set where row {@code from + i} of {@code column} is not null, for {@code count <= 64} rows
         * (as {@link ViewColumn#validBits}).
         */
        long validBits(String column, int from, int count);
    }

    /** Facts about one leaf for a unit of rows: {@link #MAY_TRUE} and/or {@link #MAY_FALSE}. */
    @FunctionalInterface
    public interface LeafFacts {
        int of(Node leaf);
    }

    private final RowFilter filter;
    private final Node root;
    private final List<String> columns;

    private BoundFilter(RowFilter filter, Node root) {
        this.filter = filter;
        this.root = root;
        this.columns = filter.columns();
    }

    /**
     * Binds {@code filter}; {@code domainOf} gives each column's domain (and throws, naming the column, for a column
     * the file does not have).
     */
    public static BoundFilter bind(RowFilter filter, Function<String, ValueDomain> domainOf) {
        return new BoundFilter(filter, bindNode(filter, domainOf));
    }

    private static Node bindNode(RowFilter f, Function<String, ValueDomain> domainOf) {
        return switch (f) {
            case RowFilter.StringTest t -> {
                requireBytes(t.column(), domainOf.apply(t.column()), t);
                List<byte[]> values = t.values();
                ViewPredicate p = switch (t.op()) {
                    case EQUAL -> ViewPredicates.equalTo(values.get(0));
                    case NOT_EQUAL -> ViewPredicates.notEqualTo(values.get(0));
                    case LESS_THAN -> ViewPredicates.compare(Comparison.LESS_THAN, values.get(0));
                    case LESS_THAN_OR_EQUAL -> ViewPredicates.compare(Comparison.LESS_THAN_OR_EQUAL, values.get(0));
                    case GREATER_THAN -> ViewPredicates.compare(Comparison.GREATER_THAN, values.get(0));
                    case GREATER_THAN_OR_EQUAL -> ViewPredicates.compare(Comparison.GREATER_THAN_OR_EQUAL,
                            values.get(0));
                    case IN -> ViewPredicates.in(values);
                    case STARTS_WITH -> ViewPredicates.startsWith(values.get(0));
                    case ENDS_WITH -> ViewPredicates.endsWith(values.get(0));
                    case CONTAINS -> ViewPredicates.contains(values.get(0));
                };
                byte[] prefix = t.op() == RowFilter.Op.STARTS_WITH ? values.get(0) : null;
                yield new StringLeaf(t.column(), t.op(), values, false, prefix, p);
            }
            case RowFilter.Like l -> {
                requireBytes(l.column(), domainOf.apply(l.column()), l);
                yield new StringLeaf(l.column(), null, List.of(), true, ViewPredicates.likePrefix(l.pattern(),
                        l.escape()), ViewPredicates.like(l.pattern(), l.escape()));
            }
            case RowFilter.ValueTest v -> {
                ValueDomain domain = domainOf.apply(v.column());
                Object[] keys = new Object[v.values().size()];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = domain.constant(v.values().get(i), v.column());
                }
                yield new ValueLeaf(v.column(), v.op(), domain, keys);
            }
            case RowFilter.IsNull n -> {
                domainOf.apply(n.column());
                yield new NullLeaf(n.column());
            }
            case RowFilter.And a -> new AndNode(a.children().stream().map(c -> bindNode(c, domainOf)).toList());
            case RowFilter.Or o -> new OrNode(o.children().stream().map(c -> bindNode(c, domainOf)).toList());
            case RowFilter.Not n -> new NotNode(bindNode(n.child(), domainOf));
        };
    }

    private static void requireBytes(String column, ValueDomain domain, RowFilter leaf) {
        if (domain.kind() != ValueDomain.Kind.BYTES) {
            throw new IllegalArgumentException("string test on a column that is not a string or binary: column="
                    + column
                    + " physicalType=" + domain.physical() + " order=" + domain.kind() + " filter=" + leaf);
        }
    }

    public RowFilter filter() {
        return filter;
    }

    public Node root() {
        return root;
    }

    /** The columns the filter reads, in first-use order. */
    public List<String> columns() {
        return columns;
    }

    /**
     * The single string leaf whose TRUE rows are exactly the filter's, or null: the case the page-level fast paths
     * decide. Either the filter is that leaf, or an AND of it and {@code NOT (c IS NULL)} on its column {@code c}
     * (engines add such tests: Spark pushes {@code s IS NOT NULL AND s LIKE ...}, COUNT(s) adds one), which the leaf
     * implies where it is TRUE (it is never TRUE on a null). Only the TRUE rows agree (the AND is FALSE on null rows
     * where the leaf is NULL), which is all a count or a selection asks.
     */
    public StringLeaf singleStringLeaf() {
        if (root instanceof StringLeaf s) {
            return s;
        }
        List<Node> conjuncts = new ArrayList<>();
        if (!(root instanceof AndNode) || !flattenAnd(root, conjuncts)) {
            return null;
        }
        StringLeaf leaf = null;
        for (Node n : conjuncts) {
            if (n instanceof StringLeaf s) {
                if (leaf != null) {
                    return null;
                }
                leaf = s;
            } else if (!(n instanceof NotNode not && not.child() instanceof NullLeaf)) {
                return null;
            }
        }
        for (Node n : conjuncts) {
            if (leaf == null || n instanceof NotNode not && !((NullLeaf) not.child()).column().equals(leaf.column())) {
                return null;
            }
        }
        return leaf;
    }

    private static boolean flattenAnd(Node node, List<Node> out) {
        if (node instanceof AndNode a) {
            for (Node c : a.children()) {
                if (!flattenAnd(c, out)) {
                    return false;
                }
            }
            return true;
        }
        out.add(node);
        return true;
    }

    // ---- evaluation

    /**
     * Evaluates every row of {@code rows}: bit {@code r} of {@code trueBits} is set where the filter is TRUE, of
     * {@code falseBits} where it is FALSE (neither: NULL). Both need {@code ceil(size / 64)} words.
     */
    public void evaluate(Rows rows, long[] trueBits, long[] falseBits) {
        evaluate(root, rows, trueBits, falseBits);
    }

    private static void evaluate(Node node, Rows rows, long[] t, long[] f) {
        int n = rows.size();
        int words = (n + 63) >>> 6;
        switch (node) {
            case StringLeaf s -> {
                ViewColumn column = rows.strings(s.column());
                s.predicate().mask(column, t);
                for (int w = 0; w < words; w++) {
                    f[w] = column.validBits(w << 6, Math.min(64, n - (w << 6))) & ~t[w];
                }
            }
            case NullLeaf nl -> {
                for (int w = 0; w < words; w++) {
                    int count = Math.min(64, n - (w << 6));
                    long valid = rows.validBits(nl.column(), w << 6, count);
                    long all = count == 64 ? -1L : (1L << count) - 1;
                    t[w] = ~valid & all;
                    f[w] = valid & all;
                }
            }
            case ValueLeaf v -> evaluateValues(v, rows.values(v.column()), n, t, f);
            case AndNode a -> {
                Arrays.fill(t, 0, words, -1L);
                Arrays.fill(f, 0, words, 0L);
                long[] ct = new long[words];
                long[] cf = new long[words];
                for (Node c : a.children()) {
                    evaluate(c, rows, ct, cf);
                    for (int w = 0; w < words; w++) {
                        t[w] &= ct[w];
                        f[w] |= cf[w];
                    }
                }
                clearTail(t, n);
            }
            case OrNode o -> {
                Arrays.fill(t, 0, words, 0L);
                Arrays.fill(f, 0, words, -1L);
                long[] ct = new long[words];
                long[] cf = new long[words];
                for (Node c : o.children()) {
                    evaluate(c, rows, ct, cf);
                    for (int w = 0; w < words; w++) {
                        t[w] |= ct[w];
                        f[w] &= cf[w];
                    }
                }
                clearTail(f, n);
            }
            case NotNode not -> evaluate(not.child(), rows, f, t);
        }
    }

    private static void clearTail(long[] bits, int n) {
        if ((n & 63) != 0) {
            bits[n >>> 6] &= (1L << n) - 1;
        }
    }

    private static void evaluateValues(ValueLeaf v, FixedValues values, int n, long[] t, long[] f) {
        Arrays.fill(t, 0, (n + 63) >>> 6, 0L);
        Arrays.fill(f, 0, (n + 63) >>> 6, 0L);
        ValueDomain domain = values.domain();
        if (domain.kind() != v.domain().kind() || domain.scale() != v.domain().scale()) {
            throw new IllegalArgumentException("column values differ from the filter's binding: column=" + v.column()
                    + " bound=" + v.domain() + " values=" + domain);
        }
        if (domain.kind() == ValueDomain.Kind.SIGNED && v.op() != RowFilter.Op.IN
                && v.keys()[0] instanceof Long key) {
            // The common case (an integer, date or timestamp against one constant): the same comparison as
            // below, on the values read in one pass, without a comparator per row.
            long[] x = new long[n];
            values.getLongs(n, x);
            long k = key;
            RowFilter.Op op = v.op();
            boolean nulls = values.mayHaveNulls();
            for (int r = 0; r < n; r++) {
                if (nulls && values.isNull(r)) {
                    continue;
                }
                long bit = 1L << r;
                if (holds(op, Long.compare(x[r], k))) {
                    t[r >>> 6] |= bit;
                } else {
                    f[r >>> 6] |= bit;
                }
            }
            return;
        }
        for (int r = 0; r < n; r++) {
            if (values.isNull(r)) {
                continue;
            }
            boolean pass = switch (domain.kind()) {
                case SIGNED, UNSIGNED -> {
                    long x = values.getLong(r);
                    yield accepts(v, k -> domain.compareLong(x, k));
                }
                case FLOATING -> {
                    double x = values.getDouble(r);
                    yield accepts(v, k -> ValueDomain.compareDouble(x, (Double) k));
                }
                case DECIMAL -> {
                    BigDecimal x = values.getDecimal(r);
                    yield accepts(v, k -> x.compareTo((BigDecimal) k));
                }
                case BOOLEAN -> {
                    boolean x = values.getBoolean(r);
                    yield accepts(v, k -> Boolean.compare(x, (Boolean) k));
                }
                case BYTES, UNORDERED -> throw new IllegalStateException("not a value domain: " + domain);
            };
            long bit = 1L << r;
            if (pass) {
                t[r >>> 6] |= bit;
            } else {
                f[r >>> 6] |= bit;
            }
        }
    }

    /** Whether a non-null value passes {@code leaf}, given its comparison with each key. */
    private static boolean accepts(ValueLeaf leaf, java.util.function.ToIntFunction<Object> compareWith) {
        if (leaf.op() == RowFilter.Op.IN) {
            for (Object k : leaf.keys()) {
                if (compareWith.applyAsInt(k) == 0) {
                    return true;
                }
            }
            return false;
        }
        return holds(leaf.op(), compareWith.applyAsInt(leaf.keys()[0]));
    }

    private static boolean holds(RowFilter.Op op, int c) {
        return switch (op) {
            case EQUAL -> c == 0;
            case NOT_EQUAL -> c != 0;
            case LESS_THAN -> c < 0;
            case LESS_THAN_OR_EQUAL -> c <= 0;
            case GREATER_THAN -> c > 0;
            case GREATER_THAN_OR_EQUAL -> c >= 0;
            default -> throw new IllegalStateException("not a comparison: op=" + op);
        };
    }

    // ---- facts and pruning

    /** Whether the expression may be TRUE / FALSE on some row, given facts for every leaf. */
    public int facts(LeafFacts leafFacts) {
        return facts(root, leafFacts);
    }

    private static int facts(Node node, LeafFacts leafFacts) {
        return switch (node) {
            case StringLeaf s -> leafFacts.of(s);
            case ValueLeaf v -> leafFacts.of(v);
            case NullLeaf n -> leafFacts.of(n);
            case AndNode a -> {
                boolean mayTrue = true;
                boolean mayFalse = false;
                for (Node c : a.children()) {
                    int x = facts(c, leafFacts);
                    mayTrue &= (x & MAY_TRUE) != 0;
                    mayFalse |= (x & MAY_FALSE) != 0;
                }
                yield (mayTrue ? MAY_TRUE : 0) | (mayFalse ? MAY_FALSE : 0);
            }
            case OrNode o -> {
                boolean mayTrue = false;
                boolean mayFalse = true;
                for (Node c : o.children()) {
                    int x = facts(c, leafFacts);
                    mayTrue |= (x & MAY_TRUE) != 0;
                    mayFalse &= (x & MAY_FALSE) != 0;
                }
                yield (mayTrue ? MAY_TRUE : 0) | (mayFalse ? MAY_FALSE : 0);
            }
            case NotNode not -> {
                int x = facts(not.child(), leafFacts);
                yield ((x & MAY_TRUE) != 0 ? MAY_FALSE : 0) | ((x & MAY_FALSE) != 0 ? MAY_TRUE : 0);
            }
        };
    }

    /** The leaves of the tree reading {@code column}. */
    public List<Node> leaves(String column) {
        List<Node> out = new ArrayList<>();
        collectLeaves(root, column, out);
        return out;
    }

    private static void collectLeaves(Node node, String column, List<Node> out) {
        switch (node) {
            case StringLeaf s -> {
                if (s.column().equals(column)) {
                    out.add(s);
                }
            }
            case ValueLeaf v -> {
                if (v.column().equals(column)) {
                    out.add(v);
                }
            }
            case NullLeaf n -> {
                if (n.column().equals(column)) {
                    out.add(n);
                }
            }
            case AndNode a -> a.children().forEach(c -> collectLeaves(c, column, out));
            case OrNode o -> o.children().forEach(c -> collectLeaves(c, column, out));
            case NotNode n -> collectLeaves(n.child(), column, out);
        }
    }

    /** The column a leaf reads. */
    public static String column(Node leaf) {
        return switch (leaf) {
            case StringLeaf s -> s.column();
            case ValueLeaf v -> v.column();
            case NullLeaf n -> n.column();
            default -> throw new IllegalArgumentException("not a leaf: " + leaf);
        };
    }

    /**
     * Facts from bounds: what a leaf may be on a unit of {@code rows} rows (-1 unknown) of which {@code nulls} are
     * null (-1 unknown), whose non-null values lie in {@code [min, max]} in {@code domain}'s order ({@code min} and
     * {@code max} null when unknown). For a FLOATING column the bounds are taken to cover the non-NaN values only:
     * NaN rows are always assumed possible (writers leave NaN out of bounds, and there is no NaN count to say there
     * are none).
     */
    public static int boundsFacts(Node leaf, ValueDomain domain, Object min, Object max, long nulls, long rows) {
        boolean allNull = rows >= 0 && nulls == rows;
        if (leaf instanceof NullLeaf) {
            boolean mayTrue = nulls != 0;
            boolean mayFalse = !allNull;
            return (mayTrue ? MAY_TRUE : 0) | (mayFalse ? MAY_FALSE : 0);
        }
        if (allNull) {
            return 0; // every row NULL: neither TRUE nor FALSE
        }
        if (min == null || max == null || domain.kind() == ValueDomain.Kind.UNORDERED) {
            return UNKNOWN;
        }
        int facts = switch (leaf) {
            case StringLeaf s -> stringBoundsFacts(s, (byte[]) min, (byte[]) max);
            case ValueLeaf v -> valueBoundsFacts(v.op(), v.keys(), domain, min, max);
            default -> UNKNOWN;
        };
        if (domain.kind() == ValueDomain.Kind.FLOATING && leaf instanceof ValueLeaf v) {
            facts |= valueFacts(v, Double.NaN);
        }
        return facts;
    }

    /** What a value leaf is on one non-null value (in its domain's representation). */
    private static int valueFacts(ValueLeaf v, Object value) {
        ValueDomain d = v.domain();
        boolean pass = accepts(v, k -> d.kind() == ValueDomain.Kind.FLOATING
                ? ValueDomain.compareDouble((Double) value, (Double) k)
                : d.compare(value, k));
        return pass ? MAY_TRUE : MAY_FALSE;
    }

    private static int valueBoundsFacts(RowFilter.Op op, Object[] keys, ValueDomain d, Object min, Object max) {
        if (op == RowFilter.Op.IN) {
            boolean mayTrue = false;
            boolean single = d.compareValues(min, max) == 0;
            boolean singleInSet = false;
            for (Object k : keys) {
                int lo = compareKey(d, min, k);
                int hi = compareKey(d, max, k);
                mayTrue |= lo <= 0 && hi >= 0;
                singleInSet |= single && lo == 0;
            }
            return (mayTrue ? MAY_TRUE : 0) | (singleInSet ? 0 : MAY_FALSE);
        }
        int lo = compareKey(d, min, keys[0]); // min vs constant
        int hi = compareKey(d, max, keys[0]); // max vs constant
        return comparisonFacts(op, lo, hi);
    }

    private static int compareKey(ValueDomain d, Object value, Object key) {
        return d.kind() == ValueDomain.Kind.FLOATING ? ValueDomain.compareDouble((Double) value, (Double) key)
                : d.compare(value, key);
    }

    /** Facts of {@code value op c} for values in [min, max], given {@code lo = cmp(min, c)}, {@code hi = cmp(max, c)}. */
    private static int comparisonFacts(RowFilter.Op op, int lo, int hi) {
        boolean mayTrue;
        boolean mayFalse;
        switch (op) {
            case EQUAL -> {
                mayTrue = lo <= 0 && hi >= 0;
                mayFalse = !(lo == 0 && hi == 0);
            }
            case NOT_EQUAL -> {
                mayTrue = !(lo == 0 && hi == 0);
                mayFalse = lo <= 0 && hi >= 0;
            }
            case LESS_THAN -> {
                mayTrue = lo < 0;
                mayFalse = hi >= 0;
            }
            case LESS_THAN_OR_EQUAL -> {
                mayTrue = lo <= 0;
                mayFalse = hi > 0;
            }
            case GREATER_THAN -> {
                mayTrue = hi > 0;
                mayFalse = lo <= 0;
            }
            case GREATER_THAN_OR_EQUAL -> {
                mayTrue = hi >= 0;
                mayFalse = lo < 0;
            }
            default -> {
                return UNKNOWN;
            }
        }
        return (mayTrue ? MAY_TRUE : 0) | (mayFalse ? MAY_FALSE : 0);
    }

    private static int stringBoundsFacts(StringLeaf s, byte[] min, byte[] max) {
        if (s.like() || s.op() == RowFilter.Op.STARTS_WITH) {
            byte[] p = s.prefix();
            if (p.length == 0) {
                return UNKNOWN;
            }
            // Values starting with p lie in [p, p + 0xFF...]: that range meets [min, max] exactly when max >= p and
            // min cut to p's length <= p.
            int cut = Math.min(min.length, p.length);
            boolean mayTrue = Arrays.compareUnsigned(max, p) >= 0
                    && Arrays.compareUnsigned(min, 0, cut, p, 0, p.length) <= 0;
            // Every value in [min, max] starts with p when both bounds do (the strings starting with p are an
            // interval); only then is a plain prefix test never FALSE. A LIKE may still fail after its prefix.
            boolean allStart = startsWith(min, p) && startsWith(max, p);
            boolean mayFalse = s.like() || !allStart;
            return (mayTrue ? MAY_TRUE : 0) | (mayFalse ? MAY_FALSE : 0);
        }
        return switch (s.op()) {
            case ENDS_WITH, CONTAINS -> UNKNOWN;
            case IN -> {
                boolean mayTrue = false;
                boolean single = Arrays.equals(min, max);
                boolean singleInSet = false;
                for (byte[] c : s.constants()) {
                    int lo = Arrays.compareUnsigned(min, c);
                    int hi = Arrays.compareUnsigned(max, c);
                    mayTrue |= lo <= 0 && hi >= 0;
                    singleInSet |= single && lo == 0;
                }
                yield (mayTrue ? MAY_TRUE : 0) | (singleInSet ? 0 : MAY_FALSE);
            }
            default -> comparisonFacts(s.op(), Arrays.compareUnsigned(min, s.constants().get(0)),
                    Arrays.compareUnsigned(max, s.constants().get(0)));
        };
    }

    private static boolean startsWith(byte[] value, byte[] prefix) {
        return value.length >= prefix.length && Arrays.equals(value, 0, prefix.length, prefix, 0, prefix.length);
    }

    /**
     * Facts from a dictionary: every non-null value of the unit is one of {@code dictionary}'s entries (a chunk whose
     * data pages are all dictionary-encoded). A string leaf may be TRUE only if some entry passes it and FALSE only
     * if some entry fails it; other leaves are unknown.
     */
    public static int dictionaryFacts(Node leaf, ViewColumn dictionary) {
        if (!(leaf instanceof StringLeaf s)) {
            return UNKNOWN;
        }
        int passing = s.predicate().count(dictionary);
        return (passing > 0 ? MAY_TRUE : 0) | (passing < dictionary.size() ? MAY_FALSE : 0);
    }

    /**
     * The constants a bloom filter can be probed with for {@code leaf}, as the bytes parquet-java hashes (PLAIN
     * encoding: the bytes of a BYTE_ARRAY value, little-endian INT32/INT64), or null when the leaf cannot use one:
     * only {@code =} and {@code IN}, on string and binary columns and on INT32/INT64 columns compared with long
     * constants. A bloom filter only ever proves "no value equals a constant", so it clears {@link #MAY_TRUE} only.
     */
    public static List<byte[]> bloomProbes(Node leaf) {
        if (leaf instanceof StringLeaf s && !s.like() && (s.op() == RowFilter.Op.EQUAL || s.op() == RowFilter.Op.IN)) {
            return s.constants();
        }
        if (leaf instanceof ValueLeaf v && (v.op() == RowFilter.Op.EQUAL || v.op() == RowFilter.Op.IN)
                && (v.domain().kind() == ValueDomain.Kind.SIGNED || v.domain().kind() == ValueDomain.Kind.UNSIGNED)) {
            List<byte[]> probes = new ArrayList<>();
            boolean int32 = v.domain().physical() == org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT32;
            for (Object k : v.keys()) {
                if (!(k instanceof Long c)) {
                    return null; // a BigDecimal constant: hash only exact integers, so probe nothing
                }
                long bits = c;
                if (int32) {
                    boolean fits = v.domain().kind() == ValueDomain.Kind.SIGNED
                            ? bits == (int) bits : bits >= 0 && bits <= 0xFFFF_FFFFL;
                    if (!fits) {
                        continue; // no INT32 value equals it: nothing to probe
                    }
                    probes.add(java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                            .putInt((int) bits).array());
                } else {
                    if (v.domain().kind() == ValueDomain.Kind.UNSIGNED && bits < 0) {
                        continue; // a negative constant equals no unsigned value
                    }
                    probes.add(java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                            .putLong(bits).array());
                }
            }
            return probes;
        }
        return null;
    }

    @Override
    public String toString() {
        return filter.toString();
    }
}
