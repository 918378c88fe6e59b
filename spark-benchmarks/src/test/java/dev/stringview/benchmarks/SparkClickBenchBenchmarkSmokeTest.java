package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs {@link SparkClickBenchBenchmark} once per query and side on a 3,000-row snappy table in this JVM (forks 0),
 * on {@code local[1]} only, to keep the build short (the codec changes nothing the drop-in decides). Each trial's setup checks that the drop-in and Spark's reader
 * give the same rows and that the plan names the drop-in. Nothing is timed.
 */
class SparkClickBenchBenchmarkSmokeTest {
    @AfterAll
    static void stopSpark() {
        SparkClickBenchBenchmark.stopSession();
    }

    @Test
    void everyQueryRunsOnBothSidesWithTheSameAnswer() throws Exception {
        Options options = new OptionsBuilder()
                .include(SparkClickBenchBenchmark.class.getName().replace(".", "\\.") + "\\.")
                .forks(0)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(1))
                .timeout(TimeValue.minutes(2))
                .param("rows", "3000")
                .param("cores", "1")
                .param("codec", "snappy")
                .shouldFailOnError(true)
                .shouldDoGC(false)
                .verbosity(VerboseMode.SILENT)
                .build();
        System.setProperty("jmh.ignoreLock", "true"); // measures nothing: a real run beside it must not fail us
        Collection<RunResult> runs = new Runner(options).run();
        Set<String> cells = new TreeSet<>();
        for (RunResult run : runs) {
            double score = run.getPrimaryResult().getScore();
            assertTrue(Double.isFinite(score), "score of " + run.getParams() + ": " + score);
            cells.add(run.getParams().getParam("query") + "/" + run.getParams().getParam("codec") + "/"
                    + run.getParams().getParam("stringview"));
        }
        Set<String> expected = new TreeSet<>();
        for (String q : new String[] {"q13", "q21", "q22", "q23", "q24", "q34", "q37", "fixedScan"}) {
            for (String codec : new String[] {"snappy"}) {
                for (String side : new String[] {"on", "off"}) {
                    expected.add(q + "/" + codec + "/" + side);
                }
            }
        }
        assertEquals(expected, cells);
    }
}
