package dev.stringview.parquet.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * How the values of one Parquet column compare, for the filter's leaves and for pruning by bounds: the order of the
 * column's logical type (format spec LogicalTypes.md, "Sort order"). Values are represented as {@code byte[]}
 * ({@link Kind#BYTES}, compared unsigned), {@code Long} ({@link Kind#SIGNED}; {@link Kind#UNSIGNED} holds the bits
 * of an unsigned 64-bit number), {@code Double}, {@code BigDecimal} or {@code Boolean}; constants are first
 * {@link #constant normalized} to one of these, or to a {@code BigDecimal} compared by value with an integer column.
 *
 * @param kind the order
 * @param physical the column's physical type, for messages and for decoding page-index bounds
 * @param scale the DECIMAL scale (0 otherwise)
 */
public record ValueDomain(Kind kind, PrimitiveType.PrimitiveTypeName physical, int scale) {
    /** Orders of column values. */
    public enum Kind {
        /** BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY that are not DECIMAL: bytes compared unsigned. */
        BYTES,
        /** INT32/INT64 signed, DATE, TIME, TIMESTAMP. */
        SIGNED,
        /** INT32/INT64 with an unsigned INT annotation. */
        UNSIGNED,
        /** FLOAT and DOUBLE: -0.0 = 0.0, NaN above every other value and equal to itself. */
        FLOATING,
        /** DECIMAL on any physical type: by value. */
        DECIMAL,
        /** BOOLEAN: false < true. */
        BOOLEAN,
        /** No order this library compares by (INT96, FLOAT16, INTERVAL): leaves on it are rejected, bounds unused. */
        UNORDERED
    }

    private static final double EXACT_LONG = 0x1p53;

    /** The domain of a column of {@code type}. */
    public static ValueDomain of(PrimitiveType type) {
        PrimitiveType.PrimitiveTypeName p = type.getPrimitiveTypeName();
        LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
        if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
            return new ValueDomain(Kind.DECIMAL, p, d.getScale());
        }
        Kind kind = switch (p) {
            case BOOLEAN -> Kind.BOOLEAN;
            case INT32, INT64 -> logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && !i.isSigned()
                    ? Kind.UNSIGNED : Kind.SIGNED;
            case FLOAT, DOUBLE -> Kind.FLOATING;
            case BINARY -> Kind.BYTES;
            case FIXED_LEN_BYTE_ARRAY -> logical instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation
                    || logical instanceof LogicalTypeAnnotation.IntervalLogicalTypeAnnotation
                    ? Kind.UNORDERED : Kind.BYTES;
            case INT96 -> Kind.UNORDERED;
        };
        return new ValueDomain(kind, p, 0);
    }

    /**
     * {@code constant} (Long, Double, BigDecimal or Boolean, from a value leaf) in this domain's representation,
     * or an {@code IllegalArgumentException} naming the column when it does not compare with the column's values.
     */
    public Object constant(Object constant, String column) {
        Object key = switch (kind) {
            case SIGNED, UNSIGNED -> constant instanceof Long || constant instanceof BigDecimal ? constant : null;
            case FLOATING -> constant instanceof Double d ? d
                    : constant instanceof Long l && Math.abs((double) l) <= EXACT_LONG ? (Object) (double) l : null;
            case DECIMAL -> constant instanceof BigDecimal b ? b
                    : constant instanceof Long l ? BigDecimal.valueOf(l) : null;
            case BOOLEAN -> constant instanceof Boolean ? constant : null;
            case BYTES, UNORDERED -> null;
        };
        if (key == null) {
            throw new IllegalArgumentException("constant does not compare with the column's values: column=" + column
                    + " physicalType=" + physical + " order=" + kind + " constant=" + constant + " constantType="
                    + constant.getClass().getSimpleName());
        }
        return key;
    }

    /** Compares two column values (this domain's representation: unsigned bits stay unsigned). */
    public int compareValues(Object a, Object b) {
        return switch (kind) {
            case UNSIGNED -> Long.compareUnsigned((Long) a, (Long) b);
            case FLOATING -> compareDouble((Double) a, (Double) b);
            default -> compare(a, b);
        };
    }

    /**
     * Compares a column value (this domain's representation) with a normalized constant: for {@link Kind#UNSIGNED}
     * a Long constant is a signed number (a negative one is below every value).
     */
    public int compare(Object value, Object key) {
        return switch (kind) {
            case BYTES -> Arrays.compareUnsigned((byte[]) value, (byte[]) key);
            case SIGNED, UNSIGNED -> compareLong((Long) value, key);
            case FLOATING -> compareDouble((Double) value, (Double) key);
            case DECIMAL -> ((BigDecimal) value).compareTo((BigDecimal) key);
            case BOOLEAN -> Boolean.compare((Boolean) value, (Boolean) key);
            case UNORDERED -> throw new IllegalStateException("unordered domain: physicalType=" + physical);
        };
    }

    /** A long column value (signed, or unsigned bits) against a Long or BigDecimal key. */
    public int compareLong(long value, Object key) {
        if (key instanceof Long c) {
            if (kind == Kind.UNSIGNED) {
                return c < 0 ? 1 : Long.compareUnsigned(value, c);
            }
            return Long.compare(value, c);
        }
        BigDecimal v = kind == Kind.UNSIGNED && value < 0
                ? new BigDecimal(new BigInteger(Long.toUnsignedString(value))) : BigDecimal.valueOf(value);
        return v.compareTo((BigDecimal) key);
    }

    /** Doubles in the order of {@link Kind#FLOATING}. */
    public static int compareDouble(double a, double b) {
        return Double.compare(a == 0 ? 0.0 : a, b == 0 ? 0.0 : b);
    }
}
