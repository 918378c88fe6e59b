package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The separated reader's loops taken apart run once, small, on short and long values (its view loops must agree). */
class SeparatedLoopsSideBySideTest {
    @Test
    void runsOnceOnOneByteAndMixedLengths() {
        SeparatedLoopsSideBySide.main(new String[] {"1", "1000", "1"});
        SeparatedLoopsSideBySide.main(new String[] {"1", "1001", "4"});
        SeparatedLoopsSideBySide.main(new String[] {"1", "1002", "8"});
    }

    @Test
    void runsOnceOnLongValues() { // its long-value loops and the dropped alternatives must write the same views
        SeparatedLoopsSideBySide.main(new String[] {"1", "1003", "64"});
        SeparatedLoopsSideBySide.main(new String[] {"1", "257", "16"});
    }

    @Test
    void runsOnceAtWindowBorders() { // the windowed and vector forms check against windows of 300 rows and 256 words
        for (int rows : new int[] {1, 7, 8, 9, 255, 256, 257, 299, 300, 301, 599, 600, 601}) {
            SeparatedLoopsSideBySide.main(new String[] {"1", Integer.toString(rows), "16"});
        }
        SeparatedLoopsSideBySide.main(new String[] {"1", "601", "32"});
    }

    @Test
    void rejectsLengthsItDoesNotModel() {
        // 11 and more would give values over 12 bytes (round(1.2 x 11) = 13), which no inline loop takes
        assertThrows(IllegalArgumentException.class,
                () -> SeparatedLoopsSideBySide.main(new String[] {"1", "1000", "11"}));
        assertThrows(IllegalArgumentException.class,
                () -> SeparatedLoopsSideBySide.main(new String[] {"1", "1000", "0"}));
        assertThrows(IllegalArgumentException.class,
                () -> SeparatedLoopsSideBySide.main(new String[] {"1", "1000", "15"}));
    }
}
