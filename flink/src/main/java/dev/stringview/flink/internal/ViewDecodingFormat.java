package dev.stringview.flink.internal;

import dev.stringview.parquet.ParquetSource;
import dev.stringview.parquet.ParquetViewOptions;
import dev.stringview.parquet.ParquetViewReader;
import dev.stringview.parquet.RowFilter;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.table.format.BulkDecodingFormat;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.Projection;
import org.apache.flink.table.connector.format.FileBasedStatisticsReportableInputFormat;
import org.apache.flink.table.connector.format.ProjectableDecodingFormat;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.plan.stats.TableStats;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The format's planning side: takes the filters the filesystem connector offers ({@link #applyFilters}), the
 * projection ({@link ProjectableDecodingFormat}), and makes the {@link ViewBulkFormat} the connector's file source
 * runs. The connector keeps every filter it offers for Flink to evaluate again after the source (its
 * {@code applyFilters} accepts none for good), so a filter translated here only decides which rows the source
 * materializes; one that is not translated costs nothing but the rows it would have dropped.
 *
 * <p>The connector shares one decoding format between all the copies of its table source in a query (every scan of
 * the table, in every branch), and calls {@link #applyFilters} right before {@link #createRuntimeDecoder} only for a
 * scan that has filters. So the filters are taken by the next {@code createRuntimeDecoder} and then forgotten: a scan
 * without filters must not inherit those of the scan planned before it.
 *
 * <p>Row counts for the planner ({@link FileBasedStatisticsReportableInputFormat}) come from the files' footers.
 */
public final class ViewDecodingFormat implements BulkDecodingFormat<RowData>,
        ProjectableDecodingFormat<BulkFormat<RowData, FileSourceSplit>>, FileBasedStatisticsReportableInputFormat {
    private final String table;
    private final List<String> partitionKeys;
    private final ReadSettings settings;
    private List<ResolvedExpression> filters = List.of();

    /**
     * @param table the table, for messages
     * @param partitionKeys the table's partition columns (in directory names, not in the files)
     */
    public ViewDecodingFormat(String table, List<String> partitionKeys, ReadSettings settings) {
        this.table = table;
        this.partitionKeys = List.copyOf(partitionKeys);
        this.settings = settings;
    }

    @Override
    public void applyFilters(List<ResolvedExpression> conjuncts) {
        this.filters = List.copyOf(conjuncts);
    }

    @Override
    public BulkFormat<RowData, FileSourceSplit> createRuntimeDecoder(DynamicTableSource.Context context,
            DataType physicalDataType, int[][] projections) {
        RowType fileRow = (RowType) physicalDataType.getLogicalType();
        Map<String, LogicalType> fileColumns = new LinkedHashMap<>();
        for (RowType.RowField field : fileRow.getFields()) {
            if (!partitionKeys.contains(field.getName())) {
                fileColumns.put(field.getName(), field.getType());
            }
        }
        RowFilter filter = new FilterTranslator(fileColumns).translateAll(filters);
        filters = List.of(); // this scan's; see the class comment
        DataType producedDataType = Projection.of(projections).project(physicalDataType);
        return new ViewBulkFormat(table, fileRow, (RowType) producedDataType.getLogicalType(), filter, settings,
                context.createTypeInformation(producedDataType));
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    /** The row count from each file's footer; {@link TableStats#UNKNOWN} when a file cannot be read. */
    @Override
    public TableStats reportStatistics(List<Path> files, DataType producedDataType) {
        List<String> columns = new ArrayList<>();
        RowType row = (RowType) producedDataType.getLogicalType();
        for (String name : row.getFieldNames()) {
            if (!partitionKeys.contains(name)) {
                columns.add(name);
                break;
            }
        }
        if (columns.isEmpty()) {
            return TableStats.UNKNOWN;
        }
        long rows = 0;
        for (Path file : files) {
            try (Arena arena = Arena.ofConfined();
                    ParquetSource source = FlinkFileSource.open(file, -1);
                    ParquetViewReader reader = ParquetViewReader.open(source, arena,
                            ParquetViewOptions.defaults().withColumns(columns))) {
                rows += reader.rowCount();
            } catch (IOException | RuntimeException e) {
                return TableStats.UNKNOWN;
            }
        }
        return new TableStats(rows);
    }

    @Override
    public String toString() {
        return "stringview-parquet[table=" + table + "]";
    }
}
