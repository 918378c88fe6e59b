package dev.stringview.parquet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.parquet.RowFilter;
import dev.stringview.parquet.RowFilter.Op;
import java.lang.foreign.Arena;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/**
 * Property tests of the filter expression against a plain on-heap model: random trees of AND / OR / NOT over random
 * leaves on random data (nulls; string lengths 0, 1, 11, 12, 13, 15, 16, 17 and more; non-ASCII UTF-8; binary bytes
 * {@code >= 0x80}; signed, unsigned, floating with NaN, -0.0 and infinities, decimal and boolean columns). Checks
 * (1) evaluation: the TRUE and FALSE bitmaps equal the model's three-valued answer on every row; (2) pruning: for
 * units of rows, the facts derived from their bounds (exact and, for strings, truncated), null counts and
 * dictionaries never rule out an outcome some row of the unit has.
 */
class RowFilterPropertyTest {
    private static final int[] LENGTHS = {0, 1, 2, 11, 12, 13, 15, 16, 17, 31};
    private static final String[] UTF8_PIECES = {"a", "b", "ab", "é", "ü", "中", "😀", "%", "_", "x"};

    /** A column of the model: values (null for null rows) in the domain's representation. */
    record Col(String name, ValueDomain domain, ViewKind kind, Object[] values) {}

    private static final ValueDomain BYTES = new ValueDomain(ValueDomain.Kind.BYTES, PrimitiveTypeName.BINARY, 0);
    private static final ValueDomain SIGNED = new ValueDomain(ValueDomain.Kind.SIGNED, PrimitiveTypeName.INT64, 0);
    private static final ValueDomain UNSIGNED = new ValueDomain(ValueDomain.Kind.UNSIGNED, PrimitiveTypeName.INT64,
            0);
    private static final ValueDomain FLOATING = new ValueDomain(ValueDomain.Kind.FLOATING, PrimitiveTypeName.DOUBLE,
            0);
    private static final ValueDomain DECIMAL = new ValueDomain(ValueDomain.Kind.DECIMAL,
            PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, 2);
    private static final ValueDomain BOOLEAN = new ValueDomain(ValueDomain.Kind.BOOLEAN, PrimitiveTypeName.BOOLEAN,
            0);

    private static final long[] LONGS = {0, 1, -1, 2, 7, -7, 100, Long.MAX_VALUE, Long.MIN_VALUE, 0x8000_0000L};
    private static final double[] DOUBLES = {0.0, -0.0, 1.0, -1.0, 2.5, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, 1e300, -3.25};
    private static final BigDecimal[] DECIMALS = {new BigDecimal("0.00"), new BigDecimal("1.00"),
        new BigDecimal("-1.50"), new BigDecimal("12.34"), new BigDecimal("99999999999999999999.99"),
        new BigDecimal("-0.01")};

    @Test
    void evaluationMatchesTheThreeValuedModel() {
        for (int seed = 0; seed < 400; seed++) {
            Random random = new Random(seed);
            int rows = new int[] {0, 1, 5, 63, 64, 65, 130}[random.nextInt(7)];
            Map<String, Col> cols = columns(random, rows);
            try (Arena arena = Arena.ofConfined()) {
                Map<String, ViewColumn> views = views(cols, arena);
                for (int t = 0; t < 10; t++) {
                    RowFilter filter = tree(random, cols, 3);
                    BoundFilter bound = BoundFilter.bind(filter, c -> cols.get(c).domain());
                    long[] trueBits = new long[Math.max(1, (rows + 63) >>> 6)];
                    long[] falseBits = new long[trueBits.length];
                    Arrays.fill(trueBits, -1L); // garbage the evaluation must overwrite
                    Arrays.fill(falseBits, -1L);
                    bound.evaluate(rows(cols, views, rows), trueBits, falseBits);
                    for (int r = 0; r < rows; r++) {
                        Boolean expected = model(filter, cols, r);
                        boolean isTrue = (trueBits[r >>> 6] & (1L << r)) != 0;
                        boolean isFalse = (falseBits[r >>> 6] & (1L << r)) != 0;
                        String where = "seed=" + seed + " row=" + r + " filter=" + filter + " values="
                                + rowValues(cols, r);
                        assertEquals(Boolean.TRUE.equals(expected), isTrue, where);
                        assertEquals(Boolean.FALSE.equals(expected), isFalse, where);
                    }
                }
            }
        }
    }

