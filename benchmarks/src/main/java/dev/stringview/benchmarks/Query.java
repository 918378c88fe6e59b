package dev.stringview.benchmarks;

import dev.stringview.ViewColumn;
import dev.stringview.ViewPredicate;
import dev.stringview.ViewPredicates;
import dev.stringview.parquet.ParquetScan;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.RowFilter;
import dev.stringview.parquet.ViewBatch;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code SELECT count(*) FROM file WHERE column <op> constant} for one string column, run by each engine:
 * this library (views from {@code stringview-parquet}), parquet-java's standard path decoding each value to a
 * {@code String} or copying it to a {@code byte[]}, and DuckDB through JDBC.
 *
 * @param name short name, used as a JMH parameter and in reports
 * @param column the column filtered
 * @param kind contains ({@code LIKE '%c%'}), equality, or prefix ({@code LIKE 'c%'})
 * @param constant the constant
 */
record Query(String name, String column, Kind kind, String constant) {
    enum Kind { CONTAINS, EQUAL, PREFIX }

    Query {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(constant, "constant");
    }

    /** ClickBench Q20: {@code count(*) WHERE URL LIKE '%google%'}. */
    static final Query Q20 = new Query("q20Contains", "URL", Kind.CONTAINS, "google");
    static final Query EQUALITY = new Query("equality", "URL", Kind.EQUAL, HitsGenerator.EQUAL_URL);
    static final Query PREFIX = new Query("prefix", "URL", Kind.PREFIX, HitsGenerator.PREFIX_URL);

    static Query of(String name) {
        return switch (name) {
            case "q20Contains" -> Q20;
            case "equality" -> EQUALITY;
            case "prefix" -> PREFIX;
            default -> throw new IllegalArgumentException("unknown query: query=" + name
                    + " expected=q20Contains|equality|prefix");
        };
    }

    /** The query as SQL over {@code file}. */
    String sql(Path file) {
        String pattern = switch (kind) {
            case CONTAINS -> "LIKE '%" + escapeLike(constant) + "%'";
            case EQUAL -> "= '" + constant.replace("'", "''") + "'";
            case PREFIX -> "LIKE '" + escapeLike(constant) + "%'";
        };
        String escape = constant.contains("%") || constant.contains("_") || constant.contains("\\") ? " ESCAPE '\\'"
                : "";
        return "SELECT count(*) FROM " + readParquet(file) + " WHERE " + quotedIdentifier(column) + " " + pattern
                + escape;
    }

    /** DuckDB's table function over {@code file}, quoted for SQL. */
    static String readParquet(Path file) {
        return "read_parquet('" + file.toAbsolutePath().toString().replace("'", "''") + "')";
    }

