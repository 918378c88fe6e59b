package dev.stringview.flink.internal;

import dev.stringview.parquet.RowFilter;
import dev.stringview.parquet.RowFilter.Op;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Maps the filters Flink's planner pushes ({@link ResolvedExpression}s) onto parquet-reader's {@link RowFilter}, or
 * says it cannot; evaluation and pruning are parquet-reader's, from the one expression. A filter is taken only
 * when our kernels give exactly Flink's answer, TRUE and FALSE alike (so that NOT of it is exact too):
 * comparisons and LIKE of a VARCHAR column against a string literal; comparisons of a BOOLEAN, TINYINT, SMALLINT,
 * INT, BIGINT, DATE or DECIMAL column against a literal of its type ({@link RowFilter.ValueTest}, by value); null
 * tests of any column; and AND/OR/NOT of such. Only columns stored in the files are taken (not partition columns,
 * which the connector prunes by directory). Flink turns {@code s IN ('a', 'b')} into an OR of equalities before
 * pushing it. Everything else is left to Flink: FLOAT and DOUBLE (Flink compares them as Java primitives, NaN equal
 * to nothing, where RowFilter orders NaN above every value as Spark does), timestamps (a TIMESTAMP(MILLIS) column
 * is in another unit than the literal), functions, casts, two columns.
 */
final class FilterTranslator {
    /** The columns stored in the files, by name: the table's physical columns but the partition columns. */
    private final Map<String, LogicalType> fileColumns;

    FilterTranslator(Map<String, LogicalType> fileColumns) {
        this.fileColumns = Map.copyOf(fileColumns);
    }

    /** The conjuncts Flink offers, each translated where it can be, ANDed; null when none is. */
    RowFilter translateAll(List<ResolvedExpression> conjuncts) {
        List<RowFilter> taken = new ArrayList<>();
        for (ResolvedExpression e : conjuncts) {
            translate(e).ifPresent(taken::add);
        }
        return taken.isEmpty() ? null : taken.size() == 1 ? taken.get(0) : new RowFilter.And(taken);
    }

