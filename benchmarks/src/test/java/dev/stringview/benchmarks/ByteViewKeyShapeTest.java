package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The key-shape harness on tiny data (not timed): every shape runs, and the prototype keys behave as keys. */
class ByteViewKeyShapeTest {
    @Test
    void runsEveryShape() {
        for (String shape : ByteViewKeyShape.SHAPES) {
            double[] ns = ByteViewKeyShape.run(shape, 1, 3000, 1);
            assertEquals(2, ns.length, shape);
            assertTrue(ns[0] > 0 && ns[1] > 0, shape + " timed: " + ns[0] + " " + ns[1]);
        }
        assertThrows(IllegalArgumentException.class, () -> ByteViewKeyShape.run("key40", 1, 10, 1));
    }

    @Test
    void prototypeKeysAreEqualByBytes() {
        String url = "https://www.example.com/item/17/xyz3";
        assertEquals(new ByteViewKeyShape.Key24(url), new ByteViewKeyShape.Key24(new String(url)));
        assertEquals(new ByteViewKeyShape.Key24(url).hashCode(), new ByteViewKeyShape.Key24(url).hashCode());
        assertNotEquals(new ByteViewKeyShape.Key24(url), new ByteViewKeyShape.Key24(url + "4"));
        assertNotEquals(new ByteViewKeyShape.Key24(url), new ByteViewKeyShape.Key24(url.replace('x', 'y')));
        assertEquals(new ByteViewKeyShape.Key32(url), new ByteViewKeyShape.Key32(new String(url)));
        assertNotEquals(new ByteViewKeyShape.Key32(url), new ByteViewKeyShape.Key32(url.replace('z', 'q')));
        assertFalse(new ByteViewKeyShape.Key32(url).equals(new ByteViewKeyShape.Key24(url)));
    }
}
