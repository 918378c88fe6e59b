package dev.stringview.spark.internal;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKind;
import dev.stringview.ViewLayout;
import dev.stringview.ViewPredicate;
import dev.stringview.ViewPredicates;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.apache.spark.unsafe.Platform;

import java.util.function.Function;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.connector.catalog.functions.BoundFunction;
import org.apache.spark.sql.connector.catalog.functions.ScalarFunction;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code like_any(s, array(pattern, ...))} and {@code starts_with_any(s, array(prefix, ...))}: TRUE if any
 * pattern matches, NULL if {@code s} or the array is NULL or no pattern matches but one is NULL (SQL's
 * {@code s LIKE ANY (...)}), else FALSE.
 *
 * <p>Spark calls the static {@code invoke} methods of {@link LikeAny} and {@link StartsWithAny} directly from
 * generated code (the V2 "magic method"), with no boxing of the string, and match with core's kernels, one row at
 * a time. Spark's file sources see no function calls among their pushed filters, so the scan does not run them.
 */
public abstract class AnyPatternFunction implements UnboundFunction, ScalarFunction<Boolean> {
    private static final long serialVersionUID = 1L;

    /** The canonical names of the functions. */
    static final String LIKE_ANY = "stringview.like_any";
    static final String STARTS_WITH_ANY = "stringview.starts_with_any";

    private final String name;
    private final String canonicalName;

    AnyPatternFunction(String name, String canonicalName) {
        this.name = name;
        this.canonicalName = canonicalName;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String canonicalName() {
        return canonicalName;
    }

    @Override
    public DataType[] inputTypes() {
        return new DataType[] {DataTypes.StringType, DataTypes.createArrayType(DataTypes.StringType)};
    }

    @Override
    public DataType resultType() {
        return DataTypes.BooleanType;
    }

    @Override
    public BoundFunction bind(StructType inputType) {
        if (inputType.fields().length != 2
                || !FilterTranslator.binaryString(inputType.fields()[0].dataType())
                || !(inputType.fields()[1].dataType() instanceof ArrayType a)
                || !FilterTranslator.binaryString(a.elementType())) {
            throw new UnsupportedOperationException(name + " takes (STRING, ARRAY<STRING>) of collation"
                    + " UTF8_BINARY: arguments=" + inputType.simpleString());
        }
        return this;
    }

    @Override
    public String description() {
        return name + "(s STRING, patterns ARRAY<STRING>) -> BOOLEAN";
    }

    /**
     * The patterns compiled (core's predicates: one LIKE parser, {@code ViewPredicates.like}) from the last array
     * seen on this thread (Spark passes the same literal each row), and a one-row view column's scratch.
     */
    private static final class Cache {
        ArrayData source;
        ViewPredicate[] patterns;
        boolean sawNull;
        final byte[] view = new byte[ViewLayout.VIEW_SIZE];
        final MemorySegment viewSegment = MemorySegment.ofArray(view);
        final int[] out = new int[1];
    }

    static Boolean anyMatches(UTF8String s, ArrayData patterns, ThreadLocal<Cache> cache,
            Function<String, ViewPredicate> compile) {
        if (s == null || patterns == null) {
            return null;
        }
        Cache c = cache.get();
        if (c.source != patterns) {
            int n = patterns.numElements();
            ViewPredicate[] compiled = new ViewPredicate[n];
            boolean sawNull = false;
            for (int i = 0; i < n; i++) {
                if (patterns.isNullAt(i)) {
                    sawNull = true;
                } else {
                    compiled[i] = compile.apply(patterns.getUTF8String(i).toString());
                }
            }
            c.patterns = compiled;
            c.sawNull = sawNull;
            c.source = patterns;
        }
        ViewColumn row = oneRow(s, c);
        for (ViewPredicate p : c.patterns) {
            if (p != null && p.select(row, c.out) == 1) {
                return Boolean.TRUE;
            }
        }
        return c.sawNull ? null : Boolean.FALSE;
    }

    /**
     * A one-row column whose view points at the string's bytes where they lie when they are on the heap (Spark's
     * usual case), else at a copy.
     */
    private static ViewColumn oneRow(UTF8String s, Cache c) {
        byte[] bytes;
        long offset;
        int length = s.numBytes();
        if (s.getBaseObject() instanceof byte[] array) {
            bytes = array;
            offset = s.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET;
        } else {
            bytes = s.getBytes();
            offset = 0;
        }
        MemorySegment data = MemorySegment.ofArray(bytes);
        MemorySegment v = c.viewSegment;
        java.util.Arrays.fill(c.view, (byte) 0);
        v.set(ViewLayout.LAYOUT_LE_INT, ViewLayout.OFFSET_LENGTH, length);
        if (length <= ViewLayout.INLINE_MAX) {
            MemorySegment.copy(data, offset, v, ViewLayout.OFFSET_INLINE, length);
        } else {
            MemorySegment.copy(data, offset, v, ViewLayout.OFFSET_PREFIX, ViewLayout.PREFIX_SIZE);
            v.set(ViewLayout.LAYOUT_LE_INT, ViewLayout.OFFSET_BUFFER_INDEX, 0);
            v.set(ViewLayout.LAYOUT_LE_INT, ViewLayout.OFFSET_BUFFER_OFFSET, (int) offset);
        }
        return ViewColumns.fromViewsUnchecked(ViewKind.UTF8, 1, v, null, List.of(data));
    }

    /** {@code like_any}: SQL LIKE with escape character {@code \}. */
    public static final class LikeAny extends AnyPatternFunction {
        private static final long serialVersionUID = 1L;
        private static final ThreadLocal<Cache> CACHE = ThreadLocal.withInitial(Cache::new);

        public LikeAny() {
            super("like_any", LIKE_ANY);
        }

        public static Boolean invoke(UTF8String s, ArrayData patterns) {
            return anyMatches(s, patterns, CACHE, p -> ViewPredicates.like(p, '\\'));
        }
    }

    /** {@code starts_with_any}: byte prefixes. */
    public static final class StartsWithAny extends AnyPatternFunction {
        private static final long serialVersionUID = 1L;
        private static final ThreadLocal<Cache> CACHE = ThreadLocal.withInitial(Cache::new);

        public StartsWithAny() {
            super("starts_with_any", STARTS_WITH_ANY);
        }

        public static Boolean invoke(UTF8String s, ArrayData patterns) {
            return anyMatches(s, patterns, CACHE, ViewPredicates::startsWith);
        }
    }
}
