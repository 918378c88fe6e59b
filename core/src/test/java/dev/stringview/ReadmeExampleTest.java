package dev.stringview;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's usage example compiles against this build and prints exactly what the README says it prints. */
class ReadmeExampleTest {
    @Test
    void readmeExampleCompilesRunsAndPrintsWhatTheReadmeShows(@TempDir Path work) throws Exception {
        ReadmeExamples.assertPrintsWhatTheReadmeShows(work, null, "Example");
    }
}
