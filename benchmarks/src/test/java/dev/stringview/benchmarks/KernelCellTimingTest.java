package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The cell timing harness on tiny data (not timed): views and pointer+length count the same rows. */
class KernelCellTimingTest {
    @Test
    void timesCellsAndTheirCountsAgree() throws Exception {
        List<KernelCellTiming.Cell> cells = KernelCellTiming.run(3000, 1,
                List.of("lessThan/25/20", "pointerLength:lessThan/25/20", "equal/mix/1", "pointerLength:equal/mix/1"));
        assertEquals(4, cells.size());
        assertEquals(cells.get(1).count(), cells.get(0).count(), cells.toString());
        assertEquals(cells.get(3).count(), cells.get(2).count(), cells.toString());
        assertTrue(cells.get(0).count() > 0 && cells.get(0).count() < 3000, cells.toString());
        for (KernelCellTiming.Cell cell : cells) {
            assertTrue(cell.nsPerRow() > 0, cell.toString());
        }
    }
}
