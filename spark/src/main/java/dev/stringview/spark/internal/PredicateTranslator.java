package dev.stringview.spark.internal;

import dev.stringview.parquet.RowFilter;
import dev.stringview.parquet.RowFilter.Op;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.UserDefinedScalarFunc;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Maps Spark's V2 predicates onto parquet-reader's {@link RowFilter} where it gives exactly Spark's answer, and says
 * no (null) everywhere else, so that Spark keeps evaluating those itself. Only mapping lives here: evaluation and
 * pruning are parquet-reader's, from the one expression.
 *
 * <p>Exact means: a string column of the UTF8_BINARY collation (plain bytes; any other collation, including
 * UTF8_BINARY_RTRIM, compares differently), string constants of that collation, and one of the operators our
 * kernels implement; or a comparison ({@code = <> < <= > >= IN}) of a BOOLEAN, BYTE, SHORT, INT, LONG, DATE,
 * FLOAT, DOUBLE or DECIMAL column with a constant of the column's type, which {@link RowFilter.ValueTest} compares
 * by value in Spark's order (NaN equal to itself and above every other value, {@code -0.0 = 0.0}). Timestamps are
 * left to Spark: a TIMESTAMP(MILLIS) column's values are in another unit than Spark's microsecond constants.
 * {@code IS NULL} and {@code IS NOT NULL} are translated on every column. {@code AND}, {@code OR} and {@code NOT}
 * are translated when every child is.
 *
 * <p>A NULL constant makes a leaf NULL where it would be FALSE ({@code s IN ('a', NULL)} is never FALSE; {@code s =
 * NULL} is NULL everywhere). RowFilter has no NULL constant, so such a leaf is mapped by its polarity: under an even
 * number of NOTs only its TRUE rows matter (SQL's AND and OR never turn a NULL into TRUE that FALSE would not), so
 * the NULLs may read FALSE; under an odd number only its FALSE rows matter, so they may read TRUE. Either way the
 * rows where the whole filter is TRUE, the only rows Spark gets, are Spark's.
 */
final class PredicateTranslator {
    /** The canonical names of this module's V2 functions, as pushed inside {@code UserDefinedScalarFunc}. */
    static final String LIKE_ANY = "stringview.like_any";
    static final String STARTS_WITH_ANY = "stringview.starts_with_any";

    /** Never TRUE: {@code c IN ()} (FALSE on values, NULL on nulls); keeps a column, so batches have rows. */
    private RowFilter never(String column) {
        return stringColumn(column) ? new RowFilter.StringTest(column, Op.IN, List.of())
                : new RowFilter.ValueTest(column, Op.IN, List.of());
    }

    /** Never FALSE: {@code NOT (c IN ())} (TRUE on values, NULL on nulls). */
    private RowFilter neverFalse(String column) {
        return RowFilter.not(never(column));
    }

    private final StructType schema;

    PredicateTranslator(StructType schema) {
        this.schema = schema;
    }

    /** The filter for {@code p}, or null if it cannot be evaluated exactly. */
    RowFilter translate(Predicate p) {
        return translate(p, true);
    }

    /** {@code positive}: under an even number of NOTs (see the class comment). */
    private RowFilter translate(Predicate p, boolean positive) {
        Expression[] c = p.children();
        switch (p.name()) {
            case "AND":
                return both(c, true, positive);
            case "OR":
                return both(c, false, positive);
            case "NOT": {
                RowFilter child = c.length == 1 && c[0] instanceof Predicate q ? translate(q, !positive) : null;
                return child == null ? null : RowFilter.not(child);
            }
            case "=":
                return compare(c, Op.EQUAL, Op.EQUAL, positive);
            case "<>":
                return compare(c, Op.NOT_EQUAL, Op.NOT_EQUAL, positive);
            case "<":
                return compare(c, Op.LESS_THAN, Op.GREATER_THAN, positive);
            case "<=":
                return compare(c, Op.LESS_THAN_OR_EQUAL, Op.GREATER_THAN_OR_EQUAL, positive);
            case ">":
                return compare(c, Op.GREATER_THAN, Op.LESS_THAN, positive);
            case ">=":
                return compare(c, Op.GREATER_THAN_OR_EQUAL, Op.LESS_THAN_OR_EQUAL, positive);
            case "STARTS_WITH":
                return function(c, Op.STARTS_WITH, positive);
            case "ENDS_WITH":
                return function(c, Op.ENDS_WITH, positive);
            case "CONTAINS":
                return function(c, Op.CONTAINS, positive);
            case "IS_NULL":
                return c.length == 1 && anyColumn(c[0]) != null ? RowFilter.isNull(anyColumn(c[0])) : null;
            case "IS_NOT_NULL":
                return c.length == 1 && anyColumn(c[0]) != null ? RowFilter.isNotNull(anyColumn(c[0])) : null;
            case "IN":
                return in(c, positive);
            case "BOOLEAN_EXPRESSION":
                String bare = c.length == 1 ? valueColumn(c[0]) : null;
                if (bare != null && columnType(bare) instanceof BooleanType) {
                    return new RowFilter.ValueTest(bare, Op.EQUAL, List.of(true)); // a BOOLEAN column as the predicate
                }
                return c.length == 1 && c[0] instanceof UserDefinedScalarFunc f ? ourFunction(f, positive) : null;
            default:
                return null;
        }
    }

    private RowFilter both(Expression[] c, boolean and, boolean positive) {
        if (c.length != 2 || !(c[0] instanceof Predicate l) || !(c[1] instanceof Predicate r)) {
            return null;
        }
        RowFilter left = translate(l, positive);
        RowFilter right = left == null ? null : translate(r, positive);
        if (right == null) {
            return null;
        }
        return and ? RowFilter.and(left, right) : RowFilter.or(left, right);
    }

    private RowFilter compare(Expression[] c, Op columnFirst, Op literalFirst, boolean positive) {
        if (c.length != 2) {
            return null;
        }
        RowFilter columnLeft = function(c, columnFirst, positive);
        return columnLeft != null ? columnLeft : function(new Expression[] {c[1], c[0]}, literalFirst, positive);
    }

    /** {@code op(column, literal)}, or null. */
    private RowFilter function(Expression[] c, Op op, boolean positive) {
        if (c.length == 2 && valueColumn(c[0]) != null && op != Op.STARTS_WITH && op != Op.ENDS_WITH
                && op != Op.CONTAINS) {
            String column = valueColumn(c[0]);
            if (!(c[1] instanceof Literal<?> lit) || !sameType(lit.dataType(), columnType(column))) {
                return null;
            }
            if (lit.value() == null) {
                return positive ? never(column) : neverFalse(column);
            }
            return new RowFilter.ValueTest(column, op, List.of(constant(lit.value())));
        }
        String column = c.length == 2 ? stringColumn(c[0]) : null;
        if (column == null || !(c[1] instanceof Literal<?> lit) || !binaryString(lit.dataType())) {
            return null;
        }
        if (lit.value() == null) {
            return positive ? never(column) : neverFalse(column); // NULL everywhere: never TRUE, never FALSE
        }
        return new RowFilter.StringTest(column, op, List.of(((UTF8String) lit.value()).getBytes()));
    }

    private RowFilter in(Expression[] c, boolean positive) {
        String valueColumn = c.length >= 1 ? valueColumn(c[0]) : null;
        if (valueColumn != null) {
            List<Object> values = new ArrayList<>();
            boolean sawNull = false;
            for (int i = 1; i < c.length; i++) {
                if (!(c[i] instanceof Literal<?> lit) || !sameType(lit.dataType(), columnType(valueColumn))) {
                    return null;
                }
                if (lit.value() == null) {
                    sawNull = true;
                } else {
                    values.add(constant(lit.value()));
                }
            }
            return sawNull && !positive ? neverFalse(valueColumn) : new RowFilter.ValueTest(valueColumn, Op.IN, values);
        }
        String column = c.length >= 1 ? stringColumn(c[0]) : null;
        if (column == null) {
            return null;
        }
        List<byte[]> values = new ArrayList<>();
        boolean sawNull = false;
        for (int i = 1; i < c.length; i++) {
            if (!(c[i] instanceof Literal<?> lit) || !binaryString(lit.dataType())) {
                return null;
            }
            if (lit.value() == null) {
                sawNull = true;
            } else {
                values.add(((UTF8String) lit.value()).getBytes());
            }
        }
        return sawNull && !positive ? neverFalse(column) : new RowFilter.StringTest(column, Op.IN, values);
    }

    /** {@code sv.fn.like_any(column, array(...))} and {@code starts_with_any}: recognised by canonical name. */
    private RowFilter ourFunction(UserDefinedScalarFunc f, boolean positive) {
        boolean like = f.canonicalName().equals(LIKE_ANY);
        if (!like && !f.canonicalName().equals(STARTS_WITH_ANY)) {
            return null;
        }
        Expression[] c = f.children();
        String column = c.length == 2 ? stringColumn(c[0]) : null;
        if (column == null || !(c[1] instanceof Literal<?> lit) || !(lit.dataType() instanceof ArrayType array)
                || !binaryString(array.elementType())) {
            return null;
        }
        if (lit.value() == null) {
            return null; // the function returns NULL; let Spark say so
        }
        ArrayData values = (ArrayData) lit.value();
        List<RowFilter> alternatives = new ArrayList<>();
        boolean sawNull = false;
        for (int i = 0; i < values.numElements(); i++) {
            if (values.isNullAt(i)) {
                sawNull = true;
            } else if (like) {
                // Spark's LIKE escape character is the backslash; core's one LIKE parser reads the pattern.
                try {
                    alternatives.add(RowFilter.like(column, values.getUTF8String(i).toString(), '\\'));
                } catch (IllegalArgumentException e) {
                    return null; // a pattern ending in its escape: Spark reports it
                }
            } else {
                alternatives.add(new RowFilter.StringTest(column, Op.STARTS_WITH,
                        List.of(values.getUTF8String(i).getBytes())));
            }
        }
        if (sawNull && !positive) {
            return neverFalse(column);
        }
        // No alternative: FALSE on a value, NULL on a null row, as the function is; an empty IN says the same.
        return alternatives.isEmpty() ? new RowFilter.StringTest(column, Op.IN, List.of())
                : alternatives.size() == 1 ? alternatives.get(0) : new RowFilter.Or(alternatives);
    }

    /**
     * A Spark literal's value as a {@link RowFilter.ValueTest} constant: integers and dates (days) as Long, FLOAT
     * and DOUBLE as Double (a float widens exactly), DECIMAL as BigDecimal, BOOLEAN as Boolean.
     */
    private static Object constant(Object value) {
        return switch (value) {
            case Boolean b -> b;
            case Byte b -> (long) b;
            case Short sh -> (long) sh;
            case Integer i -> (long) i;
            case Long l -> l;
            case Float f -> (double) f;
            case Double d -> d;
            case Decimal d -> d.toJavaBigDecimal();
            default -> throw new IllegalArgumentException("unexpected literal: type=" + value.getClass().getName());
        };
    }

    /** The top-level column {@code e} refers to, whatever its type, or null. */
    private String anyColumn(Expression e) {
        if (!(e instanceof NamedReference ref) || ref.fieldNames().length != 1) {
            return null;
        }
        return columnType(ref.fieldNames()[0]) == null ? null : ref.fieldNames()[0];
    }

    /** The top-level column {@code e} refers to if it is compared by value (see the class comment), or null. */
    private String valueColumn(Expression e) {
        String name = anyColumn(e);
        DataType type = name == null ? null : columnType(name);
        return type instanceof BooleanType || type instanceof ByteType || type instanceof ShortType
                || type instanceof IntegerType || type instanceof LongType || type instanceof DateType
                || type instanceof FloatType || type instanceof DoubleType || type instanceof DecimalType
                ? name : null;
    }

    /** A literal of the column's type: Spark casts constants to it (a DECIMAL's precision may differ). */
    private static boolean sameType(DataType literal, DataType column) {
        return literal.equals(column) || (literal instanceof DecimalType && column instanceof DecimalType);
    }

    private DataType columnType(String name) {
        for (StructField field : schema.fields()) {
            if (field.name().equals(name)) {
                return field.dataType();
            }
        }
        return null;
    }

    private boolean stringColumn(String name) {
        DataType type = columnType(name);
        return type instanceof StringType || type instanceof org.apache.spark.sql.types.BinaryType;
    }

    /** The name of the top-level UTF8_BINARY string column {@code e} refers to, or null. */
    private String stringColumn(Expression e) {
        if (!(e instanceof NamedReference ref) || ref.fieldNames().length != 1) {
            return null;
        }
        String name = ref.fieldNames()[0];
        for (StructField field : schema.fields()) {
            if (field.name().equals(name)) {
                return binaryString(field.dataType()) ? name : null;
            }
        }
        return null;
    }

    /** A string type whose comparisons are plain unsigned byte comparisons. */
    static boolean binaryString(DataType type) {
        return type instanceof StringType s && s.isUTF8BinaryCollation() && !s.usesTrimCollation();
    }
}
