package dev.stringview.parquet.internal;

import java.math.BigDecimal;

/**
 * One batch of a fixed-width column, as the filter's value leaves read it ({@link FilterEvaluation}): whatever
 * holds the values (the reader's fixed-width column, or an on-heap array in tests) is adapted to this. Only the
 * getter that fits {@link #domain()} is called, and only on rows that are not null.
 */
public interface FixedValues {
    /** Rows in the batch. */
    int size();

    /** How the values compare (from the column's physical and logical type, {@link ValueDomain#of}). */
    ValueDomain domain();

    boolean isNull(int row);

    /**
     * {@link ValueDomain.Kind#SIGNED}: the value (days for DATE, the column's unit for TIME and TIMESTAMP);
     * {@link ValueDomain.Kind#UNSIGNED}: the value's bits, read as an unsigned 64-bit number.
     */
    long getLong(int row);

    /**
     * {@link #getLong} of rows {@code 0..count-1} into {@code out}, in one pass (what a value leaf compares);
     * a null row's slot holds any value. Adapters over off-heap columns override it with a loop over the values.
     */
    default void getLongs(int count, long[] out) {
        for (int r = 0; r < count; r++) {
            out[r] = isNull(r) ? 0 : getLong(r);
        }
    }

    /** Whether some row may be null (false lets a value leaf skip the per-row null test). */
    default boolean mayHaveNulls() {
        return true;
    }

    /** {@link ValueDomain.Kind#FLOATING}: the value (a FLOAT widened exactly). */
    double getDouble(int row);

    /** {@link ValueDomain.Kind#DECIMAL}: the value with the column's scale. */
    BigDecimal getDecimal(int row);

    /** {@link ValueDomain.Kind#BOOLEAN}: the value. */
    boolean getBoolean(int row);
}
