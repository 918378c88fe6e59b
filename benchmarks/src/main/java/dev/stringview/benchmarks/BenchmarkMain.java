package dev.stringview.benchmarks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The benchmarks jar's entry point.
 *
 * <ul>
 *   <li>No arguments: every suite with its annotated settings and {@code -prof gc}, JSON results to
 *   {@code <build>/jmh-results/results.json} with the run's context beside it ({@code context.json}), then
 *   {@link Report} regenerates {@code docs/benchmarks.md} and {@code docs/benchmarks/*.svg} when the jar sits in a
 *   checkout. About 35-40 minutes on 2 cores.</li>
 *   <li>Any arguments: JMH's own command line ({@code org.openjdk.jmh.Main}), e.g.
 *   {@code ScatteredHeap -p kernel=equal -f 1 -wi 1 -i 2}.</li>
 * </ul>
 */
public final class BenchmarkMain {
    private BenchmarkMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            org.openjdk.jmh.Main.main(args);
            return;
        }
        Path dir = Locations.buildDir().resolve("jmh-results");
        Files.createDirectories(dir);
        Path results = dir.resolve("results.json");
        Map<String, Object> context = RunContext.capture();
        Instant start = Instant.now();
        Options options = new OptionsBuilder()
                .include("dev\\.stringview\\.benchmarks\\..*")
                .addProfiler(GCProfiler.class)
                .resultFormat(ResultFormatType.JSON)
                .result(results.toString())
                .build();
        new Runner(options).run();
        context.put("durationMinutes", Math.round(Duration.between(start, Instant.now()).toSeconds() / 6.0) / 10.0);
        Path contextFile = dir.resolve("context.json");
        Files.writeString(contextFile, Json.write(context), StandardCharsets.UTF_8);
        System.out.println("results=" + results + " context=" + contextFile);
        Path root = Locations.repositoryRoot();
        if (root != null) {
            Report.write(results, contextFile, root.resolve("docs"));
            System.out.println("report=" + root.resolve("docs/benchmarks.md"));
        } else {
            System.out.println("not in a checkout: run dev.stringview.benchmarks.Report " + results + " " + contextFile
                    + " <docs folder>");
        }
    }
}
