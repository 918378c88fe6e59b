package dev.stringview.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * Runs {@link FlinkScanBenchmark} with every parameter combination once, on a tiny file, in this JVM (forks 0:
 * Surefire's argLine gives it Flink's flags), so the suite never rots. Each trial's setup also checks that the two
 * formats give the same answer. Nothing is timed.
 */
class FlinkScanBenchmarkSmokeTest {
    @AfterAll
    static void stopFlink() {
        FlinkScanBenchmark.stopCluster();
    }

    @Test
    void everyParameterRunsOnce() throws Exception {
        Options options = new OptionsBuilder()
                .include(FlinkScanBenchmark.class.getName().replace(".", "\\.") + "\\.")
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
        FlinkScanBenchmark.keepClusterAcrossTrials = true; // one JVM for every trial: one cluster
        System.setProperty("jmh.ignoreLock", "true"); // measures nothing: a real run beside it must not fail us
        Collection<RunResult> runs = new Runner(options).run();
        Set<String> formats = new TreeSet<>();
        Set<String> queries = new TreeSet<>();
        for (RunResult run : runs) {
            formats.add(run.getParams().getParam("reader"));
            queries.add(run.getParams().getParam("query"));
        }
        assertEquals(3 * 4 * 2, runs.size(), "benchmark runs"); // 3 layouts x 4 queries x 2 formats
        assertEquals(Set.of("flinkParquet", "stringviewParquet"), formats);
        assertEquals(Set.of("equality", "groupBy", "prefix", "q20Contains"), queries);
    }
}
