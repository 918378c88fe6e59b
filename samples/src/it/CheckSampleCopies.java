import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Checks that the samples the invoker is about to build are fresh copies of src/samples without build output:
 * a sample built by hand ({@code mvn verify} in src/samples/engine, as its README says) leaves a target/ whose
 * stale classes and module descriptor a copied build would reuse ("module not found: dev.stringview"), and a
 * copy left from an earlier run may hold files the sources no longer have. For each sample (a directory with a
 * pom.xml), the copy must hold exactly the sample's files other than target/ and build.log, byte for byte.
 *
 * <p>Usage: {@code java CheckSampleCopies.java SAMPLES_DIR COPIES_DIR}. Before checking, it runs itself on a
 * planted sample with a stale target/ and fails unless that copy is rejected, so the check cannot pass by never
 * looking. Exits 1 with one line per problem.
 */
public final class CheckSampleCopies {
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: java CheckSampleCopies.java SAMPLES_DIR COPIES_DIR");
            System.exit(2);
        }
        selfTest();
        Path samples = Path.of(args[0]);
        Path copies = Path.of(args[1]);
        List<String> problems = check(samples, copies);
        for (String sample : samplesIn(samples)) {
            if (Files.isDirectory(samples.resolve(sample).resolve("target"))) {
                System.out.println("[samples] sample=" + sample + " has a target/ (built by hand), which its copy must leave out");
            }
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> System.err.println("[samples] " + p));
            System.exit(1);
        }
        System.out.println("[samples] copies are fresh: samples=" + samplesIn(samples) + " copies=" + copies);
    }

    /** The problems of {@code copies} as copies of {@code samples}; empty when every copy is exact. */
    static List<String> check(Path samples, Path copies) throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> names = samplesIn(samples);
        if (names.isEmpty()) {
            problems.add("no samples found: dir=" + samples);
        }
        for (String sample : names) {
            Path source = samples.resolve(sample);
            Path copy = copies.resolve(sample);
            if (!Files.isDirectory(copy)) {
                problems.add("sample not copied: sample=" + sample + " copy=" + copy);
                continue;
            }
            TreeSet<String> expected = files(source, true);
            TreeSet<String> actual = files(copy, false);
            for (String path : actual) {
                if (isBuildOutput(path)) {
                    problems.add("build output in the copy: sample=" + sample + " path=" + path);
                } else if (!expected.contains(path)) {
                    problems.add("file not in the sources (a stale copy): sample=" + sample + " path=" + path);
                } else if (Files.mismatch(source.resolve(path), copy.resolve(path)) >= 0) {
                    problems.add("copy differs from the source: sample=" + sample + " path=" + path);
                }
            }
            for (String path : expected) {
                // Hidden files (.git, .DS_Store, IDE folders) may be left out by the copy's default excludes.
                if (!actual.contains(path) && !isHidden(path)) {
                    problems.add("file missing from the copy: sample=" + sample + " path=" + path);
                }
            }
        }
        return problems;
    }

    private static boolean isHidden(String path) {
        return path.startsWith(".") || path.contains("/.");
    }

    private static boolean isBuildOutput(String path) {
        return path.equals("build.log") || path.equals("target") || path.startsWith("target/");
    }

    private static List<String> samplesIn(Path samples) throws IOException {
        try (Stream<Path> dirs = Files.list(samples)) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("pom.xml")))
                    .map(d -> d.getFileName().toString()).sorted().toList();
        }
    }

    /** Regular files under {@code dir}, as '/'-separated relative paths, build output left out if asked. */
    private static TreeSet<String> files(Path dir, boolean withoutBuildOutput) throws IOException {
        TreeSet<String> result = new TreeSet<>();
        try (Stream<Path> all = Files.walk(dir)) {
            all.filter(Files::isRegularFile).forEach(p -> {
                String relative = dir.relativize(p).toString().replace('\\', '/');
                if (!withoutBuildOutput || !isBuildOutput(relative)) {
                    result.add(relative);
                }
            });
        }
        return result;
    }

    /** A planted sample with a stale target/: a copy that keeps it must be rejected, one without it accepted. */
    private static void selfTest() throws IOException {
        Path root = Files.createTempDirectory("check-sample-copies");
        try {
            Path sample = root.resolve("samples/demo");
            write(sample.resolve("pom.xml"), "<project/>");
            write(sample.resolve("src/main/java/module-info.java"), "module demo {}");
            write(sample.resolve("target/classes/module-info.class"), "stale");
            Path copy = root.resolve("copies/demo");
            write(copy.resolve("pom.xml"), "<project/>");
            write(copy.resolve("src/main/java/module-info.java"), "module demo {}");
            if (!check(root.resolve("samples"), root.resolve("copies")).isEmpty()) {
                throw new IllegalStateException("self-test: an exact copy was rejected");
            }
            write(copy.resolve("target/classes/module-info.class"), "stale");
            List<String> problems = check(root.resolve("samples"), root.resolve("copies"));
            if (problems.size() != 1 || !problems.get(0).contains("path=target/classes/module-info.class")) {
                throw new IllegalStateException("self-test: a copy with a stale target/ was not rejected: " + problems);
            }
        } finally {
            try (Stream<Path> all = Files.walk(root)) {
                all.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> {
                    try {
                        Files.delete(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
    }

    private static void write(Path path, String text) throws IOException {
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }

    private CheckSampleCopies() {}
}
