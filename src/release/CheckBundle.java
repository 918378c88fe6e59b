import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * Checks a Maven Central bundle (target/central-publishing/central-bundle.zip of `./mvnw -P release deploy`): for
 * the parent its pom, for each published module its pom, jar, -sources and -javadoc jars, each file with correct
 * .md5 and .sha1 files (and .asc signatures unless --unsigned); every class and sources jar carries
 * META-INF/LICENSE and NOTICE, every javadoc jar its index.html; the
 * poms carry the metadata Central requires; nothing unpublished (cli, benchmarks, samples) is in it.
 *
 * <p>Run: {@code java src/release/CheckBundle.java target/central-publishing/central-bundle.zip <version>
 * [--unsigned]}. Exits 1 with one line per problem.
 */
public final class CheckBundle {
    static final List<String> PUBLISHED = List.of("stringview-core", "stringview-parquet", "stringview-arrow",
            "stringview-format", "stringview-spark", "stringview-flink");
    static final List<String> NOT_PUBLISHED = List.of("stringview-cli", "stringview-benchmarks",
            "stringview-spark-benchmarks", "stringview-flink-benchmarks", "stringview-samples");

    public static void main(String[] args) throws IOException {
        Path bundle = Path.of(args[0]);
        String version = args[1];
        boolean signed = !(args.length > 2 && args[2].equals("--unsigned"));
        List<String> problems = new ArrayList<>();
        Map<String, byte[]> files = new TreeMap<>();
        try (ZipFile zip = new ZipFile(bundle.toFile())) {
            for (ZipEntry entry : java.util.Collections.list(zip.entries())) {
                if (!entry.isDirectory()) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        files.put(entry.getName(), in.readAllBytes());
                    }
                }
            }
        }
        String base = "dev/stringview/";
        List<String> expected = new ArrayList<>();
        expected.add(base + "stringview-parent/" + version + "/stringview-parent-" + version + ".pom");
        for (String artifact : PUBLISHED) {
            String prefix = base + artifact + "/" + version + "/" + artifact + "-" + version;
            for (String suffix : List.of(".pom", ".jar", "-sources.jar", "-javadoc.jar")) {
                expected.add(prefix + suffix);
            }
        }
        for (String file : expected) {
            byte[] content = files.get(file);
            if (content == null) {
                problems.add("missing: " + file);
                continue;
            }
            check(files, file, ".md5", "MD5", content, problems);
            check(files, file, ".sha1", "SHA-1", content, problems);
            if (signed && !files.containsKey(file + ".asc")) {
                problems.add("missing signature: " + file + ".asc");
            }
            if (file.endsWith(".jar")) {
                List<String> entries = entries(content);
                if (file.endsWith("-javadoc.jar")) {
                    // Pages, whose footer names the license; no META-INF/LICENSE (maven-javadoc-plugin adds none).
                    if (!entries.contains("index.html")) {
                        problems.add("no index.html in " + file);
                    }
                } else {
                    for (String legal : List.of("META-INF/LICENSE", "META-INF/NOTICE")) {
                        if (!entries.contains(legal)) {
                            problems.add("no " + legal + " in " + file);
                        }
                    }
                }
            }
            if (file.endsWith(".pom")) {
                // Central requires these in every pom or in a parent pom of the same bundle.
                String pom = new String(content, StandardCharsets.UTF_8);
                List<String> required = file.contains("stringview-parent")
                        ? List.of("<name>", "<description>", "<url>", "<licenses>", "<developers>", "<scm")
                        : List.of("<name>", "<parent>");
                for (String element : required) {
                    if (!pom.contains(element)) {
                        problems.add("no " + element + " in " + file);
                    }
                }
            }
        }
        for (String file : files.keySet()) {
            for (String unpublished : NOT_PUBLISHED) {
                if (file.startsWith(base + unpublished + "/")) {
                    problems.add("unpublished artifact in the bundle: " + file);
                }
            }
        }
        if (problems.isEmpty()) {
            System.out.println("bundle ok: bundle=" + bundle + " files=" + files.size() + " artifacts="
                    + (PUBLISHED.size() + 1) + " signed=" + signed);
        } else {
            problems.forEach(System.out::println);
            System.exit(1);
        }
    }

    static void check(Map<String, byte[]> files, String file, String extension, String algorithm, byte[] content,
            List<String> problems) {
        byte[] stored = files.get(file + extension);
        if (stored == null) {
            problems.add("missing checksum: " + file + extension);
            return;
        }
        try {
            String computed = HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(content));
            String text = new String(stored, StandardCharsets.US_ASCII).trim().split("\\s+")[0];
            if (!text.equalsIgnoreCase(computed)) {
                problems.add("checksum mismatch: file=" + file + extension + " stored=" + text + " computed="
                        + computed);
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> entries(byte[] jar) {
        List<String> names = new ArrayList<>();
        try (ZipInputStream in = new ZipInputStream(new java.io.ByteArrayInputStream(jar))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                names.add(entry.getName());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }
}
