package dev.stringview.flink;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.ViewLayout;
import dev.stringview.ViewPredicate;
import dev.stringview.ViewPredicates;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.ScalarFunction;

/**
 * {@code like_any(s)}: whether a string matches any of the SQL LIKE patterns given at construction (escape
 * character {@code \}), with stringview's compiled LIKE kernels run on the value's UTF-8 bytes where Flink keeps
 * them. No {@code java.lang.String} is made. NULL for a NULL string.
 *
 * <pre>{@code
 * tableEnv.createTemporarySystemFunction("search_engines", new LikeAnyFunction("%google%", "%yandex%"));
 * tableEnv.executeSql("SELECT count(*) FROM hits WHERE search_engines(URL)");
 * }</pre>
 *
 * <p>Each call puts a 16-byte view over the value's bytes (a heap {@code byte[]} inside Flink's
 * {@link BinaryStringData}) and runs the kernels on that one-row column: prefix, suffix and substring patterns
 * take the kernels' fast paths. Note that Flink's planner deep-copies the strings it hands a scalar function
 * ({@code BinaryStringData.copy()}), so this saves the decoding to {@code String} and the regular expression
 * Flink's own {@code LIKE} may compile, not that copy. Not thread-safe: Flink gives every task its own instance.
 */
public final class LikeAnyFunction extends ScalarFunction {
    private static final long serialVersionUID = 1L;

    private final String[] patterns;
    private transient ViewPredicate[] compiled;
    private transient byte[] view;
    private transient MemorySegment viewSegment;
    private transient int[] out;

    /** @param patterns SQL LIKE patterns; {@code \} escapes {@code %}, {@code _} and itself */
    public LikeAnyFunction(String... patterns) {
        if (patterns.length == 0) {
            throw new IllegalArgumentException("like_any needs at least one pattern: patterns=0");
        }
        for (int i = 0; i < patterns.length; i++) {
            int index = i;
            Objects.requireNonNull(patterns[i], () -> "pattern is null: index=" + index);
            ViewPredicates.like(patterns[i], '\\'); // a bad pattern fails here, on the client, not in a task
        }
        this.patterns = patterns.clone();
    }

    @Override
    public void open(FunctionContext context) {
        compile();
    }

    private void compile() {
        compiled = new ViewPredicate[patterns.length];
        for (int i = 0; i < patterns.length; i++) {
            compiled[i] = ViewPredicates.like(patterns[i], '\\');
        }
        view = new byte[ViewLayout.VIEW_SIZE];
        viewSegment = MemorySegment.ofArray(view);
        out = new int[1];
    }

    /** Whether {@code value} matches any pattern; null for null. */
    public Boolean eval(@DataTypeHint("STRING") StringData value) {
        if (value == null) {
            return null;
        }
        if (compiled == null) {
            compile(); // called without open(), e.g. by Flink's constant folding on the client
        }
        ViewColumn column = oneRow((BinaryStringData) value);
        for (ViewPredicate p : compiled) {
            if (p.select(column, out) == 1) {
                return true;
            }
        }
        return false;
    }

    /** A one-row column whose view points into the string's bytes (copied only if Flink split them). */
    private ViewColumn oneRow(BinaryStringData s) {
        byte[] bytes;
        int offset;
        int length = s.getSizeInBytes();
        org.apache.flink.core.memory.MemorySegment[] segments = s.getSegments();
        if (segments.length == 1 && !segments[0].isOffHeap()) {
            bytes = segments[0].getArray();
            offset = s.getOffset();
        } else {
            bytes = s.toBytes();
            offset = 0;
        }
        MemorySegment data = MemorySegment.ofArray(bytes);
        java.util.Arrays.fill(view, (byte) 0);
        viewSegment.set(ViewLayout.LAYOUT_LE_INT, ViewLayout.OFFSET_LENGTH, length);
        if (length <= ViewLayout.INLINE_MAX) {
            MemorySegment.copy(data, offset, viewSegment, ViewLayout.OFFSET_INLINE, length);
        } else {
            MemorySegment.copy(data, offset, viewSegment, ViewLayout.OFFSET_PREFIX, ViewLayout.PREFIX_SIZE);
            viewSegment.set(ViewLayout.LAYOUT_LE_INT, ViewLayout.OFFSET_BUFFER_INDEX, 0);
            viewSegment.set(ViewLayout.LAYOUT_LE_INT, ViewLayout.OFFSET_BUFFER_OFFSET, offset);
        }
        return ViewColumns.fromViewsUnchecked(ViewKind.UTF8, 1, viewSegment, null, List.of(data));
    }

    @Override
    public String toString() {
        return "like_any" + List.of(patterns);
    }
}