    @Test
    void pruningFactsNeverRuleOutAnOutcomeSomeRowHas() {
        int prunedTrue = 0;
        int prunedFalse = 0;
        for (int seed = 0; seed < 600; seed++) {
            Random random = new Random(1000 + seed);
            int rows = 1 + random.nextInt(40);
            Map<String, Col> cols = columns(random, rows);
            try (Arena arena = Arena.ofConfined()) {
                Map<String, ViewColumn> dictionaries = new HashMap<>();
                for (Col c : cols.values()) {
                    if (c.domain().kind() == ValueDomain.Kind.BYTES) {
                        dictionaries.put(c.name(), dictionary(c, arena));
                    }
                }
                boolean truncate = random.nextBoolean();
                for (int t = 0; t < 20; t++) {
                    RowFilter filter = tree(random, cols, 3);
                    BoundFilter bound = BoundFilter.bind(filter, c -> cols.get(c).domain());
                    boolean useDictionary = random.nextBoolean();
                    boolean knownNulls = random.nextBoolean();
                    int facts = bound.facts(leaf -> {
                        Col c = cols.get(BoundFilter.column(leaf));
                        Object[] b = bounds(c, truncate);
                        long nulls = knownNulls ? Arrays.stream(c.values()).filter(v -> v == null).count() : -1;
                        int f = BoundFilter.boundsFacts(leaf, c.domain(), b == null ? null : b[0],
                                b == null ? null : b[1], nulls, rows);
                        if (useDictionary && dictionaries.containsKey(c.name())) {
                            f &= BoundFilter.dictionaryFacts(leaf, dictionaries.get(c.name()));
                        }
                        return f;
                    });
                    boolean anyTrue = false;
                    boolean anyFalse = false;
                    for (int r = 0; r < rows; r++) {
                        Boolean v = model(filter, cols, r);
                        anyTrue |= Boolean.TRUE.equals(v);
                        anyFalse |= Boolean.FALSE.equals(v);
                    }
                    String where = "seed=" + seed + " filter=" + filter + " truncate=" + truncate;
                    if ((facts & BoundFilter.MAY_TRUE) == 0) {
                        assertFalse(anyTrue, "ruled out TRUE but a row is TRUE: " + where);
                        prunedTrue++;
                    }
                    if ((facts & BoundFilter.MAY_FALSE) == 0) {
                        assertFalse(anyFalse, "ruled out FALSE but a row is FALSE: " + where);
                        prunedFalse++;
                    }
                }
            }
        }
        // The facts must also prune: a test whose pruning never fires proves nothing.
        assertTrue(prunedTrue > 500, "units ruled out TRUE: " + prunedTrue);
        assertTrue(prunedFalse > 500, "units ruled out FALSE: " + prunedFalse);
    }

