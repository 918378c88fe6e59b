package dev.stringview.benchmarks;

import dev.stringview.internal.Vectorization;
import java.time.Duration;

/**
 * Waits for core's Vector API warm-ups in this JVM (a daemon thread warms each vector form and publishes it once
 * it runs compiled; core's internal.ViewWordWarmUp and internal.InlineViewWarmUp), so that no timed iteration
 * mixes the scalar loops the kernels run until then with the vector forms.
 */
final class WarmUpGates {
    /** Far above the warm-ups' usual 2-6 s, below their 120 s cap plus start delay. */
    static final Duration TIMEOUT = Duration.ofSeconds(150);

    /** One of {@code Vectorization}'s awaits. */
    @FunctionalInterface
    interface Gate {
        boolean await(Duration timeout) throws InterruptedException;
    }

    private WarmUpGates() {}

    /** Waits for the view-word passes of equality, starts-with and order, when this JVM chose them. */
    static void viewWords() {
        await("the vector view-word passes", Vectorization::awaitViewWords);
    }

    /** Waits for {@code InlineViews}' vector form (the separated reader's inline-only blocks), when chosen. */
    static void inlineViews() {
        await("the vector inline views", Vectorization::awaitInlineViews);
    }

    /** Waits on {@code gate} when this JVM chose the vector forms; a warning names {@code what} if it failed. */
    private static void await(String what, Gate gate) {
        try {
            if (Vectorization.viewWordsChosen() && !gate.await(TIMEOUT)) {
                System.err.println("warning: " + what + " did not become ready; the timings measure the scalar"
                        + " loops: " + Vectorization.describe());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + what, e);
        }
    }
}