    /** {@code name} as a quoted SQL identifier. */
    static String quotedIdentifier(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private static String escapeLike(String s) {
        return s.replace("'", "''").replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    /** The compiled predicate of this library. */
    ViewPredicate predicate() {
        return switch (kind) {
            case CONTAINS -> ViewPredicates.contains(constant);
            case EQUAL -> ViewPredicates.equalTo(constant);
            case PREFIX -> ViewPredicates.startsWith(constant);
        };
    }

    // ----------------------------------------------------------------------------------------- engines

    /**
     * This library: each batch's column as views (no string bytes copied where the encoding allows), then the
     * kernel. Batch-scoped memory, as a scan in an engine would read: each batch and its pages are freed once the
     * next batch is read, as parquet-java and DuckDB free theirs.
     */
    long countViews(Path file) throws IOException {
        ViewPredicate predicate = predicate();
        long count = 0;
        try (Arena arena = Arena.ofConfined(); ParquetViewReader reader = ParquetViewReader.open(file, arena,
                viewOptions(column))) {
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                ViewColumn values = batch.column(0);
                count += predicate.count(values);
            }
        }
        return count;
    }

    /**
     * This library over any source: {@link #countViews(Path)}'s loop, reading each row group's chunk from
     * {@code source} (the next ones on {@code prefetch} while one is decoded, if not null).
     */
    long countViews(dev.stringview.parquet.ParquetSource source, java.util.concurrent.Executor prefetch)
            throws IOException {
        ViewPredicate predicate = predicate();
        long count = 0;
        try (Arena arena = Arena.ofConfined(); ParquetViewReader reader = ParquetViewReader.open(source, arena,
                viewOptions(column).withPrefetch(prefetch))) {
            for (ViewBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                count += predicate.count(batch.column(0));
            }
        }
        return count;
    }

    /** {@link #countParquetJavaBytes(Path)} over any parquet-java {@code InputFile}, read with {@code options}. */
    long countParquetJavaBytes(org.apache.parquet.io.InputFile file, org.apache.parquet.ParquetReadOptions options)
            throws IOException {
        BytesCounter counter = new BytesCounter(this);
        ParquetFiles.scan(file, options, column, counter);
        return counter.count;
    }

    /** The predicate as a scan filter: equality and prefix let statistics and bloom filters skip row groups. */
    RowFilter filter() {
        return switch (kind) {
            case CONTAINS -> RowFilter.contains(column, constant);
            case EQUAL -> RowFilter.equalTo(column, constant);
            case PREFIX -> RowFilter.startsWith(column, constant);
        };
    }

    /** The benchmarks' one pool for scans, made once (the library makes none); daemon threads. */
    private static final ExecutorService SCAN_POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "benchmark-scan");
        t.setDaemon(true);
        return t;
    });

    /**
     * This library's parallel scan ({@code ParquetScan}) on {@code threads} threads: row groups skipped by their
     * metadata, the rest split into row groups or page ranges, each read with batch-scoped memory.
     */
    long countScan(Path file, int threads) throws IOException {
        return countScan(file, threads, java.util.function.UnaryOperator.identity());
    }

    /** {@link #countScan(Path, int)} with {@code variant} applied to the scan (switches of {@code ScanSwitches}). */
    long countScan(Path file, int threads, java.util.function.UnaryOperator<ParquetScan> variant) throws IOException {
        return variant.apply(ParquetScan.of(file).withExecutor(threads == 1 ? null : SCAN_POOL, threads))
                .count(filter());
    }

    /** How the views read {@code column} for a query: that column only, batch-scoped memory. */
    static ParquetViewOptions viewOptions(String column) {
        return ParquetViewOptions.defaults().withColumns(column).withBatchScopedMemory(true);
    }

    /** parquet-java's standard path, each value decoded to a {@code String} ({@code Binary.toStringUsingUTF8}). */
    long countParquetJavaString(Path file) throws IOException {
        StringCounter counter = new StringCounter(this);
        ParquetFiles.scan(file, column, counter);
        return counter.count;
    }

    /** parquet-java's standard path, each value copied to a {@code byte[]} ({@code Binary.getBytes}). */
    long countParquetJavaBytes(Path file) throws IOException {
        BytesCounter counter = new BytesCounter(this);
        ParquetFiles.scan(file, column, counter);
        return counter.count;
    }

    /** DuckDB through JDBC on {@code connection} (the caller sets {@code threads}). */
    long countDuckDb(Connection connection, Path file) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql(file))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static final class StringCounter implements ParquetFiles.BinaryVisitor {
        final Kind kind;
        final String constant;
        long count;

        StringCounter(Query query) {
            this.kind = query.kind;
            this.constant = query.constant;
        }

        @Override
        public void value(org.apache.parquet.io.api.Binary value) {
            if (value == null) {
                return;
            }
            String s = value.toStringUsingUTF8();
            boolean match = switch (kind) {
                case CONTAINS -> s.contains(constant);
                case EQUAL -> s.equals(constant);
                case PREFIX -> s.startsWith(constant);
            };
            if (match) {
                count++;
            }
        }
    }

    private static final class BytesCounter implements ParquetFiles.BinaryVisitor {
        final Kind kind;
        final byte[] constant;
        long count;

        BytesCounter(Query query) {
            this.kind = query.kind;
            this.constant = query.constant.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public void value(org.apache.parquet.io.api.Binary value) {
            if (value == null) {
                return;
            }
            byte[] b = value.getBytes();
            int k = constant.length;
            boolean match = switch (kind) {
                case CONTAINS -> b.length >= k && Search.indexOf(b, constant) >= 0;
                case EQUAL -> Arrays.equals(b, constant);
                case PREFIX -> b.length >= k && Arrays.equals(b, 0, k, constant, 0, k);
            };
            if (match) {
                count++;
            }
        }
    }
}
