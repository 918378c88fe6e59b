package dev.stringview.benchmarks;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where generated data and results go: beside the benchmarks jar (or the classes folder), in the build folder. */
final class Locations {
    private Locations() {}

    /**
     * The build folder: the folder of {@code benchmarks.jar}, or the parent of {@code target/classes} when run
     * from classes (tests, IDE). Overridden by the system property {@code stringview.buildDir}.
     */
    static Path buildDir() {
        String override = System.getProperty("stringview.buildDir");
        if (override != null && !override.isBlank()) {
            return Path.of(override).toAbsolutePath();
        }
        try {
            Path code = Path.of(Locations.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return (Files.isDirectory(code) ? code.getParent() : code.getParent()).toAbsolutePath();
        } catch (URISyntaxException | RuntimeException e) {
            return Path.of("target").toAbsolutePath();
        }
    }

    /** Cached input files of the JMH suites. */
    static Path benchData() {
        return buildDir().resolve("bench-data");
    }

    /** Cached input files of the demo. */
    static Path demoData() {
        return buildDir().resolve("demo-data");
    }

    /** The repository root if the build folder sits in a checkout ({@code <root>/benchmarks/target}), else null. */
    static Path repositoryRoot() {
        Path root = buildDir().getParent() == null ? null : buildDir().getParent().getParent();
        return root != null && Files.isDirectory(root.resolve("benchmarks")) && Files.isRegularFile(root.resolve("pom.xml"))
                ? root : null;
    }

    /** Suite 3's hits-like file for a layout and row count, generated on first use. */
    static Path hitsFile(Path dir, ParquetFiles.Layout layout, long rows, java.util.function.LongConsumer progress) {
        Path file = dir.resolve("hits-v" + HitsGenerator.VERSION + "-" + layout.name() + "-" + rows + ".parquet");
        HitsGenerator generator = new HitsGenerator();
        ParquetFiles.Rows values = layout.distinctUrls() > 0 ? generator.withUrlsFrom(layout.distinctUrls())
                : generator::row;
        return ParquetFiles.write(file, HitsGenerator.COLUMNS, rows, layout, values, progress);
    }
}
