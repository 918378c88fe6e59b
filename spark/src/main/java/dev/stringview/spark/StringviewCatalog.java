package dev.stringview.spark;

import dev.stringview.spark.internal.AnyPatternFunction;
import java.util.Arrays;
import org.apache.spark.sql.catalyst.analysis.NoSuchFunctionException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.connector.catalog.FunctionCatalog;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A V2 function catalog of string functions that a {@code stringview} scan evaluates with its kernels when they
 * filter one of its columns. Register it under any name and call the functions in namespace {@code fn}:
 *
 * <pre>{@code
 * spark.conf.set("spark.sql.catalog.sv", "dev.stringview.spark.StringviewCatalog")
 * SELECT count(*) FROM t WHERE sv.fn.like_any(url, array('%google%', '%yandex%'))
 * }</pre>
 *
 * <ul>
 *   <li>{@code like_any(s, array<string>)}: SQL LIKE (escape {@code \}) against any of the patterns;</li>
 *   <li>{@code starts_with_any(s, array<string>)}: any of the prefixes.</li>
 * </ul>
 * Both are NULL when {@code s} is NULL, or when nothing matched and a pattern is NULL.
 */
public final class StringviewCatalog implements FunctionCatalog {
    private static final String[] NAMESPACE = {"fn"};
    private String name = "sv";

    /** Spark instantiates catalogs by reflection. */
    public StringviewCatalog() {}

    @Override
    public void initialize(String name, CaseInsensitiveStringMap options) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Identifier[] listFunctions(String[] namespace) throws NoSuchNamespaceException {
        if (namespace.length != 0 && !Arrays.equals(namespace, NAMESPACE)) {
            throw new NoSuchNamespaceException(namespace);
        }
        return new Identifier[] {Identifier.of(NAMESPACE, "like_any"), Identifier.of(NAMESPACE, "starts_with_any")};
    }

    @Override
    public UnboundFunction loadFunction(Identifier ident) throws NoSuchFunctionException {
        if (Arrays.equals(ident.namespace(), NAMESPACE)) {
            switch (ident.name().toLowerCase(java.util.Locale.ROOT)) {
                case "like_any":
                    return new AnyPatternFunction.LikeAny();
                case "starts_with_any":
                    return new AnyPatternFunction.StartsWithAny();
                default:
                    break;
            }
        }
        throw new NoSuchFunctionException(ident);
    }
}
