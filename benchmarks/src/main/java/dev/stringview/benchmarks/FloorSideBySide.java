package dev.stringview.benchmarks;

import dev.stringview.parquet.ParquetScan;
import dev.stringview.parquet.internal.ScanSwitches;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Suite 3's cells beside their decompression floor and DuckDB, interleaved round by round in one JVM (issue 35):
 * on a shared, loaded machine JMH's one-benchmark-after-another order puts minutes between a cell and its floor, so
 * their ratio measures the load as much as the code. Here every round runs each operation of a cell once, in an order
 * that rotates from round to round, and a cell's ratio to its floor is the median of the per-round ratios.
 *
 * <p>Operations: {@code floor} ({@link HitsFloorBenchmark#decompressOnly()}), {@code floorJava}
 * ({@link HitsFloorBenchmark#decompressJava()}), {@code scan1} and {@code scanAll} ({@code ParquetScan} on one
 * thread and on all cores, as {@link HitsQueryBenchmark}), {@code duckdb1} and {@code duckdbAll} (DuckDB through
 * JDBC, one thread and its default), and the variants below, each a scan with one of {@code ScanSwitches}' parts
 * removed, to decide whether the part stays (decision records 020-029). Each line also gives the calling thread's CPU
 * time per operation (median, and the median per-round ratio to the floor's: all of a one-thread operation's work)
 * and the process's (JIT and GC threads included; 10 ms steps), which the load on a shared machine does not inflate
 * as it does wall time: a scan on all cores that costs no more CPU than on one would scale with free cores.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector \
 *     dev.stringview.benchmarks.FloorSideBySide --layouts snappy,dictZstd --queries q20Contains \
 *     --ops floor,scan1,scanAll,duckdb1,duckdbAll --warmup 3 --rounds 15 --out runs.jsonl
 * </pre>
 */
public final class FloorSideBySide {
    private FloorSideBySide() {}

    /** The scans with one part taken away, by name: 1-thread ({@code ...1}) and all-cores ({@code ...All}). */
    private static final Map<String, UnaryOperator<ParquetScan>> VARIANTS = Map.of(
            "noPageTest", scan -> ScanSwitches.withPageSearch(scan, false),
            "fineDictionary", scan -> ScanSwitches.withDictionaryPerThread(scan, false));

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i], args[i + 1]);
        }
        List<String> layouts = List.of(a.getOrDefault("--layouts", "snappy,dictZstd,dictUrlsZstd,lz4").split(","));
        List<String> queries = List.of(a.getOrDefault("--queries", "q20Contains,equality,prefix").split(","));
        List<String> ops = List.of(a.getOrDefault("--ops", "floor,scan1,scanAll,duckdb1,duckdbAll").split(","));
        int warmup = Integer.parseInt(a.getOrDefault("--warmup", "3"));
        int rounds = Integer.parseInt(a.getOrDefault("--rounds", "15"));
        int rows = Integer.parseInt(a.getOrDefault("--rows", String.valueOf(HitsQueryBenchmark.ROWS)));
        Path out = a.containsKey("--out") ? Path.of(a.get("--out")) : null;
        int cores = Runtime.getRuntime().availableProcessors();
        WarmUpGates.viewWords();
        try (Connection one = HitsQueryBenchmark.openDuckDb();
                Connection all = HitsQueryBenchmark.openDuckDbDefaultThreads()) {
            for (String layout : layouts) {
                HitsFloorBenchmark floor = new HitsFloorBenchmark();
                floor.layout = layout;
                floor.rows = rows;
                floor.open(false);
                try {
                    for (String queryName : queries) {
                        Query q = Query.of(queryName);
                        Path file = floor.file;
                        List<Op> cell = new ArrayList<>();
                        for (String op : ops) {
                            cell.add(new Op(op, switch (op) {
                                case "floor" -> floor::decompressOnly;
                                case "floorJava" -> floor::decompressJava;
                                case "scan1" -> () -> q.countScan(file, 1);
                                case "scanAll" -> () -> q.countScan(file, cores);
                                case "duckdb1" -> () -> q.countDuckDb(one, file);
                                case "duckdbAll" -> () -> q.countDuckDb(all, file);
                                default -> variant(op, q, file, cores);
                            }));
                        }
                        run(layout, queryName, cell, warmup, rounds, out);
                    }
                } finally {
                    floor.tearDown();
                }
            }
        }
    }

    private static Body variant(String op, Query q, Path file, int cores) {
        boolean allCores = op.endsWith("All");
        String name = op.substring(0, op.length() - (allCores ? 3 : 1));
        UnaryOperator<ParquetScan> variant = VARIANTS.get(name);
        if (variant == null || !(allCores || op.endsWith("1"))) {
            throw new IllegalArgumentException("unknown operation: op=" + op
                    + " expected=floor|floorJava|scan1|scanAll|duckdb1|duckdbAll|<variant>1|<variant>All variants="
                    + VARIANTS.keySet());
        }
        return () -> q.countScan(file, allCores ? cores : 1, variant);
    }

    interface Body {
        long run() throws Exception;
    }

    private record Op(String name, Body body) {}

    private static void run(String layout, String query, List<Op> cell, int warmup, int rounds, Path out)
            throws Exception {
        int n = cell.size();
        for (int w = 0; w < warmup; w++) {
            for (Op op : cell) {
                op.body().run();
            }
        }
        double[][] ms = new double[n][rounds];
        double[][] cpuMs = new double[n][rounds];
        double[][] threadCpuMs = new double[n][rounds];
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long[] results = new long[n];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < n; k++) {
                int i = (k + r) % n;
                long cpu = os.getProcessCpuTime();
                long threadCpu = threads.getCurrentThreadCpuTime();
                long start = System.nanoTime();
                results[i] = cell.get(i).body().run();
                ms[i][r] = (System.nanoTime() - start) / 1e6;
                threadCpuMs[i][r] = (threads.getCurrentThreadCpuTime() - threadCpu) / 1e6;
                cpuMs[i][r] = (os.getProcessCpuTime() - cpu) / 1e6;
            }
        }
        int floorIndex = -1;
        for (int i = 0; i < n; i++) {
            if (cell.get(i).name().equals("floor")) {
                floorIndex = i;
            }
        }
        String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        for (int i = 0; i < n; i++) {
            double[] ratios = new double[rounds];
            double[] cpuRatios = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                ratios[r] = floorIndex < 0 ? Double.NaN : ms[i][r] / ms[floorIndex][r];
                cpuRatios[r] = floorIndex < 0 ? Double.NaN : threadCpuMs[i][r] / threadCpuMs[floorIndex][r];
            }
            double[] sorted = ms[i].clone();
            Arrays.sort(sorted);
            String line = String.format(java.util.Locale.ROOT,
                    "{\"layout\":\"%s\",\"query\":\"%s\",\"op\":\"%s\",\"medianMs\":%.2f,\"minMs\":%.2f,\"maxMs\":%.2f,"
                            + "\"xFloor\":%.3f,\"threadCpuMs\":%.2f,\"cpuXFloor\":%.3f,\"processCpuMs\":%.2f,"
                            + "\"result\":%d,\"rounds\":%d,\"load1\":%s}",
                    layout, query, cell.get(i).name(), median(ms[i]), sorted[0], sorted[rounds - 1], median(ratios),
                    median(threadCpuMs[i]), median(cpuRatios), median(cpuMs[i]), results[i], rounds, load);
            System.out.println(line);
            if (out != null) {
                Files.writeString(out, line + "\n", java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
            }
        }
    }

    private static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }
}
