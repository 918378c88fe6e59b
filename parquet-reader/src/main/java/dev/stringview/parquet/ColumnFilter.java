package dev.stringview.parquet;

import dev.stringview.ViewPredicate;
import dev.stringview.ViewPredicates;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A predicate on one column for a {@link ParquetScan}: core's {@link ViewPredicate}, which decides each row, plus
 * what the file's metadata can prove about whole row groups. For {@code =}, {@code IN}, {@code <}, {@code >} and
 * prefix, a row group whose min/max statistics (and, for {@code =} and {@code IN}, whose bloom filter) exclude
 * every constant is skipped unread; {@link #of} wraps any other predicate and skips nothing.
 *
 * <p>Skips are exact: a row group is skipped only if no non-null value in it can match, so a skip never changes
 * an answer. None of these predicates matches a null.
 */
public final class ColumnFilter {
    enum Kind { EQUAL, IN, LESS_THAN, GREATER_THAN, PREFIX, OTHER }

    private final String column;
    private final Kind kind;
    private final List<byte[]> constants;
    private final ViewPredicate predicate;
    private final String description;

    private ColumnFilter(String column, Kind kind, List<byte[]> constants, ViewPredicate predicate,
            String description) {
        this.column = Objects.requireNonNull(column, "column");
        this.kind = kind;
        this.constants = constants;
        this.predicate = predicate;
        this.description = description;
    }

    private static byte[] utf8(String s) {
        return Objects.requireNonNull(s, "value").getBytes(StandardCharsets.UTF_8);
    }

    /** {@code column = value}. */
    public static ColumnFilter equalTo(String column, String value) {
        return new ColumnFilter(column, Kind.EQUAL, List.of(utf8(value)), ViewPredicates.equalTo(value),
                column + " = '" + value + "'");
    }

    /** {@code column IN (values)}. */
    public static ColumnFilter in(String column, String... values) {
        List<byte[]> bytes = new ArrayList<>();
        for (String v : values) {
            bytes.add(utf8(v));
        }
        return new ColumnFilter(column, Kind.IN, List.copyOf(bytes), ViewPredicates.in(values),
                column + " IN " + Arrays.toString(values));
    }

    /** {@code column < value}, comparing UTF-8 bytes unsigned (the order of Parquet's string statistics). */
    public static ColumnFilter lessThan(String column, String value) {
        return new ColumnFilter(column, Kind.LESS_THAN, List.of(utf8(value)), ViewPredicates.lessThan(value),
                column + " < '" + value + "'");
    }

    /** {@code column > value}, comparing UTF-8 bytes unsigned. */
    public static ColumnFilter greaterThan(String column, String value) {
        return new ColumnFilter(column, Kind.GREATER_THAN, List.of(utf8(value)), ViewPredicates.greaterThan(value),
                column + " > '" + value + "'");
    }

    /** {@code column LIKE 'prefix%'}. */
    public static ColumnFilter startsWith(String column, String prefix) {
        return new ColumnFilter(column, Kind.PREFIX, List.of(utf8(prefix)), ViewPredicates.startsWith(prefix),
                column + " starts with '" + prefix + "'");
    }

    /** Any core predicate (contains, LIKE, suffix, ...): evaluated on every row, no row group skipped. */
    public static ColumnFilter of(String column, ViewPredicate predicate) {
        return new ColumnFilter(column, Kind.OTHER, List.of(), Objects.requireNonNull(predicate, "predicate"),
                column + " " + predicate);
    }

    /** This filter on another column (the same kind, constants and predicate). */
    ColumnFilter onColumn(String other) {
        return new ColumnFilter(other, kind, constants, predicate,
                other + description.substring(Math.min(column.length(), description.length())));
    }

    public String column() {
        return column;
    }

    /** The predicate each row is decided by. */
    public ViewPredicate predicate() {
        return predicate;
    }

    /** Whether metadata can skip row groups for this filter at all. */
    boolean canSkip() {
        return kind != Kind.OTHER;
    }

    /** The constants a bloom filter can be probed with ({@code =} and {@code IN}), else null. */
    List<byte[]> probes() {
        return kind == Kind.EQUAL || kind == Kind.IN ? constants : null;
    }

    /** Whether a value within {@code bounds} can match: false proves no value of that row group matches. */
    boolean mayMatch(ChunkBounds bounds) {
        return switch (kind) {
            case EQUAL, IN -> constants.stream().anyMatch(bounds::mayContain);
            case LESS_THAN -> bounds.mayBeLess(constants.get(0), false);
            case GREATER_THAN -> bounds.mayBeGreater(constants.get(0), false);
            case PREFIX -> bounds.mayStartWith(constants.get(0));
            case OTHER -> true;
        };
    }

    @Override
    public String toString() {
        return description;
    }
}
