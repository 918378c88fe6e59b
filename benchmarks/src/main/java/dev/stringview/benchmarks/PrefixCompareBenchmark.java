package dev.stringview.benchmarks;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.ViewPredicate;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Suite 1 (seed 001's table, extended): one filter kernel over every row of a string column, counting matches,
 * for each representation of the same bytes. Subclasses fix the heap (scattered, contiguous, cache-resident
 * batch) and the row count, and declare {@code @OperationsPerInvocation(rows)} so that scores are ns/row.
 *
 * <p>Baseline: {@link #pointerLength()}, seed 001's SimpleStr. Each fork builds only the representation its
 * benchmark method reads (from {@link BenchmarkParams}), so a 10M-row fork holds the heap and one peer.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {Jvm.XMX, Jvm.ADD_OPENS_NIO, Jvm.NETTY_REFLECTION, Jvm.NETTY_UNSAFE,
        Jvm.ARROW_UNSAFE, Jvm.NATIVE_ACCESS, Jvm.VECTOR})
public abstract class PrefixCompareBenchmark {
    /** Value lengths: all 8 bytes (inline in a view), all 25 bytes (prefix + buffer), or a 50/50 mix. */
    @Param({"8", "25", "mix"})
    public String lengths;

    @Param({"equal", "lessThan", "startsWith", "contains"})
    public String kernel;

    StringHeap data;
    Kernel op;
    byte[] constant;

    ViewColumn views;
    ViewPredicate predicate;
    PointerLengthColumn pointerLength;
    String[] strings;
    byte[][] bytes;
    BufferAllocator allocator;
    VarCharVector varChar;
    ViewVarCharVector viewVarChar;
    ArrowBuf arrowConstant;

    abstract StringHeap.Layout layout();

    abstract int rows();

    abstract long heapBytes();

    /** Distinct 4-byte prefixes in the data. */
    int prefixes() {
        return StringHeap.PREFIXES;
    }

    @Setup
    public void setup(BenchmarkParams params) {
        String benchmark = params.getBenchmark();
        String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
        prepare(method);
    }

    /** Builds the data and the representation {@code method} reads (all of them for {@code "all"}). */
    void prepare(String method) {
        op = Kernel.of(kernel);
        data = StringHeap.generate(layout(), rows(), lengths, heapBytes(), prefixes());
        constant = data.constant(op);
        boolean all = method.equals("all");
        if (all || method.equals("views") || method.equals("arrowViewVarChar")) {
            ViewColumnBuilder builder = ViewColumns.builder(data.arena, ViewKind.UTF8)
                    .withUtf8Validation(false) // ASCII by construction; validation is not what is measured
                    .withExpectedRows(data.rows);
            int heap = builder.adoptBuffer(data.heap);
            for (int row = 0; row < data.rows; row++) {
                builder.appendView(heap, data.offsets[row], data.lengths[row]);
            }
            views = builder.build();
            predicate = op.predicate(constant);
            WarmUpGates.viewWords();
        }
        if (all || method.equals("pointerLength")) {
            pointerLength = new PointerLengthColumn(data.arena, data);
        }
        if (all || method.equals("javaString")) {
            strings = JavaArrays.strings(data);
        }
        if (all || method.equals("javaBytes")) {
            bytes = JavaArrays.bytes(data);
        }
        if (all || method.startsWith("arrow")) {
            allocator = new RootAllocator();
            arrowConstant = ArrowVectors.constant(allocator, constant);
        }
        if (all || method.equals("arrowVarChar")) {
            varChar = ArrowVectors.varChar(allocator, data);
        }
        if (all || method.equals("arrowViewVarChar")) {
            viewVarChar = ArrowVectors.viewVarChar(allocator, views);
        }
    }

    @TearDown
    public void tearDown() {
        if (varChar != null) {
            varChar.close();
        }
        if (viewVarChar != null) {
            viewVarChar.close();
        }
        if (arrowConstant != null) {
            arrowConstant.close();
        }
        if (allocator != null) {
            allocator.close();
        }
        strings = null;
        bytes = null;
        if (data != null) {
            data.close();
        }
    }

    /** (a) This library: the compiled predicate over the 16-byte views. */
    @Benchmark
    public int views() {
        return predicate.count(views);
    }

    /** (b) Baseline: seed 001's SimpleStr, {offset, length} records; every candidate row reads the heap. */
    @Benchmark
    public int pointerLength() {
        return pointerLength.count(op, constant);
    }

    /** (c) On-heap {@code String[]} with String.equals / compareTo / startsWith / contains. */
    @Benchmark
    public int javaString() {
        return JavaArrays.count(strings, op, constant);
    }

    /** (c) On-heap {@code byte[][]} with Arrays.equals / compareUnsigned / a ranged equals / the SWAR search. */
    @Benchmark
    public int javaBytes() {
        return JavaArrays.count(bytes, op, constant);
    }

    /** (d) Arrow Java VarCharVector: offsets + data buffer, ByteFunctionHelpers. */
    @Benchmark
    public int arrowVarChar() {
        return ArrowVectors.count(varChar, op, arrowConstant, constant.length);
    }

    /** (d) Arrow Java ViewVarCharVector over the same views: get(row, holder), ByteFunctionHelpers. */
    @Benchmark
    public int arrowViewVarChar() {
        return ArrowVectors.count(viewVarChar, op, arrowConstant, constant.length);
    }
}
