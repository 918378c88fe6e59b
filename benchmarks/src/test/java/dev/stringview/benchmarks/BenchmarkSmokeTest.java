package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs every benchmark method, with every parameter combination, once, with tiny data (JMH in this JVM, no
 * warmup, one short iteration), so that the suites never rot; then feeds the JSON to {@link Report}. Nothing is
 * timed: the scores of this run mean nothing.
 */
class BenchmarkSmokeTest {
    @TempDir
    Path docs;

    @Test
    void everyBenchmarkRunsOnceAndTheReportRenders() throws Exception {
        Path results = Locations.buildDir().resolve("smoke-results.json");
        Options options = new OptionsBuilder()
                .include("dev\\.stringview\\.benchmarks\\..*")
                .forks(0)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(1))
                .timeout(TimeValue.minutes(2))
                .param("rows", "2048")
                .param("heapBytes", String.valueOf(2048 * 64))
                .param("bytes", String.valueOf(1 << 20))
                .param("size", "8") // SerializationBenchmark: one size of the eleven
                .param("length", "36") // ByteViewBenchmark: one length of the six
                .addProfiler(GCProfiler.class)
                .shouldFailOnError(true)
                .shouldDoGC(false)
                .verbosity(VerboseMode.SILENT)
                .resultFormat(ResultFormatType.JSON)
                .result(results.toString())
                .build();
        // JMH's /tmp/jmh.lock keeps two measuring runs apart; this run measures nothing, so a benchmark running
        // on the same machine must not make the build fail.
        System.setProperty("jmh.ignoreLock", "true");
        long start = System.nanoTime();
        Collection<RunResult> runs = new Runner(options).run();
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

        Set<String> methods = new TreeSet<>();
        for (RunResult run : runs) {
            double score = run.getPrimaryResult().getScore();
            String name = run.getParams().getBenchmark();
            assertTrue(score > 0 && Double.isFinite(score), "score of " + name + " " + run.getParams() + ": " + score);
            methods.add(name.substring(Report.PKG.length()));
        }
        // 4 heaps (with the prefix-collision batch) x 6 implementations x 3 lengths x 4 kernels + argsort 3 data x 5
        // (with top-100) + bandwidth + 5 datasets x 4 + 4 layouts x 3 queries x 7 + 3 layouts x 3 floors + 9 Arrow
        // interop methods + serialization (separated 3 codecs + size-prefix 2 codecs + 2 peers) x 2 methods
        // + deserializeTrusted (separated 3 codecs + size-prefix 2 codecs) + 17 ByteView methods
        // + whole-table fixed-width decoding (3 datasets x 2 methods) + the remote store's 4 methods x 2 latencies
        assertEquals(288 + 15 + 1 + 20 + 84 + 9 + 9 + 14 + 5 + 17 + 6 + 8, runs.size(),
                "benchmark runs (" + seconds + " s): " + methods);
        assertEquals(4 * 6 + 5 + 1 + 4 + 7 + 3 + 9 + 8 + 2 + 17 + 2 + 4, methods.size(), "benchmark methods: " + methods);

        Map<String, Object> context = RunContext.capture();
        Path contextFile = docs.resolve("context.json");
        Files.writeString(contextFile, Json.write(context));
        Report.write(results, contextFile, docs);
        String md = Files.readString(docs.resolve("benchmarks.md"), StandardCharsets.UTF_8);
        for (String heading : new String[] {"## Context", "## Targets", "## Suite 1", "## Suite 2", "## Suite 3",
            "### Where Q20's time goes", "### Argsort", "## Arrow interop", "## Seed 003", "### deserialize",
            "### deserializeTrusted",
            "## Seed 004", "`HashMap` lookups"}) {
            assertTrue(md.contains(heading), heading);
        }
        assertFalse(md.contains("not measured"), "every target has figures:\n" + md);
        // ByteViewBenchmark's 9 per-value methods (heap*, read*) always run on their full 1,024 values.
        assertTrue(md.contains("**Not a real run:** " + (runs.size() - 9) + " results"), "tiny runs are flagged");
        assertFalse(md.contains("n/a"), "every cell has a figure:\n" + md);
        for (String svg : new String[] {"suite1-scattered.svg", "suite1-contiguous.svg", "suite1-batch.svg",
            "suite1-collision.svg",
            "suite2-parquet-load.svg", "suite3-hits-queries.svg"}) {
            String chart = Files.readString(docs.resolve("benchmarks").resolve(svg), StandardCharsets.UTF_8);
            assertTrue(chart.startsWith("<svg") && chart.contains("<rect") && !chart.contains("n/a"), svg);
        }
    }
}
