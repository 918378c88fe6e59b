package dev.stringview.parquet;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A filter on the rows of a Parquet file: leaves that test one column each, combined by AND, OR and NOT with SQL's
 * three-valued logic. A row passes when the expression is TRUE for it; FALSE and NULL (unknown) both drop it. The
 * one filter of this library: {@link ParquetScan}, the CLI and the Spark and Flink connectors all build it, and all
 * pruning (row-group statistics, bloom filters, the page index, dictionaries) is derived from it (docs/parquet.md,
 * "The filter expression").
 *
 * <p>Leaves:
 * <ul>
 *   <li>{@link StringTest} and {@link Like}: core's compiled predicates ({@code dev.stringview.ViewPredicates}) on a
 *       BYTE_ARRAY column, comparing bytes unsigned (UTF-8 code point order). NULL on a null row.
 *   <li>{@link ValueTest}: comparisons on a fixed-width column (BOOLEAN, INT32/INT64 and their logical types, FLOAT,
 *       DOUBLE, DECIMAL) against {@code long}, {@code double}, {@link BigDecimal} or {@code boolean} constants,
 *       by value (see {@link ValueTest}). NULL on a null row.
 *   <li>{@link IsNull}: TRUE on a null row, FALSE on any other; never NULL.
 * </ul>
 * Nodes: {@link And} (TRUE if every child is TRUE, FALSE if any is FALSE, else NULL), {@link Or} (TRUE if any child
 * is TRUE, FALSE if every child is FALSE, else NULL) and {@link Not} (swaps TRUE and FALSE, keeps NULL).
 *
 * <p>Expressions are immutable, serializable values (an engine ships them to its workers); the constants given to
 * the factories are copied. Build them with the static factories, or with the records' constructors (which check
 * their arguments the same way).
 */
