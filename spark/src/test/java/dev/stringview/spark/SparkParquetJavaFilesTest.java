package dev.stringview.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.NanoTime;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written by parquet-java (not by Spark: no Spark metadata in the footer) with the flat types Spark reads
 * that Spark itself does not write: unsigned integers (UINT_64 as DECIMAL(20,0)), INT(8/16), TIMESTAMP(MILLIS)
 * and TIMESTAMP_NTZ written directly, DECIMAL on BYTE_ARRAY and on a 9-byte FIXED_LEN_BYTE_ARRAY, INT96; with nulls and
 * the 12/13-byte string edges. Read through {@code format("stringview")} and compared with Spark's reader, in
 * batches and in rows; and dates and timestamps before the Gregorian switch under each of Spark's rebase modes.
 */
class SparkParquetJavaFilesTest {
    static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message m {"
            + " required int64 id;"
            + " optional binary s (STRING);"
            + " optional int32 u8 (INTEGER(8,false));"
            + " optional int32 u16 (INTEGER(16,false));"
            + " optional int32 u32 (INTEGER(32,false));"
            + " optional int64 u64 (INTEGER(64,false));"
            + " optional int32 i8 (INTEGER(8,true));"
            + " optional int32 i16 (INTEGER(16,true));"
            + " optional int64 ts_millis (TIMESTAMP(MILLIS,true));"
            + " optional int64 ntz (TIMESTAMP(MICROS,false));"
            + " optional int96 ts96;"
            + " optional int32 dt (DATE);"
            + " optional binary dec_bin (DECIMAL(20,3));"
            + " optional fixed_len_byte_array(9) dec_fixed (DECIMAL(20,2));"
            + " optional int32 dec32 (DECIMAL(9,2));"
            + " optional int64 dec64 (DECIMAL(18,4));"
            + " optional float f;"
            + " optional double d;"
            + " optional boolean b;"
            + "}");

    static final String[] STRINGS = {"", "a", "abcdefghijk", "abcdefghijkl", "abcdefghijklm", "héllo wörld",
        "http://www.google.com/search?q=1", "日本語のテキスト"};

    @TempDir
    static Path dir;
    static SparkSession spark;
    static Path modern;
    static Path old;

    @BeforeAll
    static void write() throws IOException {
        spark = Sessions.local();
        modern = dir.resolve("modern.parquet");
        old = dir.resolve("old.parquet");
        write(modern, 3000, false);
        write(old, 200, true);
    }