    @Test
    void valueDomainsFollowTheLogicalTypes() {
        assertEquals(ValueDomain.Kind.UNSIGNED, ValueDomain.of(Types.optional(PrimitiveTypeName.INT32)
                .as(LogicalTypeAnnotation.intType(8, false)).named("u")).kind());
        assertEquals(ValueDomain.Kind.SIGNED, ValueDomain.of(Types.optional(PrimitiveTypeName.INT32)
                .as(LogicalTypeAnnotation.dateType()).named("d")).kind());
        assertEquals(ValueDomain.Kind.SIGNED, ValueDomain.of(Types.optional(PrimitiveTypeName.INT64)
                .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS)).named("t"))
                .kind());
        ValueDomain decimal = ValueDomain.of(Types.optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(9)
                .as(LogicalTypeAnnotation.decimalType(3, 20)).named("m"));
        assertEquals(ValueDomain.Kind.DECIMAL, decimal.kind());
        assertEquals(3, decimal.scale());
        assertEquals(ValueDomain.Kind.UNORDERED, ValueDomain.of(Types.optional(PrimitiveTypeName.INT96).named("x"))
                .kind());
        // Unsigned: a negative constant is below every value; the top bit set is a large value, not a negative one.
        assertTrue(UNSIGNED.compareLong(-1L, 5L) > 0);
        assertTrue(UNSIGNED.compareLong(0L, -5L) > 0);
        assertTrue(UNSIGNED.compareLong(-1L, new BigDecimal("18446744073709551615")) == 0);
        // Floating: -0.0 = 0.0, NaN above +Inf and equal to itself.
        assertEquals(0, ValueDomain.compareDouble(-0.0, 0.0));
        assertTrue(ValueDomain.compareDouble(Double.NaN, Double.POSITIVE_INFINITY) > 0);
        assertEquals(0, ValueDomain.compareDouble(Double.NaN, Double.NaN));
        // Constants that do not compare with the column are refused when binding, naming the column.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BoundFilter.bind(
                RowFilter.compare("x", Op.EQUAL, 1.5), c -> SIGNED));
        assertTrue(e.getMessage().startsWith("constant does not compare with the column's values: column=x"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BoundFilter.bind(RowFilter.equalTo("x", "a"),
                c -> SIGNED));
        assertThrows(IllegalArgumentException.class, () -> BoundFilter.bind(RowFilter.compare("x", Op.LESS_THAN,
                1L << 60), c -> FLOATING), "a long beyond 2^53 is not exact as a double");
    }

    // ---- data

    private static Map<String, Col> columns(Random random, int rows) {
        Map<String, Col> cols = new java.util.LinkedHashMap<>();
        cols.put("s", new Col("s", BYTES, ViewKind.UTF8, fill(random, rows, () -> utf8String(random))));
        cols.put("t", new Col("t", BYTES, ViewKind.BINARY, fill(random, rows, () -> binary(random))));
        cols.put("i", new Col("i", SIGNED, null, fill(random, rows, () -> pickLong(random))));
        cols.put("u", new Col("u", UNSIGNED, null, fill(random, rows, () -> pickLong(random))));
        cols.put("d", new Col("d", FLOATING, null, fill(random, rows, () -> DOUBLES[random.nextInt(DOUBLES.length)])));
        cols.put("m", new Col("m", DECIMAL, null, fill(random, rows, () -> DECIMALS[random.nextInt(DECIMALS.length)])));
        cols.put("b", new Col("b", BOOLEAN, null, fill(random, rows, random::nextBoolean)));
        return cols;
    }

    private static Object[] fill(Random random, int rows, java.util.function.Supplier<Object> value) {
        double nulls = new double[] {0, 0.1, 0.5, 1}[random.nextInt(4)];
        Object[] out = new Object[rows];
        for (int r = 0; r < rows; r++) {
            out[r] = random.nextDouble() < nulls ? null : value.get();
        }
        return out;
    }

    private static long pickLong(Random random) {
        return random.nextInt(4) == 0 ? random.nextLong() : LONGS[random.nextInt(LONGS.length)];
    }

    private static byte[] utf8String(Random random) {
        int target = LENGTHS[random.nextInt(LENGTHS.length)];
        StringBuilder sb = new StringBuilder();
        while (sb.toString().getBytes(StandardCharsets.UTF_8).length < target) {
            sb.append(UTF8_PIECES[random.nextInt(random.nextBoolean() ? 3 : UTF8_PIECES.length)]);
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] binary(Random random) {
        byte[] b = new byte[LENGTHS[random.nextInt(LENGTHS.length)]];
        for (int i = 0; i < b.length; i++) {
            int pick = random.nextInt(4);
            b[i] = (byte) (pick == 0 ? 0x80 + random.nextInt(128) : pick == 1 ? 'a' : pick == 2 ? 'b' : 0xFF);
        }
        return b;
    }

    private static Map<String, ViewColumn> views(Map<String, Col> cols, Arena arena) {
        Map<String, ViewColumn> out = new HashMap<>();
        for (Col c : cols.values()) {
            if (c.kind() != null) {
                ViewColumnBuilder b = ViewColumns.builder(arena, c.kind());
                for (Object v : c.values()) {
                    if (v == null) {
                        b.appendNull();
                    } else {
                        b.append((byte[]) v);
                    }
                }
                out.put(c.name(), b.build());
            }
        }
        return out;
    }

    /** The column's distinct non-null values as a dictionary column. */
    private static ViewColumn dictionary(Col c, Arena arena) {
        LinkedHashSet<String> seen = new LinkedHashSet<>();
        ViewColumnBuilder b = ViewColumns.builder(arena, c.kind());
        for (Object v : c.values()) {
            if (v != null && seen.add(Arrays.toString((byte[]) v))) {
                b.append((byte[]) v);
            }
        }
        return b.build();
    }

    /** On-heap fixed-width values: the test implementation of the reader's interface. */
    record HeapValues(ValueDomain domain, Object[] values) implements FixedValues {
        @Override
        public int size() {
            return values.length;
        }

        @Override
        public boolean isNull(int row) {
            return values[row] == null;
        }

        @Override
        public long getLong(int row) {
            return (Long) values[row];
        }

        @Override
        public double getDouble(int row) {
            return (Double) values[row];
        }

        @Override
        public BigDecimal getDecimal(int row) {
            return (BigDecimal) values[row];
        }

        @Override
        public boolean getBoolean(int row) {
            return (Boolean) values[row];
        }
    }

    private static BoundFilter.Rows rows(Map<String, Col> cols, Map<String, ViewColumn> views, int rows) {
        return new BoundFilter.Rows() {
            @Override
            public int size() {
                return rows;
            }

            @Override
            public ViewColumn strings(String column) {
                return views.get(column);
            }

            @Override
            public FixedValues values(String column) {
                Col c = cols.get(column);
                return new HeapValues(c.domain(), c.values());
            }

            @Override
            public long validBits(String column, int from, int count) {
                long bits = 0;
                for (int i = 0; i < count; i++) {
                    bits |= cols.get(column).values()[from + i] == null ? 0 : 1L << i;
                }
                return bits;
            }
        };
    }

    /** Min and max of the column's non-null (and non-NaN) values; strings optionally truncated as writers do. */
    private static Object[] bounds(Col c, boolean truncate) {
        Object min = null;
        Object max = null;
        for (Object v : c.values()) {
            if (v == null || v instanceof Double d && d.isNaN()) {
                continue;
            }
            if (min == null || compare(c.domain(), v, min) < 0) {
                min = v;
            }
            if (max == null || compare(c.domain(), v, max) > 0) {
                max = v;
            }
        }
        if (min == null) {
            return null;
        }
        if (truncate && min instanceof byte[] lo && max instanceof byte[] hi) {
            min = Arrays.copyOf(lo, Math.min(lo.length, 2)); // a prefix stays a lower bound
            max = roundUp(hi, 2);
        }
        return new Object[] {min, max};
    }

    /** {@code value} cut to {@code n} bytes with its last byte below 0xFF incremented: still an upper bound. */
    private static byte[] roundUp(byte[] value, int n) {
        if (value.length <= n) {
            return value;
        }
        for (int i = n - 1; i >= 0; i--) {
            if ((value[i] & 0xFF) != 0xFF) {
                byte[] out = Arrays.copyOf(value, i + 1);
                out[i]++;
                return out;
            }
        }
        return value; // all 0xFF: keep it whole
    }

    private static int compare(ValueDomain d, Object a, Object b) {
        return d.compareValues(a, b);
    }

    // ---- random trees

    private static RowFilter tree(Random random, Map<String, Col> cols, int depth) {
        int pick = random.nextInt(depth <= 0 ? 1 : 4);
        return switch (pick) {
            case 0 -> leaf(random, cols);
            case 1 -> {
                List<RowFilter> children = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    children.add(tree(random, cols, depth - 1));
                }
                yield new RowFilter.And(children);
            }
            case 2 -> {
                List<RowFilter> children = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    children.add(tree(random, cols, depth - 1));
                }
                yield new RowFilter.Or(children);
            }
            default -> RowFilter.not(tree(random, cols, depth - 1));
        };
    }

    private static final Op[] COMPARISONS = {Op.EQUAL, Op.NOT_EQUAL, Op.LESS_THAN, Op.LESS_THAN_OR_EQUAL,
        Op.GREATER_THAN, Op.GREATER_THAN_OR_EQUAL, Op.IN};
    private static final Op[] STRING_OPS = {Op.EQUAL, Op.NOT_EQUAL, Op.LESS_THAN, Op.LESS_THAN_OR_EQUAL,
        Op.GREATER_THAN, Op.GREATER_THAN_OR_EQUAL, Op.IN, Op.STARTS_WITH, Op.ENDS_WITH, Op.CONTAINS};

    private static RowFilter leaf(Random random, Map<String, Col> cols) {
        List<Col> all = new ArrayList<>(cols.values());
        Col c = all.get(random.nextInt(all.size()));
        if (random.nextInt(8) == 0) {
            return RowFilter.isNull(c.name());
        }
        switch (c.domain().kind()) {
            case BYTES -> {
                if (random.nextInt(5) == 0) {
                    return RowFilter.like(c.name(), pattern(random), random.nextBoolean() ? '\\' : null);
                }
                Op op = STRING_OPS[random.nextInt(STRING_OPS.length)];
                int n = op == Op.IN ? random.nextInt(4) : 1;
                List<byte[]> constants = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    constants.add(stringConstant(random, c));
                }
                return new RowFilter.StringTest(c.name(), op, constants);
            }
            default -> {
                Op op = COMPARISONS[random.nextInt(COMPARISONS.length)];
                int n = op == Op.IN ? random.nextInt(4) : 1;
                List<Object> constants = new ArrayList<>();
                for (int tries = 0; constants.size() < n && tries < 20; tries++) {
                    Object k = valueConstant(random, c);
                    if (constants.isEmpty() || constants.get(0).getClass() == k.getClass()) {
                        constants.add(k); // all of one type
                    }
                }
                if (op != Op.IN && constants.isEmpty()) {
                    constants.add(valueConstant(random, c));
                }
                return new RowFilter.ValueTest(c.name(), op, constants);
            }
        }
    }

    /** A constant: mostly one of the column's values or a prefix of one, sometimes fresh. */
    private static byte[] stringConstant(Random random, Col c) {
        Object[] values = c.values();
        Object v = values.length == 0 ? null : values[random.nextInt(values.length)];
        if (v == null || random.nextInt(4) == 0) {
            return c.kind() == ViewKind.UTF8 ? utf8String(random) : binary(random);
        }
        byte[] b = (byte[]) v;
        return random.nextBoolean() ? b : Arrays.copyOf(b, random.nextInt(b.length + 1));
    }

    private static Object valueConstant(Random random, Col c) {
        Object[] values = c.values();
        Object v = values.length == 0 ? null : values[random.nextInt(values.length)];
        boolean fresh = v == null || random.nextInt(3) == 0;
        return switch (c.domain().kind()) {
            case SIGNED, UNSIGNED -> fresh ? (random.nextInt(4) == 0
                    ? (Object) new BigDecimal(random.nextInt(200) - 100).add(new BigDecimal("0.5"))
                    : (Object) pickLong(random)) : v;
            case FLOATING -> fresh ? (random.nextBoolean() ? (Object) DOUBLES[random.nextInt(DOUBLES.length)]
                    : (Object) (long) (random.nextInt(7) - 3)) : v;
            case DECIMAL -> fresh ? (random.nextBoolean() ? (Object) DECIMALS[random.nextInt(DECIMALS.length)]
                    .setScale(4) : (Object) (long) (random.nextInt(5) - 2)) : v;
            case BOOLEAN -> fresh ? random.nextBoolean() : v;
            default -> throw new AssertionError();
        };
    }

    private static String pattern(Random random) {
        StringBuilder sb = new StringBuilder();
        String[] pieces = {"%", "_", "a", "b", "é", "中", "😀", "\\%", "\\_", "ab"};
        for (int i = random.nextInt(5); i > 0; i--) {
            sb.append(pieces[random.nextInt(pieces.length)]);
        }
        return sb.toString();
    }

    // ---- the model

    /** The filter on row {@code r}: TRUE, FALSE, or null for SQL NULL. */
    static Boolean model(RowFilter f, Map<String, Col> cols, int r) {
        return switch (f) {
            case RowFilter.IsNull n -> cols.get(n.column()).values()[r] == null;
            case RowFilter.StringTest t -> {
                byte[] v = (byte[]) cols.get(t.column()).values()[r];
                yield v == null ? null : stringTest(t, v);
            }
            case RowFilter.Like l -> {
                Col c = cols.get(l.column());
                byte[] v = (byte[]) c.values()[r];
                yield v == null ? null : like(l, v, c.kind() == ViewKind.UTF8);
            }
            case RowFilter.ValueTest t -> {
                Col c = cols.get(t.column());
                Object v = c.values()[r];
                yield v == null ? null : valueTest(t, c.domain(), v);
            }
            case RowFilter.And a -> {
                Boolean out = true;
                for (RowFilter child : a.children()) {
                    Boolean x = model(child, cols, r);
                    if (Boolean.FALSE.equals(x)) {
                        yield false;
                    }
                    if (x == null) {
                        out = null;
                    }
                }
                yield out;
            }
            case RowFilter.Or o -> {
                Boolean out = false;
                for (RowFilter child : o.children()) {
                    Boolean x = model(child, cols, r);
                    if (Boolean.TRUE.equals(x)) {
                        yield true;
                    }
                    if (x == null) {
                        out = null;
                    }
                }
                yield out;
            }
            case RowFilter.Not n -> {
                Boolean x = model(n.child(), cols, r);
                yield x == null ? null : !x;
            }
        };
    }

    private static boolean stringTest(RowFilter.StringTest t, byte[] v) {
        List<byte[]> c = t.values();
        return switch (t.op()) {
            case EQUAL -> Arrays.equals(v, c.get(0));
            case NOT_EQUAL -> !Arrays.equals(v, c.get(0));
            case LESS_THAN -> Arrays.compareUnsigned(v, c.get(0)) < 0;
            case LESS_THAN_OR_EQUAL -> Arrays.compareUnsigned(v, c.get(0)) <= 0;
            case GREATER_THAN -> Arrays.compareUnsigned(v, c.get(0)) > 0;
            case GREATER_THAN_OR_EQUAL -> Arrays.compareUnsigned(v, c.get(0)) >= 0;
            case IN -> c.stream().anyMatch(x -> Arrays.equals(v, x));
            case STARTS_WITH -> v.length >= c.get(0).length
                    && Arrays.equals(v, 0, c.get(0).length, c.get(0), 0, c.get(0).length);
            case ENDS_WITH -> v.length >= c.get(0).length && Arrays.equals(v, v.length - c.get(0).length, v.length,
                    c.get(0), 0, c.get(0).length);
            case CONTAINS -> latin1(v).contains(latin1(c.get(0)));
        };
    }

    private static String latin1(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    /**
     * LIKE by regex: on a UTF-8 column over the decoded string ({@code _} one code point), on a binary one over the
     * bytes as Latin-1 characters ({@code _} one byte).
     */
    private static boolean like(RowFilter.Like l, byte[] v, boolean utf8) {
        StringBuilder regex = new StringBuilder();
        String p = l.pattern();
        for (int i = 0; i < p.length(); ) {
            int cp = p.codePointAt(i);
            int width = Character.charCount(cp);
            if (l.escape() != null && cp == l.escape()) {
                i += width;
                cp = p.codePointAt(i);
                width = Character.charCount(cp);
                regex.append(literal(cp, utf8));
            } else if (cp == '%') {
                regex.append(".*");
            } else if (cp == '_') {
                regex.append('.');
            } else {
                regex.append(literal(cp, utf8));
            }
            i += width;
        }
        String subject = utf8 ? new String(v, StandardCharsets.UTF_8) : latin1(v);
        return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(subject).matches();
    }

    private static String literal(int cp, boolean utf8) {
        String s = new String(Character.toChars(cp));
        return Pattern.quote(utf8 ? s : latin1(s.getBytes(StandardCharsets.UTF_8)));
    }

    private static boolean valueTest(RowFilter.ValueTest t, ValueDomain d, Object v) {
        java.util.function.IntPredicate holds = switch (t.op()) {
            case EQUAL -> c -> c == 0;
            case NOT_EQUAL -> c -> c != 0;
            case LESS_THAN -> c -> c < 0;
            case LESS_THAN_OR_EQUAL -> c -> c <= 0;
            case GREATER_THAN -> c -> c > 0;
            case GREATER_THAN_OR_EQUAL -> c -> c >= 0;
            case IN -> c -> c == 0;
            default -> throw new AssertionError();
        };
        List<Object> constants = t.op() == Op.IN ? t.values() : List.of(t.values().get(0));
        for (Object c : constants) {
            if (holds.test(modelCompare(d, v, c))) {
                return true;
            }
        }
        return false;
    }

    /** Comparison by mathematical value, written independently of ValueDomain (BigDecimal throughout). */
    private static int modelCompare(ValueDomain d, Object v, Object c) {
        switch (d.kind()) {
            case FLOATING -> {
                double x = (Double) v;
                double y = c instanceof Long l ? (double) l : (Double) c;
                if (Double.isNaN(x) || Double.isNaN(y)) {
                    return Double.isNaN(x) ? (Double.isNaN(y) ? 0 : 1) : -1;
                }
                return x < y ? -1 : x > y ? 1 : 0; // -0.0 == 0.0 here
            }
            case BOOLEAN -> {
                return Boolean.compare((Boolean) v, (Boolean) c);
            }
            default -> {
                BigDecimal x = switch (d.kind()) {
                    case SIGNED -> BigDecimal.valueOf((Long) v);
                    case UNSIGNED -> new BigDecimal(Long.toUnsignedString((Long) v));
                    default -> (BigDecimal) v;
                };
                BigDecimal y = c instanceof Long l ? BigDecimal.valueOf(l) : (BigDecimal) c;
                return x.compareTo(y);
            }
        }
    }

    private static String rowValues(Map<String, Col> cols, int r) {
        StringBuilder sb = new StringBuilder("{");
        for (Col c : cols.values()) {
            Object v = c.values()[r];
            sb.append(c.name()).append('=').append(v instanceof byte[] b ? Arrays.toString(b) : v).append(' ');
        }
        return sb.append('}').toString();
    }
}
