package dev.stringview.samples.flink;

import dev.stringview.flink.LikeAnyFunction;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * A Flink Table job over a Parquet file of page visits ({@code url STRING, user_id BIGINT}): the stringview
 * connector reads it, runs the prefix filter inside the source, and a {@link LikeAnyFunction} marks the visits
 * that came from a search engine. Returns, per URL scheme prefix kept, the number of visits and of search-engine
 * visits.
 */
public final class SearchEngineReport {
    private SearchEngineReport() {}

    /** Visits to {@code https://} pages: [total, from search engines, distinct users]. */
    public static List<Long> run(TableEnvironment env, String parquetPath) throws Exception {
        env.executeSql("CREATE TEMPORARY TABLE visits (url STRING, user_id BIGINT) WITH ("
                + "'connector' = 'stringview', 'path' = '" + parquetPath + "')");
        env.createTemporarySystemFunction("search_engine", new LikeAnyFunction("%google.%", "%bing.%",
                "%duckduckgo.%"));
        // LIKE 'https://%' is pushed into the source and run on the views; search_engine(url) runs per row.
        TableResult result = env.executeSql("SELECT count(*), count(*) FILTER (WHERE search_engine(url)),"
                + " count(DISTINCT user_id) FROM visits WHERE url LIKE 'https://%'");
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
