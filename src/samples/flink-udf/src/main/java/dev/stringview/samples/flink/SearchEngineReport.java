package dev.stringview.samples.flink;

import dev.stringview.flink.LikeAnyFunction;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * A Flink Table job over a directory of page visits partitioned by day ({@code dt=2024-01-01/...parquet}, columns
 * {@code url STRING, user_id BIGINT}): Flink's filesystem connector lists the partitions and prunes those the query
 * does not need, the {@code stringview-parquet} format reads the files and runs the prefix filter on the views, and
 * a {@link LikeAnyFunction} marks the visits that came from a search engine.
 */
public final class SearchEngineReport {
    private SearchEngineReport() {}

    /**
     * Visits to {@code https://} pages on {@code fromDay} and later: [total, from search engines, distinct users].
     *
     * @param tablePath the table's directory: a local path or any URI Flink's file systems serve ({@code hdfs://},
     *     {@code s3://} ...)
     */
    public static List<Long> run(TableEnvironment env, String tablePath, String fromDay) throws Exception {
        env.executeSql("CREATE TEMPORARY TABLE visits (url STRING, user_id BIGINT, dt STRING)"
                + " PARTITIONED BY (dt) WITH ('connector' = 'filesystem', 'path' = '" + tablePath + "',"
                + " 'format' = 'stringview-parquet')");
        env.createTemporarySystemFunction("search_engine", new LikeAnyFunction("%google.%", "%bing.%",
                "%duckduckgo.%"));
        // dt >= ... prunes partition directories; LIKE 'https://%' is handed to the format and run on the views;
        // search_engine(url) runs per row on the rows that pass.
        TableResult result = env.executeSql("SELECT count(*), count(*) FILTER (WHERE search_engine(url)),"
                + " count(DISTINCT user_id) FROM visits WHERE url LIKE 'https://%' AND dt >= '" + fromDay + "'");
        List<Long> out = new ArrayList<>();
        try (CloseableIterator<Row> rows = result.collect()) {
            Row row = rows.next();
            for (int i = 0; i < row.getArity(); i++) {
                out.add(((Number) row.getField(i)).longValue());
            }
        }
        return out;
    }
}
