package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs {@link SparkScanBenchmark} with every parameter combination once, on a tiny file, in this JVM
 * (forks 0: Surefire's argLine gives it Spark's flags), so the suite never rots. Each trial's setup also checks
 * that the three readers count the same rows. Nothing is timed.
 */
class SparkScanBenchmarkSmokeTest {
    @AfterAll
    static void stopSpark() {
        SparkScanBenchmark.stopSession();
    }

    @Test
    void everyMethodAndParameterRunsOnce() throws Exception {
        Options options = new OptionsBuilder()
                .include(SparkScanBenchmark.class.getName().replace(".", "\\.") + "\\.")
                .forks(0)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(1))
                .timeout(TimeValue.minutes(2))
                .param("rows", "2048")
                .shouldFailOnError(true)
                .shouldDoGC(false)
                .verbosity(VerboseMode.SILENT)
                .build();
        System.setProperty("jmh.ignoreLock", "true"); // measures nothing: a real run beside it must not fail us
        long start = System.nanoTime();
        Collection<RunResult> runs = new Runner(options).run();
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        Set<String> methods = new TreeSet<>();
        for (RunResult run : runs) {
            double score = run.getPrimaryResult().getScore();
            String name = run.getParams().getBenchmark();
            assertTrue(score > 0 && Double.isFinite(score), "score of " + name + " " + run.getParams() + ": " + score);
            methods.add(name.substring(name.lastIndexOf('.') + 1));
        }
        Set<String> readers = new TreeSet<>();
        for (RunResult run : runs) {
            readers.add(run.getParams().getParam("reader"));
        }
        // 2 masters x 3 layouts x 3 queries x 3 readers
        assertEquals(2 * 3 * 3 * 3, runs.size(), "benchmark runs (" + seconds + " s): " + methods);
        assertEquals(Set.of("query"), methods);
        assertEquals(Set.of("dropIn", "sparkParquet", "stringview"), readers);
    }
}
