package dev.stringview.flink.internal;

import dev.stringview.parquet.RowFilter;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.InputFormatProvider;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The scan: which declared columns Flink wants (projection), which string filters we run (filter pushdown), and
 * an {@link ViewInputFormat} with one split per Parquet row group. Bounded, insert-only.
 */
public final class ViewTableSource implements ScanTableSource, SupportsFilterPushDown, SupportsProjectionPushDown {
    private final TableLayout layout;
    private final int batchSize;
    private final boolean validateUtf8;
    private int[] projection; // indices into the declared row, in output order
    private final List<RowFilter> filters;

    private ViewTableSource(TableLayout layout, int batchSize, boolean validateUtf8, int[] projection,
            List<RowFilter> filters) {
        this.layout = layout;
        this.batchSize = batchSize;
        this.validateUtf8 = validateUtf8;
        this.projection = projection;
        this.filters = new ArrayList<>(filters);
    }

    /** Resolves the files and checks every declared column against the first file's schema. */
    public static ViewTableSource create(String table, String path, DataType physicalRow, int batchSize,
            boolean validateUtf8) {
        RowType rowType = (RowType) physicalRow.getLogicalType();
        TableLayout layout = TableLayout.resolve(table, path, rowType);
        int[] all = new int[rowType.getFieldCount()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return new ViewTableSource(layout, batchSize, validateUtf8, all, List.of());
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        RowFilter filter = filters.isEmpty() ? null
                : filters.size() == 1 ? filters.get(0) : new RowFilter.And(filters);
        return InputFormatProvider.of(new ViewInputFormat(layout, projection.clone(), filter, batchSize,
                validateUtf8));
    }

    @Override
    public Result applyFilters(List<ResolvedExpression> pushed) {
        Set<String> strings = new LinkedHashSet<>();
        for (int i = 0; i < layout.rowType().getFieldCount(); i++) {
            if (layout.isView(i)) {
                strings.add(layout.name(i));
            }
        }
        FilterTranslator translator = new FilterTranslator(strings);
        List<ResolvedExpression> accepted = new ArrayList<>();
        List<ResolvedExpression> remaining = new ArrayList<>();
        for (ResolvedExpression e : pushed) {
            Optional<RowFilter> f = translator.translate(e);
            if (f.isPresent()) {
                filters.add(f.get());
                accepted.add(e);
            } else {
                remaining.add(e);
            }
        }
        return Result.of(accepted, remaining);
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    @Override
    public void applyProjection(int[][] projectedFields, DataType producedDataType) {
        int[] top = new int[projectedFields.length];
        for (int i = 0; i < top.length; i++) {
            top[i] = projection[projectedFields[i][0]];
        }
        projection = top;
    }

    @Override
    public DynamicTableSource copy() {
        return new ViewTableSource(layout, batchSize, validateUtf8, projection.clone(), filters);
    }

    @Override
    public String asSummaryString() {
        return "stringview";
    }

    @Override
    public String toString() {
        return "stringview(" + layout.table() + ", filters=" + filters + ")";
    }
}
