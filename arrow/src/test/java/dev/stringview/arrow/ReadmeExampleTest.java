package dev.stringview.arrow;

import dev.stringview.ReadmeExamples;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's Arrow example compiles against this build and prints exactly what the README says it prints. */
class ReadmeExampleTest {
    @Test
    void arrowExampleCompilesRunsAndPrintsWhatTheReadmeShows(@TempDir Path work) throws Exception {
        ReadmeExamples.assertPrintsWhatTheReadmeShows(work, "## Arrow interop", "ArrowExample", "-Xlint:all,-classfile",
                "-Werror");
    }
}
