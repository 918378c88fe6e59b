package dev.stringview.spark;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * One shared local[2] session for the test classes (starting Spark costs seconds), and result helpers. The session
 * has the drop-in ({@link StringviewExtensions}) installed but turned off ({@code spark.stringview.enabled=false}),
 * so that {@code spark.read.parquet} is Spark's own reader unless a test turns it on ({@link #withDropIn}).
 */
final class Sessions {
    private static SparkSession spark;

    private Sessions() {}

    static synchronized SparkSession local() {
        if (spark == null) {
            spark = SparkSession.builder().master("local[2]").appName("stringview-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "2")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.sql.session.timeZone", "UTC")
                    .config("spark.sql.catalog.sv", StringviewCatalog.class.getName())
                    .config("spark.sql.extensions", StringviewExtensions.class.getName())
                    .config(StringviewExtensions.ENABLED, "false")
                    // Most tests run many small queries: compiling each costs more than running it interpreted.
                    .config("spark.sql.codegen.wholeStage", "false")
                    .config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
                    .getOrCreate();
        }
        return spark;
    }

    /** Runs {@code action} with whole-stage code generation on, as Spark runs by default. */
    static synchronized void withCodegen(Runnable action) {
        SparkSession session = local();
        session.conf().set("spark.sql.codegen.wholeStage", "true");
        session.conf().set("spark.sql.codegen.factoryMode", "FALLBACK");
        try {
            action.run();
        } finally {
            session.conf().set("spark.sql.codegen.wholeStage", "false");
            session.conf().set("spark.sql.codegen.factoryMode", "NO_CODEGEN");
        }
    }

    /** Runs {@code action} with the drop-in on: Spark's Parquet scans read through stringview. */
    static synchronized void withDropIn(Runnable action) {
        SparkSession session = local();
        session.conf().set(StringviewExtensions.ENABLED, "true");
        try {
            action.run();
        } finally {
            session.conf().set(StringviewExtensions.ENABLED, "false");
        }
    }

    /** The executed plan's text (with adaptive execution's final plan once it ran). */
    static String plan(Dataset<Row> df) {
        return df.queryExecution().executedPlan().toString();
    }

    /** Rows rendered canonically (binary as hex, not as an array's identity) and sorted. */
    static List<String> rows(Dataset<Row> df) {
        List<String> out = new ArrayList<>();
        for (Row row : df.collectAsList()) {
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < row.size(); i++) {
                Object v = row.get(i);
                sb.append(i == 0 ? "" : ", ").append(v instanceof byte[] b ? "0x" + HexFormat.of().formatHex(b) : v);
            }
            out.add(sb.append(']').toString());
        }
        out.sort(null);
        return out;
    }
}
