package dev.stringview.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No library class starts a thread (decision record docs/decisions/001-vectorization-without-threads.md): a fresh
 * JVM with the Vector API module loads every class of core, parquet-reader, arrow and format and uses their entry
 * points, including the explicit vector warm-up ({@link NoThreadProbe}); the JVM's count of threads ever started
 * must not move, and no new thread may be alive. A JVM of its own, because a thread started by a class's static
 * initializer would be missed by a JVM in which some other test loaded that class first. The second test starts
 * a thread inside the probe and checks that the probe reports it, so the first cannot pass by seeing nothing.
 */
class NoLibraryThreadsTest {
    private static final Pattern REPORT = Pattern.compile("classes=(\\d+) started=(\\d+) new=\\[(.*)]");

    @TempDir
    static Path dir;
    static Path file;

    @BeforeAll
    static void write() throws IOException {
        MessageType schema = MessageTypeParser.parseMessageType(
                "message m { optional binary s (STRING); optional binary b; }");
        file = dir.resolve("threads.parquet");
        Random random = new Random(34);
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withConf(new PlainParquetConfiguration()).withType(schema)
                .withCodecFactory(new dev.stringview.parquet.TestCodecsAccess().codecs())
                .withCompressionCodec(CompressionCodecName.SNAPPY).withWriterVersion(WriterVersion.PARQUET_1_0)
                .withPageSize(4096).withRowGroupSize(32L * 1024).build()) {
            for (int i = 0; i < 5000; i++) {
                Group g = groups.newGroup();
                if (random.nextInt(10) != 0) {
                    g.add("s", "row" + random.nextInt(500) + (random.nextBoolean() ? "-google.com/" : "")
                            + "x".repeat(random.nextInt(20)));
                }
                g.add("b", org.apache.parquet.io.api.Binary.fromConstantByteArray(new byte[random.nextInt(20)]));
                writer.write(g);
            }
        }
    }

    @Test
    void noLibraryClassStartsAThread() throws Exception {
        Matcher report = probe(false);
        assertTrue(Integer.parseInt(report.group(1)) > 100, "classes loaded: " + report.group(0));
        assertEquals("0", report.group(2), "threads started: " + report.group(0));
        assertEquals("", report.group(3), "new live threads: " + report.group(0));
    }

    @Test
    void theProbeSeesAThreadStartedMeanwhile() throws Exception {
        Matcher report = probe(true);
        assertEquals("1", report.group(2), "threads started: " + report.group(0));
    }

    /** Runs {@link NoThreadProbe} in a JVM of its own with the CLI's JVM options, and parses its report. */
    private static Matcher probe(boolean startAThread) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Dio.netty.tryReflectionSetAccessible=true",
                "-Dio.netty.noUnsafe=false", "-cp", System.getProperty("java.class.path"),
                NoThreadProbe.class.getName(), file.toString(), dir.toString()));
        if (startAThread) {
            command.add("--start-a-thread");
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), "the probe did not end: " + output);
        assertEquals(0, process.exitValue(), output);
        Matcher report = null;
        for (String line : output.split("\n")) {
            Matcher m = REPORT.matcher(line.strip());
            if (m.matches()) {
                report = m;
            }
        }
        assertTrue(report != null, "no report line: " + output);
        return report;
    }
}
