package dev.stringview;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

/**
 * Compiles a README example against the test class path and runs it: the first {@code ```java} block of a README
 * section, whose output must equal the block that follows "It prints:". Shared with the other modules through
 * core's test-jar.
 */
public final class ReadmeExamples {
    /** The README at the repository root, seen from a module directory (where Surefire runs). */
    public static final Path README = Path.of("..", "README.md");

    private ReadmeExamples() {}

    /**
     * @param heading the section to take the example from (from this heading to the end), or null for the whole
     *     README
     * @param className the public class the example declares
     * @param javacOptions extra options, e.g. {@code -Werror}
     */
    public static void assertPrintsWhatTheReadmeShows(Path work, String heading, String className,
            String... javacOptions) throws Exception {
        String readme = Files.readString(README);
        String section = heading == null ? readme : readme.substring(readme.indexOf(heading));
        String source = block(section, "```java\n");
        String expected = block(section.substring(section.indexOf("It prints:")), "```\n");

        Path file = work.resolve(className + ".java");
        Files.writeString(file, source);
        ToolProvider javac = ToolProvider.findFirst("javac").orElse(null);
        assertNotNull(javac, "tests must run on a JDK");
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(diagnostics, true, StandardCharsets.UTF_8);
        List<String> arguments = new ArrayList<>(List.of(javacOptions));
        arguments.addAll(List.of("-d", work.toString(), "-cp", System.getProperty("java.class.path"),
                file.toString()));
        int rc = javac.run(sink, sink, arguments.toArray(String[]::new));
        assertEquals(0, rc, diagnostics.toString(StandardCharsets.UTF_8));

        PrintStream original = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {work.toUri().toURL()},
                ReadmeExamples.class.getClassLoader())) {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            loader.loadClass(className).getMethod("main", String[].class).invoke(null, (Object) new String[0]);
        } finally {
            System.setOut(original);
        }
        assertEquals(expected, printed.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"));
    }

    private static String block(String text, String opening) {
        Matcher m = Pattern.compile(Pattern.quote(opening) + "(.*?)```", Pattern.DOTALL).matcher(text);
        assertTrue(m.find(), "no block opening with " + opening.strip());
        return m.group(1);
    }
}
