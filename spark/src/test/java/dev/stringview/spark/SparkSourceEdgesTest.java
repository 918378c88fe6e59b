package dev.stringview.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stringview.parquet.TestData;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * parquet-testing's files against Spark's own reader, nested columns read by Spark's reader (the fallback), user
 * schemas (column selection, collations) and the V2 functions.
 */
class SparkSourceEdgesTest {
    /** Flat files of parquet-testing: PLAIN, dictionary, DELTA_LENGTH/DELTA_BYTE_ARRAY, v2 pages, codecs, INT96. */
    static final List<String> FLAT_FILES = List.of("alltypes_plain.parquet", "alltypes_dictionary.parquet",
            "delta_length_byte_array.parquet", "delta_byte_array.parquet", "binary.parquet",
            "datapage_v1-snappy-compressed-checksum.parquet", "rle-dict-snappy-checksum.parquet",
            "lz4_raw_compressed.parquet", "dict-page-offset-zero.parquet", "int32_with_null_pages.parquet",
            "int32_decimal.parquet", "int64_decimal.parquet",
            "fixed_length_decimal.parquet", "fixed_length_decimal_legacy.parquet", "int96_from_spark.parquet",
            "alltypes_tiny_pages.parquet", "nulls.snappy.parquet");

    @TempDir
    static Path dir;
    static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = Sessions.local();
    }

    static void sameAnswer(Dataset<Row> ours, Dataset<Row> theirs, String what) {
        assertEquals(Sessions.rows(theirs), Sessions.rows(ours), what);
    }

    @Test
    void parquetTestingFilesEqualSparksOwnReader() {
        Path data = TestData.dataDir();
        for (String name : FLAT_FILES) {
            String file = data.resolve(name).toString();
            Dataset<Row> ours = spark.read().format("stringview").load(file);
            Dataset<Row> theirs = spark.read().parquet(file);
            assertEquals(theirs.schema().simpleString(), ours.schema().simpleString(), name);
            sameAnswer(ours, theirs, name);
        }
    }

    /**
     * DECIMAL on BYTE_ARRAY: Spark 4.2's vectorized reader fails on this file (a NullPointerException in its binary
     * decimal updater), so the peer is its parquet-mr row reader; this reader then hands over rows (as
     * {@code UnsafeRow}s, which Spark then expects).
     */
    @Test
    void byteArrayDecimalsEqualSparksRowReader() {
        String file = TestData.dataDir().resolve("byte_array_decimal.parquet").toString();
        spark.conf().set("spark.sql.parquet.enableVectorizedReader", "false");
        try {
            Dataset<Row> ours = spark.read().format("stringview").load(file);
            assertEquals("struct<value:decimal(4,2)>", ours.schema().simpleString());
            sameAnswer(ours, spark.read().parquet(file), "byte_array_decimal");
            Sessions.withCodegen(() -> sameAnswer(ours, spark.read().parquet(file), "byte_array_decimal, codegen"));
        } finally {
            spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
        }
    }

    /**
     * Every flat type Spark writes, in each of its timestamp encodings (INT96, INT64 micros and millis) and both
     * decimal encodings (INT32/INT64/FIXED_LEN_BYTE_ARRAY, and the legacy FIXED_LEN_BYTE_ARRAY for all), with
     * nulls, extremes and instants before the epoch, read whole and through a string filter that keeps some rows
     * of each batch: equal to Spark's own reader.
     */
    @Test
    void everyFlatTypeEqualsSparksOwnReader() {
        String select = "SELECT id, CAST(id % 7 AS STRING) AS s,"
                + " CASE WHEN id % 5 = 0 THEN NULL ELSE id % 2 = 0 END AS bo,"
                + " CASE WHEN id % 6 = 0 THEN NULL ELSE CAST(id % 256 - 128 AS BYTE) END AS by,"
                + " CAST(element_at(array(-32768, 32767, 0, -1, 17), CAST(id % 5 + 1 AS INT)) AS SHORT) AS sh,"
                + " CASE WHEN id % 4 = 0 THEN NULL ELSE CAST(id * 2654435761 % 4294967296 - 2147483648 AS INT) END"
                + " AS i,"
                + " element_at(array(-9223372036854775808, 9223372036854775807, 0, -1), CAST(id % 4 + 1 AS INT)) * 1"
                + " AS l,"
                + " CASE WHEN id % 3 = 0 THEN NULL ELSE CAST(id AS FLOAT) / 7 END AS f,"
                + " element_at(array(CAST('NaN' AS DOUBLE), -0.0d, 1e308d, -1e-300d, 2.5d), CAST(id % 5 + 1 AS INT))"
                + " AS d,"
                + " CASE WHEN id % 7 = 0 THEN NULL ELSE date_add(DATE'1900-01-01', CAST(id * 37 % 150000 AS INT)) END"
                + " AS dt,"
                + " CASE WHEN id % 8 = 0 THEN NULL ELSE timestamp_micros(id * 98765432123457 % 8000000000000000"
                + " - 3000000000000000) END AS ts,"
                + " timestamp_micros(element_at(array(-1, 0, 1, -86400000001, 253402300799999999),"
                + " CAST(id % 5 + 1 AS INT))) AS ts_edge,"
                + " CAST(timestamp_micros(id * 1234567891 - 600000000000) AS TIMESTAMP_NTZ) AS ntz,"
                + " CASE WHEN id % 9 = 0 THEN NULL ELSE CAST((id - 500) * 1234567 / 100 AS DECIMAL(9,2)) END AS d9,"
                + " CAST(element_at(array(-99999999999999.9999, 99999999999999.9999, 0, -0.0001),"
                + " CAST(id % 4 + 1 AS INT)) AS DECIMAL(18,4)) AS d18,"
                + " CASE WHEN id % 10 = 0 THEN NULL ELSE CAST(CAST(id - 500 AS DECIMAL(20,0))"
                + " * CAST(98765432109876543 AS DECIMAL(18,0)) AS DECIMAL(38,6)) END AS d38,"
                + " CAST(element_at(array(-9999999999999999999999999999999999999,"
                + " 99999999999999999999999999999999999999, 1), CAST(id % 3 + 1 AS INT)) AS DECIMAL(38,0)) AS d38max"
                + " FROM range(1000)";
        String[][] writes = {
            {"INT96", "false"}, {"TIMESTAMP_MICROS", "false"}, {"TIMESTAMP_MILLIS", "false"}, {"INT96", "true"},
        };
        for (String[] w : writes) {
            Path file = dir.resolve("flat-" + w[0] + "-" + w[1]);
            String what = "outputTimestampType=" + w[0] + " writeLegacyFormat=" + w[1];
            spark.conf().set("spark.sql.parquet.outputTimestampType", w[0]);
            spark.conf().set("spark.sql.parquet.writeLegacyFormat", w[1]);
            try {
                spark.sql(select).repartition(1).write().option("parquet.block.size", "16384")
                        .parquet(file.toString());
            } finally {
                spark.conf().unset("spark.sql.parquet.outputTimestampType");
                spark.conf().unset("spark.sql.parquet.writeLegacyFormat");
            }
            Dataset<Row> ours = spark.read().format("stringview").option("batchSize", "100").load(file.toString());
            Dataset<Row> theirs = spark.read().parquet(file.toString());
            assertEquals(theirs.schema().simpleString(), ours.schema().simpleString(), what);
            sameAnswer(ours, theirs, what);
            sameAnswer(ours.where("s IN ('1', '4', '6')"), theirs.where("s IN ('1', '4', '6')"), what + " filtered");
            sameAnswer(ours.where("s = '3'").select("ts", "d38", "bo", "l"),
                    theirs.where("s = '3'").select("ts", "d38", "bo", "l"), what + " filtered, projected");
            if (w[0].equals("INT96")) { // comparisons on the fixed-width columns, pushed into the scan
                ours.createOrReplaceTempView("sv_flat");
                theirs.createOrReplaceTempView("pq_flat");
                for (String where : List.of("bo", "NOT bo", "bo = false", "by < -100Y", "by IN (0Y, -128Y, 127Y, NULL)",
                        "sh >= 0S", "i > 0 AND i <= 1000000000", "l = -9223372036854775807L - 1L", "l <> 0L",
                        "f > 20.5F", "d > 1.0D", "d = CAST('NaN' AS DOUBLE)", "d <= -0.0D", "d IN (0.0D, 2.5D)",
                        "dt < DATE'1970-01-01'", "dt IN (DATE'1900-01-01', DATE'1900-02-07')",
                        "d9 > CAST(100.5 AS DECIMAL(9,2))", "d9 = CAST(0 AS DECIMAL(9,2))",
                        "d18 < CAST(0 AS DECIMAL(18,4))", "d38 >= CAST('1000000000000000000000.5' AS DECIMAL(38,6))",
                        "d38max = 99999999999999999999999999999999999999",
                        "NOT (d9 > CAST(0 AS DECIMAL(9,2)) OR s = '1')", "i IS NULL", "ts IS NOT NULL",
                        "d9 IN (CAST(-6172.83 AS DECIMAL(9,2)), CAST(6172.83 AS DECIMAL(9,2)), NULL)",
                        "NOT (i IN (1, NULL))")) {
                    String sql = "SELECT id, s, bo, i, d, d9, d38 FROM sv_flat WHERE " + where;
                    sameAnswer(spark.sql(sql), spark.sql(sql.replace("sv_flat", "pq_flat")), what + " " + where);
                }
                // Timestamps are left to Spark (a TIMESTAMP(MILLIS) column is in another unit): same answer.
                String sql = "SELECT id FROM sv_flat WHERE ts > TIMESTAMP'1990-01-01 00:00:00'";
                sameAnswer(spark.sql(sql), spark.sql(sql.replace("sv_flat", "pq_flat")), what + " timestamp");
            }
        }
    }

    /** Files and columns this reader does not read are read by Spark's own reader: the same answers. */
    @Test
    void nestedAndOtherUnreadColumnsFallBackToSparksReader() {
        for (String name : List.of("nested_structs.rust.parquet", "datapage_v2.snappy.parquet",
                "fixed_length_byte_array.parquet", "list_columns.parquet")) {
            String file = TestData.dataDir().resolve(name).toString();
            sameAnswer(spark.read().format("stringview").load(file), spark.read().parquet(file), name);
        }
        // datapage_v2: a STRING, b INT, c DOUBLE, d BOOLEAN, e ARRAY<INT>; without e, this reader reads the rest.
        String v2 = TestData.dataDir().resolve("datapage_v2.snappy.parquet").toString();
        sameAnswer(spark.read().format("stringview").load(v2).select("a", "b", "d"),
                spark.read().parquet(v2).select("a", "b", "d"), "datapage_v2 without its list column");
        sameAnswer(spark.read().format("stringview").schema("a STRING, b INT, d BOOLEAN").load(v2),
                spark.read().parquet(v2).select("a", "b", "d"), "datapage_v2 with a user schema");
    }

    @Test
    void collatedColumnsLeaveTheirPredicatesToSpark() {
        Path file = dir.resolve("collation");
        spark.sql("SELECT * FROM VALUES ('abcd'), ('ABCD'), ('Abcd '), ('x'), (NULL) AS t(s)").repartition(1)
                .write().parquet(file.toString());
        String schema = "s STRING COLLATE UTF8_LCASE";
        spark.read().format("stringview").schema(schema).load(file.toString()).createOrReplaceTempView("sv_lcase");
        spark.read().schema(schema).parquet(file.toString()).createOrReplaceTempView("pq_lcase");
        for (String where : List.of("s = 'abcd'", "s LIKE 'ab%'", "s IN ('ABCD', 'y')", "s > 'ABC'")) {
            String ours = "SELECT s FROM sv_lcase WHERE " + where;
            sameAnswer(spark.sql(ours), spark.sql("SELECT s FROM pq_lcase WHERE " + where), where);
        }
        assertEquals(List.of("[ABCD]", "[abcd]"), Sessions.rows(spark.sql("SELECT s FROM sv_lcase WHERE s = 'Abcd'")));
    }

    /**
     * As filters over this reader, and row at a time in the select list with Spark's code generation on there (as
     * in production): the functions' static invoke is then called from generated code.
     */
    @Test
    void functionsGiveLikeAnysAnswersPushedOrNot() {
        Path file = dir.resolve("functions");
        spark.sql("SELECT id, CASE WHEN id % 9 = 0 THEN NULL ELSE concat(element_at(array('abc', 'xbcx', 'aXc',"
                + " 'éclair', 'abcdefghijklm', 'zz', ''), CAST(id % 7 + 1 AS INT)), CAST(id AS STRING)) END AS s"
                + " FROM range(2000)").repartition(1).write().parquet(file.toString());
        spark.read().format("stringview").load(file.toString()).createOrReplaceTempView("sv_fn");
        spark.read().parquet(file.toString()).createOrReplaceTempView("pq_fn");
        String[][] cases = {
            {"sv.fn.like_any(s, array('%bc%', 'a_c%', 'é%'))", "s LIKE ANY ('%bc%', 'a_c%', 'é%')"},
            {"sv.fn.like_any(s, array('%1', NULL))", "s LIKE ANY ('%1', NULL)"},
            {"NOT sv.fn.like_any(s, array('%1', NULL))", "NOT s LIKE ANY ('%1', NULL)"},
            {"sv.fn.like_any(s, array('abcdefghijklm%'))", "s LIKE 'abcdefghijklm%'"},
            {"sv.fn.starts_with_any(s, array('éc', 'zz1'))", "startswith(s, 'éc') OR startswith(s, 'zz1')"},
            {"NOT sv.fn.starts_with_any(s, array('a'))", "NOT startswith(s, 'a')"},
        };
        for (String[] c : cases) {
            String pushed = "SELECT id, s FROM sv_fn WHERE " + c[0];
            sameAnswer(spark.sql(pushed), spark.sql("SELECT id, s FROM pq_fn WHERE " + c[1]), c[0]);
            // The row-at-a-time path: the function in the select list, over Spark's own reader.
            Sessions.withCodegen(() -> sameAnswer(spark.sql("SELECT id, " + c[0] + " FROM pq_fn"),
                    spark.sql("SELECT id, " + c[1] + " FROM pq_fn"), "row path: " + c[0]));
        }
    }
}
