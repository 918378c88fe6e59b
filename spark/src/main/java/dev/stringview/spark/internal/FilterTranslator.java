package dev.stringview.spark.internal;

import dev.stringview.parquet.RowFilter;
import dev.stringview.parquet.RowFilter.Op;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringContains;
import org.apache.spark.sql.sources.StringEndsWith;
import org.apache.spark.sql.sources.StringStartsWith;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Maps the filters Spark pushes into a file scan ({@code org.apache.spark.sql.sources.Filter}, the V1 data source
 * filters) onto parquet-reader's {@link RowFilter} where it gives exactly Spark's answer, and says no (null)
 * everywhere else. The one translator of this module: evaluation and pruning are parquet-reader's, from the one
 * expression. Spark keeps evaluating every data filter above a file scan, so a filter left out here costs speed,
 * never correctness; one translated here must be exact on the rows where it is TRUE, the only rows the scan hands on.
 *
 * <p>Exact means: a string column of the UTF8_BINARY collation (plain bytes; any other collation, including
 * UTF8_BINARY_RTRIM, compares differently) compared with a string, with {@code = < <= > >= IN}, prefix, suffix
 * and substring tests; or a comparison ({@code = < <= > >= IN}) of a BOOLEAN, BYTE, SHORT, INT, LONG, DATE, FLOAT,
 * DOUBLE or DECIMAL column with a constant, which {@link RowFilter.ValueTest} compares by value in Spark's order
 * (NaN equal to itself and above every other value, {@code -0.0 = 0.0}). Timestamps are left to Spark: a
 * TIMESTAMP(MILLIS) column's values are in another unit than Spark's microseconds. {@code IS NULL} and
 * {@code IS NOT NULL} are translated on every column, {@code <=>} as {@code IS NOT NULL AND =} (never NULL), and
 * {@code AND}, {@code OR} and {@code NOT} when every child is.
 *
 * <p>A NULL constant makes a leaf NULL where it would be FALSE ({@code s IN ('a', NULL)} is never FALSE). RowFilter
 * has no NULL constant, so such a leaf is mapped by its polarity: under an even number of NOTs only its TRUE rows
 * matter (SQL's AND and OR never turn a NULL into TRUE that FALSE would not), so its NULLs may read FALSE; under an
 * odd number only its FALSE rows matter, so they may read TRUE.
 */
public final class FilterTranslator {
    private final StructType schema;

    /** @param schema the columns filters may name: the relation's data columns */
    public FilterTranslator(StructType schema) {
        this.schema = schema;
    }

    /** The conjunction of the filters that translate, or null if none does. */
    public RowFilter translateAll(Iterable<Filter> filters) {
        List<RowFilter> taken = new ArrayList<>();
        for (Filter f : filters) {
            RowFilter r = translate(f);
            if (r != null) {
                taken.add(r);
            }
        }
        return taken.isEmpty() ? null : taken.size() == 1 ? taken.get(0) : new RowFilter.And(taken);
    }

    /** The filter for {@code f}, or null if it cannot be evaluated exactly. */
    public RowFilter translate(Filter f) {
        return translate(f, true);
    }

    /** {@code positive}: under an even number of NOTs (see the class comment). */
    private RowFilter translate(Filter f, boolean positive) {
        return switch (f) {
            case And a -> both(a.left(), a.right(), true, positive);
            case Or o -> both(o.left(), o.right(), false, positive);
            case Not n -> {
                RowFilter child = translate(n.child(), !positive);
                yield child == null ? null : RowFilter.not(child);
            }
            case EqualTo e -> compare(e.attribute(), Op.EQUAL, e.value(), positive);
            case EqualNullSafe e -> {
                String column = column(e.attribute());
                if (column == null) {
                    yield null;
                }
                if (e.value() == null) {
                    yield RowFilter.isNull(column);
                }
                RowFilter equal = compare(e.attribute(), Op.EQUAL, e.value(), positive);
                yield equal == null ? null : RowFilter.and(RowFilter.isNotNull(column), equal);
            }
            case GreaterThan g -> compare(g.attribute(), Op.GREATER_THAN, g.value(), positive);
            case GreaterThanOrEqual g -> compare(g.attribute(), Op.GREATER_THAN_OR_EQUAL, g.value(), positive);
            case LessThan l -> compare(l.attribute(), Op.LESS_THAN, l.value(), positive);
            case LessThanOrEqual l -> compare(l.attribute(), Op.LESS_THAN_OR_EQUAL, l.value(), positive);
            case In in -> in(in.attribute(), in.values(), positive);
            case IsNull n -> column(n.attribute()) == null ? null : RowFilter.isNull(column(n.attribute()));
            case IsNotNull n -> column(n.attribute()) == null ? null : RowFilter.isNotNull(column(n.attribute()));
            case StringStartsWith s -> compare(s.attribute(), Op.STARTS_WITH, s.value(), positive);
            case StringEndsWith s -> compare(s.attribute(), Op.ENDS_WITH, s.value(), positive);
            case StringContains s -> compare(s.attribute(), Op.CONTAINS, s.value(), positive);
            default -> null;
        };
    }

    private RowFilter both(Filter l, Filter r, boolean and, boolean positive) {
        RowFilter left = translate(l, positive);
        RowFilter right = left == null ? null : translate(r, positive);
        if (right == null) {
            return null;
        }
        return and ? RowFilter.and(left, right) : RowFilter.or(left, right);
    }

    /** {@code attribute op value}, or null. */
    private RowFilter compare(String attribute, Op op, Object value, boolean positive) {
        String column = column(attribute);
        if (column == null) {
            return null;
        }
        DataType type = columnType(column);
        boolean stringOp = op == Op.STARTS_WITH || op == Op.ENDS_WITH || op == Op.CONTAINS;
        if (binaryString(type)) {
            if (value == null) {
                return positive ? never(column) : neverFalse(column); // NULL everywhere: never TRUE, never FALSE
            }
            return value instanceof String s
                    ? new RowFilter.StringTest(column, op, List.of(s.getBytes(StandardCharsets.UTF_8))) : null;
        }
        if (stringOp || !valueType(type)) {
            return null;
        }
        if (value == null) {
            return positive ? never(column) : neverFalse(column);
        }
        Object constant = constant(type, value);
        return constant == null ? null : new RowFilter.ValueTest(column, op, List.of(constant));
    }

    private RowFilter in(String attribute, Object[] values, boolean positive) {
        String column = column(attribute);
        if (column == null) {
            return null;
        }
        DataType type = columnType(column);
        boolean string = binaryString(type);
        if (!string && !valueType(type)) {
            return null;
        }
        List<byte[]> strings = new ArrayList<>();
        List<Object> constants = new ArrayList<>();
        boolean sawNull = false;
        for (Object v : values) {
            if (v == null) {
                sawNull = true;
            } else if (string) {
                if (!(v instanceof String s)) {
                    return null;
                }
                strings.add(s.getBytes(StandardCharsets.UTF_8));
            } else {
                Object constant = constant(type, v);
                if (constant == null) {
                    return null;
                }
                constants.add(constant);
            }
        }
        if (sawNull && !positive) {
            return neverFalse(column);
        }
        return string ? new RowFilter.StringTest(column, Op.IN, strings)
                : new RowFilter.ValueTest(column, Op.IN, constants);
    }

    /**
     * A call of this module's {@code like_any} / {@code starts_with_any} (or its {@code NOT}) on a column, as Spark
     * plans it ({@code StaticInvoke} of the function's static {@code invoke}, or {@code ApplyFunctionExpression}),
     * or null. Spark pushes no function call into a V1 file scan; the drop-in finds such filters above its scans
     * (see {@code FunctionPushdown}).
     */
    public RowFilter translateFunction(org.apache.spark.sql.catalyst.expressions.Expression e) {
        return translateFunction(e, true);
    }

    private RowFilter translateFunction(org.apache.spark.sql.catalyst.expressions.Expression e, boolean positive) {
        if (e instanceof org.apache.spark.sql.catalyst.expressions.Not not) {
            RowFilter child = translateFunction(not.child(), !positive);
            return child == null ? null : RowFilter.not(child);
        }
        Class<?> function;
        scala.collection.immutable.Seq<org.apache.spark.sql.catalyst.expressions.Expression> args;
        if (e instanceof org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke call
                && call.functionName().equals("invoke")) {
            function = call.staticObject();
            args = call.arguments();
        } else if (e instanceof org.apache.spark.sql.catalyst.expressions.ApplyFunctionExpression call) {
            function = call.function().getClass();
            args = call.children();
        } else {
            return null;
        }
        boolean like = function == AnyPatternFunction.LikeAny.class;
        if ((!like && function != AnyPatternFunction.StartsWithAny.class) || args.size() != 2
                || !(args.apply(0) instanceof org.apache.spark.sql.catalyst.expressions.AttributeReference ref)
                || !(args.apply(1) instanceof org.apache.spark.sql.catalyst.expressions.Literal lit)
                || lit.value() == null) {
            return null;
        }
        String column = column(ref.name());
        if (column == null || !binaryString(columnType(column))) {
            return null;
        }
        org.apache.spark.sql.catalyst.util.ArrayData values = (org.apache.spark.sql.catalyst.util.ArrayData) lit.value();
        List<RowFilter> alternatives = new ArrayList<>();
        boolean sawNull = false;
        for (int i = 0; i < values.numElements(); i++) {
            if (values.isNullAt(i)) {
                sawNull = true;
            } else if (like) {
                try { // Spark's LIKE escape character is the backslash; core's one LIKE parser reads the pattern
                    alternatives.add(RowFilter.like(column, values.getUTF8String(i).toString(), '\\'));
                } catch (IllegalArgumentException badPattern) {
                    return null;
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
        return alternatives.isEmpty() ? never(column)
                : alternatives.size() == 1 ? alternatives.get(0) : new RowFilter.Or(alternatives);
    }

    /** Never TRUE: {@code c IN ()} (FALSE on values, NULL on nulls). */
    private RowFilter never(String column) {
        return binaryString(columnType(column)) ? new RowFilter.StringTest(column, Op.IN, List.of())
                : new RowFilter.ValueTest(column, Op.IN, List.of());
    }

    /** Never FALSE: {@code NOT (c IN ())} (TRUE on values, NULL on nulls). */
    private RowFilter neverFalse(String column) {
        return RowFilter.not(never(column));
    }

    /**
     * A V1 filter's value (Spark's external Java types) as a {@link RowFilter.ValueTest} constant of the column's
     * type: integers and dates (days since the epoch) as Long, FLOAT and DOUBLE as Double (a float widens exactly),
     * DECIMAL as BigDecimal, BOOLEAN as Boolean; null when the value is not of the column's type.
     */
    private static Object constant(DataType type, Object value) {
        return switch (type) {
            case BooleanType t -> value instanceof Boolean b ? b : null;
            case ByteType t -> value instanceof Byte b ? (Object) (long) b : null;
            case ShortType t -> value instanceof Short s ? (Object) (long) s : null;
            case IntegerType t -> value instanceof Integer i ? (Object) (long) i : null;
            case LongType t -> value instanceof Long l ? l : null;
            case FloatType t -> value instanceof Float f ? (Object) (double) f : null;
            case DoubleType t -> value instanceof Double d ? d : null;
            case DecimalType t -> value instanceof BigDecimal d ? d : null;
            // java.sql.Date or java.time.LocalDate, by Spark's own conversion (with its calendar rebase).
            case DateType t -> value instanceof java.sql.Date || value instanceof java.time.LocalDate
                    ? (Object) (long) DateTimeUtils.anyToDays(value) : null;
            default -> null;
        };
    }

    private static boolean valueType(DataType type) {
        return type instanceof BooleanType || type instanceof ByteType || type instanceof ShortType
                || type instanceof IntegerType || type instanceof LongType || type instanceof DateType
                || type instanceof FloatType || type instanceof DoubleType || type instanceof DecimalType;
    }

    /** The schema's name of the top-level column {@code attribute} names (Spark matches names case-insensitively). */
    private String column(String attribute) {
        String folded = null;
        for (StructField field : schema.fields()) {
            if (field.name().equals(attribute)) {
                return field.name();
            }
            if (folded == null && field.name().toLowerCase(Locale.ROOT).equals(attribute.toLowerCase(Locale.ROOT))) {
                folded = field.name();
            }
        }
        return folded;
    }

    private DataType columnType(String name) {
        for (StructField field : schema.fields()) {
            if (field.name().equals(name)) {
                return field.dataType();
            }
        }
        return null;
    }

    /** A string type whose comparisons are plain unsigned byte comparisons. */
    static boolean binaryString(DataType type) {
        return type instanceof StringType s && s.isUTF8BinaryCollation() && !s.usesTrimCollation();
    }
}
