package dev.stringview.benchmarks;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.format.ColumnCodec;
import dev.stringview.format.ColumnDeserializer;
import dev.stringview.format.ColumnFormat;
import dev.stringview.format.ColumnSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Seed 003's table: one block of 65,535 UTF-8 values with lengths uniform in [0.8 size, 1.2 size], serialized
 * and deserialized in memory, time per block. {@link Separated} (the StringV2 layout, codecs none / lz4 /
 * lightweight) against {@link SizePrefix} (the legacy layout, the seed's baseline), with two peers in the same
 * run: Arrow Java IPC of a {@code ViewVarCharVector} ({@link ArrowIpc}) and {@code DataOutputStream.writeUTF} /
 * {@code readUTF} of {@code String}s ({@link WriteUtf}), the naive JVM way.
 *
 * <p>Serialization writes into a reused in-memory channel; deserialization reads from a heap segment (ours),
 * a byte-array stream (the peers) and puts the column's memory in a slicing allocator over one reused native
 * segment, the way an engine reads each batch into its own arena; Arrow reads into its own allocator and the
 * vectors are closed after each read.
 */
public class SerializationBenchmark {
    private SerializationBenchmark() {}

    /** The data every variant serializes: {@code rows} values of about {@code size} bytes. */
    @State(Scope.Benchmark)
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 5, time = 1)
    @Fork(value = 1, jvmArgsAppend = {Jvm.XMX, Jvm.ADD_OPENS_NIO, Jvm.NETTY_REFLECTION, Jvm.NETTY_UNSAFE,
            Jvm.ARROW_UNSAFE, Jvm.NATIVE_ACCESS, Jvm.VECTOR})
    public abstract static class Data {
        @Param({"1", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1024"})
        public int size;

        /** Seed 003's block: 65,535 rows. */
        @Param("65535")
        public int rows;

        Arena arena;
        byte[][] values;
        ViewColumn column;
        MemorySegment readMemory;
        final MemorySink sink = new MemorySink();

        @Setup(Level.Trial)
        public void setupData() throws IOException {
            arena = Arena.ofShared();
            values = values(rows, size, 0x5EED_0003L + size);
            ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8).withExpectedRows(rows);
            long bytes = 0;
            for (byte[] value : values) {
                builder.append(value);
                bytes += value.length;
            }
            column = builder.build();
            // Room for the views, the chars and alignment padding of one read.
            readMemory = arena.allocate(16L * rows + 2 * bytes + (1 << 16), 16);
            setupFormat();
            WarmUpGates.inlineViews();
        }

        abstract void setupFormat() throws IOException;

        /** A fresh allocator over the same native memory for each read. */
        SegmentAllocator readAllocator() {
            return SegmentAllocator.slicingAllocator(readMemory);
        }

        @TearDown(Level.Trial)
        public void tearDownData() {
            arena.close();
        }
    }

    /** The two layouts of this project's format differ only in the serializer; the benchmarks are shared. */
    public abstract static class Format extends Data {
        ColumnSerializer serializer;
        final ColumnDeserializer deserializer = ColumnDeserializer.create();
        /** UTF-8 not checked: what Arrow IPC's reader checks of the values (nothing), for a like-for-like row. */
        final ColumnDeserializer trusted = deserializer.withUtf8Validation(false);
        MemorySegment serialized;

        abstract ColumnSerializer serializer();

        @Override
        void setupFormat() throws IOException {
            serializer = serializer();
            serialized = serializeOnce(serializer, column, sink);
        }

        @Benchmark
        public long serialize() throws IOException {
            sink.reset();
            return serializer.write(column, sink);
        }

        @Benchmark
        public ViewColumn deserialize() throws IOException {
            return deserializer.read(serialized, readAllocator());
        }

        /**
         * {@link #deserialize} with {@code withUtf8Validation(false)}: sizes, lengths and nulls are still checked,
         * the UTF-8 of the values is not (Arrow Java's IPC reader checks neither).
         */
        @Benchmark
        public ViewColumn deserializeTrusted() throws IOException {
            return trusted.read(serialized, readAllocator());
        }
    }

    /** The StringV2 layout: sizes in one stream, chars in another. */
    public static class Separated extends Format {
        @Param({"none", "lz4", "lightweight"})
        public String codec;

        @Override
        ColumnSerializer serializer() {
            return ColumnSerializer.of(ColumnFormat.SEPARATED, codec(codec));
        }
    }

    /** The legacy layout: a LEB128 length before every value. */
    public static class SizePrefix extends Format {
        @Param({"none", "lz4"})
        public String codec;

        @Override
        ColumnSerializer serializer() {
            return ColumnSerializer.of(ColumnFormat.SIZE_PREFIX, codec(codec));
        }
    }

    /** Peer: Arrow Java IPC stream format of a ViewVarCharVector holding the same values. */
    public static class ArrowIpc extends Data {
        BufferAllocator allocator;
        ViewVarCharVector vector;
        VectorSchemaRoot root;
        byte[] serialized;

        @Override
        void setupFormat() throws IOException {
            allocator = new RootAllocator();
            vector = new ViewVarCharVector("s", allocator);
            vector.allocateNew(rows);
            for (int i = 0; i < rows; i++) {
                vector.setSafe(i, values[i]);
            }
            vector.setValueCount(rows);
            root = new VectorSchemaRoot(List.<FieldVector>of(vector));
            serialize();
            serialized = Arrays.copyOf(sink.bytes, sink.size);
            try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(serialized), allocator)) {
                if (!reader.loadNextBatch() || reader.getVectorSchemaRoot().getRowCount() != rows) {
                    throw new IllegalStateException("Arrow IPC did not read back: rows=" + rows);
                }
            }
        }

        @Benchmark
        public long serialize() throws IOException {
            sink.reset();
            try (ArrowStreamWriter writer = new ArrowStreamWriter(root, null, sink)) {
                writer.start();
                writer.writeBatch();
                writer.end();
            }
            return sink.size;
        }

        @Benchmark
        public void deserialize(Blackhole blackhole) throws IOException {
            try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(serialized), allocator)) {
                reader.loadNextBatch();
                blackhole.consume(reader.getVectorSchemaRoot().getVector(0).getValueCount());
            }
        }

        @TearDown(Level.Trial)
        public void closeArrow() {
            root.close();
            allocator.close();
        }
    }

    /** Peer: {@code DataOutputStream.writeUTF} / {@code readUTF} of each value as a {@code String}. */
    public static class WriteUtf extends Data {
        String[] strings;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] serialized;

        @Override
        void setupFormat() throws IOException {
            strings = new String[rows];
            for (int i = 0; i < rows; i++) {
                strings[i] = new String(values[i], StandardCharsets.UTF_8);
            }
            serialize();
            serialized = out.toByteArray();
        }

        @Benchmark
        public int serialize() throws IOException {
            out.reset();
            DataOutputStream data = new DataOutputStream(out);
            for (String s : strings) {
                data.writeUTF(s);
            }
            data.flush();
            return out.size();
        }

        @Benchmark
        public String[] deserialize() throws IOException {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
            String[] back = new String[rows];
            for (int i = 0; i < rows; i++) {
                back[i] = in.readUTF();
            }
            return back;
        }
    }

    // ------------------------------------------------------------------------------------------- helpers

    static ColumnCodec codec(String name) {
        return switch (name) {
            case "none" -> ColumnCodec.NONE;
            case "lz4" -> ColumnCodec.LZ4;
            case "lightweight" -> ColumnCodec.LIGHTWEIGHT;
            default -> throw new IllegalArgumentException("unknown codec: " + name);
        };
    }

    /** ASCII values with lengths uniform in [round(0.8 size), round(1.2 size)], as in seed 003's benchmark. */
    static byte[][] values(int rows, int size, long seed) {
        Random random = new Random(seed);
        int lo = Math.round(0.8f * size);
        int hi = Math.round(1.2f * size);
        byte[][] out = new byte[rows][];
        for (int i = 0; i < rows; i++) {
            byte[] value = new byte[lo + random.nextInt(hi - lo + 1)];
            for (int j = 0; j < value.length; j++) {
                value[j] = (byte) ('a' + random.nextInt(26));
            }
            out[i] = value;
        }
        return out;
    }

    static MemorySegment serializeOnce(ColumnSerializer serializer, ViewColumn column, MemorySink sink)
            throws IOException {
        sink.reset();
        serializer.write(column, sink);
        MemorySegment bytes = MemorySegment.ofArray(Arrays.copyOf(sink.bytes, sink.size));
        try (Arena check = Arena.ofConfined()) {
            ViewColumn back = ColumnDeserializer.create().read(bytes, check);
            for (int row = 0; row < column.size(); row++) {
                if (!back.valueEquals(row, column, row)) {
                    throw new IllegalStateException("round trip differs: row=" + row + " format="
                            + serializer.format() + " codec=" + serializer.codec());
                }
            }
        }
        return bytes;
    }

    /** A growable in-memory channel, reused between invocations (seed 003 writes into a reused buffer too). */
    static final class MemorySink implements WritableByteChannel {
        byte[] bytes = new byte[1 << 16];
        int size;

        void reset() {
            size = 0;
        }

        @Override
        public int write(ByteBuffer source) {
            int n = source.remaining();
            if (size + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(size + n, 2 * bytes.length));
            }
            source.get(bytes, size, n);
            size += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }

}
