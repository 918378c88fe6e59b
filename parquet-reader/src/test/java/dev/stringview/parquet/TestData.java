package dev.stringview.parquet;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Locates the parquet-testing files: {@code $PARQUET_TEST_DATA} first, else the shared copy beside the repo. Public
 * for the modules that take this module's test-jar (spark, flink).
 */
public final class TestData {
    private TestData() {}

    public static Path dataDir() {
        String env = System.getenv("PARQUET_TEST_DATA");
        Path dir = env != null && !env.isBlank() ? Paths.get(env) : Paths.get("../../shared/parquet-testing/data");
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("parquet-testing data not found: dir=" + dir.toAbsolutePath()
                    + " (set PARQUET_TEST_DATA to the data/ folder of apache/parquet-testing)");
        }
        return dir.toAbsolutePath().normalize();
    }

    static Path badDataDir() {
        Path dir = dataDir().resolveSibling("bad_data");
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("parquet-testing bad_data not found: dir=" + dir);
        }
        return dir;
    }
}