    Optional<RowFilter> translate(ResolvedExpression e) {
        if (!(e instanceof CallExpression call)) {
            return Optional.empty();
        }
        FunctionDefinition f = call.getFunctionDefinition();
        List<ResolvedExpression> args = call.getResolvedChildren();
        if (f == BuiltInFunctionDefinitions.AND || f == BuiltInFunctionDefinitions.OR) {
            List<RowFilter> children = new ArrayList<>();
            for (ResolvedExpression arg : args) {
                Optional<RowFilter> child = translate(arg);
                if (child.isEmpty()) {
                    return Optional.empty();
                }
                children.add(child.get());
            }
            RowFilter combined = f == BuiltInFunctionDefinitions.AND ? new RowFilter.And(children)
                    : new RowFilter.Or(children);
            return Optional.of(collapseIn(combined));
        }
        if (f == BuiltInFunctionDefinitions.NOT && args.size() == 1) {
            return translate(args.get(0)).map(RowFilter.Not::new);
        }
        if (f == BuiltInFunctionDefinitions.IS_NULL || f == BuiltInFunctionDefinitions.IS_NOT_NULL) {
            return anyColumn(args.get(0)).map(c -> f == BuiltInFunctionDefinitions.IS_NULL ? RowFilter.isNull(c)
                    : RowFilter.isNotNull(c));
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
            try {
                return Optional.of(RowFilter.like(c.get(), pattern.get(), escape)); // core's one LIKE parser
            } catch (IllegalArgumentException bad) {
                return Optional.empty(); // a pattern ending in its escape: Flink reports it
            }
        }
        Op op = comparison(f);
        if (op == null || args.size() != 2) {
            return Optional.empty();
        }
        Optional<RowFilter> byValue = valueComparison(op, args.get(0), args.get(1));
        if (byValue.isEmpty()) {
            byValue = valueComparison(flip(op), args.get(1), args.get(0));
        }
        if (byValue.isPresent()) {
            return byValue;
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
        return Optional.of(RowFilter.string(left.get(), op, right.get()));
    }

    /** An OR of equalities on one column (Flink's form of IN) becomes one IN leaf: one hash probe per row. */
    private static RowFilter collapseIn(RowFilter f) {
        if (!(f instanceof RowFilter.Or or) || or.children().isEmpty()) {
            return f;
        }
        String column = null;
        List<byte[]> values = new ArrayList<>();
        for (RowFilter child : or.children()) {
            if (!(child instanceof RowFilter.StringTest leaf) || (leaf.op() != Op.EQUAL && leaf.op() != Op.IN)
                    || (column != null && !column.equals(leaf.column()))) {
                return f;
            }
            column = leaf.column();
            values.addAll(leaf.values());
        }
        return new RowFilter.StringTest(column, Op.IN, values);
    }

    private static Op comparison(FunctionDefinition f) {
        if (f == BuiltInFunctionDefinitions.EQUALS) {
            return Op.EQUAL;
        } else if (f == BuiltInFunctionDefinitions.NOT_EQUALS) {
            return Op.NOT_EQUAL;
        } else if (f == BuiltInFunctionDefinitions.LESS_THAN) {
            return Op.LESS_THAN;
        } else if (f == BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL) {
            return Op.LESS_THAN_OR_EQUAL;
        } else if (f == BuiltInFunctionDefinitions.GREATER_THAN) {
            return Op.GREATER_THAN;
        } else if (f == BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL) {
            return Op.GREATER_THAN_OR_EQUAL;
        }
        return null;
    }

    private static Op flip(Op op) {
        return switch (op) {
            case LESS_THAN -> Op.GREATER_THAN;
            case LESS_THAN_OR_EQUAL -> Op.GREATER_THAN_OR_EQUAL;
            case GREATER_THAN -> Op.LESS_THAN;
            case GREATER_THAN_OR_EQUAL -> Op.LESS_THAN_OR_EQUAL;
            default -> op;
        };
    }

    /** {@code column op literal} on a column compared by value (see the class comment), or empty. */
    private Optional<RowFilter> valueComparison(Op op, ResolvedExpression column, ResolvedExpression literal) {
        if (!(column instanceof FieldReferenceExpression ref) || !(literal instanceof ValueLiteralExpression lit)
                || lit.isNull() || !fileColumns.containsKey(ref.getName())) {
            return Optional.empty();
        }
        LogicalTypeRoot root = ref.getOutputDataType().getLogicalType().getTypeRoot();
        if (lit.getOutputDataType().getLogicalType().getTypeRoot() != root) {
            return Optional.empty();
        }
        Optional<?> value = switch (root) {
            case BOOLEAN -> lit.getValueAs(Boolean.class);
            case TINYINT -> lit.getValueAs(Byte.class).map(v -> (long) v);
            case SMALLINT -> lit.getValueAs(Short.class).map(v -> (long) v);
            case INTEGER -> lit.getValueAs(Integer.class).map(v -> (long) v);
            case BIGINT -> lit.getValueAs(Long.class);
            case DATE -> lit.getValueAs(LocalDate.class).map(LocalDate::toEpochDay);
            case DECIMAL -> lit.getValueAs(BigDecimal.class);
            default -> Optional.empty();
        };
        return value.map(v -> new RowFilter.ValueTest(ref.getName(), op, List.of(v)));
    }

    /** Any column stored in the files, or empty. */
    private Optional<String> anyColumn(ResolvedExpression e) {
        return e instanceof FieldReferenceExpression ref && fileColumns.containsKey(ref.getName())
                ? Optional.of(ref.getName()) : Optional.empty();
    }

    /** The name of a STRING (VARCHAR) column stored in the files, or empty. */
    private Optional<String> column(ResolvedExpression e) {
        if (e instanceof FieldReferenceExpression ref
                && ref.getOutputDataType().getLogicalType().getTypeRoot() == LogicalTypeRoot.VARCHAR
                && fileColumns.get(ref.getName()) instanceof LogicalType t
                && t.getTypeRoot() == LogicalTypeRoot.VARCHAR) {
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
