package dev.stringview.benchmarks;

import dev.stringview.InlineViews;
import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.format.ColumnCodec;
import dev.stringview.format.ColumnDeserializer;
import dev.stringview.format.ColumnFormat;
import dev.stringview.format.ColumnSerializer;
import dev.stringview.internal.Vectorization;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.util.ValueVectorUtility;

/**
 * {@link SerializationBenchmark}'s deserialize rows side by side: the readers of one size run in alternating
 * rounds in one JVM, each round timed in thread CPU time, so a loaded machine slows all of them alike and the
 * ratios stay meaningful. Per size it reads one 65,535-row block (the benchmark's data) with:
 * <ul>
 *   <li>{@code separated} / {@code sizePrefix}: {@code ColumnDeserializer.create()}, UTF-8 validated, codec none;
 *   <li>{@code separatedTrusted} / {@code sizePrefixTrusted}: {@code withUtf8Validation(false)};
 *   <li>{@code arrowIpc}: Arrow Java's {@code ArrowStreamReader}, the vectors as loaded (no check at all);
 *   <li>{@code arrowIpcValidated}: the same plus {@code ValueVectorUtility.validateFull} (Arrow Java's view checks;
 *       it does not check UTF-8).
 * </ul>
 * Two uncounted warm-up rounds of a second of CPU time per reader come first; the figures are medians, µs per block. {@code readers} (names separated
 * by commas, all by default) runs only some, e.g. to profile one of them.
 *
 * <p>With a {@code baselineJar} (a benchmarks or format jar built at an older commit, see {@link BaselineFormat}),
 * the readers {@code separatedBaseline}, {@code separatedTrustedBaseline} and {@code sizePrefixBaseline} run that
 * build's {@code ColumnDeserializer} on the same bytes in the same rounds: old against new in one JVM. They run on
 * the current core; {@code separatedBaselineCore} (only when named in {@code readers}, and only with a benchmarks
 * jar) runs the old build's reader on the old build's core too, e.g. to compare {@code InlineViews} builders.
 *
 * <pre>
 * java --add-modules=jdk.incubator.vector --enable-native-access=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED \
 *     -Dio.netty.tryReflectionSetAccessible=true -Dio.netty.noUnsafe=false -Darrow.enable_unsafe_memory_access=true \
 *     -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.SerializationSideBySide [sizes, e.g. 1,8,64] [rounds] [rows] [readers|all] \
 *     [baselineJar]
 * </pre>
 */
public final class SerializationSideBySide {
    static final int WARMUP_ROUNDS = 2;
    /** CPU time each reader runs in each warm-up round, long enough for the JIT to finish on a loaded machine. */
    static final long WARMUP_NANOS = 1_000_000_000L;
    /** Reads per reader and round: enough for a round to last several milliseconds at every size. */
    static final long ROUND_NANOS = 40_000_000L;

    private SerializationSideBySide() {}

    /** One size's medians, µs per block, by reader name (in the order of {@link #READERS}). */
    record Result(int size, Map<String, Double> micros) {}

    static final List<String> READERS = List.of("separated", "sizePrefix", "arrowIpc", "separatedTrusted",
            "sizePrefixTrusted", "arrowIpcValidated");
    /** The readers of a baseline jar, run only when one is given. */
    static final List<String> BASELINE_READERS = List.of("separatedBaseline", "separatedTrustedBaseline",
            "sizePrefixBaseline");
    /** A baseline reader run only when named, as it needs the old build's core in its jar (a benchmarks jar). */
    static final String BASELINE_CORE_READER = "separatedBaselineCore";

