package dev.stringview.parquet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveComparator;

/**
 * What a string column chunk's footer statistics prove about its values: the bounds, in unsigned byte order, and
 * the null count. Every {@code may...} method errs towards reading: it answers false only when no value of the
 * chunk can satisfy the condition, and true whenever the statistics say nothing (no bounds).
 *
 * <p>Bounds are kept only in unsigned byte order, Parquet's order for strings, which is the order of this library's
 * kernels and of Spark's and Flink's comparison of UTF-8 bytes. parquet-java already drops the bounds of old
 * writers that used the signed order (PARQUET-686); bounds in another order (a signed DECIMAL) are dropped here.
 * Writers may truncate bounds: a truncated min stays a lower bound and a truncated max is rounded up, so both stay
 * bounds. ParquetScan (row groups and, through the page index, pages), the Spark source and the Flink connector
 * decide what to skip through this one class.
 */
public final class ChunkBounds {
    private final byte[] min;
    private final byte[] max;
    private final long nulls;
    private final long rows;

    /**
     * Bounds {@code [min, max]} (both null when unknown) of a chunk of {@code rows} rows with {@code nulls} nulls
     * ({@code -1} when unknown). The arrays are kept, not copied.
     */
    public ChunkBounds(byte[] min, byte[] max, long nulls, long rows) {
        this.min = min == null || max == null ? null : min;
        this.max = min == null || max == null ? null : max;
        this.nulls = nulls;
        this.rows = rows;
    }

    /**
     * The statistics of {@code chunk}, a chunk of {@code rows} rows, or null when it has none or they cannot be
     * read (unreadable statistics prove nothing).
     */
    public static ChunkBounds of(ColumnChunkMetaData chunk, long rows) {
        Statistics<?> s;
        try {
            s = chunk.getStatistics();
        } catch (RuntimeException e) {
            return null;
        }
        if (s == null || s.isEmpty()) {
            return null;
        }
        long nulls = s.isNumNullsSet() ? s.getNumNulls() : -1;
        if (s.hasNonNullValue() && s.comparator() == PrimitiveComparator.UNSIGNED_LEXICOGRAPHICAL_BINARY_COMPARATOR
                && s.genericGetMin() instanceof Binary lo && s.genericGetMax() instanceof Binary hi) {
            return new ChunkBounds(lo.getBytes(), hi.getBytes(), nulls, rows);
        }
        return new ChunkBounds(null, null, nulls, rows);
    }

    /**
     * Per row group of {@code footer}, the statistics of the top-level {@code columns} that have any, by column
     * name (a column without statistics is absent from its map).
     */
    public static List<Map<String, ChunkBounds>> ofRowGroups(ParquetMetadata footer, Collection<String> columns) {
        List<Map<String, ChunkBounds>> out = new ArrayList<>();
        for (BlockMetaData block : footer.getBlocks()) {
            Map<String, ChunkBounds> stats = new HashMap<>();
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                String[] path = chunk.getPath().toArray();
                if (path.length == 1 && columns.contains(path[0])) {
                    ChunkBounds bounds = of(chunk, block.getRowCount());
                    if (bounds != null) {
                        stats.put(path[0], bounds);
                    }
                }
            }
            out.add(stats);
        }
        return out;
    }

    /** Null count, or -1 when unknown. */
    public long nulls() {
        return nulls;
    }

    public long rows() {
        return rows;
    }

    /** Whether the chunk has rows and every one is null. */
    public boolean allNull() {
        return rows > 0 && nulls == rows;
    }

    /** Whether min and max are known. */
    public boolean hasBounds() {
        return min != null;
    }

    /** Whether some value may equal {@code value}. */
    public boolean mayContain(byte[] value) {
        return min == null || Arrays.compareUnsigned(min, value) <= 0 && Arrays.compareUnsigned(value, max) <= 0;
    }

    /** Whether some value may differ from {@code value}: false only when min and max both equal it. */
    public boolean mayDiffer(byte[] value) {
        return min == null || !(Arrays.equals(min, max) && Arrays.equals(min, value));
    }

    /** Whether some value may be less than {@code value} (or equal to it, with {@code orEqual}). */
    public boolean mayBeLess(byte[] value, boolean orEqual) {
        if (min == null) {
            return true;
        }
        int c = Arrays.compareUnsigned(min, value);
        return orEqual ? c <= 0 : c < 0;
    }

    /** Whether some value may be greater than {@code value} (or equal to it, with {@code orEqual}). */
    public boolean mayBeGreater(byte[] value, boolean orEqual) {
        if (max == null) {
            return true;
        }
        int c = Arrays.compareUnsigned(max, value);
        return orEqual ? c >= 0 : c > 0;
    }

    /**
     * Whether some value may start with {@code prefix}: such values lie in [prefix, prefix + 0xFF...], which meets
     * [min, max] exactly when max is at least the prefix and min cut to the prefix's length is at most it.
     */
    public boolean mayStartWith(byte[] prefix) {
        if (min == null) {
            return true;
        }
        int cut = Math.min(min.length, prefix.length);
        return Arrays.compareUnsigned(max, prefix) >= 0
                && Arrays.compareUnsigned(min, 0, cut, prefix, 0, prefix.length) <= 0;
    }

    @Override
    public String toString() {
        return "ChunkBounds[min=" + (min == null ? "unknown" : min.length + "B") + " max="
                + (max == null ? "unknown" : max.length + "B") + " nulls=" + nulls + " rows=" + rows + "]";
    }
}
