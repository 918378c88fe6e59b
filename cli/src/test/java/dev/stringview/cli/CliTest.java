package dev.stringview.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
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

/** The CLI run in-process: output checked against values computed independently of the reader. */
class CliTest {
    static final MessageType SCHEMA = MessageTypeParser.parseMessageType(
            "message m { optional binary s (STRING); optional binary b; optional group g { optional binary x; } }");

    @TempDir
    static Path dir;
    static Path file;
    static final List<String> strings = new ArrayList<>();
    static final List<byte[]> binaries = new ArrayList<>();

    @BeforeAll
    static void write() throws IOException {
        writeTo(dir);
    }

    /** Writes the test file into {@code directory} (other test classes use it too) and sets {@link #file}. */
    static void writeTo(Path directory) throws IOException {
        strings.clear();
        binaries.clear();
        file = directory.resolve("cli.parquet");
        List<String> special = Arrays.asList("plain", "quote\"d", "back\\slash", "tab\there", "line\nbreak",
                "\u0001\u001f controls", "é€😀 unicode", "", null, "google.com/maps", "www.google.com",
                "abcdefghijklm", "abcdefghijkl", "zzz", "a_b%c");
        Random random = new Random(3);
        for (int i = 0; i < 3000; i++) {
            String s = i < special.size() ? special.get(i)
                    : random.nextInt(10) == 0 ? null : "row" + random.nextInt(500) + (random.nextBoolean() ? "google" : "");
            strings.add(s);
            byte[] b = new byte[random.nextInt(20)];
            random.nextBytes(b);
            binaries.add(random.nextInt(8) == 0 ? null : b);
        }
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withConf(new PlainParquetConfiguration()).withType(SCHEMA)
                .withCodecFactory(new dev.stringview.parquet.TestCodecsAccess().codecs())
                .withCompressionCodec(CompressionCodecName.SNAPPY).withWriterVersion(WriterVersion.PARQUET_1_0)
                .withPageSize(4096).withRowGroupSize(32L * 1024).build()) {
            for (int i = 0; i < strings.size(); i++) {
                Group g = groups.newGroup();
                if (strings.get(i) != null) {
                    g.add("s", strings.get(i));
                }
                if (binaries.get(i) != null) {
                    g.add("b", Binary.fromConstantByteArray(binaries.get(i)));
                }
                writer.write(g);
            }
        }
    }

    record Result(int status, String out, String err) {
        List<String> outLines() {
            return out.isEmpty() ? List.of() : Arrays.asList(out.split("\n", -1)).subList(0, out.split("\n", -1).length - 1);
        }

        List<String> errLines() {
            return err.isEmpty() ? List.of() : List.of(err.split("\n"));
        }
    }

    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = new StringviewCli(o, e).run(args);
        }
        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** JSON string escaping written independently from the CLI's byte-level writer. */
    static String json(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> sb.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return sb.append('"').toString();
    }

    @Test
    void catPrintsOneJsonValuePerLine() {
        Result r = run("cat", file.toString(), "--column", "s");
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        List<String> lines = r.outLines();
        assertEquals(strings.size(), lines.size());
        for (int i = 0; i < strings.size(); i++) {
            assertEquals(strings.get(i) == null ? "null" : json(strings.get(i)), lines.get(i), "row " + i);
        }
        assertEquals("\"quote\\\"d\"", lines.get(1));
        assertEquals("\"\\u0001\\u001f controls\"", lines.get(5));
    }

    @Test
    void catBinaryIsBase64AndLimitStops() {
        Result r = run("cat", file.toString(), "--column", "b", "--limit", "100");
        assertEquals(0, r.status(), r.err());
        List<String> lines = r.outLines();
        assertEquals(100, lines.size());
        for (int i = 0; i < 100; i++) {
            byte[] b = binaries.get(i);
            assertEquals(b == null ? "null" : "\"" + Base64.getEncoder().encodeToString(b) + "\"", lines.get(i));
        }
    }

    static long count(Predicate<String> p) {
        return strings.stream().filter(s -> s != null && p.test(s)).count();
    }

    static int compareBytes(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    static Pattern like(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            regex.append(c == '%' ? ".*" : c == '_' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    @Test
    void scanCountsLikeTheValuesSay() {
        Object[][] cases = {
            {"--equals", "www.google.com", (Predicate<String>) s -> s.equals("www.google.com")},
            {"--equals", "abcdefghijkl", (Predicate<String>) s -> s.equals("abcdefghijkl")},
            {"--starts-with", "row1", (Predicate<String>) s -> s.startsWith("row1")},
            {"--ends-with", "google", (Predicate<String>) s -> s.endsWith("google")},
            {"--contains", "google", (Predicate<String>) s -> s.contains("google")},
            {"--like", "%google%", (Predicate<String>) s -> like("%google%").matcher(s).matches()},
            {"--like", "row_2%", (Predicate<String>) s -> like("row_2%").matcher(s).matches()},
            {"--less-than", "row2", (Predicate<String>) s -> compareBytes(s, "row2") < 0},
            {"--greater-than", "row4", (Predicate<String>) s -> compareBytes(s, "row4") > 0},
            {"--not-equals", "www.google.com", (Predicate<String>) s -> !s.equals("www.google.com")},
            {"--at-most", "row2", (Predicate<String>) s -> compareBytes(s, "row2") <= 0},
            {"--at-least", "row4", (Predicate<String>) s -> compareBytes(s, "row4") >= 0},
        };
        for (Object[] c : cases) {
            @SuppressWarnings("unchecked")
            Predicate<String> p = (Predicate<String>) c[2];
            Result r = run("scan", file.toString(), "--column", "s", (String) c[0], (String) c[1], "--repeat", "3");
            assertEquals(0, r.status(), r.err());
            assertEquals(List.of(Long.toString(count(p))), r.outLines(), c[0] + " " + c[1]);
            assertEquals(2, r.errLines().size(), r.err());
            assertTrue(r.errLines().get(0).matches("scan: runs=3 first_ms=\\d+\\.\\d{3} median_ms=\\d+\\.\\d{3} min_ms=\\d+\\.\\d{3}"),
                    r.err());
            assertTrue(r.errLines().get(1).matches(
                    "scan: rowGroups=\\d+ rowGroupsSkipped=\\d+ pagesRead=\\d+ pagesSkipped=\\d+"), r.err());

            for (String threads : List.of("1", "2", "7")) {
                for (List<String> skipping : List.of(List.<String>of(), List.of("--no-skipping"),
                        List.of("--no-page-search"))) {
                    List<String> argv = new ArrayList<>(List.of("scan", file.toString(), "--column", "s",
                            (String) c[0], (String) c[1], "--threads", threads, "--batch-size", "77"));
                    argv.addAll(skipping);
                    Result t = run(argv.toArray(String[]::new));
                    assertEquals(0, t.status(), t.err());
                    assertEquals(List.of(Long.toString(count(p))), t.outLines(), argv.toString());
                }
            }
        }
        assertTrue(count(s -> s.contains("google")) > 100, "the data has matches");
        // Several predicates: all must hold (one AND expression).
        for (String threads : List.of("1", "3")) {
            Result both = run("scan", file.toString(), "--column", "s", "--starts-with", "row1", "--contains", "2",
                    "--at-most", "row15", "--threads", threads);
            assertEquals(0, both.status(), both.err());
            assertEquals(List.of(Long.toString(count(s -> s.startsWith("row1") && s.contains("2")
                    && compareBytes(s, "row15") <= 0))), both.outLines());
        }
    }

    @Test
    void pagesDescribesEveryPage() {
        Result r = run("pages", file.toString(), "--column", "s");
        assertEquals(0, r.status(), r.err());
        List<String> lines = r.outLines();
        assertTrue(lines.size() > 3, r.out());
        long values = 0;
        for (String line : lines) {
            assertTrue(line.matches("column=s rowGroup=\\d+ page=\\d+ kind=(DICTIONARY|DATA_V1) encoding=\\w+ "
                    + "codec=SNAPPY values=\\d+ nulls=\\d+ compressedBytes=\\d+ uncompressedBytes=\\d+ "
                    + "views=(in-place\\(decompressed\\)|dictionary|none)"), line);
            if (line.contains("kind=DATA_V1")) {
                values += Long.parseLong(line.replaceAll(".* values=(\\d+) .*", "$1"));
            }
        }
        assertEquals(strings.size(), values, "data pages hold every row");
        Result all = run("pages", file.toString());
        assertEquals(0, all.status(), all.err());
        assertTrue(all.out().contains("column=b "), "without --column: every readable column");
    }

    @Test
    void errorsAreOneLineAndNonZero() throws IOException {
        Result nested = run("cat", file.toString(), "--column", "g");
        assertEquals(1, nested.status());
        assertEquals(1, nested.errLines().size(), nested.err());
        assertTrue(nested.err().startsWith("stringview: nested column is not supported: file=cli.parquet column=g"),
                nested.err());

        Result missingFile = run("cat", dir.resolve("nope.parquet").toString(), "--column", "s");
        assertEquals(2, missingFile.status());
        assertEquals(1, missingFile.errLines().size(), missingFile.err());

        for (String[] args : new String[][] {{}, {"frobnicate"}, {"cat", file.toString()},
                {"cat", file.toString(), "--column"}, {"scan", file.toString(), "--column", "s"},
                {"scan", file.toString(), "--column", "s", "--equals", "a", "--threads", "0"},
                {"cat", file.toString(), "--column", "s", "--limit", "-3"},
                {"cat", file.toString(), "--column", "nosuch"}, {"cat", file.toString(), "--column", "s", "--bogus"}}) {
            Result r = run(args);
            assertEquals(2, r.status(), String.join(" ", args) + " -> " + r.err());
            assertEquals(1, r.errLines().size(), r.err());
            assertEquals("", r.out());
        }

        Path corrupt = dir.resolve("corrupt.parquet");
        byte[] bytes = Files.readAllBytes(file);
        Files.write(corrupt, Arrays.copyOf(bytes, bytes.length / 2));
        Result bad = run("cat", corrupt.toString(), "--column", "s");
        assertEquals(1, bad.status());
        assertEquals(1, bad.errLines().size(), bad.err());
        assertTrue(bad.err().contains("file=corrupt.parquet"), bad.err());

        Result verbose = run("cat", corrupt.toString(), "--column", "s", "--verbose");
        assertEquals(1, verbose.status());
        assertTrue(verbose.errLines().size() > 2, "stack trace with --verbose");
    }

    // ------------------------------------------------------------------------------------ Arrow IPC

    @Test
    void convertWritesIpcThatCatPrintsExactlyAsTheParquetFile() throws IOException {
        for (boolean stream : new boolean[] {false, true}) {
            Path arrow = dir.resolve(stream ? "cli.arrows" : "cli.arrow");
            Result converted = stream ? run("convert", file.toString(), arrow.toString(), "--stream")
                    : run("convert", file.toString(), arrow.toString());
            assertEquals(0, converted.status(), converted.err());
            assertTrue(converted.err().startsWith("stringview: wrote " + arrow.getFileName() + " rows=3000 batches="),
                    converted.err());
            assertTrue(converted.err().contains("columns=[s, b]"), converted.err());
            assertTrue(converted.err().contains("skipped (nested or repeated)=[g]"), converted.err());
            byte[] head = java.util.Arrays.copyOf(java.nio.file.Files.readAllBytes(arrow), 6);
            assertEquals(stream ? "\u00ff\u00ff\u00ff\u00ff" : "ARROW1",
                    new String(head, 0, stream ? 4 : 6, StandardCharsets.ISO_8859_1));
            for (String column : List.of("s", "b")) {
                Result fromParquet = run("cat", file.toString(), "--column", column);
                Result fromArrow = run("cat", arrow.toString(), "--column", column);
                assertEquals(0, fromArrow.status(), fromArrow.err());
                assertEquals(fromParquet.out(), fromArrow.out(), "column " + column + " stream=" + stream);
                assertEquals(3000, fromArrow.outLines().size());
            }
            Result limited = run("cat", arrow.toString(), "--column", "s", "--limit", "3");
            assertEquals(List.of("\"plain\"", "\"quote\\\"d\"", "\"back\\\\slash\""), limited.outLines());
        }
    }

    @Test
    void convertNamesColumnsItCannotRead() {
        Path arrow = dir.resolve("bad.arrow");
        Result nested = run("convert", file.toString(), arrow.toString(), "--columns", "s,g");
        assertEquals(1, nested.status(), nested.err());
        assertTrue(nested.err().startsWith("stringview: ") && nested.err().contains("g"), nested.err());
        Result missing = run("convert", file.toString(), arrow.toString(), "--columns", "s,nope");
        assertEquals(2, missing.status(), missing.err());
        assertTrue(missing.err().contains("column=nope"), missing.err());
        Result usage = run("convert", file.toString());
        assertEquals(2, usage.status());
        assertTrue(usage.err().contains("convert needs IN.parquet and OUT.arrow"), usage.err());
    }

    @Test
    void catOnIpcNamesAMissingColumn() {
        Path arrow = dir.resolve("only-s.arrow");
        assertEquals(0, run("convert", file.toString(), arrow.toString(), "--columns", "s").status());
        Result r = run("cat", arrow.toString(), "--column", "b");
        assertEquals(2, r.status(), r.err());
        assertEquals("stringview: file=only-s.arrow no such column: column=b columns=[s]", r.err().strip());
    }
}