    public static void main(String[] args) throws Exception {
        int[] sizes = Arrays.stream((args.length > 0 ? args[0] : "1,8,64").split(",")).mapToInt(Integer::parseInt)
                .toArray();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        int rows = args.length > 2 ? Integer.parseInt(args[2]) : 65_535;
        Path baselineJar = args.length > 4 ? Path.of(args[4]) : null;
        List<String> all = new ArrayList<>(READERS);
        if (baselineJar != null) {
            all.addAll(BASELINE_READERS);
        }
        List<String> only = args.length > 3 && !args[3].equals("all") ? List.of(args[3].split(",")) : all;
        WarmUpGates.inlineViews();
        System.out.println(Demo.machine() + ", commit " + RunContext.commit() + ", " + Vectorization.describe()
                + (InlineViews.vectorized() ? ", vector inline views" : ", scalar inline views")
                + (baselineJar != null ? ", baseline " + baselineJar : ""));
        for (int size : sizes) {
            Result r = run(size, rows, rounds, only, WARMUP_NANOS, baselineJar);
            Map<String, Double> m = r.micros();
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "size %4d:", size));
            m.forEach((name, micros) -> line.append(String.format(Locale.ROOT, " %s %.1f,", name, micros)));
            line.append(String.format(Locale.ROOT,
                    " µs/block; sizePrefix/separated %.2fx, arrowIpc/separated %.2fx; trusted: %.2fx, %.2fx;"
                            + " medians of %d rounds",
                    ratio(m, "sizePrefix", "separated"), ratio(m, "arrowIpc", "separated"),
                    ratio(m, "sizePrefixTrusted", "separatedTrusted"), ratio(m, "arrowIpc", "separatedTrusted"),
                    rounds));
            if (baselineJar != null) {
                line.append(String.format(Locale.ROOT, "; baseline/current: separated %.2fx, trusted %.2fx,"
                        + " sizePrefix %.2fx", ratio(m, "separatedBaseline", "separated"),
                        ratio(m, "separatedTrustedBaseline", "separatedTrusted"),
                        ratio(m, "sizePrefixBaseline", "sizePrefix")));
            }
            System.out.println(line);
        }
    }

    static double ratio(Map<String, Double> micros, String numerator, String denominator) {
        return micros.getOrDefault(numerator, Double.NaN) / micros.getOrDefault(denominator, Double.NaN);
    }

    /** Runs the readers named in {@code only} (a subset of {@link #READERS}) on one size. */
    static Result run(int size, int rows, int rounds, List<String> only) throws IOException {
        return run(size, rows, rounds, only, WARMUP_NANOS);
    }

    static Result run(int size, int rows, int rounds, List<String> only, long warmupNanos) throws IOException {
        return run(size, rows, rounds, only, warmupNanos, null);
    }

    static Result run(int size, int rows, int rounds, List<String> only, long warmupNanos, Path baselineJar)
            throws IOException {
        List<String> known = new ArrayList<>(READERS);
        if (baselineJar != null) {
            known.addAll(BASELINE_READERS);
            known.add(BASELINE_CORE_READER);
        }
        if (!known.containsAll(only)) {
            throw new IllegalArgumentException("unknown reader: readers=" + only + " known=" + known);
        }
        if (rounds < 1 || rows < 1) {
            throw new IllegalArgumentException("rounds and rows must be positive: rounds=" + rounds + " rows=" + rows);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofShared(); BufferAllocator arrow = new RootAllocator()) {
            byte[][] values = SerializationBenchmark.values(rows, size, 0x5EED_0003L + size);
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8).withExpectedRows(rows);
            long bytes = 0;
            for (byte[] value : values) {
                builder.append(value);
                bytes += value.length;
            }
            ViewColumn column = builder.build();
            MemorySegment readMemory = arena.allocate(16L * rows + 2 * bytes + (1 << 16), 16);
            SerializationBenchmark.MemorySink sink = new SerializationBenchmark.MemorySink();
            MemorySegment separated = SerializationBenchmark.serializeOnce(
                    ColumnSerializer.of(ColumnFormat.SEPARATED, ColumnCodec.NONE), column, sink);
            MemorySegment prefixed = SerializationBenchmark.serializeOnce(
                    ColumnSerializer.of(ColumnFormat.SIZE_PREFIX, ColumnCodec.NONE), column, sink);
            byte[] ipc = arrowIpc(values, arrow);
            ColumnDeserializer validated = ColumnDeserializer.create();
            ColumnDeserializer trusted = validated.withUtf8Validation(false);

            Map<String, Reader> readers = new LinkedHashMap<>();
            readers.put("separated", () -> validated.read(separated, slicing(readMemory)).size());
            readers.put("sizePrefix", () -> validated.read(prefixed, slicing(readMemory)).size());
            readers.put("arrowIpc", () -> readIpc(ipc, arrow, false));
            readers.put("separatedTrusted", () -> trusted.read(separated, slicing(readMemory)).size());
            readers.put("sizePrefixTrusted", () -> trusted.read(prefixed, slicing(readMemory)).size());
            readers.put("arrowIpcValidated", () -> readIpc(ipc, arrow, true));
            if (baselineJar != null) {
                BaselineFormat oldValidated = BaselineFormat.load(baselineJar, true);
                BaselineFormat oldTrusted = BaselineFormat.load(baselineJar, false);
                readers.put("separatedBaseline", () -> oldValidated.read(separated, slicing(readMemory)).size());
                readers.put("separatedTrustedBaseline", () -> oldTrusted.read(separated, slicing(readMemory)).size());
                readers.put("sizePrefixBaseline", () -> oldValidated.read(prefixed, slicing(readMemory)).size());
                if (only.contains(BASELINE_CORE_READER)) {
                    BaselineFormat oldBuild = BaselineFormat.loadWithCore(baselineJar, true);
                    readers.put(BASELINE_CORE_READER, () -> oldBuild.rows(separated, slicing(readMemory)));
                }
            }
            readers.keySet().retainAll(only);
            for (Map.Entry<String, Reader> e : readers.entrySet()) {
                long got = e.getValue().read();
                if (got != rows) {
                    throw new IllegalStateException("reader=" + e.getKey() + " rows=" + got + " expected=" + rows);
                }
            }

            Map<String, List<Double>> samples = new LinkedHashMap<>();
            readers.keySet().forEach(name -> samples.put(name, new ArrayList<>()));
            Map<String, Integer> reads = new LinkedHashMap<>();
            long sinkHole = 0;
            for (int round = 0; round < WARMUP_ROUNDS + rounds; round++) {
                for (Map.Entry<String, Reader> e : readers.entrySet()) {
                    Reader reader = e.getValue();
                    if (round < WARMUP_ROUNDS) { // run for warmupNanos, then size the measured rounds from it
                        int n = 0;
                        long start = threads.getCurrentThreadCpuTime();
                        long elapsed;
                        do {
                            sinkHole += reader.read();
                            n++;
                            elapsed = threads.getCurrentThreadCpuTime() - start;
                        } while (elapsed < warmupNanos);
                        reads.put(e.getKey(), (int) Math.max(1, Math.min(100_000, ROUND_NANOS * n / elapsed)));
                        continue;
                    }
                    int n = reads.get(e.getKey());
                    long start = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < n; i++) {
                        sinkHole += reader.read();
                    }
                    samples.get(e.getKey()).add((threads.getCurrentThreadCpuTime() - start) / 1e3 / n);
                }
            }
            if (sinkHole == 42) {
                System.out.print("");
            }
            Map<String, Double> medians = new LinkedHashMap<>();
            samples.forEach((name, list) -> medians.put(name, median(list)));
            return new Result(size, medians);
        }
    }

    @FunctionalInterface
    interface Reader {
        long read() throws IOException;
    }

    static SegmentAllocator slicing(MemorySegment memory) {
        return SegmentAllocator.slicingAllocator(memory);
    }

    static byte[] arrowIpc(byte[][] values, BufferAllocator allocator) throws IOException {
        try (ViewVarCharVector vector = new ViewVarCharVector("s", allocator)) {
            vector.allocateNew(values.length);
            for (int i = 0; i < values.length; i++) {
                vector.setSafe(i, values[i]);
            }
            vector.setValueCount(values.length);
            try (VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(vector))) {
                SerializationBenchmark.MemorySink sink = new SerializationBenchmark.MemorySink();
                try (ArrowStreamWriter writer = new ArrowStreamWriter(root, null, sink)) {
                    writer.start();
                    writer.writeBatch();
                    writer.end();
                }
                return Arrays.copyOf(sink.bytes, sink.size);
            }
        }
    }

    static long readIpc(byte[] ipc, BufferAllocator allocator, boolean validate) throws IOException {
        try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), allocator)) {
            reader.loadNextBatch();
            FieldVector vector = reader.getVectorSchemaRoot().getVector(0);
            if (validate) {
                ValueVectorUtility.validateFull(vector);
            }
            return vector.getValueCount();
        }
    }

    static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }
}
