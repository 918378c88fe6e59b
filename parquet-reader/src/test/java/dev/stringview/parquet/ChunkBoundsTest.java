package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ChunkBounds} against a model: the exact bounds of a random set of values never deny a condition that one
 * of the values meets, and with exact bounds they deny it whenever the min/max test can (bytes ≥ 0x80, prefixes of
 * each other, empty values).
 */
class ChunkBoundsTest {
    private static final long SEED = 0x5EED_B0DL;

    @Test
    void exactBoundsNeverDenyAConditionSomeValueMeets() {
        Random random = new Random(SEED);
        int denied = 0;
        for (int trial = 0; trial < 3000; trial++) {
            List<byte[]> values = new ArrayList<>();
            for (int i = 1 + random.nextInt(6); i > 0; i--) {
                values.add(value(random));
            }
            byte[] min = values.stream().min(Arrays::compareUnsigned).orElseThrow();
            byte[] max = values.stream().max(Arrays::compareUnsigned).orElseThrow();
            ChunkBounds bounds = new ChunkBounds(min, max, 0, values.size());
            byte[] c = random.nextBoolean() ? value(random) : values.get(random.nextInt(values.size()));
            String where = "seed=" + SEED + " trial=" + trial + " min=" + Arrays.toString(min) + " max="
                    + Arrays.toString(max) + " c=" + Arrays.toString(c);
            boolean contains = values.stream().anyMatch(v -> Arrays.equals(v, c));
            boolean differs = values.stream().anyMatch(v -> !Arrays.equals(v, c));
            boolean less = values.stream().anyMatch(v -> Arrays.compareUnsigned(v, c) < 0);
            boolean lessOrEqual = values.stream().anyMatch(v -> Arrays.compareUnsigned(v, c) <= 0);
            boolean greater = values.stream().anyMatch(v -> Arrays.compareUnsigned(v, c) > 0);
            boolean greaterOrEqual = values.stream().anyMatch(v -> Arrays.compareUnsigned(v, c) >= 0);
            boolean startsWith = values.stream().anyMatch(v -> v.length >= c.length
                    && Arrays.equals(v, 0, c.length, c, 0, c.length));
            assertTrue(!contains || bounds.mayContain(c), where);
            assertTrue(!differs || bounds.mayDiffer(c), where);
            // min/max decide order exactly: the answers equal the model's.
            assertEquals(less, bounds.mayBeLess(c, false), where);
            assertEquals(lessOrEqual, bounds.mayBeLess(c, true), where);
            assertEquals(greater, bounds.mayBeGreater(c, false), where);
            assertEquals(greaterOrEqual, bounds.mayBeGreater(c, true), where);
            assertTrue(!startsWith || bounds.mayStartWith(c), where);
            denied += bounds.mayContain(c) ? 0 : 1;
            denied += bounds.mayStartWith(c) ? 0 : 1;
        }
        assertTrue(denied > 500, "the bounds deny something: denied=" + denied);
    }

    @Test
    void unknownBoundsDenyNothingAndNullCountsDecideAllNull() {
        ChunkBounds unknown = new ChunkBounds(null, new byte[] {1}, -1, 5);
        byte[] c = {42};
        assertFalse(unknown.hasBounds());
        assertTrue(unknown.mayContain(c) && unknown.mayDiffer(c) && unknown.mayBeLess(c, false)
                && unknown.mayBeGreater(c, false) && unknown.mayStartWith(c));
        assertFalse(unknown.allNull());
        assertTrue(new ChunkBounds(null, null, 5, 5).allNull());
        assertFalse(new ChunkBounds(null, null, 0, 0).allNull(), "an empty chunk is not all null");
        assertFalse(new ChunkBounds(new byte[] {7}, new byte[] {7}, 0, 3).mayDiffer(new byte[] {7}));
    }

    /** 0 to 5 bytes from a small alphabet with bytes ≥ 0x80, so values often share prefixes. */
    private static byte[] value(Random random) {
        byte[] alphabet = {0x00, 0x61, 0x62, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
        byte[] v = new byte[random.nextInt(6)];
        for (int i = 0; i < v.length; i++) {
            v[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return v;
    }
}
