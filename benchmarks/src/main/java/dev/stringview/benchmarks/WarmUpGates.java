package dev.stringview.benchmarks;

import dev.stringview.ViewKernels;
import dev.stringview.internal.Vectorization;

/**
 * Runs core's explicit Vector API warm-up ({@code ViewKernels.warmUp}) before a benchmark's timed iterations, so
 * that they measure the vector loops where the JVM has them (the kernels run their scalar loops until the warm-up;
 * decision record docs/decisions/001-vectorization-without-threads.md). Under
 * {@code -Dstringview.vectorization=false}, or without the incubator module, it does nothing.
 */
final class WarmUpGates {
    private WarmUpGates() {}

    /** Warms up the view-word passes of equality, starts-with and order (and the other vector loops). */
    static void viewWords() {
        warmUp();
    }

    /** Warms up {@code InlineViews}' vector form (the separated reader's inline-only blocks), and the others. */
    static void inlineViews() {
        warmUp();
    }

    private static void warmUp() {
        if (Vectorization.available() && !ViewKernels.warmUp()) {
            System.err.println("warning: the Vector API is available but no vector loop was warmed up; the timings"
                    + " measure the scalar loops: " + Vectorization.describe());
        }
    }
}
