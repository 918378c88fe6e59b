package dev.stringview.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI distribution as a user meets it (failsafe, after {@code package}): the tar.gz unpacked with {@code tar},
 * {@code bin/stringview} run as a process with nothing but {@code JAVA_HOME}, its output checked against the values
 * the test file was written with.
 */
class DistributionIT {
    @TempDir
    static Path dir;
    static Path home;

    @BeforeAll
    static void unpack() throws Exception {
        Path tarball = Path.of(System.getProperty("stringview.dist"));
        assertTrue(Files.isRegularFile(tarball), "no distribution: " + tarball);
        Process tar = new ProcessBuilder("tar", "xzf", tarball.toString(), "-C", dir.toString())
                .redirectErrorStream(true).start();
        String out = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, tar.waitFor(), out);
        home = dir.resolve("stringview-" + System.getProperty("stringview.version"));
        CliTest.writeTo(dir);
    }

    record Run(int status, List<String> out, String err) {}

    static Run run(String javaHome, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/stringview").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("STRINGVIEW_") || k.startsWith("HADOOP_") || k.equals("JAVA_HOME"));
        env.put("JAVA_HOME", javaHome);
        Path err = Files.createTempFile(dir, "err", ".txt");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int status = p.waitFor();
        return new Run(status, out.isEmpty() ? List.of() : List.of(out.split("\n")), Files.readString(err));
    }

    @Test
    void unpacksIntoBinLibAndTheLicenseTexts() throws IOException {
        assertTrue(Files.isExecutable(home.resolve("bin/stringview")));
        for (String f : List.of("LICENSE", "NOTICE", "README.md")) {
            assertTrue(Files.isRegularFile(home.resolve(f)), f);
        }
        List<String> jars;
        try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
            jars = lib.map(p -> p.getFileName().toString()).sorted().toList();
        }
        String v = System.getProperty("stringview.version");
        for (String module : List.of("cli", "core", "parquet", "arrow", "format")) {
            assertTrue(jars.contains("stringview-" + module + "-" + v + ".jar"), module + " in " + jars);
        }
        for (String jar : jars) {
            assertFalse(jar.startsWith("junit") || jar.contains("minicluster") || jar.startsWith("hadoop-client-runtime"),
                    "a test-scope jar in lib/: " + jar);
        }
    }

    @Test
    void runsWithJavaHomeAloneAndAgainFromItsAotCache() throws Exception {
        String javaHome = System.getProperty("java.home");
        List<String> expected = new ArrayList<>();
        for (String s : CliTest.strings) {
            expected.add(s == null ? "null" : CliTest.json(s));
        }
        Run first = run(javaHome, "cat", dir.resolve("cli.parquet").toString(), "--column", "s");
        assertEquals(0, first.status(), first.err());
        assertEquals(expected, first.out());
        Run second = run(javaHome, "cat", dir.resolve("cli.parquet").toString(), "--column", "s");
        assertEquals(0, second.status(), second.err());
        assertEquals(expected, second.out());
        if (Runtime.version().feature() >= 25) {
            assertTrue(first.err().contains("trained the JDK's AOT cache"), first.err());
            assertTrue(Files.isRegularFile(home.resolve("lib/stringview.aot")));
            assertFalse(second.err().contains("trained"), second.err());
        }
        long google = CliTest.strings.stream().filter(s -> s != null && s.contains("google")).count();
        Run scan = run(javaHome, "scan", dir.resolve("cli.parquet").toString(), "--column", "s", "--contains",
                "google");
        assertEquals(0, scan.status(), scan.err());
        assertEquals(List.of(Long.toString(google)), scan.out());
    }

    @Test
    void anOldJavaIsOneClearLine() throws Exception {
        Path fake = dir.resolve("old-jdk");
        Files.createDirectories(fake.resolve("bin"));
        Path java = fake.resolve("bin/java");
        Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"17.0.9\" 2023-10-17' >&2\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Run old = run(fake.toString(), "--help");
        assertEquals(2, old.status());
        assertEquals(List.of(), old.out());
        assertEquals("stringview: needs Java 22 or newer: java=" + java + " version=\"openjdk version \"17.0.9\" "
                + "2023-10-17\"; set JAVA_HOME to a newer JDK\n", old.err());
        Run missing = run(dir.resolve("no-such-jdk").toString(), "--help");
        assertEquals(2, missing.status());
        assertTrue(missing.err().startsWith("stringview: no Java found: set JAVA_HOME"), missing.err());
    }
}
