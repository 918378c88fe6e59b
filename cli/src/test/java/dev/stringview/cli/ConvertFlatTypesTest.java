package dev.stringview.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cat} prints every flat column, and {@code convert} writes every flat column: the Arrow IPC file, read back
 * by Arrow Java's own reader, holds each Parquet type as its Arrow type with the values written (an on-heap model),
 * nulls included.
 */
class ConvertFlatTypesTest {
    static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message m {"
            + " optional boolean bool; optional int32 i8 (INT_8); optional int32 u16 (UINT_16);"
            + " required int32 i32; optional int64 i64; optional int32 date (DATE);"
            + " optional int64 ts (TIMESTAMP(MICROS,true)); optional int64 dec (DECIMAL(18,4));"
            + " optional fixed_len_byte_array(16) decf (DECIMAL(38,10));"
            + " optional fixed_len_byte_array(2) f16 (FLOAT16);"
            + " optional fixed_len_byte_array(16) uuid (UUID); optional double d; optional int96 i96;"
            + " optional binary s (STRING); }");

    @TempDir
    Path dir;

    @Test
    void everyFlatTypeBecomesItsArrowType() throws IOException {
        Path parquet = dir.resolve("flat.parquet");
        int rows = 2500;
        Random random = new Random(31);
        List<Object[]> model = new ArrayList<>();
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(parquet))
                .withConf(new PlainParquetConfiguration()).withType(SCHEMA)
                .withCodecFactory(new dev.stringview.parquet.TestCodecsAccess().codecs())
                .withCompressionCodec(CompressionCodecName.SNAPPY).withWriterVersion(WriterVersion.PARQUET_2_0)
                .withPageSize(4096).withRowGroupSize(32L * 1024).build()) {
            for (int r = 0; r < rows; r++) {
                Object[] row = new Object[SCHEMA.getFieldCount()];
                row[0] = random.nextBoolean();
                row[1] = (int) (byte) random.nextInt();
                row[2] = random.nextInt(65536);
                row[3] = random.nextInt();
                row[4] = random.nextLong();
                row[5] = random.nextInt(40000) - 20000;
                row[6] = random.nextLong() >> 12;
                row[7] = random.nextLong() % 1_000_000_000_000_000_000L;
                row[8] = new BigInteger(120, random).subtract(BigInteger.ONE.shiftLeft(119));
                row[9] = Float.floatToFloat16(random.nextFloat() * 100 - 50);
                byte[] uuid = new byte[16];
                random.nextBytes(uuid);
                row[10] = uuid;
                row[11] = random.nextGaussian();
                row[12] = random.nextLong(86_400_000_000_000L); // nanos of day, day 2460000
                row[13] = "row" + r;
                for (int c = 0; c < row.length; c++) {
                    if (c != 3 && random.nextInt(7) == 0) {
                        row[c] = null;
                    }
                }
                model.add(row);
                Group g = groups.newGroup();
                for (int c = 0; c < row.length; c++) {
                    if (row[c] == null) {
                        continue;
                    }
                    String name = SCHEMA.getFieldName(c);
                    boolean int96 = c == 12;
                    switch (row[c]) {
                        case Boolean v -> g.add(name, v);
                        case Integer v -> g.add(name, v);
                        case Long v when int96 -> g.add(name, Binary.fromConstantByteArray(ByteBuffer.allocate(12)
                                .order(ByteOrder.LITTLE_ENDIAN).putLong(v).putInt(2_460_000).array()));
                        case Long v -> g.add(name, v);
                        case BigInteger v -> {
                            byte[] bytes = new byte[16];
                            byte[] minimal = v.toByteArray();
                            java.util.Arrays.fill(bytes, (byte) (v.signum() < 0 ? -1 : 0));
                            System.arraycopy(minimal, 0, bytes, 16 - minimal.length, minimal.length);
                            g.add(name, Binary.fromConstantByteArray(bytes));
                        }
                        case Short v -> g.add(name, Binary.fromConstantByteArray(new byte[] {(byte) (short) v,
                            (byte) (v >> 8)}));
                        case byte[] v -> g.add(name, Binary.fromConstantByteArray(v));
                        case Double v -> g.add(name, v);
                        case String v -> g.add(name, v);
                        default -> throw new AssertionError(row[c]);
                    }
                }
                writer.write(g);
            }
        }
        Path arrow = dir.resolve("flat.arrow");
        CliTest.Result converted = CliTest.run("convert", parquet.toString(), arrow.toString());
        assertEquals(0, converted.status(), converted.err());
        assertTrue(converted.err().contains("rows=" + rows), converted.err());
        assertTrue(!converted.err().contains("skipped"), converted.err());

        int row = 0;
        try (BufferAllocator allocator = new RootAllocator();
                FileChannel channel = FileChannel.open(arrow, StandardOpenOption.READ);
                ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            List<ArrowType> types = root.getSchema().getFields().stream().map(f -> f.getType()).toList();
            assertEquals(List.of(ArrowType.Bool.INSTANCE, new ArrowType.Int(8, true), new ArrowType.Int(16, false),
                    new ArrowType.Int(32, true), new ArrowType.Int(64, true),
                    new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY),
                    new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.MICROSECOND, "UTC"),
                    new ArrowType.Decimal(18, 4, 128), new ArrowType.Decimal(38, 10, 128),
                    new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.HALF),
                    new ArrowType.FixedSizeBinary(16),
                    new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE),
                    new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.MICROSECOND, null),
                    ArrowType.Utf8View.INSTANCE), types);
            while (reader.loadNextBatch()) {
                List<FieldVector> v = root.getFieldVectors();
                for (int i = 0; i < root.getRowCount(); i++, row++) {
                    Object[] m = model.get(row);
                    for (int c = 0; c < m.length; c++) {
                        assertEquals(m[c] == null, v.get(c).isNull(i), "row " + row + " column " + c);
                    }
                    String at = "row " + row;
                    if (m[0] != null) {
                        assertEquals(m[0], ((BitVector) v.get(0)).get(i) == 1, at);
                    }
                    if (m[1] != null) {
                        assertEquals((int) (Integer) m[1], ((TinyIntVector) v.get(1)).get(i), at);
                    }
                    if (m[2] != null) {
                        assertEquals((int) (Integer) m[2], (int) ((UInt2Vector) v.get(2)).get(i), at);
                    }
                    assertEquals((int) (Integer) m[3], ((IntVector) v.get(3)).get(i), at);
                    if (m[4] != null) {
                        assertEquals((long) (Long) m[4], ((BigIntVector) v.get(4)).get(i), at);
                    }
                    if (m[5] != null) {
                        assertEquals((int) (Integer) m[5], ((DateDayVector) v.get(5)).get(i), at);
                    }
                    if (m[6] != null) {
                        assertEquals((long) (Long) m[6], ((TimeStampMicroTZVector) v.get(6)).get(i), at);
                    }
                    if (m[7] != null) {
                        assertEquals(BigDecimal.valueOf((Long) m[7], 4), ((DecimalVector) v.get(7)).getObject(i), at);
                    }
                    if (m[8] != null) {
                        assertEquals(new BigDecimal((BigInteger) m[8], 10), ((DecimalVector) v.get(8)).getObject(i),
                                at);
                    }
                    if (m[9] != null) {
                        assertEquals((short) (Short) m[9], ((Float2Vector) v.get(9)).get(i), at);
                    }
                    if (m[10] != null) {
                        assertArrayEquals((byte[]) m[10], ((FixedSizeBinaryVector) v.get(10)).get(i), at);
                    }
                    if (m[11] != null) {
                        assertEquals((Double) m[11], ((Float8Vector) v.get(11)).get(i), at);
                    }
                    if (m[12] != null) {
                        assertEquals((2_460_000L - 2_440_588L) * 86_400_000_000L + (Long) m[12] / 1000,
                                ((TimeStampMicroVector) v.get(12)).get(i), at);
                    }
                    if (m[13] != null) {
                        assertEquals(m[13], new String(((ViewVarCharVector) v.get(13)).get(i),
                                StandardCharsets.UTF_8), at);
                    }
                }
            }
        }
        assertEquals(rows, row);

        // cat prints a fixed-width column's values as JSON
        for (int c : new int[] {0, 1, 3, 7, 8, 10, 11, 12}) {
            String name = SCHEMA.getFieldName(c);
            CliTest.Result cat = CliTest.run("cat", parquet.toString(), "--column", name);
            assertEquals(0, cat.status(), cat.err());
            List<String> lines = cat.outLines();
            assertEquals(rows, lines.size(), name);
            for (int r = 0; r < rows; r++) {
                Object m = model.get(r)[c];
                String expected = m == null ? "null" : switch (c) {
                    case 7 -> BigDecimal.valueOf((Long) m, 4).toPlainString();
                    case 8 -> new BigDecimal((BigInteger) m, 10).toPlainString();
                    case 10 -> "\"" + java.util.Base64.getEncoder().encodeToString((byte[]) m) + "\"";
                    case 12 -> Long.toString((2_460_000L - 2_440_588L) * 86_400_000_000L + (Long) m / 1000);
                    default -> m.toString();
                };
                assertEquals(expected, lines.get(r), name + " row " + r);
            }
        }
    }
}
