package dev.stringview.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.SplittableRandom;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * A ClickBench-shaped {@code hits} table written by Spark itself: the hits-like string columns of
 * {@link HitsGenerator} (URL, Referer, Title, SearchPhrase, BrowserCountry) plus typed columns as ClickBench has
 * them ({@code UserID} BIGINT, {@code CounterID} INT, {@code RegionID} INT, {@code EventDate} DATE,
 * {@code EventTime} TIMESTAMP, {@code IsRefresh} and {@code DontCountHits} SMALLINT) and a DECIMAL
 * ({@code Revenue} DECIMAL(12,2)). Row {@code r} depends only on {@code r}; nulls appear in {@code Revenue} only
 * (ClickBench's columns are NOT NULL). Cached in {@code benchmarks/target/bench-data/clickbench-<codec>-<rows>/}.
 */
final class ClickBenchTable {
    private ClickBenchTable() {}

    /** Bump when the generated data changes, so cached tables are written again. */
    static final int VERSION = 1;

    static final StructType SCHEMA = new StructType()
            .add("URL", DataTypes.StringType, false)
            .add("Referer", DataTypes.StringType, false)
            .add("Title", DataTypes.StringType, false)
            .add("SearchPhrase", DataTypes.StringType, false)
            .add("BrowserCountry", DataTypes.StringType, false)
            .add("UserID", DataTypes.LongType, false)
            .add("CounterID", DataTypes.IntegerType, false)
            .add("RegionID", DataTypes.IntegerType, false)
            .add("EventDate", DataTypes.DateType, false)
            .add("EventTime", DataTypes.TimestampType, false)
            .add("IsRefresh", DataTypes.ShortType, false)
            .add("DontCountHits", DataTypes.ShortType, false)
            .add("Revenue", DataTypes.createDecimalType(12, 2), true);

    /** ClickBench's month: every EventDate lies in July 2013. */
    static final LocalDate FIRST_DAY = LocalDate.of(2013, 7, 1);

    /**
     * The table's directory for {@code codec} ({@code uncompressed} or {@code snappy}) and {@code rows}, written
     * by {@code session} when missing: two files (two tasks), row groups of 32 MiB, Spark's default page size.
     */
    static Path path(SparkSession session, String codec, int rows) {
        Path dir = Locations.benchData().resolve("clickbench-v" + VERSION + "-" + codec + "-" + rows);
        if (Files.isDirectory(dir) && Files.exists(dir.resolve("_SUCCESS"))) {
            return dir;
        }
        try {
            Files.createDirectories(dir.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the bench-data directory: dir=" + dir.getParent(), e);
        }
        System.err.println("ClickBenchTable: writing " + rows + " rows with " + codec + " to " + dir);
        session.range(0, rows, 1, 2)
                .map((MapFunction<Long, Row>) ClickBenchTable::row, Encoders.row(SCHEMA))
                .write().mode("overwrite")
                .option("compression", codec)
                .option("parquet.block.size", Integer.toString(32 << 20))
                .parquet(dir.toString());
        return dir;
    }

    /** Row {@code r}: the hits-like strings of row {@code r} and typed values drawn from the same seed. */
    static Row row(long r) {
        String[] strings = new HitsGenerator().row(r);
        SplittableRandom random = new SplittableRandom(HitsGenerator.SEED ^ ~(r * 0xD6E8_FEB8_6659_FD93L));
        long userId = 1_000_000_000L + skewed(random, 200_000) * 7919L;
        int counterId = random.nextInt(100) < 30 ? 62 : 1 + skewed(random, 5_000);
        int regionId = 1 + skewed(random, 300);
        int day = random.nextInt(31);
        LocalDate date = FIRST_DAY.plusDays(day);
        long secondOfDay = random.nextInt(86_400);
        Timestamp time = Timestamp.valueOf(date.atStartOfDay().plusSeconds(secondOfDay));
        short isRefresh = (short) (random.nextInt(10) == 0 ? 1 : 0);
        short dontCount = (short) (random.nextInt(20) == 0 ? 1 : 0);
        BigDecimal revenue = random.nextInt(4) == 0 ? null : BigDecimal.valueOf(random.nextLong(10_000_000L), 2);
        return RowFactory.create(strings[0], strings[1], strings[2], strings[3], strings[4], userId, counterId,
                regionId, Date.valueOf(date), time, isRefresh, dontCount, revenue);
    }

    /** A value in {@code [0, n)}, small values far more often (about Zipf-like). */
    private static int skewed(SplittableRandom random, int n) {
        double u = random.nextDouble();
        return (int) Math.min(n - 1, Math.floor(Math.pow(n, u * u) - 1));
    }
}
