package dev.stringview;

/** Comparison operators in unsigned bytewise order, which for UTF-8 is Unicode code point order. */
public enum Comparison {
    EQUAL(0b010),
    NOT_EQUAL(0b101),
    LESS_THAN(0b001),
    LESS_THAN_OR_EQUAL(0b011),
    GREATER_THAN(0b100),
    GREATER_THAN_OR_EQUAL(0b110);

    /** Bit {@code signum(cmp) + 1} is set when a comparison result {@code cmp} satisfies the operator. */
    final int acceptMask;

    Comparison(int acceptMask) {
        this.acceptMask = acceptMask;
    }

    /** Whether a comparison result ({@code < 0}, {@code 0}, {@code > 0}) satisfies this operator. */
    public boolean accepts(int comparison) {
        return ((acceptMask >>> (Integer.signum(comparison) + 1)) & 1) != 0;
    }
}
