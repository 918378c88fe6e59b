package dev.stringview.spark.internal;

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
 * generated code (the V2 "magic method"), with no boxing of the string. When the call is a filter on a column of
 * a {@code stringview} table, the source recognises it by its canonical name and runs it as kernels inside the
 * scan instead ({@link PredicateTranslator}).
 */
public abstract class AnyPatternFunction implements UnboundFunction, ScalarFunction<Boolean> {
    private static final long serialVersionUID = 1L;

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
                || !PredicateTranslator.binaryString(inputType.fields()[0].dataType())
                || !(inputType.fields()[1].dataType() instanceof ArrayType a)
                || !PredicateTranslator.binaryString(a.elementType())) {
            throw new UnsupportedOperationException(name + " takes (STRING, ARRAY<STRING>) of collation"
                    + " UTF8_BINARY: arguments=" + inputType.simpleString());
        }
        return this;
    }

    @Override
    public String description() {
        return name + "(s STRING, patterns ARRAY<STRING>) -> BOOLEAN";
    }

    /** The patterns compiled from the last array seen on this thread (Spark passes the same literal each row). */
    private static final class Cache {
        ArrayData source;
        BytePattern[] patterns;
        boolean sawNull;
    }

    static Boolean anyMatches(UTF8String s, ArrayData patterns, ThreadLocal<Cache> cache,
            Function<UTF8String, BytePattern> compile) {
        if (s == null || patterns == null) {
            return null;
        }
        Cache c = cache.get();
        if (c.source != patterns) {
            int n = patterns.numElements();
            BytePattern[] compiled = new BytePattern[n];
            boolean sawNull = false;
            for (int i = 0; i < n; i++) {
                if (patterns.isNullAt(i)) {
                    sawNull = true;
                } else {
                    compiled[i] = compile.apply(patterns.getUTF8String(i));
                }
            }
            c.patterns = compiled;
            c.sawNull = sawNull;
            c.source = patterns;
        }
        for (BytePattern p : c.patterns) {
            if (p != null && p.matches(s)) {
                return Boolean.TRUE;
            }
        }
        return c.sawNull ? null : Boolean.FALSE;
    }

    /** {@code like_any}: SQL LIKE with escape character {@code \}. */
    public static final class LikeAny extends AnyPatternFunction {
        private static final long serialVersionUID = 1L;
        private static final ThreadLocal<Cache> CACHE = ThreadLocal.withInitial(Cache::new);

        public LikeAny() {
            super("like_any", PredicateTranslator.LIKE_ANY);
        }

        public static Boolean invoke(UTF8String s, ArrayData patterns) {
            return anyMatches(s, patterns, CACHE, BytePattern::like);
        }
    }

    /** {@code starts_with_any}: byte prefixes. */
    public static final class StartsWithAny extends AnyPatternFunction {
        private static final long serialVersionUID = 1L;
        private static final ThreadLocal<Cache> CACHE = ThreadLocal.withInitial(Cache::new);

        public StartsWithAny() {
            super("starts_with_any", PredicateTranslator.STARTS_WITH_ANY);
        }

        public static Boolean invoke(UTF8String s, ArrayData patterns) {
            return anyMatches(s, patterns, CACHE, BytePattern::prefix);
        }
    }
}
