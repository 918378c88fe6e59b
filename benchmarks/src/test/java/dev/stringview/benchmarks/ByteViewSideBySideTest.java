package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ByteView side-by-side runner on tiny data (not timed): every case runs in both class loaders with its
 * baseline, and the builds' checksums agree (the runner throws otherwise). An empty directory stands in for the
 * older core, so both loaders run the current classes.
 */
class ByteViewSideBySideTest {
    @TempDir
    Path oldCore;

    @Test
    void runsEveryCaseInBothLoadersWithItsBaseline() throws Exception {
        List<ByteViewSideBySide.Result> seen = new ArrayList<>();
        List<ByteViewSideBySide.Result> results = ByteViewSideBySide.run(oldCore, ByteViewSideBySide.CASES, 1, 3000,
                1, seen::add);
        assertEquals(4 + 2 * ByteViewSideBySide.READ_LENGTHS.size(), results.size());
        assertEquals(results, seen);
        for (ByteViewSideBySide.Result r : results) {
            assertTrue(r.oldView() > 0 && r.newView() > 0 && r.baseline() > 0, "all three timed: " + r);
            boolean read = r.name().startsWith("read");
            assertEquals(read, r.peer() > 0, "the String peer is timed on the read rows only: " + r);
            assertEquals(!read, Double.isNaN(r.peer()), "no peer on the key rows: " + r);
        }
    }
}
