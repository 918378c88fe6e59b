package dev.stringview.spark;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stringview.parquet.RowFilter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** Which scans the drop-in leaves to Spark's reader because they give views no work. */
class StringWorkTest {
    private static final StructType DATA = new StructType()
            .add("URL", DataTypes.StringType)
            .add("Payload", DataTypes.BinaryType)
            .add("CounterID", DataTypes.IntegerType)
            .add("EventDate", DataTypes.DateType);

    private static StructType only(String... names) {
        StructType out = new StructType();
        for (String name : names) {
            out = out.add(DATA.apply(name));
        }
        return out;
    }

    @Test
    void aStringOrBinaryColumnReturnedIsWork() {
        assertTrue(StringviewFileFormat.stringWork(DATA, only("URL"), null));
        assertTrue(StringviewFileFormat.stringWork(DATA, only("CounterID", "Payload"), null));
    }

    @Test
    void aFilterOnAStringColumnIsWorkEvenWhenOnlyIntegersAreReturned() {
        assertTrue(StringviewFileFormat.stringWork(DATA, only("CounterID"), RowFilter.contains("URL", "google")));
        // Spark may spell the column in another case than the file's schema.
        assertTrue(StringviewFileFormat.stringWork(DATA, only("CounterID"), RowFilter.and(
                RowFilter.compare("CounterID", RowFilter.Op.EQUAL, 62), RowFilter.equalTo("url", ""))));
    }

    @Test
    void fixedWidthColumnsAndFiltersOnlyAreNoWork() {
        assertFalse(StringviewFileFormat.stringWork(DATA, only("CounterID", "EventDate"), null));
        assertFalse(StringviewFileFormat.stringWork(DATA, only("EventDate"),
                RowFilter.compare("CounterID", RowFilter.Op.EQUAL, 62)));
        assertFalse(StringviewFileFormat.stringWork(DATA, new StructType(), null));
    }
}
