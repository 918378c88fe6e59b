package dev.stringview.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * {@link SparkClickBenchBenchmark}'s queries with the drop-in on and off, alternated execution by execution in
 * one session: for each query, one run of each side to check the answers, {@code -DwarmUpRuns} (default 4) more
 * of each to warm up, then {@code rounds} rounds of one run per side
 * (the side that goes first alternates). On a shared machine whose load moves within seconds this pairs each
 * "on" run with an "off" run of the same seconds, where JMH's back-to-back trials are a minute apart. Each run
 * records its wall time and the process's CPU time ({@code OperatingSystemMXBean.getProcessCpuTime}: Spark's
 * task threads, the driver, the JIT and the GC of this JVM); the second is the steadier figure under load.
 * Before timing, the two sides must return the same rows and the "on" plan must name stringview, as in the JMH
 * setup. Prints one JSON object per query: {@code {"cores":..,"codec":..,"query":..,"onWallMs":[..],
 * "offWallMs":[..],"onCpuMs":[..],"offCpuMs":[..]}}.
 *
 * <p>Usage: {@code SparkClickBenchSideBySide CORES CODEC ROUNDS QUERY...}, with {@link SparkJvm}'s flags.
 */
public final class SparkClickBenchSideBySide {
    /** Untimed runs of each side after the checks (the checks are the first run of each). */
    static final int WARM_UP_RUNS = Integer.getInteger("warmUpRuns", 4);

    private SparkClickBenchSideBySide() {}

    public static void main(String[] args) {
        if (args.length < 4) {
            throw new IllegalArgumentException("usage: SparkClickBenchSideBySide cores codec rounds query...: args="
                    + Arrays.toString(args));
        }
        int cores = Integer.parseInt(args[0]);
        String codec = args[1];
        int rounds = Integer.parseInt(args[2]);
        List<String> queries = List.of(args).subList(3, args.length);
        SparkSession session = SparkClickBenchBenchmark.session(cores);
        String path = ClickBenchTable.path(session, codec, 1_000_000).toAbsolutePath().toString();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (String query : queries) {
            String sql = SparkClickBenchBenchmark.sql(query);
            List<Row> on = run(session, path, sql, true);
            List<Row> off = run(session, path, sql, false);
            if (!on.equals(off)) {
                throw new IllegalStateException("the drop-in and Spark's reader disagree: query=" + query
                        + " codec=" + codec + " on=" + on + " off=" + off);
            }
            enable(session, path, true);
            String plan = session.sql(sql).queryExecution().executedPlan().toString();
            if (!plan.toLowerCase(Locale.ROOT).contains("stringview")) {
                throw new IllegalStateException("the drop-in did not take the scan: query=" + query + " plan=" + plan);
            }
            for (int w = 0; w < WARM_UP_RUNS; w++) {
                run(session, path, sql, true);
                run(session, path, sql, false);
            }
            List<Long> onWall = new ArrayList<>();
            List<Long> offWall = new ArrayList<>();
            List<Long> onCpu = new ArrayList<>();
            List<Long> offCpu = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < 2; k++) {
                    boolean side = (k == 0) == (r % 2 == 0);
                    enable(session, path, side);
                    long cpu0 = os.getProcessCpuTime();
                    long t0 = System.nanoTime();
                    session.sql(sql).collectAsList();
                    long wall = (System.nanoTime() - t0) / 1_000_000;
                    long cpu = (os.getProcessCpuTime() - cpu0) / 1_000_000;
                    (side ? onWall : offWall).add(wall);
                    (side ? onCpu : offCpu).add(cpu);
                }
            }
            System.out.printf(Locale.ROOT, "{\"cores\":%d,\"codec\":\"%s\",\"query\":\"%s\",\"onWallMs\":%s,"
                    + "\"offWallMs\":%s,\"onCpuMs\":%s,\"offCpuMs\":%s}%n", cores, codec, query, onWall, offWall,
                    onCpu, offCpu);
            System.out.flush();
        }
        SparkClickBenchBenchmark.stopSession();
    }

    private static void enable(SparkSession session, String path, boolean on) {
        session.conf().set("spark.stringview.enabled", Boolean.toString(on));
        session.read().parquet(path).createOrReplaceTempView("hits");
    }

    private static List<Row> run(SparkSession session, String path, String sql, boolean on) {
        enable(session, path, on);
        return session.sql(sql).collectAsList();
    }
}
