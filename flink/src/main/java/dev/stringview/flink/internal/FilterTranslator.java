package dev.stringview.flink.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Turns the filters Flink's planner pushes ({@link ResolvedExpression}s) into {@link StringFilter}s, or says it
 * cannot. A filter is taken only when our kernels give exactly Flink's answer: comparisons, LIKE and null tests of
 * a VARCHAR/CHAR column against a string literal, and AND/OR of such. Flink turns {@code s IN ('a', 'b')} into an
 * OR of equalities before pushing it. Everything else (other columns' types, functions, NOT, casts, two columns)
 * is handed back to Flink, which then evaluates it after the scan.
 */
final class FilterTranslator {
    private final Set<String> stringColumns;

    FilterTranslator(Set<String> stringColumns) {
        this.stringColumns = stringColumns;
    }

    Optional<StringFilter> translate(ResolvedExpression e) {
        if (!(e instanceof CallExpression call)) {
            return Optional.empty();
        }
        FunctionDefinition f = call.getFunctionDefinition();
        List<ResolvedExpression> args = call.getResolvedChildren();
        if (f == BuiltInFunctionDefinitions.AND || f == BuiltInFunctionDefinitions.OR) {
            List<StringFilter> children = new ArrayList<>();
            for (ResolvedExpression arg : args) {
                Optional<StringFilter> child = translate(arg);
                if (child.isEmpty()) {
                    return Optional.empty();
                }
                children.add(child.get());
            }
            StringFilter combined = f == BuiltInFunctionDefinitions.AND ? new StringFilter.And(children)
                    : new StringFilter.Or(children);
            return Optional.of(collapseIn(combined));
        }
        if (f == BuiltInFunctionDefinitions.IS_NULL || f == BuiltInFunctionDefinitions.IS_NOT_NULL) {
            return column(args.get(0)).map(c -> new StringFilter.Leaf(c,
                    f == BuiltInFunctionDefinitions.IS_NULL ? StringFilter.Op.IS_NULL : StringFilter.Op.IS_NOT_NULL,
                    List.of(), null));
        }
        if (f == BuiltInFunctionDefinitions.LIKE) {
            Optional<String> c = column(args.get(0));
            Optional<String> pattern = literal(args.get(1));
            Character escape = null;
            if (args.size() > 2) {
                Optional<String> esc = literal(args.get(2));
                if (esc.isEmpty() || esc.get().length() != 1) {
                    return Optional.empty();
                }
                escape = esc.get().charAt(0);
            } else if (pattern.isPresent() && pattern.get().indexOf('\\') >= 0) {
                // Flink's LIKE without ESCAPE treats '\' as an escape in some code paths and not in others:
                // leave such patterns to Flink rather than guess.
                return Optional.empty();
            }
            if (c.isEmpty() || pattern.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new StringFilter.Leaf(c.get(), StringFilter.Op.LIKE,
                    List.of(pattern.get().getBytes(StandardCharsets.UTF_8)), escape));
        }
        StringFilter.Op op = comparison(f);
        if (op == null || args.size() != 2) {
            return Optional.empty();
        }
        Optional<String> left = column(args.get(0));
        Optional<String> right = literal(args.get(1));
        if (left.isEmpty()) { // literal op column: flip the comparison
            left = column(args.get(1));
            right = literal(args.get(0));
            op = flip(op);
        }
        if (left.isEmpty() || right.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new StringFilter.Leaf(left.get(), op,
                List.of(right.get().getBytes(StandardCharsets.UTF_8)), null));
    }

    /** An OR of equalities on one column (Flink's form of IN) becomes one IN leaf: one hash probe per row. */
    private static StringFilter collapseIn(StringFilter f) {
        if (!(f instanceof StringFilter.Or or)) {
            return f;
        }
        String column = null;
        List<byte[]> values = new ArrayList<>();
        for (StringFilter child : or.children()) {
            if (!(child instanceof StringFilter.Leaf leaf)
                    || (leaf.op() != StringFilter.Op.EQ && leaf.op() != StringFilter.Op.IN)
                    || (column != null && !column.equals(leaf.column()))) {
                return f;
            }
            column = leaf.column();
            values.addAll(leaf.constants());
        }
        return new StringFilter.Leaf(column, StringFilter.Op.IN, values, null);
    }

    private static StringFilter.Op comparison(FunctionDefinition f) {
        if (f == BuiltInFunctionDefinitions.EQUALS) {
            return StringFilter.Op.EQ;
        } else if (f == BuiltInFunctionDefinitions.NOT_EQUALS) {
            return StringFilter.Op.NE;
        } else if (f == BuiltInFunctionDefinitions.LESS_THAN) {
            return StringFilter.Op.LT;
        } else if (f == BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL) {
            return StringFilter.Op.LE;
        } else if (f == BuiltInFunctionDefinitions.GREATER_THAN) {
            return StringFilter.Op.GT;
        } else if (f == BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL) {
            return StringFilter.Op.GE;
        }
        return null;
    }

    private static StringFilter.Op flip(StringFilter.Op op) {
        return switch (op) {
            case LT -> StringFilter.Op.GT;
            case LE -> StringFilter.Op.GE;
            case GT -> StringFilter.Op.LT;
            case GE -> StringFilter.Op.LE;
            default -> op;
        };
    }

    /** The name of a STRING (VARCHAR) column read as views, or empty. */
    private Optional<String> column(ResolvedExpression e) {
        if (e instanceof FieldReferenceExpression ref
                && ref.getOutputDataType().getLogicalType().getTypeRoot() == LogicalTypeRoot.VARCHAR
                && stringColumns.contains(ref.getName())) {
            return Optional.of(ref.getName());
        }
        return Optional.empty();
    }

    /** A non-null character-string literal's value, or empty. */
    private static Optional<String> literal(ResolvedExpression e) {
        if (e instanceof ValueLiteralExpression lit && !lit.isNull()
                && lit.getOutputDataType().getLogicalType().getTypeRoot() != LogicalTypeRoot.NULL) {
            LogicalTypeRoot root = lit.getOutputDataType().getLogicalType().getTypeRoot();
            if (root == LogicalTypeRoot.VARCHAR || root == LogicalTypeRoot.CHAR) {
                return lit.getValueAs(String.class);
            }
        }
        return Optional.empty();
    }
}
