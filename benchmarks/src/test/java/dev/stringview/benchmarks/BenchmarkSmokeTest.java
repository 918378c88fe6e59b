package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Benchmark;
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
 * warmup, one short iteration), so that the suites never rot: every {@code @Benchmark} method of the module must
 * have run and given a finite score. Then feeds the JSON to {@link Report} and checks the page it renders. Nothing
 * is timed: the scores of this run mean nothing.
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

        Set<String> ran = new TreeSet<>();
        for (RunResult run : runs) {
            double score = run.getPrimaryResult().getScore();
            String name = run.getParams().getBenchmark();
            assertTrue(Double.isFinite(score), "score of " + name + " " + run.getParams() + ": " + score);
            ran.add(name.substring(Report.PKG.length()));
        }
        assertEquals(benchmarkMethods(), ran, "the benchmark methods that ran (" + seconds + " s, " + runs.size()
                + " runs) against the @Benchmark methods of the module");

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

    /**
     * Every {@code @Benchmark} method of the module's concrete classes (inherited ones under the subclass, as JMH
     * names them), read from the compiled classes: {@code Class.method}, nested classes with a dot.
     */
    private static Set<String> benchmarkMethods() throws IOException, ClassNotFoundException, URISyntaxException {
        Path classes = Path.of(Report.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = classes.resolve(Report.PKG.replace('.', '/'));
        Set<String> methods = new TreeSet<>();
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(f -> f.getFileName().toString().endsWith(".class")).toList();
        }
        for (Path file : files) {
            String simple = file.getFileName().toString().replaceFirst("\\.class$", "");
            Class<?> type = Class.forName(Report.PKG + simple, false, Report.class.getClassLoader());
            if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
                continue;
            }
            for (Method method : type.getMethods()) {
                if (method.isAnnotationPresent(Benchmark.class)) {
                    methods.add(simple.replace('$', '.') + "." + method.getName());
                }
            }
        }
        assertFalse(methods.isEmpty(), "no @Benchmark method found under " + dir);
        return methods;
    }
}
