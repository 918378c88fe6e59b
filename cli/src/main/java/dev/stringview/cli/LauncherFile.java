package dev.stringview.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Run by the build (exec-maven-plugin, with the JDK the toolchain selected) to write what the {@code ./stringview}
 * launcher needs: line 1 the selected JDK's home, line 2 its feature version, line 3 the class path (this
 * module's jar first, then its runtime dependencies). The {@code java} on PATH may be too old to run Java 22
 * bytecode; the launcher uses this JDK instead.
 */
public final class LauncherFile {
    private LauncherFile() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: LauncherFile OUTPUT_FILE MODULE_JAR");
        }
        Path output = Path.of(args[0]);
        String jar = Path.of(args[1]).toAbsolutePath().toString();
        List<String> entries = new ArrayList<>();
        entries.add(jar);
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry).toAbsolutePath();
            // this module's classes directory is replaced by its jar
            if (!(p.endsWith(Path.of("target", "classes")) && p.startsWith(Path.of(jar).getParent().getParent()))) {
                entries.add(p.toString());
            }
        }
        String lines = System.getProperty("java.home") + "\n" + Runtime.version().feature() + "\n"
                + String.join(File.pathSeparator, entries) + "\n";
        Files.createDirectories(output.toAbsolutePath().getParent());
        Files.writeString(output, lines, StandardCharsets.UTF_8);
    }
}
