package dev.stringview.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * The gate in front of the Vector API view-word passes: {@link ViewWordWarmUp} reports them ready only once every
 * pass has run fast in rounds of calls, gives up within its cap when they stay slow, and in this JVM (the default
 * Surefire run has the module, the scalar rerun has {@code -Dstringview.vectorization=false}) the kernels get the
 * passes exactly when they were loaded and warmed. A fake scan stands in for a pass that is slow (the incubator's
 * fallback) for its first calls: it spins 50 µs a call, about 200 ns a row against the 8 ns bound.
 */
class ViewWordWarmUpTest {
    private static final long SLOW_NANOS = 50_000;

    @Test
    void readyOnlyAfterEveryPassRunsFast() {
        int slowCalls = 200;
        FakeScan fake = new FakeScan(slowCalls);
        ViewWordWarmUp warmUp = new ViewWordWarmUp(fake, 60_000_000_000L, ViewWordWarmUp.BOUND_NS_PER_ROW);
        assertTrue(warmUp.run(), "a pass that turns fast is declared ready");
        for (int method = 0; method < 6; method++) {
            // Each pass was called through its slow phase and then at least two whole fast rounds of 32 calls.
            int calls = fake.calls.get(method);
            assertTrue(calls >= slowCalls + 64, "method=" + method + " calls=" + calls);
        }
        assertTrue(warmUp.rowsWarmed() >= 5L * (slowCalls + 64) * 150, "rows=" + warmUp.rowsWarmed());
    }

    @Test
    void onePassStayingSlowKeepsAllScalarAndTheWarmUpEndsAtItsCap() {
        FakeScan fake = new FakeScan(0);
        fake.slowForever = 2; // prefixCandidates never compiles
        long cap = 400_000_000L;
        ViewWordWarmUp warmUp = new ViewWordWarmUp(fake, cap, ViewWordWarmUp.BOUND_NS_PER_ROW);
        long start = System.nanoTime();
        assertFalse(warmUp.run());
        long took = System.nanoTime() - start;
        assertTrue(warmUp.elapsedNanos() > cap, "elapsed=" + warmUp.elapsedNanos());
        assertTrue(took < cap + 5_000_000_000L, "stops soon after its cap: tookNs=" + took);
        // The passes that ran fast stopped being called once they had passed two rounds.
        assertTrue(fake.calls.get(0) < 200, "calls=" + fake.calls.get(0));
    }

    @Test
    void kernelsGetThePassesExactlyWhenLoadedAndWarmedInThisJvm() throws InterruptedException {
        boolean expected = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
                && !"false".equals(System.getProperty(Vectorization.PROPERTY)) && Vectorization.preferredBits() >= 512;
        assertEquals(expected, Vectorization.viewWordsChosen(), Vectorization.describe());
        // Generous: the warm-up took 28 s inside core's loaded test run; it gives up itself after 120 s.
        assertEquals(expected, Vectorization.awaitViewWords(Duration.ofSeconds(150)), Vectorization.describe());
        assertEquals(expected, Vectorization.viewWords() != null);
    }

    @Test
    void warmUpDataHoldsInlineAndLongViewsSharingPrefixes() {
        long[] words = ViewWordWarmUp.views(new SplittableRandom(1));
        assertEquals(2 * ViewWordWarmUp.ROWS, words.length);
        int inline = 0;
        int sharing = 0;
        for (int row = 0; row < ViewWordWarmUp.ROWS; row++) {
            int length = (int) words[2 * row];
            assertTrue(length >= 0 && length <= 40, "row=" + row + " length=" + length);
            inline += length <= 12 ? 1 : 0;
            sharing += (words[2 * row] >>> 32) == (words[0] >>> 32) ? 1 : 0;
        }
        assertTrue(inline > ViewWordWarmUp.ROWS / 5 && inline < ViewWordWarmUp.ROWS / 2, "inline=" + inline);
        assertTrue(sharing > ViewWordWarmUp.ROWS / 16, "sharing=" + sharing);
    }

    /** A scan whose calls spin {@link #SLOW_NANOS} each for their first {@code slowCalls} (per method). */
    private static final class FakeScan implements Vectorization.ViewWordScan {
        final AtomicIntegerArray calls = new AtomicIntegerArray(6);
        final int slowCalls;
        int slowForever = -1;

        FakeScan(int slowCalls) {
            this.slowCalls = slowCalls;
        }

        private void call(int method) {
            if (calls.getAndIncrement(method) < slowCalls || method == slowForever) {
                long end = System.nanoTime() + SLOW_NANOS;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
            }
        }

        @Override
        public int equalWord0(MemorySegment views, int from, int to, long k0, int[] out) {
            call(0);
            return 0;
        }

        @Override
        public int countEqualViews(MemorySegment views, int n, long k0, long k1) {
            call(1);
            return 0;
        }

        @Override
        public int prefixCandidates(MemorySegment views, int from, int to, long prefixMask, long prefixBits,
                int patternLength, long inlineMask, long inlineBits, int[] out) {
            call(2);
            return 0;
        }

        @Override
        public long countPrefix(MemorySegment views, int from, int to, long prefixMask, long prefixBits,
                int patternLength, long inlineMask, long inlineBits, int[] longCandidates) {
            call(4);
            return 0;
        }

        @Override
        public int equalWords1(MemorySegment views, int from, int to, long k0, long[] words1) {
            call(5);
            return 0;
        }

        @Override
        public void orderWords(MemorySegment views, int first, int count, long firstKey, int prefixLittleEndian,
                boolean settleInline,                long[] less, long[] ties) {
            call(3);
        }

        @Override
        public String describe() {
            return "fake";
        }
    }
}
