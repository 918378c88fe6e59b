package dev.stringview.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns a JMH JSON result file (and the run's {@code context.json}) into {@code docs/benchmarks.md} and the
 * charts in {@code docs/benchmarks/*.svg}. Every figure comes from the JSON; nothing is typed in by hand.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.stringview.benchmarks.Report \
 *     benchmarks/target/jmh-results/results.json benchmarks/target/jmh-results/context.json docs
 * </pre>
 */
public final class Report {
    static final String PKG = "dev.stringview.benchmarks.";
    static final List<String> SUITE1_METHODS = List.of("views", "pointerLength", "javaString", "javaBytes",
            "arrowVarChar", "arrowViewVarChar");
    static final List<String> SUITE1_LABELS = List.of("views (this library)", "pointer+length (SimpleStr)",
            "String[]", "byte[][]", "Arrow VarCharVector", "Arrow ViewVarCharVector");
    static final List<String> HEAPS = List.of("ScatteredHeapBenchmark", "ContiguousHeapBenchmark",
            "CacheResidentBatchBenchmark", "PrefixCollisionBatchBenchmark");
    static final List<String> HEAP_TITLES = List.of("Scattered heap: 1M rows, bytes at random offsets of 256 MiB",
            "Contiguous heap: 10M rows in row order", "Cache-resident batch: 8192 rows",
            "Prefix collision: the cache-resident batch, every value sharing the constants' first 4 bytes");
    static final List<String> SORT_DATA = List.of("url", "8", "25");
    static final List<String> SORT_METHODS = List.of("views", "javaString", "javaBytes", "pointerLength");
    static final List<String> SORT_LABELS = List.of("views (this library)", "Arrays.sort(String[])",
            "byte[][], Arrays.compareUnsigned", "pointer+length, merge sort");
    static final List<String> LENGTHS = List.of("8", "25", "mix");
    static final List<String> KERNELS = List.of("equal", "lessThan", "startsWith", "contains");
    static final List<String> LOAD_METHODS = List.of("views", "parquetJavaBytes", "parquetJavaString", "arrowVarChar");
    static final List<String> LOAD_LABELS = List.of("views (this library)", "parquet-java → byte[]",
            "parquet-java → String", "parquet-java → Arrow VarCharVector");
    static final List<String> QUERY_METHODS = List.of("views", "scanOneThread", "scanAllCores", "parquetJavaString",
            "parquetJavaBytes", "duckdb", "duckdbDefaultThreads");
    static final List<String> QUERY_LABELS = List.of("views (this library)", "ParquetScan, 1 thread",
            "ParquetScan, all cores", "parquet-java → String", "parquet-java → byte[]", "DuckDB, 1 thread",
            "DuckDB, default threads");
    /** Suite 3's layouts ({@link HitsQueryBenchmark}'s {@code layout} values). */
    static final List<String> LAYOUTS = List.of("plain", "snappy", "dictZstd", "dictUrlsZstd");
    /** The layouts {@link HitsFloorBenchmark} measures. */
    static final List<String> FLOOR_LAYOUTS = List.of("plain", "snappy", "dictZstd");
    /** Suite 3's speed target: ParquetScan's time at most this fraction of DuckDB's (1 thread, and all cores). */
    static final double SCAN_TARGET = 0.8;
    static final List<String> QUERIES = List.of("q20Contains", "equality", "prefix");

    /**
     * The line after which {@code docs/benchmarks.md} holds sections written by hand (runs of other harnesses,
     * profiles, figures from other days); {@link #write} keeps it and everything below it.
     */
    static final String KEPT_SECTIONS = "<!-- Report keeps this line and everything below it: sections written by hand. -->";

    /** One benchmark result. */
    record Result(String benchmark, String method, Map<String, String> params, double score, double error,
            Map<String, Double> secondary, String unit) {}

    private final List<Result> results;
    private final Map<String, Object> context;

    Report(List<Result> results, Map<String, Object> context) {
        this.results = results;
        this.context = context;
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 3) {
            System.err.println("usage: Report <results.json>[,<more-results.json>...] [context.json] [docs folder]");
            System.exit(2);
        }
        List<Path> results = new ArrayList<>();
        for (String name : args[0].split(",")) {
            results.add(Path.of(name));
        }
        Path context = args.length > 1 ? Path.of(args[1]) : results.get(0).resolveSibling("context.json");
        Path docs = args.length > 2 ? Path.of(args[2]) : Locations.repositoryRoot() == null ? Path.of("docs")
                : Locations.repositoryRoot().resolve("docs");
        write(results, context, docs);
        System.out.println("report=" + docs.resolve("benchmarks.md"));
    }

    /** Reads the results and context and writes {@code docs/benchmarks.md} and {@code docs/benchmarks/*.svg}. */
    static void write(Path resultsFile, Path contextFile, Path docs) throws IOException {
        write(List.of(resultsFile), contextFile, docs);
    }

    /**
     * Reads several result files, for suites run one at a time, and writes the page from all of them. A result of a
     * later file replaces one of an earlier file with the same benchmark, method and parameters. Everything from
     * {@link #KEPT_SECTIONS} on in the existing page is kept after the generated part: the sections written by hand.
     */
    static void write(List<Path> resultsFiles, Path contextFile, Path docs) throws IOException {
        Map<String, Result> merged = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (Path file : resultsFiles) {
            for (Result r : parse(Files.readString(file, StandardCharsets.UTF_8))) {
                merged.put(r.benchmark() + "." + r.method() + r.params(), r);
            }
            names.add(file.getFileName().toString());
        }
        Map<String, Object> context = Files.isRegularFile(contextFile)
                ? Json.object(Json.parse(Files.readString(contextFile, StandardCharsets.UTF_8))) : new LinkedHashMap<>();
        Report report = new Report(new ArrayList<>(merged.values()), context);
        Files.createDirectories(docs.resolve("benchmarks"));
        Map<String, String> charts = report.charts();
        for (Map.Entry<String, String> chart : charts.entrySet()) {
            Files.writeString(docs.resolve("benchmarks").resolve(chart.getKey()), chart.getValue(), StandardCharsets.UTF_8);
        }
        Path page = docs.resolve("benchmarks.md");
        String kept = "";
        if (Files.isRegularFile(page)) {
            String existing = Files.readString(page, StandardCharsets.UTF_8);
            int at = existing.indexOf(KEPT_SECTIONS);
            if (at >= 0) {
                kept = existing.substring(at);
            }
        }
        Files.writeString(page, report.markdown(String.join("`, `", names)) + kept, StandardCharsets.UTF_8);
    }

    static List<Result> parse(String json) {
        List<Result> out = new ArrayList<>();
        for (Object item : Json.array(Json.parse(json))) {
            Map<String, Object> r = Json.object(item);
            String benchmark = String.valueOf(r.get("benchmark"));
            String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            String type = benchmark.substring(0, benchmark.lastIndexOf('.'));
            Map<String, String> params = new LinkedHashMap<>();
            for (Map.Entry<String, Object> p : Json.object(r.get("params")).entrySet()) {
                params.put(p.getKey(), String.valueOf(p.getValue()));
            }
            Map<String, Object> primary = Json.object(r.get("primaryMetric"));
            Map<String, Double> secondary = new LinkedHashMap<>();
            for (Map.Entry<String, Object> s : Json.object(r.get("secondaryMetrics")).entrySet()) {
                secondary.put(s.getKey().replace("·", ""), Json.number(Json.object(s.getValue()).get("score")));
            }
            out.add(new Result(type.substring(type.lastIndexOf('.') + 1), method, params,
                    Json.number(primary.get("score")), Json.number(primary.get("scoreError")), secondary,
                    String.valueOf(primary.get("scoreUnit"))));
        }
        return out;
    }

    /** The score of {@code benchmark.method} with these parameter values, or NaN if it was not run. */
    double score(String benchmark, String method, String... params) {
        Result r = find(benchmark, method, params);
        return r == null ? Double.NaN : r.score();
    }

    /** Bytes allocated per operation (per row or value, since operations are rows), or NaN. */
    double allocated(String benchmark, String method, String... params) {
        Result r = find(benchmark, method, params);
        Double v = r == null ? null : r.secondary().get("gc.alloc.rate.norm");
        return v == null ? Double.NaN : v;
    }

    private Result find(String benchmark, String method, String... params) {
        outer:
        for (Result r : results) {
            if (!r.benchmark().equals(benchmark) || !r.method().equals(method)) {
                continue;
            }
            // The collision batch's own tables are the one where every value shares the prefix (prefixes=1);
            // runs with -p prefixes=2 are asked for by name.
            if (benchmark.equals("PrefixCollisionBatchBenchmark") && !List.of(params).contains("prefixes")
                    && !"1".equals(r.params().getOrDefault("prefixes", "1"))) {
                continue;
            }
            for (int i = 0; i + 1 < params.length; i += 2) {
                if (!params[i + 1].equals(r.params().get(params[i]))) {
                    continue outer;
                }
            }
            return r;
        }
        return null;
    }

    // ------------------------------------------------------------------------------------------------ charts

    Map<String, String> charts() {
        Map<String, String> charts = new LinkedHashMap<>();
        for (int h = 0; h < HEAPS.size(); h++) {
            List<String> groups = new ArrayList<>();
            double[][] values = new double[KERNELS.size() * LENGTHS.size()][SUITE1_METHODS.size()];
            int g = 0;
            for (String kernel : KERNELS) {
                for (String lengths : LENGTHS) {
                    groups.add(kernel + ", " + (lengths.equals("mix") ? "8/25 mix" : lengths + " B"));
                    for (int m = 0; m < SUITE1_METHODS.size(); m++) {
                        values[g][m] = score(HEAPS.get(h), SUITE1_METHODS.get(m), "kernel", kernel, "lengths", lengths);
                    }
                    g++;
                }
            }
            charts.put("suite1-" + chartName(HEAPS.get(h)) + ".svg",
                    SvgChart.bars("Suite 1 — " + HEAP_TITLES.get(h), "ns/row (lower is better)", groups,
                            SUITE1_LABELS, values));
        }
        double[][] load = new double[LoadData.DATASETS.size()][LOAD_METHODS.size()];
        for (int d = 0; d < LoadData.DATASETS.size(); d++) {
            for (int m = 0; m < LOAD_METHODS.size(); m++) {
                load[d][m] = score("ParquetLoadBenchmark", LOAD_METHODS.get(m), "dataset", LoadData.DATASETS.get(d));
            }
        }
        charts.put("suite2-parquet-load.svg", SvgChart.bars("Suite 2 — loading one string column from Parquet",
                "ns/value (lower is better)", LoadData.DATASETS, LOAD_LABELS, load));
        List<String> groups = new ArrayList<>();
        double[][] queries = new double[LAYOUTS.size() * QUERIES.size()][QUERY_METHODS.size()];
        int g = 0;
        for (String query : QUERIES) {
            for (String layout : LAYOUTS) {
                groups.add(query + ", " + layout);
                for (int m = 0; m < QUERY_METHODS.size(); m++) {
                    queries[g][m] = score("HitsQueryBenchmark", QUERY_METHODS.get(m), "layout", layout, "query", query);
                }
                g++;
            }
        }
        charts.put("suite3-hits-queries.svg", SvgChart.bars("Suite 3 — count(*) WHERE on URL, hits-like, 2M rows",
                "ns/row (lower is better)", groups, QUERY_LABELS, queries));
        return charts;
    }

    private static String chartName(String heap) {
        return switch (heap) {
            case "ScatteredHeapBenchmark" -> "scattered";
            case "ContiguousHeapBenchmark" -> "contiguous";
            case "PrefixCollisionBatchBenchmark" -> "collision";
            default -> "batch";
        };
    }

    // ---------------------------------------------------------------------------------------------- markdown

    String markdown(String resultsName) {
        StringBuilder md = new StringBuilder();
        md.append("# Benchmarks\n\n");
        md.append("Generated by `dev.stringview.benchmarks.Report` from `").append(resultsName)
                .append("` (JMH JSON) and its `context.json`; do not edit it by hand down to the line that says where the hand-written "
                        + "sections start. Scores are JMH averages: "
                        + "`@OperationsPerInvocation` makes one operation one row (or one value), so every figure "
                        + "is **ns per row**. Lower is better; `(n.nx)` is a speedup, the baseline's time divided "
                        + "by this one.\n\n");
        int shrunk = shrunkResults();
        if (shrunk > 0) {
            md.append("> **Not a real run:** ").append(shrunk).append(" results ran with fewer rows (or bytes) than "
                    + "their benchmark's `@OperationsPerInvocation`, as the smoke test does; their figures are not "
                    + "per row and mean nothing.\n\n");
        }
        md.append("## Context\n\n| | |\n| --- | --- |\n");
        for (String key : List.of("commit", "date", "jdk", "cpu", "cores", "memory", "os", "jmh", "arrowJava",
                "parquetJava", "duckdb", "durationMinutes")) {
            if (context.containsKey(key)) {
                Object v = context.get(key);
                String text = v instanceof Double d && d == Math.rint(d) && !key.equals("durationMinutes")
                        ? String.valueOf(d.longValue()) : String.valueOf(v);
                md.append("| ").append(key).append(" | ").append(text.replace("|", "\\|")).append(" |\n");
            }
        }
        md.append("\nReproduce every suite (over 90 minutes on 2 cores; the JDK must be the one the build selected, 22+):\n\n"
                + "```\n./mvnw -B -q -pl benchmarks -am package -DskipTests\n"
                + "<jdk>/bin/java -jar benchmarks/target/benchmarks.jar\n```\n\n"
                + "The run writes `benchmarks/target/jmh-results/{results,context}.json` and regenerates this page. "
                + "Suites can also run one at a time, each into its own JSON file, and the page be regenerated from "
                + "all of them (a later file's result replaces an earlier one's with the same parameters):\n\n```\n"
                + "<jdk>/bin/java -jar benchmarks/target/benchmarks.jar HitsQuery -rf json -rff suite3.json\n"
                + "<jdk>/bin/java -cp benchmarks/target/benchmarks.jar dev.stringview.benchmarks.RunContext context.json\n"
                + "<jdk>/bin/java -cp benchmarks/target/benchmarks.jar dev.stringview.benchmarks.Report "
                + "suite1.json,suite3.json context.json docs\n```\n\n");
        targets(md);
        suite1(md);
        suite2(md);
        suite3(md);
        interop(md);
        serialization(md);
        byteView(md);
        spark(md);
        return md.toString();
    }

    /** Results whose row count differs from the one their score is divided by. */
    int shrunkResults() {
        Map<String, String> defaults = Map.of("ScatteredHeapBenchmark", String.valueOf(ScatteredHeapBenchmark.ROWS),
                "ContiguousHeapBenchmark", String.valueOf(ContiguousHeapBenchmark.ROWS),
                "CacheResidentBatchBenchmark", String.valueOf(CacheResidentBatchBenchmark.ROWS),
                "PrefixCollisionBatchBenchmark", String.valueOf(CacheResidentBatchBenchmark.ROWS),
                "ArgsortBenchmark", "1000000",
                "ParquetLoadBenchmark", String.valueOf(ParquetLoadBenchmark.ROWS),
                "HitsQueryBenchmark", String.valueOf(HitsQueryBenchmark.ROWS),
                "HitsFloorBenchmark", String.valueOf(HitsQueryBenchmark.ROWS),
                "FlatLoadBenchmark", String.valueOf(FlatLoadBenchmark.ROWS),
                "RemoteStoreBenchmark", "2000000");
        int shrunk = 0;
        for (Result r : results) {
            String expected = defaults.get(r.benchmark());
            if (expected != null && !expected.equals(r.params().get("rows"))) {
                shrunk++;
            } else if (r.benchmark().equals("ArrowInteropBenchmark")
                    && !ArrowInteropBenchmark.ROW_COUNTS.contains(r.params().get("rows"))) {
                shrunk++;
            } else if (Set.of("Separated", "SizePrefix", "ArrowIpc", "WriteUtf").contains(r.benchmark())
                    && !"65535".equals(r.params().get("rows"))) {
                shrunk++; // SerializationBenchmark's nested classes: seed 003's 65,535-row block
            } else if (r.benchmark().equals("ByteViewBenchmark") && r.params().containsKey("rows")
                    && !"1000000".equals(r.params().get("rows"))) {
                shrunk++;
            } else if (r.benchmark().equals("StreamingBandwidthBenchmark")
                    && !String.valueOf(StreamingBandwidthBenchmark.BYTES).equals(r.params().get("bytes"))) {
                shrunk++;
            }
        }
        return shrunk;
    }

    private void targets(StringBuilder md) {
        md.append("## Targets\n\n| target | measured | met |\n| --- | --- | --- |\n");
        for (String lengths : List.of("8", "25")) {
            double views = score("ScatteredHeapBenchmark", "views", "kernel", "equal", "lengths", lengths);
            double base = score("ScatteredHeapBenchmark", "pointerLength", "kernel", "equal", "lengths", lengths);
            row(md, "1. scattered equality, " + lengths + " B: views ≥ 5x faster than pointer+length",
                    ratio(base, views), base / views >= 5);
        }
        double floor = score("StreamingBandwidthBenchmark", "sumLongs");
        for (String lengths : LENGTHS) {
            double views = score("ContiguousHeapBenchmark", "views", "kernel", "equal", "lengths", lengths);
            row(md, "2. contiguous equality scan, lengths " + lengths + ": within 1.2x of the streaming floor ("
                    + SvgChart.format(floor) + " ns per 16 B)", fmt(views / floor) + "x the floor", views / floor <= 1.2);
        }
        int met = 0;
        int total = 0;
        double worst = Double.POSITIVE_INFINITY;
        String worstCase = "";
        for (String heap : HEAPS) {
            for (String kernel : KERNELS) {
                for (String lengths : LENGTHS) {
                    double views = score(heap, "views", "kernel", kernel, "lengths", lengths);
                    double arrow = Math.min(score(heap, "arrowVarChar", "kernel", kernel, "lengths", lengths),
                            score(heap, "arrowViewVarChar", "kernel", kernel, "lengths", lengths));
                    if (Double.isNaN(views) || Double.isNaN(arrow)) {
                        continue;
                    }
                    total++;
                    met += arrow / views >= 3 ? 1 : 0;
                    if (arrow / views < worst) {
                        worst = arrow / views;
                        worstCase = chartName(heap) + " " + kernel + " " + lengths;
                    }
                }
            }
        }
        row(md, "3. views ≥ 3x faster than both Arrow vectors on every Suite 1 case",
                met + " of " + total + " cases; worst " + fmt(worst) + "x (" + worstCase + ")", total > 0 && met == total);
        for (String dataset : List.of("plainShort", "plainLong")) {
            double views = score("ParquetLoadBenchmark", "views", "dataset", dataset);
            double bytes = score("ParquetLoadBenchmark", "parquetJavaBytes", "dataset", dataset);
            double alloc = allocated("ParquetLoadBenchmark", "views", "dataset", dataset);
            row(md, "4. PLAIN loading (" + dataset + "): views ≥ 2x faster than parquet-java → byte[], ~0 heap B/value",
                    ratio(bytes, views) + ", " + fmt(alloc) + " B/value", bytes / views >= 2 && alloc < 1);
        }
        for (String layout : LAYOUTS) {
            double views = score("HitsQueryBenchmark", "views", "layout", layout, "query", "q20Contains");
            double java = score("HitsQueryBenchmark", "parquetJavaString", "layout", layout, "query", "q20Contains");
            double duck = score("HitsQueryBenchmark", "duckdb", "layout", layout, "query", "q20Contains");
            row(md, "5. Q20 (" + layout + "): ≥ 3x faster than parquet-java, faster than DuckDB 1 thread",
                    ratio(java, views) + " vs parquet-java, " + ratio(duck, views) + " vs DuckDB",
                    java / views >= 3 && duck / views > 1);
        }
        scanTarget(md, "scanOneThread", "duckdb", "ParquetScan at 1 thread ≤ 0.8x DuckDB at 1 thread");
        scanTarget(md, "scanAllCores", "duckdbDefaultThreads",
                "ParquetScan at all cores ≤ 0.8x DuckDB at its default threads");
        md.append('\n');
    }

    /** One target row over Suite 3's cells: how many layout/query cells have {@code ours / peer <= 0.8}. */
    private void scanTarget(StringBuilder md, String ours, String peer, String target) {
        int met = 0;
        int total = 0;
        double worst = Double.NaN;
        String worstCell = "";
        for (String layout : LAYOUTS) {
            for (String query : QUERIES) {
                double r = score("HitsQueryBenchmark", ours, "layout", layout, "query", query)
                        / score("HitsQueryBenchmark", peer, "layout", layout, "query", query);
                if (Double.isNaN(r)) {
                    continue;
                }
                total++;
                met += r <= SCAN_TARGET ? 1 : 0;
                if (Double.isNaN(worst) || r > worst) {
                    worst = r;
                    worstCell = layout + " " + query;
                }
            }
        }
        row(md, "6. Suite 3: " + target, total == 0 ? "n/a"
                : met + " of " + total + " cells; worst " + fmt(worst) + " (" + worstCell + ")", total > 0 && met == total);
    }

    private static void row(StringBuilder md, String target, String measured, boolean met) {
        boolean missing = measured.contains("NaN") || measured.contains("n/a");
        md.append("| ").append(target).append(" | ").append(missing ? "not measured" : measured).append(" | ")
                .append(missing ? "—" : met ? "yes" : "**no**").append(" |\n");
    }

    private void suite1(StringBuilder md) {
        md.append("## Suite 1: prefix-compare filters (seed 001, extended)\n\n"
                + "`count(*)` of the rows matching one kernel, over every row of a column. All implementations read "
                + "the same bytes: the views and the pointer+length records point into one off-heap heap segment; "
                + "Arrow's ViewVarCharVector wraps the same views and heap without copying; Arrow's VarCharVector "
                + "and the Java arrays hold copies (VarCharVector is contiguous whatever the heap). Constants: "
                + "equal = an existing 8- or 25-byte value (1% of rows); lessThan ≈ 50% selectivity; startsWith = "
                + "6 bytes; contains = 4 bytes. Values start with one of 20 prefixes, so 5% of rows share the "
                + "constant's prefix. Baseline: pointer+length (seed 001's SimpleStr).\n\n");
        double floor = score("StreamingBandwidthBenchmark", "sumLongs");
        md.append("**Streaming floor:** summing a 1 GiB off-heap segment costs ").append(SvgChart.format(floor))
                .append(" ns per 16 bytes (").append(fmt(16 / floor)).append(" GB/s single core): no 16-byte-per-row "
                        + "scan from DRAM can beat that.\n\n");
        for (int h = 0; h < HEAPS.size(); h++) {
            String heap = HEAPS.get(h);
            md.append("### ").append(HEAP_TITLES.get(h)).append("\n\n");
            md.append("![").append(HEAP_TITLES.get(h)).append("](benchmarks/suite1-").append(chartName(heap))
                    .append(".svg)\n\n");
            // A run of a few implementations only (e.g. views against the baseline) leaves the others out.
            List<String> methods = SUITE1_METHODS.stream()
                    .filter(m -> results.stream().anyMatch(r -> r.benchmark().equals(heap) && r.method().equals(m)))
                    .toList();
            md.append("| kernel | lengths |");
            for (String method : methods) {
                md.append(' ').append(SUITE1_LABELS.get(SUITE1_METHODS.indexOf(method))).append(" |");
            }
            md.append("\n| --- | --- |").append(" ---: |".repeat(methods.size())).append('\n');
            for (String kernel : KERNELS) {
                for (String lengths : LENGTHS) {
                    md.append("| ").append(kernel).append(" | ").append(lengths).append(" |");
                    double base = score(heap, "pointerLength", "kernel", kernel, "lengths", lengths);
                    for (String method : methods) {
                        double v = score(heap, method, "kernel", kernel, "lengths", lengths);
                        md.append(' ').append(SvgChart.format(v));
                        if (!Double.isNaN(v) && !Double.isNaN(base) && !method.equals("pointerLength")) {
                            md.append(" (").append(fmt(base / v)).append("x)");
                        }
                        md.append(" |");
                    }
                    md.append('\n');
                }
            }
            if (heap.equals("PrefixCollisionBatchBenchmark")) {
                halfSharing(md);
            }
            if (heap.equals("ContiguousHeapBenchmark") && !Double.isNaN(floor)) {
                md.append("\nAgainst the floor (").append(SvgChart.format(floor)).append(" ns/row): views equality ");
                List<String> parts = new ArrayList<>();
                for (String lengths : LENGTHS) {
                    parts.add(lengths + " → " + fmt(score(heap, "views", "kernel", "equal", "lengths", lengths) / floor)
                            + "x");
                }
                md.append(String.join(", ", parts)).append(".\n");
            }
            md.append('\n');
        }
        md.append("### Argsort: the row order of 1M values, ms per sort\n\n"
                + "`ArgsortBenchmark`: `url` = URL-like values that all start with \"http\" (most with "
                + "\"https://www.\"), 25-90 bytes; `8` and `25` = Suite 1's values. The Java peers sort a copy of the "
                + "array; pointer+length merge-sorts row ids comparing big-endian words. Baseline: "
                + "`Arrays.sort(String[])`.\n\n| data |");
        for (String label : SORT_LABELS) {
            md.append(' ').append(label).append(" |");
        }
        md.append("\n| --- |").append(" ---: |".repeat(SORT_LABELS.size())).append('\n');
        for (String data : SORT_DATA) {
            md.append("| ").append(data).append(" |");
            double base = score("ArgsortBenchmark", "javaString", "data", data);
            for (String method : SORT_METHODS) {
                double v = score("ArgsortBenchmark", method, "data", data);
                md.append(' ').append(SvgChart.format(v));
                if (!Double.isNaN(v) && !Double.isNaN(base) && !method.equals("javaString")) {
                    md.append(" (").append(fmt(base / v)).append("x)");
                }
                md.append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    /** The collision batch with half the values sharing the constants' prefix ({@code -p prefixes=2}), if run. */
    private void halfSharing(StringBuilder md) {
        String heap = "PrefixCollisionBatchBenchmark";
        if (results.stream().noneMatch(r -> r.benchmark().equals(heap) && "2".equals(r.params().get("prefixes")))) {
            return;
        }
        md.append("\nHalf the values sharing the prefix (`-p prefixes=2`):\n\n| kernel | lengths | views (this library) "
                + "| pointer+length (SimpleStr) |\n| --- | --- | ---: | ---: |\n");
        for (String kernel : KERNELS) {
            for (String lengths : LENGTHS) {
                double views = score(heap, "views", "kernel", kernel, "lengths", lengths, "prefixes", "2");
                double base = score(heap, "pointerLength", "kernel", kernel, "lengths", lengths, "prefixes", "2");
                if (Double.isNaN(views) && Double.isNaN(base)) {
                    continue;
                }
                md.append("| ").append(kernel).append(" | ").append(lengths).append(" | ").append(SvgChart.format(views))
                        .append(" (").append(fmt(base / views)).append("x) | ").append(SvgChart.format(base))
                        .append(" |\n");
            }
        }
    }

    private void suite2(StringBuilder md) {
        md.append("## Suite 2: loading a string column from Parquet (seed 000)\n\n"
                + "One required UTF-8 column of a 1M-row file written by parquet-java (v1 pages, no checksums), read "
                + "from the OS page cache in 8192-row batches. Views: `stringview-parquet` with its defaults (UTF-8 "
                + "validation on); parquet-java: `ParquetFileReader` → `ColumnReader.getBinary()`, codecs on "
                + "snappy-java / zstd-jni (what its stock codecs use); Arrow: that path filling a VarCharVector. "
                + "Heap bytes per value from JMH's `-prof gc` (`gc.alloc.rate.norm`). Baseline: parquet-java → byte[].\n\n");
        md.append("![Suite 2](benchmarks/suite2-parquet-load.svg)\n\n| dataset |");
        for (String label : LOAD_LABELS) {
            md.append(' ').append(label).append(" |");
        }
        md.append("\n| --- |").append(" ---: |".repeat(LOAD_LABELS.size())).append('\n');
        for (String dataset : LoadData.DATASETS) {
            md.append("| ").append(dataset).append(" |");
            double base = score("ParquetLoadBenchmark", "parquetJavaBytes", "dataset", dataset);
            for (String method : LOAD_METHODS) {
                double v = score("ParquetLoadBenchmark", method, "dataset", dataset);
                double alloc = allocated("ParquetLoadBenchmark", method, "dataset", dataset);
                md.append(' ').append(SvgChart.format(v));
                if (!method.equals("parquetJavaBytes") && !Double.isNaN(v) && !Double.isNaN(base)) {
                    md.append(" (").append(fmt(base / v)).append("x)");
                }
                md.append(", ").append(SvgChart.format(alloc)).append(" B |");
            }
            md.append('\n');
        }
        md.append("\nEach cell: ns/value (speedup vs byte[]), heap bytes allocated per value.\n\n");
    }

    private void suite3(StringBuilder md) {
        md.append("## Suite 3: end to end on hits-like data\n\n"
                + "`SELECT count(*) FROM file WHERE <filter on URL>` over a 2M-row hits-like file (URL, Referer, "
                + "Title, SearchPhrase, BrowserCountry; see `HitsGenerator`), written by parquet-java four ways: "
                + "PLAIN uncompressed, PLAIN + snappy, dictionary + zstd (its nearly distinct URLs overflow the "
                + "dictionary, so most URL pages fall back to PLAIN), and dictUrlsZstd (URLs drawn from 8,192 "
                + "distinct ones: one dictionary page, every data page dictionary-encoded). "
                + "q20Contains is ClickBench Q20 (`URL LIKE '%google%'`, ≈1.5% of rows); equality is `URL = "
                + "'<a home page>'` (≈2%); prefix is `URL LIKE 'https://<a popular site>/%'` (≈1.5%). Every URL "
                + "starts with `http`, so the views' 4-byte prefix never rules a row out for the prefix filter. "
                + "Views read with batch-scoped memory (each batch and its pages freed when the next is read). "
                + "DuckDB runs in the same JVM through JDBC with `SET threads=1`, and with its default thread count "
                + "(all cores). ParquetScan is this library's scan (row groups skipped by statistics and bloom "
                + "filters, row groups or page ranges on N threads), at 1 thread and at all cores. Baseline: "
                + "parquet-java → String. The last two columns are the targets' ratios: ParquetScan's time over "
                + "DuckDB's, at 1 thread each, and at all cores against DuckDB's default threads (target ≤ 0.8).\n\n");
        md.append("![Suite 3](benchmarks/suite3-hits-queries.svg)\n\n| query | layout |");
        for (String label : QUERY_LABELS) {
            md.append(' ').append(label).append(" |");
        }
        md.append(" scan/DuckDB, 1 thread | scan/DuckDB, all cores |");
        md.append("\n| --- | --- |").append(" ---: |".repeat(QUERY_LABELS.size() + 2)).append('\n');
        for (String query : QUERIES) {
            for (String layout : LAYOUTS) {
                md.append("| ").append(query).append(" | ").append(layout).append(" |");
                double base = score("HitsQueryBenchmark", "parquetJavaString", "layout", layout, "query", query);
                for (String method : QUERY_METHODS) {
                    double v = score("HitsQueryBenchmark", method, "layout", layout, "query", query);
                    md.append(' ').append(SvgChart.format(v));
                    if (!Double.isNaN(v)) {
                        md.append(" = ").append(SvgChart.format(v * HitsQueryBenchmark.ROWS / 1e6)).append(" ms");
                        if (!method.equals("parquetJavaString") && !Double.isNaN(base)) {
                            md.append(" (").append(fmt(base / v)).append("x)");
                        }
                    }
                    md.append(" |");
                }
                md.append(' ').append(fmt(score("HitsQueryBenchmark", "scanOneThread", "layout", layout, "query", query)
                        / score("HitsQueryBenchmark", "duckdb", "layout", layout, "query", query))).append(" |");
                md.append(' ').append(fmt(score("HitsQueryBenchmark", "scanAllCores", "layout", layout, "query", query)
                        / score("HitsQueryBenchmark", "duckdbDefaultThreads", "layout", layout, "query", query)))
                        .append(" |\n");
            }
        }
        md.append("\nEach cell: ns/row = ms per query over 2M rows (speedup vs parquet-java → String); the ratios "
                + "are plain numbers, ≤ 0.8 meets the target.\n");
        floors(md);
    }

    /**
     * Suite 3's floors ({@link HitsFloorBenchmark}) beside Q20, so a query splits into decompression, building
     * views, and the filter.
     */
    private void floors(StringBuilder md) {
        md.append("\n### Where Q20's time goes\n\n"
                + "`HitsFloorBenchmark` reads the same files without a filter: the URL pages decompressed into one "
                + "reused buffer by the reader's own decoder (nothing to decompress on PLAIN), the views' reader "
                + "with no predicate, and DuckDB's `sum(strlen(URL))`. ns/row.\n\n"
                + "| layout | decompression only | views, no filter | views, Q20 | DuckDB, no filter | DuckDB, Q20 |\n"
                + "| --- | ---: | ---: | ---: | ---: | ---: |\n");
        for (String layout : FLOOR_LAYOUTS) {
            // PLAIN pages are not compressed: the score is only the walk over their headers
            String decompression = layout.equals("plain") ? "none (uncompressed)"
                    : fmt(score("HitsFloorBenchmark", "decompressOnly", "layout", layout));
            md.append("| ").append(layout).append(" | ").append(decompression).append(" | ")
                    .append(fmt(score("HitsFloorBenchmark", "viewsWithoutFilter", "layout", layout))).append(" | ")
                    .append(fmt(score("HitsQueryBenchmark", "views", "layout", layout, "query", "q20Contains")))
                    .append(" | ")
                    .append(fmt(score("HitsFloorBenchmark", "duckdbWithoutFilter", "layout", layout))).append(" | ")
                    .append(fmt(score("HitsQueryBenchmark", "duckdb", "layout", layout, "query", "q20Contains")))
                    .append(" |\n");
        }
    }

    // --------------------------------------------------------------------- suites rendered as plain tables

    private List<Result> of(Set<String> benchmarks) {
        return results.stream().filter(r -> benchmarks.contains(r.benchmark())).toList();
    }

    /**
     * One table: a row per distinct {@code rowKey}, a column per distinct {@code columnKey} (both in the order the
     * results came), each cell the score, or {@code cell} of it when given. Missing cells read "—".
     */
    private static void pivot(StringBuilder md, String corner, List<Result> rs,
            java.util.function.Function<Result, String> rowKey, java.util.function.Function<Result, String> columnKey,
            java.util.function.Function<Result, String> cell) {
        List<String> rows = rs.stream().map(rowKey).distinct().toList();
        List<String> columns = rs.stream().map(columnKey).distinct().toList();
        md.append("| ").append(corner).append(" |");
        columns.forEach(c -> md.append(' ').append(c).append(" |"));
        md.append("\n| --- |");
        columns.forEach(c -> md.append(" ---: |"));
        md.append('\n');
        for (String row : rows) {
            md.append("| ").append(row).append(" |");
            for (String column : columns) {
                Result hit = rs.stream().filter(r -> rowKey.apply(r).equals(row) && columnKey.apply(r).equals(column))
                        .findFirst().orElse(null);
                md.append(' ').append(hit == null ? "—" : cell.apply(hit)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    /** The score's time unit without JMH's "/op", e.g. {@code us}. */
    private static String unit(Result r) {
        return r.unit().replace("/op", "");
    }

    private static String scoreCell(Result r) {
        return fmt(r.score());
    }

    private void interop(StringBuilder md) {
        List<Result> rs = of(Set.of("ArrowInteropBenchmark"));
        if (rs.isEmpty()) {
            return;
        }
        md.append("## Arrow interop (`ArrowInteropBenchmark`)\n\n");
        md.append("C Data export and import of a view column, DuckDB counting `LIKE '%google%'` over our exported "
                + "stream against DuckDB reading the Parquet file, Parquet → Arrow IPC with views against parquet-java "
                + "→ `VarCharVector` → `ArrowFileWriter`, and an IPC file read into validated views against Arrow "
                + "Java's unvalidated `ArrowFileReader` (benchmarks/README.md). Each cell: ")
                .append(unit(rs.get(0))).append(" per operation, at the row count of its column.\n\n");
        pivot(md, "method", rs, Result::method, r -> "rows=" + r.params().get("rows"), Report::scoreCell);
    }

    static final Set<String> SERIALIZATION = Set.of("Separated", "SizePrefix", "ArrowIpc", "WriteUtf");

    private void serialization(StringBuilder md) {
        List<Result> rs = of(SERIALIZATION);
        if (rs.isEmpty()) {
            return;
        }
        md.append("## Seed 003: one column block serialized and deserialized (`SerializationBenchmark`)\n\n");
        md.append("One 65,535-row block, value lengths uniform in [0.8 size, 1.2 size], in memory. `Separated` is "
                + "the seed-003 layout (sizes stream, then chars stream), `SizePrefix` the legacy LEB128 length "
                + "before each value, `ArrowIpc` Arrow Java's stream writer/reader of a `ViewVarCharVector`, "
                + "`WriteUtf` `DataOutputStream.writeUTF`/`readUTF` of `String`s. Each cell: ")
                .append(unit(rs.get(0))).append(" per block; the last columns are the size-prefix and Arrow IPC "
                        + "times divided by the separated one (codec none). `deserializeTrusted` reads without "
                        + "the UTF-8 check (`withUtf8Validation(false)`); its Arrow IPC column is Arrow's one "
                        + "reader, which checks no value either.\n\n");
        for (String method : List.of("deserialize", "deserializeTrusted", "serialize")) {
            md.append("### ").append(method).append("\n\n");
            List<Result> m = new ArrayList<>(rs.stream().filter(r -> r.method().equals(method)).toList());
            m.sort(java.util.Comparator.comparingInt(r -> Integer.parseInt(r.params().getOrDefault("size", "0"))));
            pivot(md, "size", m, r -> r.params().get("size"),
                    r -> r.benchmark() + (r.params().containsKey("codec") ? " " + r.params().get("codec") : ""),
                    Report::scoreCell);
            md.append("| size | size-prefix / separated | Arrow IPC / separated |\n| --- | ---: | ---: |\n");
            for (String size : m.stream().map(r -> r.params().get("size")).distinct().toList()) {
                double separated = score("Separated", method, "size", size, "codec", "none");
                md.append("| ").append(size).append(" | ")
                        .append(ratio(score("SizePrefix", method, "size", size, "codec", "none"), separated))
                        .append(" | ").append(ratio(score("ArrowIpc", arrowMethod(method), "size", size), separated))
                        .append(" |\n");
            }
            md.append('\n');
        }
    }

    /** Arrow IPC has one reader: it stands against both the checked and the trusted read of the format. */
    private static String arrowMethod(String method) {
        return method.equals("deserializeTrusted") ? "deserialize" : method;
    }

    private void byteView(StringBuilder md) {
        List<Result> rs = of(Set.of("ByteViewBenchmark"));
        if (rs.isEmpty()) {
            return;
        }
        md.append("## Seed 004: `ByteView` as a key (`ByteViewBenchmark`)\n\n");
        List<Result> heap = rs.stream().filter(r -> r.method().startsWith("heap")).toList();
        if (!heap.isEmpty()) {
            md.append("Heap bytes per value (`gc.alloc.rate.norm` of `-prof gc`, which the run must have), "
                    + "by value length:\n\n");
            pivot(md, "length", heap, r -> r.params().get("length"), Result::method,
                    r -> fmt(r.secondary().getOrDefault("gc.alloc.rate.norm", Double.NaN)));
        }
        List<Result> read = rs.stream().filter(r -> r.method().startsWith("read")).toList();
        if (!read.isEmpty()) {
            md.append("Reading one value from a stream, ").append(unit(read.get(0))).append(" per value:\n\n");
            pivot(md, "length", read, r -> r.params().get("length"), Result::method, Report::scoreCell);
        }
        List<Result> keys = rs.stream().filter(r -> r.method().startsWith("lookup") || r.method().startsWith("sort"))
                .toList();
        if (!keys.isEmpty()) {
            md.append("`HashMap` lookups (per lookup) and sorting 1M URL-like keys (per sort):\n\n");
            pivot(md, "method", keys, Result::method, Report::unit, Report::scoreCell);
        }
    }

    private void spark(StringBuilder md) {
        List<Result> rs = of(Set.of("SparkScanBenchmark"));
        if (rs.isEmpty()) {
            return;
        }
        md.append("## Spark (`SparkScanBenchmark`)\n\n");
        md.append("`count(*)` of Suite 3's queries on Suite 3's files through `spark.read.format(\"stringview\")` "
                + "and `spark.read.parquet`, in one Spark session per trial (spark-benchmarks/README.md). Each cell: ")
                .append(unit(rs.get(0))).append(" per query.\n\n");
        pivot(md, "master, layout, query", rs,
                r -> "local[" + r.params().get("cores") + "], " + r.params().get("layout") + ", " + r.params().get("query"),
                r -> r.params().entrySet().stream()
                        .filter(e -> !Set.of("cores", "layout", "query", "rows").contains(e.getKey()))
                        .map(e -> e.getKey().equals("reader") ? e.getValue() : e.getKey() + "=" + e.getValue())
                        .collect(java.util.stream.Collectors.joining(", ")),
                Report::scoreCell);
    }

    private static String ratio(double baseline, double value) {
        return fmt(baseline / value) + "x";
    }

    static String fmt(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, v >= 10 ? "%.1f" : "%.2f", v);
    }
}
