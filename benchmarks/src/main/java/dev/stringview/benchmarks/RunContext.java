package dev.stringview.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** What a set of results was measured on: JDK, CPU, cores, memory, OS, commit, date, peer versions. */
final class RunContext {
    private RunContext() {}

    /** Writes the context of a run made one suite at a time: {@code RunContext <context.json>}. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: RunContext <context.json>");
            System.exit(2);
        }
        Files.writeString(Path.of(args[0]), Json.write(capture()), StandardCharsets.UTF_8);
        System.out.println("context=" + args[0]);
    }

    static Map<String, Object> capture() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        c.put("commit", commit());
        c.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vendor") + ")");
        c.put("cpu", cpuModel());
        c.put("cores", Runtime.getRuntime().availableProcessors());
        c.put("memory", memory());
        c.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        c.put("jmh", packageVersion(org.openjdk.jmh.runner.Runner.class, "1.37"));
        c.put("arrowJava", mavenVersion("org.apache.arrow", "arrow-vector"));
        c.put("parquetJava", parquetVersion());
        c.put("duckdb", duckDbVersion());
        c.put("aircompressor", mavenVersion("io.airlift", "aircompressor-v3"));
        // What the forks get (see Jvm): the library's vector substring search and aircompressor's native codecs.
        c.put("forkFlags", String.join(" ", Jvm.VECTOR, Jvm.NATIVE_ACCESS));
        return c;
    }

    private static String packageVersion(Class<?> type, String fallback) {
        String v = type.getPackage().getImplementationVersion();
        return v == null ? fallback : v;
    }

    /** The version in a dependency's {@code META-INF/maven/.../pom.properties}, kept in the shaded jar. */
    private static String mavenVersion(String groupId, String artifactId) {
        String resource = "/META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
        try (var in = RunContext.class.getResourceAsStream(resource)) {
            if (in == null) {
                return "?";
            }
            java.util.Properties properties = new java.util.Properties();
            properties.load(in);
            return properties.getProperty("version", "?");
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    private static String parquetVersion() {
        try {
            return org.apache.parquet.Version.VERSION_NUMBER;
        } catch (RuntimeException | LinkageError e) {
            return "?";
        }
    }

    private static String duckDbVersion() {
        try (var connection = java.sql.DriverManager.getConnection("jdbc:duckdb:");
                var statement = connection.createStatement();
                var rs = statement.executeQuery("SELECT version()")) {
            rs.next();
            return rs.getString(1);
        } catch (Exception | LinkageError e) {
            return "unavailable (" + e.getClass().getSimpleName() + ")";
        }
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    private static String memory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    return String.format("%.1f GiB", kib / 1024.0 / 1024.0);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return "?";
    }

    /** The checked-out commit, with "-dirty" when the work tree has changes; "unknown" outside a checkout. */
    static String commit() {
        Path root = Locations.repositoryRoot();
        if (root == null) {
            return "unknown";
        }
        String head = git(root, "rev-parse", "HEAD");
        if (head == null || head.isBlank()) {
            return "unknown";
        }
        String status = git(root, "status", "--porcelain");
        return head.trim() + (status != null && !status.isBlank() ? "-dirty" : "");
    }

    private static String git(Path dir, String... args) {
        try {
            String[] command = new String[args.length + 1];
            command[0] = "git";
            System.arraycopy(args, 0, command, 1, args.length);
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            return out;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