public sealed interface RowFilter extends java.io.Serializable
        permits RowFilter.StringTest, RowFilter.Like, RowFilter.ValueTest, RowFilter.IsNull, RowFilter.And,
        RowFilter.Or, RowFilter.Not {

    /** What a {@link StringTest} or {@link ValueTest} tests. */
    enum Op {
        EQUAL("="), NOT_EQUAL("<>"), LESS_THAN("<"), LESS_THAN_OR_EQUAL("<="), GREATER_THAN(">"),
        GREATER_THAN_OR_EQUAL(">="), IN("IN"),
        /** Strings only: the value starts with the constant. */
        STARTS_WITH("STARTS WITH"),
        /** Strings only: the value ends with the constant. */
        ENDS_WITH("ENDS WITH"),
        /** Strings only: the value contains the constant. */
        CONTAINS("CONTAINS");

        private final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        /** The operator as SQL-ish text, for messages. */
        public String symbol() {
            return symbol;
        }
    }

    /**
     * {@code column op constant} on a BYTE_ARRAY column (string or binary), bytes compared unsigned. {@code IN} takes
     * any number of constants (none: FALSE on every non-null row), every other operator exactly one. Evaluated by
     * core's predicate for the operator: {@code ViewPredicates.equalTo}, {@code notEqualTo}, {@code compare},
     * {@code in}, {@code startsWith}, {@code endsWith}, {@code contains}.
     *
     * @param values the constants' bytes (UTF-8 for strings); the list and arrays are copied
     */
    record StringTest(String column, Op op, List<byte[]> values) implements RowFilter {
        public StringTest {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(op, "op");
            List<byte[]> copies = new ArrayList<>();
            for (byte[] v : Objects.requireNonNull(values, "values")) {
                copies.add(Objects.requireNonNull(v, "value").clone());
            }
            values = List.copyOf(copies);
            if (op != Op.IN && values.size() != 1) {
                throw new IllegalArgumentException("one constant needed: column=" + column + " op=" + op
                        + " constants=" + values.size());
            }
        }

        /** The single constant of a non-IN test (a copy). */
        public byte[] value() {
            return values.get(0).clone();
        }

        @Override
        public List<byte[]> values() {
            return values.stream().map(byte[]::clone).toList();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof StringTest t && column.equals(t.column) && op == t.op && values.size() == t.values.size()
                    && java.util.stream.IntStream.range(0, values.size())
                            .allMatch(i -> Arrays.equals(values.get(i), t.values.get(i)));
        }

        @Override
        public int hashCode() {
            int h = Objects.hash(column, op);
            for (byte[] v : values) {
                h = 31 * h + Arrays.hashCode(v);
            }
            return h;
        }

        @Override
        public String toString() {
            String constants = values.stream().map(RowFilter::quote).collect(Collectors.joining(", "));
            return column + " " + op.symbol() + (op == Op.IN ? " (" + constants + ")" : " " + constants);
        }
    }

    /**
     * {@code column LIKE pattern [ESCAPE escape]} on a BYTE_ARRAY column, parsed and evaluated by core's one LIKE
     * parser ({@code ViewPredicates.like}): {@code %} any run, {@code _} one character (a code point on a UTF-8
     * column, a byte on a binary one).
     *
     * @param escape the escape character, or null for none
     */
    record Like(String column, String pattern, Character escape) implements RowFilter {
        public Like {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(pattern, "pattern");
            dev.stringview.ViewPredicates.likePrefix(pattern, escape); // rejects a pattern ending in its escape
        }

        @Override
        public String toString() {
            return column + " LIKE " + quote(pattern.getBytes(StandardCharsets.UTF_8))
                    + (escape == null ? "" : " ESCAPE '" + escape + "'");
        }
    }

    /**
     * {@code column op constant} on a fixed-width column, comparing by value in the column's logical type:
     * <ul>
     *   <li>INT32/INT64, signed ({@code INT(8..64, true)} or none), DATE (days since the epoch), TIME and TIMESTAMP
     *       (in the column's own unit since midnight / the epoch): {@code long} or {@link BigDecimal} constants.
     *   <li>Unsigned {@code INT(8..64, false)}: the value as an unsigned number, compared with {@code long} (a
     *       negative constant is below every value) or {@link BigDecimal} constants.
     *   <li>DECIMAL (on INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY): the decimal value (unscaled value times
     *       10^-scale), compared with {@link BigDecimal} or {@code long} constants by {@link BigDecimal#compareTo}
     *       (so {@code 1.0 = 1.00}).
     *   <li>FLOAT and DOUBLE: {@code double} constants, and {@code long} constants of magnitude at most 2^53
     *       (exact as doubles). {@code -0.0 = 0.0}; NaN equals NaN and is greater than every other value, including
     *       positive infinity (Spark's order). So {@code x > 1.0} is TRUE for a NaN row and {@code x < 1.0} FALSE.
     *   <li>BOOLEAN: {@code boolean} constants, {@code false < true}.
     * </ul>
     * A constant of another type for the column is an error when the filter is bound to a file.
     *
     * @param values the constants, all {@link Long}, all {@link Double}, all {@link BigDecimal} or all
     *     {@link Boolean}; {@code IN} takes any number, every other operator exactly one
     */
    record ValueTest(String column, Op op, List<Object> values) implements RowFilter {
        public ValueTest {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(op, "op");
            if (op == Op.STARTS_WITH || op == Op.ENDS_WITH || op == Op.CONTAINS) {
                throw new IllegalArgumentException("not a value comparison: column=" + column + " op=" + op);
            }
            values = List.copyOf(values);
            if (op != Op.IN && values.size() != 1) {
                throw new IllegalArgumentException("one constant needed: column=" + column + " op=" + op
                        + " constants=" + values.size());
            }
            Class<?> type = null;
            for (Object v : values) {
                Class<?> c = v.getClass();
                if (c != Long.class && c != Double.class && c != BigDecimal.class && c != Boolean.class) {
                    throw new IllegalArgumentException("constant must be Long, Double, BigDecimal or Boolean: column="
                            + column + " type=" + c.getName());
                }
                if (type != null && type != c) {
                    throw new IllegalArgumentException("constants of mixed types: column=" + column + " types="
                            + type.getSimpleName() + "," + c.getSimpleName());
                }
                type = c;
            }
        }

        @Override
        public String toString() {
            String constants = values.stream().map(String::valueOf).collect(Collectors.joining(", "));
            return column + " " + op.symbol() + (op == Op.IN ? " (" + constants + ")" : " " + constants);
        }
    }

    /** {@code column IS NULL}: TRUE on null rows, FALSE on the others (never NULL). */
    record IsNull(String column) implements RowFilter {
        public IsNull {
            Objects.requireNonNull(column, "column");
        }

        @Override
        public String toString() {
            return column + " IS NULL";
        }
    }

    /** Every child: TRUE if all are TRUE, FALSE if any is FALSE, else NULL. No children: TRUE. */
    record And(List<RowFilter> children) implements RowFilter {
        public And {
            children = List.copyOf(children);
        }

        @Override
        public String toString() {
            return children.stream().map(c -> "(" + c + ")").collect(Collectors.joining(" AND "));
        }
    }

    /** Any child: TRUE if any is TRUE, FALSE if all are FALSE, else NULL. No children: FALSE. */
    record Or(List<RowFilter> children) implements RowFilter {
        public Or {
            children = List.copyOf(children);
        }

        @Override
        public String toString() {
            return children.stream().map(c -> "(" + c + ")").collect(Collectors.joining(" OR "));
        }
    }

    /** TRUE where the child is FALSE, FALSE where it is TRUE, NULL where it is NULL. */
    record Not(RowFilter child) implements RowFilter {
        public Not {
            Objects.requireNonNull(child, "child");
        }

        @Override
        public String toString() {
            return "NOT (" + child + ")";
        }
    }

    /** The columns the expression reads, in first-use order. */
    default List<String> columns() {
        List<String> out = new ArrayList<>();
        collectColumns(this, out);
        return List.copyOf(out);
    }

    private static void collectColumns(RowFilter f, List<String> out) {
        String column = switch (f) {
            case StringTest t -> t.column();
            case Like l -> l.column();
            case ValueTest v -> v.column();
            case IsNull n -> n.column();
            case And a -> {
                a.children().forEach(c -> collectColumns(c, out));
                yield null;
            }
            case Or o -> {
                o.children().forEach(c -> collectColumns(c, out));
                yield null;
            }
            case Not n -> {
                collectColumns(n.child(), out);
                yield null;
            }
        };
        if (column != null && !out.contains(column)) {
            out.add(column);
        }
    }

    private static String quote(byte[] bytes) {
        return "'" + new String(bytes, StandardCharsets.UTF_8).replace("'", "''") + "'";
    }

    private static byte[] utf8(String s) {
        return Objects.requireNonNull(s, "value").getBytes(StandardCharsets.UTF_8);
    }

    // ---- strings

    static RowFilter string(String column, Op op, String value) {
        return new StringTest(column, op, List.of(utf8(value)));
    }

    static RowFilter equalTo(String column, String value) {
        return string(column, Op.EQUAL, value);
    }

    static RowFilter notEqualTo(String column, String value) {
        return string(column, Op.NOT_EQUAL, value);
    }

    static RowFilter lessThan(String column, String value) {
        return string(column, Op.LESS_THAN, value);
    }

    static RowFilter lessThanOrEqual(String column, String value) {
        return string(column, Op.LESS_THAN_OR_EQUAL, value);
    }

    static RowFilter greaterThan(String column, String value) {
        return string(column, Op.GREATER_THAN, value);
    }

    static RowFilter greaterThanOrEqual(String column, String value) {
        return string(column, Op.GREATER_THAN_OR_EQUAL, value);
    }

    static RowFilter startsWith(String column, String prefix) {
        return string(column, Op.STARTS_WITH, prefix);
    }

    static RowFilter endsWith(String column, String suffix) {
        return string(column, Op.ENDS_WITH, suffix);
    }

    static RowFilter contains(String column, String needle) {
        return string(column, Op.CONTAINS, needle);
    }

    /** {@code column IN (values)}; null elements are dropped (they never make a row TRUE). */
    static RowFilter in(String column, String... values) {
        List<byte[]> bytes = new ArrayList<>();
        for (String v : values) {
            if (v != null) {
                bytes.add(utf8(v));
            }
        }
        return new StringTest(column, Op.IN, bytes);
    }

    /** {@code column op value} with a binary constant (any bytes). */
    static RowFilter bytes(String column, Op op, byte[] value) {
        return new StringTest(column, op, List.of(value));
    }

    /** {@code column IN (values)} with binary constants. */
    static RowFilter bytesIn(String column, List<byte[]> values) {
        return new StringTest(column, Op.IN, values);
    }

    static RowFilter like(String column, String pattern) {
        return new Like(column, pattern, null);
    }

    static RowFilter like(String column, String pattern, Character escape) {
        return new Like(column, pattern, escape);
    }

    // ---- fixed-width values

    static RowFilter compare(String column, Op op, long value) {
        return new ValueTest(column, op, List.of(value));
    }

    static RowFilter compare(String column, Op op, double value) {
        return new ValueTest(column, op, List.of(value));
    }

    static RowFilter compare(String column, Op op, BigDecimal value) {
        return new ValueTest(column, op, List.of(value));
    }

    static RowFilter compare(String column, Op op, boolean value) {
        return new ValueTest(column, op, List.of(value));
    }

    /** {@code column IN (values)} on a fixed-width column: all Long, all Double, all BigDecimal or all Boolean. */
    static RowFilter valueIn(String column, List<?> values) {
        return new ValueTest(column, Op.IN, new ArrayList<>(values));
    }

    // ---- nulls and nodes

    static RowFilter isNull(String column) {
        return new IsNull(column);
    }

    /** {@code NOT (column IS NULL)}. */
    static RowFilter isNotNull(String column) {
        return new Not(new IsNull(column));
    }

    static RowFilter and(RowFilter... children) {
        return new And(List.of(children));
    }

    static RowFilter or(RowFilter... children) {
        return new Or(List.of(children));
    }

    static RowFilter not(RowFilter child) {
        return new Not(child);
    }
}
