package dev.stringview.internal;

import java.util.function.IntToLongFunction;

/**
 * The timing loop of the Vector API warm-ups ({@link ViewWordWarmUp}, {@link InlineViewWarmUp}): rounds of short
 * calls of each vector form, each round timed, until every form ran below a per-row bound in two rounds in a row
 * (compiled by C2), or the cap has passed. Sleeps 1 ms between rounds once the first second has passed: by then
 * the compilations are queued and only their end is awaited, so the thread does not hold a core of a small machine
 * while C2 works.
 */
final class WarmUpRounds {
    /** Rounds in a row below the bound before a form counts as compiled. */
    private static final int FAST_ROUNDS = 2;

    private long rowsWarmed;
    private long elapsedNanos;

    /**
     * Runs rounds of forms {@code 0 .. forms-1} through {@code round} (one round of calls of a form; returns the
     * rows it covered) until all are fast or {@code capNanos} has passed; true when they are fast.
     */
    boolean run(int forms, IntToLongFunction round, long capNanos, double boundNsPerRow)
            throws InterruptedException {
        long start = System.nanoTime();
        int[] fastRounds = new int[forms];
        while (true) {
            boolean allFast = true;
            for (int form = 0; form < forms; form++) {
                if (fastRounds[form] >= FAST_ROUNDS) {
                    continue;
                }
                long t0 = System.nanoTime();
                long rows = round.applyAsLong(form);
                double nsPerRow = (double) (System.nanoTime() - t0) / rows;
                rowsWarmed += rows;
                fastRounds[form] = nsPerRow < boundNsPerRow ? fastRounds[form] + 1 : 0;
                allFast &= fastRounds[form] >= FAST_ROUNDS;
            }
            elapsedNanos = System.nanoTime() - start;
            if (allFast) {
                return true;
            }
            if (elapsedNanos > capNanos) {
                return false;
            }
            if (elapsedNanos > 1_000_000_000L) {
                Thread.sleep(1);
            }
        }
    }

    /** Rows pushed through the forms so far. */
    long rowsWarmed() {
        return rowsWarmed;
    }

    /** Nanoseconds the last {@link #run} took. */
    long elapsedNanos() {
        return elapsedNanos;
    }
}
