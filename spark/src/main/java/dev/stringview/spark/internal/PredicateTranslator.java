package dev.stringview.spark.internal;

import dev.stringview.spark.internal.StringFilter.Leaf;
import dev.stringview.spark.internal.StringFilter.Op;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.UserDefinedScalarFunc;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Turns Spark's V2 predicates into {@link StringFilter}s where our kernels give exactly Spark's answer, and says
 * no (null) everywhere else, so that Spark keeps evaluating those itself.
 *
 * <p>Exact means: a string column of the UTF8_BINARY collation (plain bytes; any other collation, including
 * UTF8_BINARY_RTRIM, compares differently), string constants of that collation, and one of the operators our
 * kernels implement. {@code AND}, {@code OR} and {@code NOT} are translated when every child is.
 */
final class PredicateTranslator {
    /** The canonical names of this module's V2 functions, as pushed inside {@code UserDefinedScalarFunc}. */
    static final String LIKE_ANY = "stringview.like_any";
    static final String STARTS_WITH_ANY = "stringview.starts_with_any";

    private final StructType schema;

    PredicateTranslator(StructType schema) {
        this.schema = schema;
    }

    /** The filter for {@code p}, or null if it cannot be evaluated exactly. */
    StringFilter translate(Predicate p) {
        Expression[] c = p.children();
        switch (p.name()) {
            case "AND":
                return both(c, true);
            case "OR":
                return both(c, false);
            case "NOT": {
                StringFilter child = c.length == 1 && c[0] instanceof Predicate q ? translate(q) : null;
                return child == null ? null : new StringFilter.Not(child);
            }
            case "=":
                return compare(c, Op.EQ, Op.EQ);
            case "<>":
                return compare(c, Op.NE, Op.NE);
            case "<":
                return compare(c, Op.LT, Op.GT);
            case "<=":
                return compare(c, Op.LE, Op.GE);
            case ">":
                return compare(c, Op.GT, Op.LT);
            case ">=":
                return compare(c, Op.GE, Op.LE);
            case "STARTS_WITH":
                return function(c, Op.STARTS_WITH);
            case "ENDS_WITH":
                return function(c, Op.ENDS_WITH);
            case "CONTAINS":
                return function(c, Op.CONTAINS);
            case "IS_NULL":
                return nullTest(c, Op.IS_NULL);
            case "IS_NOT_NULL":
                return nullTest(c, Op.IS_NOT_NULL);
            case "IN":
                return in(c);
            case "BOOLEAN_EXPRESSION":
                return c.length == 1 && c[0] instanceof UserDefinedScalarFunc f ? ourFunction(f) : null;
            default:
                return null;
        }
    }

    private StringFilter both(Expression[] c, boolean and) {
        if (c.length != 2 || !(c[0] instanceof Predicate l) || !(c[1] instanceof Predicate r)) {
            return null;
        }
        StringFilter left = translate(l);
        StringFilter right = left == null ? null : translate(r);
        if (right == null) {
            return null;
        }
        return and ? new StringFilter.And(left, right) : new StringFilter.Or(left, right);
    }

    private StringFilter compare(Expression[] c, Op columnFirst, Op literalFirst) {
        if (c.length != 2) {
            return null;
        }
        StringFilter columnLeft = function(c, columnFirst);
        return columnLeft != null ? columnLeft : function(new Expression[] {c[1], c[0]}, literalFirst);
    }

    /** {@code op(column, literal)}, or null. */
    private StringFilter function(Expression[] c, Op op) {
        String column = c.length == 2 ? stringColumn(c[0]) : null;
        return column != null && c[1] instanceof Literal<?> lit ? leaf(column, op, lit) : null;
    }

    private StringFilter nullTest(Expression[] c, Op op) {
        return c.length == 1 && stringColumn(c[0]) != null
                ? new Leaf(stringColumn(c[0]), op, List.of(), false) : null;
    }

    private StringFilter in(Expression[] c) {
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
        return new Leaf(column, Op.IN, values, sawNull);
    }

    private Leaf leaf(String column, Op op, Literal<?> lit) {
        if (!binaryString(lit.dataType())) {
            return null;
        }
        if (lit.value() == null) {
            return new Leaf(column, Op.IN, List.of(), true); // NULL everywhere: never TRUE, never FALSE
        }
        return new Leaf(column, op, List.of(((UTF8String) lit.value()).getBytes()), false);
    }

    /** {@code sv.fn.like_any(column, array(...))} and {@code starts_with_any}: recognised by canonical name. */
    private StringFilter ourFunction(UserDefinedScalarFunc f) {
        Op op = switch (f.canonicalName()) {
            case LIKE_ANY -> Op.LIKE_ANY;
            case STARTS_WITH_ANY -> Op.STARTS_WITH_ANY;
            default -> null;
        };
        Expression[] c = f.children();
        if (op == null || c.length != 2 || stringColumn(c[0]) == null || !(c[1] instanceof Literal<?> lit)
                || !(lit.dataType() instanceof ArrayType array) || !binaryString(array.elementType())) {
            return null;
        }
        if (lit.value() == null) {
            return null; // the function returns NULL; let Spark say so
        }
        ArrayData values = (ArrayData) lit.value();
        List<byte[]> constants = new ArrayList<>();
        boolean sawNull = false;
        for (int i = 0; i < values.numElements(); i++) {
            if (values.isNullAt(i)) {
                sawNull = true;
            } else {
                constants.add(values.getUTF8String(i).getBytes());
            }
        }
        return new Leaf(stringColumn(c[0]), op, constants, sawNull);
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
