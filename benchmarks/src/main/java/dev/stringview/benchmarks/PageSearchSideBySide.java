package dev.stringview.benchmarks;

import dev.stringview.parquet.ParquetScan;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * ClickBench Q20 ({@code URL LIKE '%google%'}) through {@code ParquetScan} at one thread, with the PLAIN page search
 * ({@code withPageSearch(true)}: one substring search over each page, hits mapped back to rows) and without it (the
 * page decoded into views piece by piece, then core's contains kernel), in alternating rounds in one JVM on Suite
 * 3's files. Times are the calling thread's CPU time (the scan runs on it at one thread), so other processes on a
 * shared machine disturb the ratio less than wall time; wall-time medians are printed too. Two uncounted warm-up
 * rounds. Not timed in the build; a test runs it on a small file.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.PageSearchSideBySide [rounds] [rows] [layouts]
 * </pre>
 * {@code layouts}: names separated by commas, {@code plain,snappy} by default (a suffix {@code Pa} gives the
 * pyarrow-like twin with 1M-row row groups).
 */
public final class PageSearchSideBySide {
    private PageSearchSideBySide() {}

    /** One layout's medians in ns per row: CPU and wall time with the page search, and without it. */
    record Result(String layout, double searchCpu, double viewsCpu, double searchWall, double viewsWall,
            long count) {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        long rows = args.length > 1 ? Long.parseLong(args[1]) : HitsQueryBenchmark.ROWS;
        List<String> layouts = Arrays.asList((args.length > 2 ? args[2] : "plain,snappy").split(","));
        System.out.println(Demo.machine() + ", commit " + RunContext.commit());
        for (Result r : run(Locations.benchData(), rounds, rows, layouts)) {
            System.out.println(String.format(Locale.ROOT,
                    "%-8s Q20 ParquetScan 1 thread, CPU ns/row: page search %.1f, views %.1f (search/views %.2f);"
                            + " wall: %.1f vs %.1f (%.2f); count=%d; medians of %d rounds",
                    r.layout(), r.searchCpu(), r.viewsCpu(), r.searchCpu() / r.viewsCpu(), r.searchWall(),
                    r.viewsWall(), r.searchWall() / r.viewsWall(), r.count(), rounds));
        }
    }

    static List<Result> run(Path dir, int rounds, long rows, List<String> layouts) throws Exception {
        if (rounds < 1 || rows < 1) {
            throw new IllegalArgumentException("rounds and rows must be positive: rounds=" + rounds + " rows=" + rows);
        }
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Query query = Query.Q20;
        List<Result> results = new ArrayList<>();
        for (String name : layouts) {
            Path file = Locations.hitsFile(dir, HitsQueryBenchmark.layout(name), rows, null);
            ParquetScan search = ParquetScan.of(file).withPageSearch(true);
            ParquetScan views = ParquetScan.of(file).withPageSearch(false);
            double[][] samples = new double[4][rounds];
            long count = -1;
            for (int r = -SideBySide.WARMUP_ROUNDS; r < rounds; r++) {
                // Alternate which goes first, so neither always runs on a warmer cache.
                boolean searchFirst = (r & 1) == 0;
                long[] a = time(bean, searchFirst ? search : views, query);
                long[] b = time(bean, searchFirst ? views : search, query);
                long[] s = searchFirst ? a : b;
                long[] v = searchFirst ? b : a;
                if (s[2] != v[2] || (count >= 0 && s[2] != count)) {
                    throw new IllegalStateException("page search and views disagree: layout=" + name + " round="
                            + r + " search=" + s[2] + " views=" + v[2] + " before=" + count);
                }
                count = s[2];
                if (r >= 0) {
                    samples[0][r] = s[0] / (double) rows;
                    samples[1][r] = v[0] / (double) rows;
                    samples[2][r] = s[1] / (double) rows;
                    samples[3][r] = v[1] / (double) rows;
                }
            }
            results.add(new Result(name, median(samples[0]), median(samples[1]), median(samples[2]),
                    median(samples[3]), count));
        }
        return results;
    }

    /** CPU ns, wall ns and the count of one scan. */
    private static long[] time(ThreadMXBean bean, ParquetScan scan, Query query) throws Exception {
        long cpu = bean.getCurrentThreadCpuTime();
        long wall = System.nanoTime();
        long count = scan.count(query.filter());
        return new long[] {bean.getCurrentThreadCpuTime() - cpu, System.nanoTime() - wall, count};
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
