import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks the published artifacts, in one of two places, with the same checks of their contents: for the parent its
 * pom, for each published module its pom, jar, -sources and -javadoc jars; every class and sources jar carries
 * META-INF/LICENSE and NOTICE, every javadoc jar its index.html; the poms carry the metadata Central requires.
 *
 * <ul>
 *   <li>A Maven Central bundle (target/central-publishing/central-bundle.zip of {@code ./mvnw -P release deploy}):
 *       also each file's .md5 and .sha1 (and .asc signature unless --unsigned), and nothing unpublished (cli,
 *       benchmarks, samples) in it. Run: {@code java src/release/CheckBundle.java
 *       target/central-publishing/central-bundle.zip <version> [--unsigned]}.
 *   <li>A built source tree ({@code --built <root> <version>}): the files {@code package} left in each module's
 *       target/ (the pom being the module's pom.xml, as deploy takes it), and every module of the root pom either
 *       published or marked {@code maven.deploy.skip}. The samples module runs this in every {@code ./mvnw package}
 *       and {@code verify}, where no release version, signature or checksum exists yet.
 * </ul>
 *
 * <p>Exits 1 with one line per problem.
 */
public final class CheckBundle {
    static final List<String> PUBLISHED = List.of("stringview-core", "stringview-parquet", "stringview-arrow",
            "stringview-format", "stringview-spark", "stringview-flink");
    static final List<String> NOT_PUBLISHED = List.of("stringview-cli", "stringview-benchmarks",
            "stringview-spark-benchmarks", "stringview-flink-benchmarks", "stringview-samples");
    static final String PARENT = "stringview-parent";
    static final String GROUP_PATH = "dev/stringview/";
    static final List<String> SUFFIXES = List.of(".pom", ".jar", "-sources.jar", "-javadoc.jar");

    public static void main(String[] args) throws Exception {
        List<String> problems = new ArrayList<>();
        Map<String, byte[]> files;
        String version;
        String where;
        boolean bundle = !args[0].equals("--built");
        boolean signed = false;
        if (bundle) {
            Path zip = Path.of(args[0]);
            version = args[1];
            signed = !(args.length > 2 && args[2].equals("--unsigned"));
            files = readBundle(zip);
            where = "bundle=" + zip;
        } else {
            Path root = Path.of(args[1]);
            version = args[2];
            files = readTree(root, version, problems);
            where = "tree=" + root.toAbsolutePath().normalize();
        }
        for (String file : expected(version)) {
            byte[] content = files.get(file);
            if (content == null) {
                problems.add("missing: " + file);
                continue;
            }
            if (bundle) {
                checkDigest(files, file, ".md5", "MD5", content, problems);
                checkDigest(files, file, ".sha1", "SHA-1", content, problems);
                if (signed && !files.containsKey(file + ".asc")) {
                    problems.add("missing signature: " + file + ".asc");
                }
            }
            checkContent(file, content, problems);
        }
        if (bundle) {
            for (String file : files.keySet()) {
                for (String unpublished : NOT_PUBLISHED) {
                    if (file.startsWith(GROUP_PATH + unpublished + "/")) {
                        problems.add("unpublished artifact in the bundle: " + file);
                    }
                }
            }
        }
        if (problems.isEmpty()) {
            System.out.println("published artifacts ok: " + where + " version=" + version + " files=" + files.size()
                    + " artifacts=" + (PUBLISHED.size() + 1) + " checksums=" + bundle + " signed=" + signed);
        } else {
            problems.forEach(System.out::println);
            System.exit(1);
        }
    }

    /** The repository paths the published artifacts must have: the parent pom, and four files per module. */
    static List<String> expected(String version) {
        List<String> expected = new ArrayList<>();
        expected.add(GROUP_PATH + PARENT + "/" + version + "/" + PARENT + "-" + version + ".pom");
        for (String artifact : PUBLISHED) {
            for (String suffix : SUFFIXES) {
                expected.add(repositoryPath(artifact, version, suffix));
            }
        }
        return expected;
    }

    static String repositoryPath(String artifact, String version, String suffix) {
        return GROUP_PATH + artifact + "/" + version + "/" + artifact + "-" + version + suffix;
    }

    /** Legal files in class and sources jars, an index in javadoc jars, Central's metadata in poms. */
    static void checkContent(String file, byte[] content, List<String> problems) {
        if (file.endsWith(".jar")) {
            List<String> entries = entries(file, content, problems);
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
            List<String> required = file.contains(PARENT)
                    ? List.of("<name>", "<description>", "<url>", "<licenses>", "<developers>", "<scm")
                    : List.of("<name>", "<parent>");
            for (String element : required) {
                if (!pom.contains(element)) {
                    problems.add("no " + element + " in " + file);
                }
            }
        }
    }

    static Map<String, byte[]> readBundle(Path bundle) throws IOException {
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
        return files;
    }

    /**
     * The published files of a built tree under their repository paths: the root pom as the parent's, and for each
     * module of the root pom that is published, its pom.xml and the jars {@code package} wrote to its target/. A
     * module that is not published must set {@code maven.deploy.skip}; one on neither list is a problem too, so a
     * new module gets a decision.
     */
    static Map<String, byte[]> readTree(Path root, String version, List<String> problems) throws Exception {
        Map<String, byte[]> files = new TreeMap<>();
        Path rootPom = root.resolve("pom.xml");
        files.put(GROUP_PATH + PARENT + "/" + version + "/" + PARENT + "-" + version + ".pom",
                Files.readAllBytes(rootPom));
        for (String module : children(parse(rootPom).getDocumentElement(), "modules", "module")) {
            Path moduleDir = root.resolve(module);
            Element project = parse(moduleDir.resolve("pom.xml")).getDocumentElement();
            String artifact = text(project, "artifactId");
            if (PUBLISHED.contains(artifact)) {
                files.put(repositoryPath(artifact, version, ".pom"), Files.readAllBytes(moduleDir.resolve("pom.xml")));
                for (String suffix : SUFFIXES.subList(1, SUFFIXES.size())) {
                    Path jar = moduleDir.resolve("target").resolve(artifact + "-" + version + suffix);
                    if (Files.isRegularFile(jar)) {
                        files.put(repositoryPath(artifact, version, suffix), Files.readAllBytes(jar));
                    }
                }
            } else if (NOT_PUBLISHED.contains(artifact)) {
                List<String> deploySkip = children(project, "properties", "maven.deploy.skip");
                if (!deploySkip.contains("true")) {
                    problems.add("unpublished module not marked <maven.deploy.skip>true</maven.deploy.skip>: module="
                            + module + " artifactId=" + artifact);
                }
            } else {
                problems.add("module neither published nor unpublished (add it to CheckBundle's lists and README's"
                        + " table): module=" + module + " artifactId=" + artifact);
            }
        }
        return files;
    }

    static Document parse(Path pom) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(pom.toFile());
    }

    /** The text of {@code parent}'s direct child element {@code name}, or null. */
    static String text(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e.getTextContent().trim();
            }
        }
        return null;
    }

    /** The texts of the {@code name} elements inside {@code project}'s direct child {@code section}. */
    static List<String> children(Element project, String section, String name) {
        List<String> texts = new ArrayList<>();
        for (Node n = project.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element s && s.getTagName().equals(section)) {
                for (Node c = s.getFirstChild(); c != null; c = c.getNextSibling()) {
                    if (c instanceof Element e && e.getTagName().equals(name)) {
                        texts.add(e.getTextContent().trim());
                    }
                }
            }
        }
        return texts;
    }

    static void checkDigest(Map<String, byte[]> files, String file, String extension, String algorithm,
            byte[] content, List<String> problems) {
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

    /** The entry names of a jar; a jar that cannot be read is a problem, and has none. */
    static List<String> entries(String file, byte[] jar, List<String> problems) {
        List<String> names = new ArrayList<>();
        try (ZipInputStream in = new ZipInputStream(new java.io.ByteArrayInputStream(jar))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                names.add(entry.getName());
            }
        } catch (IOException e) {
            problems.add("unreadable jar: file=" + file + " error=" + e.getMessage());
        }
        if (names.isEmpty()) {
            problems.add("empty or not a jar: file=" + file + " bytes=" + jar.length);
        }
        return names;
    }
}
