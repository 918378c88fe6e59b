package dev.stringview.arrow;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's Arrow example compiles against this build and prints exactly what the README says it prints. */
class ReadmeExampleTest {
    private static final Path README = Path.of("..", "README.md");

    @Test
    void arrowExampleCompilesRunsAndPrintsWhatTheReadmeShows(@TempDir Path work) throws Exception {
        String readme = Files.readString(README);
        String section = readme.substring(readme.indexOf("## Arrow interop"));
        String source = block(section, "```java\n");
        String expected = block(section.substring(section.indexOf("It prints:")), "```\n");

        Path file = work.resolve("ArrowExample.java");
        Files.writeString(file, source);
        ToolProvider javac = ToolProvider.findFirst("javac").orElse(null);
        assertNotNull(javac, "tests must run on a JDK");
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(diagnostics, true, StandardCharsets.UTF_8);
        int rc = javac.run(sink, sink, "-Xlint:all,-classfile", "-Werror", "-d", work.toString(), "-cp",
                System.getProperty("java.class.path"), file.toString());
        assertEquals(0, rc, diagnostics.toString(StandardCharsets.UTF_8));

        PrintStream original = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {work.toUri().toURL()}, getClass().getClassLoader())) {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            loader.loadClass("ArrowExample").getMethod("main", String[].class).invoke(null, (Object) new String[0]);
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
