package dev.stringview.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.cli.CliTest.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stringview serialize} and {@code stringview cat} of its output, in-process, against {@code cat} of the Parquet column. */
class SerializeCommandTest {
    private static final MessageType SCHEMA = MessageTypeParser.parseMessageType(
            "message m { optional binary s (STRING); optional binary b; }");
    private static final List<String[]> FORMATS = List.of(new String[] {"separated", "none"},
            new String[] {"separated", "lz4"}, new String[] {"separated", "lightweight"},
            new String[] {"size-prefix", "none"}, new String[] {"size-prefix", "lz4"});

    @TempDir
    static Path dir;
    static Path parquet;

    @BeforeAll
    static void write() throws IOException {
        parquet = dir.resolve("serialize.parquet");
        List<String> special = Arrays.asList("", null, "a", "twelve bytes", "thirteen byte", "é€😀 unicode over 12",
                "quote\"d", "line\nbreak");
        Random random = new Random(13);
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(parquet))
                .withConf(new PlainParquetConfiguration()).withType(SCHEMA)
                .withCodecFactory(new dev.stringview.parquet.TestCodecsAccess().codecs())
                .withCompressionCodec(CompressionCodecName.SNAPPY).withPageSize(4096).withRowGroupSize(64L * 1024)
                .build()) {
            for (int i = 0; i < 70_000; i++) { // more than one 65,535-row block
                Group g = groups.newGroup();
                String s = i < special.size() ? special.get(i)
                        : random.nextInt(7) == 0 ? null : "value-" + random.nextInt(1000) + "x".repeat(random.nextInt(30));
                if (s != null) {
                    g.add("s", s);
                }
                if (random.nextInt(5) != 0) {
                    byte[] b = new byte[random.nextInt(24)];
                    random.nextBytes(b);
                    g.add("b", Binary.fromConstantByteArray(b));
                }
                writer.write(g);
            }
        }
    }

    @Test
    void everyFormatAndCodecCatsBackWhatTheParquetColumnHolds() {
        for (String column : List.of("s", "b")) {
            Result expected = CliTest.run("cat", parquet.toString(), "--column", column);
            assertEquals(0, expected.status(), expected.err());
            for (String[] fc : FORMATS) {
                Path out = dir.resolve(column + "-" + fc[0] + "-" + fc[1] + ".svcl");
                Result written = CliTest.run("serialize", parquet.toString(), "--column", column, "--format", fc[0],
                        "--codec", fc[1], out.toString());
                assertEquals(0, written.status(), written.err());
                assertTrue(written.err().startsWith("serialize: column=" + column + " rows=70000 "), written.err());
                Result back = CliTest.run("cat", out.toString(), "--column", column);
                assertEquals(0, back.status(), back.err());
                assertEquals(expected.out(), back.out(), column + " " + fc[0] + " " + fc[1]);
                Result limited = CliTest.run("cat", out.toString(), "--limit", "5");
                assertEquals(expected.outLines().subList(0, 5), limited.outLines());
            }
        }
    }

    @Test
    void aConformanceFileRoundTrips() {
        String env = System.getenv("PARQUET_TEST_DATA");
        Path data = env != null && !env.isBlank() ? Paths.get(env) : Paths.get("../../shared/parquet-testing/data");
        Path file = data.resolve("delta_length_byte_array.parquet");
        assertTrue(Files.isRegularFile(file), "parquet-testing data not found: " + file.toAbsolutePath());
        Path out = dir.resolve("fruit.svcl");
        assertEquals(0, CliTest.run("serialize", file.toString(), "--column", "FRUIT", "--codec", "lightweight",
                out.toString()).status());
        assertEquals(CliTest.run("cat", file.toString(), "--column", "FRUIT").out(),
                CliTest.run("cat", out.toString(), "--column", "FRUIT").out());
    }

    @Test
    void badArgumentsAndCorruptFilesGiveOneLine() throws IOException {
        Path out = dir.resolve("x.svcl");
        Result lightweightPrefix = CliTest.run("serialize", parquet.toString(), "--column", "s", "--format",
                "size-prefix", "--codec", "lightweight", out.toString());
        assertEquals(StringviewCli.EXIT_USAGE, lightweightPrefix.status());
        assertEquals(1, lightweightPrefix.errLines().size(), lightweightPrefix.err());
        assertEquals(StringviewCli.EXIT_USAGE, CliTest.run("serialize", parquet.toString(), "--column", "s",
                "--format", "columnar", out.toString()).status());
        assertEquals(StringviewCli.EXIT_USAGE, CliTest.run("serialize", parquet.toString(), "--column", "s").status());

        assertEquals(0, CliTest.run("serialize", parquet.toString(), "--column", "s", out.toString()).status());
        byte[] bytes = Files.readAllBytes(out);
        Path cut = dir.resolve("cut.svcl");
        Files.write(cut, Arrays.copyOf(bytes, bytes.length - 100));
        Result truncated = CliTest.run("cat", cut.toString());
        assertEquals(StringviewCli.EXIT_BAD_INPUT, truncated.status());
        assertEquals(1, truncated.errLines().size(), truncated.err());
        assertTrue(truncated.err().startsWith("stringview: corrupt serialized column: block=1 row=-1 field=chars "
                + "truncated:"), truncated.err());
    }
}
