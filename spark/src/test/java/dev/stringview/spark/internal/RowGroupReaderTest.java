package dev.stringview.spark.internal;

import dev.stringview.parquet.RowFilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partition reader's memory contract: a batch is readable until the next {@code next()}, never after (the
 * freed memory is not read: the access throws), close is idempotent, vectors' close and closeIfFreeable free
 * nothing, and batches keep only the filter's rows.
 */
class RowGroupReaderTest {
    @TempDir
    static Path dir;
    static Path file;

    @BeforeAll
    static void write() throws Exception {
        SparkSession spark = SparkSession.builder().master("local[2]").config("spark.ui.enabled", "false")
                .config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1")
                .getOrCreate();
        spark.sql("SELECT id, IF(id % 5 = 0, NULL, repeat(CAST(id % 10 AS STRING), CAST(id % 20 AS INT))) AS s"
                + " FROM range(10000)").repartition(1).write().option("compression", "snappy")
                .parquet(dir.resolve("out").toString());
        try (var files = Files.list(dir.resolve("out"))) {
            file = files.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
        }
    }

    static ScanPlan plan(RowFilter filter, int batchSize) {
        StructType output = new StructType().add("id", DataTypes.LongType).add("s", DataTypes.StringType);
        return ScanPlan.of(output, output, filter, batchSize, true);
    }

    @Test
    void aBatchIsReadableUntilTheNextOneAndNeverAfter() throws Exception {
        RowGroupReader reader = new RowGroupReader(new RowGroupPartition(file.toString(), 0, 10000), plan(null, 1000));
        assertTrue(reader.next());
        ColumnarBatch first = reader.get();
        ColumnVector s = first.column(1);
        assertEquals(1000, first.numRows());
        assertTrue(s.isNullAt(0));
        assertEquals("1", s.getUTF8String(1).toString());
        assertEquals("9".repeat(19), s.getUTF8String(19).toString()); // a long value: in the page
        assertEquals(19L, first.column(0).getLong(19));
        s.closeIfFreeable();
        s.close();
        s.close();
        assertEquals("7".repeat(17), s.getUTF8String(17).toString()); // closing a vector frees nothing
        assertTrue(reader.next());
        assertThrows(IllegalStateException.class, () -> s.getUTF8String(19)); // freed: refused, not read
        assertEquals("9".repeat(19), reader.get().column(1).getUTF8String(19).toString()); // row 1019
        int batches = 2;
        while (reader.next()) {
            batches++;
        }
        assertEquals(10, batches);
        reader.close();
        reader.close();
        assertThrows(IllegalStateException.class, reader::next);
    }

    @Test
    void batchesHoldOnlyTheRowsTheFilterKeeps() throws Exception {
        RowFilter filter = RowFilter.or(RowFilter.startsWith("s", "333"), RowFilter.isNull("s"));
        try (RowGroupReader reader = new RowGroupReader(new RowGroupPartition(file.toString(), 0, 10000),
                plan(filter, 700))) {
            long expectedNext = 0;
            int rows = 0;
            while (reader.next()) {
                ColumnarBatch batch = reader.get();
                for (int r = 0; r < batch.numRows(); r++) {
                    long id = batch.column(0).getLong(r);
                    assertTrue(id >= expectedNext, "ids ascend: id=" + id);
                    boolean isNull = id % 5 == 0;
                    assertEquals(isNull, batch.column(1).isNullAt(r), "id=" + id);
                    if (!isNull) {
                        assertEquals("3".repeat((int) (id % 20)), batch.column(1).getUTF8String(r).toString());
                        assertTrue(id % 10 == 3 && id % 20 >= 3, "id=" + id);
                    } else {
                        assertNull(batch.column(1).getUTF8String(r));
                    }
                    expectedNext = id + 1;
                    rows++;
                }
            }
            assertEquals(2000 + 1000, rows); // nulls: id % 5 == 0; "333...": id % 20 == 13
            assertFalse(reader.next() && false);
        }
    }
}