    /** {@code beforeSwitch}: dates and timestamps in the years 1000..1500. */
    static void write(Path path, int rows, boolean beforeSwitch) throws IOException {
        Random random = new Random(29);
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(path))
                .withConf(new PlainParquetConfiguration()).withType(SCHEMA)
                .withCompressionCodec(CompressionCodecName.UNCOMPRESSED).withRowGroupSize(32 * 1024)
                .withPageSize(4096).withDictionaryEncoding(rows > 1000).build()) {
            for (int r = 0; r < rows; r++) {
                Group g = groups.newGroup();
                g.add("id", (long) r);
                boolean nulls = r % 9 == 4;
                if (!nulls) {
                    g.add("s", STRINGS[random.nextInt(STRINGS.length)] + (r % 3 == 0 ? "" : String.valueOf(r % 50)));
                    g.add("u8", r % 256);
                    g.add("u16", (r * 257) % 65536);
                    g.add("u32", (int) (r * 2654435761L)); // above 2^31 as unsigned
                    g.add("u64", r * -7046029254386353131L); // above 2^63 as unsigned
                    g.add("i8", r % 256 - 128);
                    g.add("i16", (r * 131) % 65536 - 32768);
                    long day = beforeSwitch ? -300_000 + random.nextInt(150_000) : random.nextInt(30_000) - 5_000;
                    long micros = day * 86_400_000_000L + random.nextInt(86_400) * 1_000_000L + r;
                    g.add("ts_millis", Math.floorDiv(micros, 1000L));
                    g.add("ntz", micros);
                    long julianDay = day + 2_440_588;
                    g.add("ts96", new NanoTime((int) julianDay, Math.floorMod(micros, 86_400_000_000L) * 1000L));
                    g.add("dt", (int) day);
                    BigInteger unscaled = BigInteger.valueOf(random.nextLong()).multiply(BigInteger.valueOf(r % 5 - 2));
                    g.add("dec_bin", Binary.fromConstantByteArray(unscaled.toByteArray()));
                    g.add("dec_fixed", Binary.fromConstantByteArray(fixed(unscaled, 9)));
                    g.add("dec32", random.nextInt(1_999_999_999) - 999_999_999);
                    g.add("dec64", random.nextLong() % 1_000_000_000_000_000_000L);
                    g.add("f", random.nextFloat() * 100 - 50);
                    g.add("d", r % 17 == 0 ? Double.NaN : random.nextGaussian());
                    g.add("b", random.nextBoolean());
                }
                writer.write(g);
            }
        }
    }

    /** {@code value} as {@code width} big-endian two's complement bytes. */
    static byte[] fixed(BigInteger value, int width) {
        byte[] bytes = value.toByteArray();
        byte[] out = new byte[width];
        byte fill = (byte) (value.signum() < 0 ? 0xFF : 0);
        java.util.Arrays.fill(out, fill);
        System.arraycopy(bytes, Math.max(0, bytes.length - width), out, Math.max(0, width - bytes.length),
                Math.min(width, bytes.length));
        return out;
    }

    static void sameAnswer(Dataset<Row> ours, Dataset<Row> theirs, String what) {
        assertEquals(theirs.schema().simpleString(), ours.schema().simpleString(), what);
        List<String> expected = Sessions.rows(theirs);
        assertEquals(expected, Sessions.rows(ours), what + " (rows)");
        Sessions.withCodegen(() -> assertEquals(expected, Sessions.rows(ours), what + " (batches)"));
    }

    @Test
    void everyFlatTypeEqualsSparksReader() {
        String path = modern.toString();
        Dataset<Row> ours = spark.read().format("stringview").option("batchSize", "100").load(path);
        Dataset<Row> theirs = spark.read().parquet(path);
        assertTrue(theirs.schema().simpleString().contains("u64:decimal(20,0)"), theirs.schema().simpleString());
        sameAnswer(ours, theirs, "every column");
        for (String where : List.of("s IN ('abcdefghijkl', 'abcdefghijklm1')", "u8 > 200", "i8 < -100 OR i16 > 30000",
                "dec_bin > 0 AND s LIKE 'h%'", "dec32 = 0 OR dec64 < 0", "dt > DATE'1990-01-01'", "NOT (b AND f > 0)",
                "u32 IS NULL")) {
            sameAnswer(ours.where(where), theirs.where(where), where);
        }
    }

    /**
     * Before the switch, Spark's rebase mode decides (these files carry no Spark metadata, so the setting does):
     * LEGACY rebases, CORRECTED reads as stored, EXCEPTION fails, with this reader as with Spark's.
     */
    @Test
    void datesBeforeTheSwitchFollowSparksRebaseModes() {
        String path = old.toString();
        for (String mode : List.of("LEGACY", "CORRECTED")) {
            Dataset<Row> ours = spark.read().format("stringview").option("datetimeRebaseMode", mode)
                    .option("int96RebaseMode", mode).load(path).select("id", "ts_millis", "ts96", "dt", "ntz");
            Dataset<Row> theirs = spark.read().option("datetimeRebaseMode", mode).option("int96RebaseMode", mode)
                    .parquet(path).select("id", "ts_millis", "ts96", "dt", "ntz");
            sameAnswer(ours, theirs, mode);
        }
        for (String column : List.of("ts_millis", "ts96", "dt")) {
            String mode = column.equals("ts96") ? "int96RebaseMode" : "datetimeRebaseMode";
            Exception theirs = assertThrows(Exception.class, () -> spark.read().option(mode, "EXCEPTION")
                    .parquet(path).select(column).collect());
            Exception ours = assertThrows(Exception.class, () -> spark.read().format("stringview")
                    .option(mode, "EXCEPTION").load(path).select(column).collect());
            assertTrue(String.valueOf(ours.getMessage()).contains("INCONSISTENT_BEHAVIOR_CROSS_VERSION"),
                    column + ": " + ours + " (Spark's: " + theirs + ")");
        }
    }
}
