package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo runs on generated data and on a given file and column, and rejects bad arguments with key=value errors. */
class DemoTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) throws Exception {
        out.reset();
        err.reset();
        return Demo.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void generatedDataPrintsATableWithEveryQueryOnBothLayouts() throws Exception {
        assertEquals(0, run("--rows", "3000", "--runs", "1"), err.toString(StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        for (String expected : new String[] {"URL LIKE '%google%'", "URL = '" + HitsGenerator.EQUAL_URL + "'",
            "URL LIKE '" + HitsGenerator.PREFIX_URL + "%'", "plain ", "snappy ", "speedup",
            "DuckDB ms", "views ms, 1 thread", "vs DuckDB"}) {
            assertTrue(text.contains(expected), expected + " in\n" + text);
        }
    }

    @Test
    void aGivenFileAndColumn() throws Exception {
        Path file = Locations.hitsFile(dir, ParquetFiles.PLAIN, 2000, null);
        assertEquals(0, run("--file", file.toString(), "--column", "Title", "--runs", "1"),
                err.toString(StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("Title LIKE '%google%'") && text.contains("Title = '"), text);
        assertEquals(2, run("--file", file.toString(), "--column", "NoSuchColumn"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("column=NoSuchColumn"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void badArguments() throws Exception {
        assertEquals(2, run("--rows", "abc"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("option=--rows value=abc"));
        assertEquals(2, run("--file", "x.parquet"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--file and --column go together"));
        assertEquals(2, run("--bogus", "1"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("option=--bogus"));
        assertEquals(2, run("--file", dir.resolve("missing.parquet").toString(), "--column", "URL"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no such file: file="));
    }
}
