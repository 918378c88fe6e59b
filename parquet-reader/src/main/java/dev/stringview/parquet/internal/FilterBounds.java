package dev.stringview.parquet.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.ColumnOrder;
import org.apache.parquet.schema.PrimitiveComparator;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Min/max bounds of a column chunk (footer statistics) or of a page (column index) in a {@link ValueDomain}'s
 * representation, kept only where they are reliable in that domain's order:
 * <ul>
 *   <li>Statistics come through parquet-java's conversion, which already drops what old writers got wrong: binary
 *       min/max written in signed byte order before PARQUET-686, and deprecated min/max of columns whose order is
 *       not signed (unsigned ints) — the rules its {@code StatisticsFilter} relies on.
 *   <li>Binary bounds must be in unsigned lexicographic order (strings and plain binary). DECIMAL on BYTE_ARRAY and
 *       FIXED_LEN_BYTE_ARRAY further needs the file's column order to be TYPE_DEFINED_ORDER (old writers compared
 *       those bytes lexicographically).
 *   <li>FLOAT and DOUBLE bounds are dropped when either is NaN, and cover non-NaN values only
 *       ({@link BoundFilter#boundsFacts} always assumes NaN rows possible).
 *   <li>The page index is used only with TYPE_DEFINED_ORDER (it exists only in files that write column orders).
 *   <li>Truncated string bounds (parquet-java truncates both) stay bounds: a truncated min is below every value and a
 *       truncated max above.
 * </ul>
 * Anything unreadable gives no bounds: it proves nothing.
 */
public final class FilterBounds {
    private FilterBounds() {}

    /** {@code {min, max}} of the chunk's statistics, or null when absent or unreliable. */
    public static Object[] statistics(ColumnChunkMetaData meta, ValueDomain d) {
        try {
            Statistics<?> s = meta.getStatistics();
            if (s == null || s.isEmpty() || !s.hasNonNullValue() || !comparatorFits(s.comparator(), d)) {
                return null;
            }
            if (d.kind() == ValueDomain.Kind.DECIMAL && !typeDefinedOrder(meta)
                    && (d.physical() == PrimitiveType.PrimitiveTypeName.BINARY
                            || d.physical() == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)) {
                return null;
            }
            Object min = value(s.genericGetMin(), d);
            Object max = value(s.genericGetMax(), d);
            return min == null || max == null ? null : new Object[] {min, max};
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The chunk's null count from its statistics, or -1 when unknown. */
    public static long nullCount(ColumnChunkMetaData meta) {
        try {
            Statistics<?> s = meta.getStatistics();
            return s != null && !s.isEmpty() && s.isNumNullsSet() ? s.getNumNulls() : -1;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** Whether the chunk's page index bounds are in the domain's order (see the class comment). */
    public static boolean pageIndexUsable(ColumnChunkMetaData meta, ValueDomain d) {
        try {
            return typeDefinedOrder(meta) && comparatorFits(meta.getPrimitiveType().comparator(), d);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** A page-index bound (PLAIN-encoded bytes) in the domain's representation, or null if it cannot be read. */
    public static Object pageBound(byte[] raw, ValueDomain d) {
        ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        try {
            return switch (d.kind()) {
                case BYTES -> raw;
                case SIGNED -> d.physical() == PrimitiveType.PrimitiveTypeName.INT32 ? (Object) (long) b.getInt()
                        : (Object) b.getLong();
                case UNSIGNED -> d.physical() == PrimitiveType.PrimitiveTypeName.INT32
                        ? (Object) Integer.toUnsignedLong(b.getInt()) : (Object) b.getLong();
                case FLOATING -> {
                    double v = d.physical() == PrimitiveType.PrimitiveTypeName.FLOAT ? b.getFloat() : b.getDouble();
                    yield Double.isNaN(v) ? null : (Object) v;
                }
                case DECIMAL -> switch (d.physical()) {
                    case INT32 -> BigDecimal.valueOf(b.getInt(), d.scale());
                    case INT64 -> BigDecimal.valueOf(b.getLong(), d.scale());
                    default -> raw.length == 0 ? null : new BigDecimal(new BigInteger(raw), d.scale());
                };
                case BOOLEAN -> raw.length == 1 ? (Object) (raw[0] != 0) : null;
                case UNORDERED -> null;
            };
        } catch (RuntimeException e) {
            return null; // too short for its type
        }
    }

    private static boolean typeDefinedOrder(ColumnChunkMetaData meta) {
        return meta.getPrimitiveType().columnOrder().getColumnOrderName()
                == ColumnOrder.ColumnOrderName.TYPE_DEFINED_ORDER;
    }

    /**
     * Whether bounds ordered by {@code c} are in the domain's order. parquet-java picks the comparator from the same
     * physical and logical type the domain is made from (signed or unsigned ints, IEEE floats, two's-complement
     * DECIMAL), so only the byte order of binary bounds is checked: unsigned lexicographic, as for strings.
     */
    private static boolean comparatorFits(PrimitiveComparator<?> c, ValueDomain d) {
        Object comparator = c;
        return switch (d.kind()) {
            case BYTES -> comparator == PrimitiveComparator.UNSIGNED_LEXICOGRAPHICAL_BINARY_COMPARATOR;
            case SIGNED, UNSIGNED, FLOATING, DECIMAL, BOOLEAN -> true;
            case UNORDERED -> false;
        };
    }

    /** A statistics value (parquet-java's Integer, Long, Float, Double, Boolean or Binary) in the domain. */
    private static Object value(Object v, ValueDomain d) {
        return switch (d.kind()) {
            case BYTES -> v instanceof Binary bin ? bin.getBytes() : null;
            case SIGNED -> v instanceof Integer i ? (Object) (long) i : v instanceof Long l ? l : null;
            case UNSIGNED -> v instanceof Integer i ? (Object) Integer.toUnsignedLong(i) : v instanceof Long l ? l : null;
            case FLOATING -> {
                double x = v instanceof Float f ? f : v instanceof Double dd ? dd : Double.NaN;
                yield Double.isNaN(x) ? null : (Object) x;
            }
            case DECIMAL -> v instanceof Integer i ? BigDecimal.valueOf(i, d.scale())
                    : v instanceof Long l ? BigDecimal.valueOf(l, d.scale())
                    : v instanceof Binary bin && bin.length() > 0
                            ? new BigDecimal(new BigInteger(bin.getBytes()), d.scale()) : null;
            case BOOLEAN -> v instanceof Boolean bo ? bo : null;
            case UNORDERED -> null;
        };
    }
}
