package dev.stringview.benchmarks;

/**
 * The flags of every {@link SparkScanBenchmark} fork: Spark 4.2's own {@code JavaModuleOptions} list (what
 * {@code spark-submit} adds to each driver and executor JVM; the module's pom repeats it for the smoke test), plus a
 * heap. Annotation constants, so they are spelled once.
 */
final class SparkJvm {
    static final String XMX = "-Xmx4g";
    static final String IGNORE_UNRECOGNIZED = "-XX:+IgnoreUnrecognizedVMOptions";
    static final String VECTOR = "--add-modules=jdk.incubator.vector";
    static final String LANG = "--add-opens=java.base/java.lang=ALL-UNNAMED";
    static final String INVOKE = "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED";
    static final String REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    static final String IO = "--add-opens=java.base/java.io=ALL-UNNAMED";
    static final String NET = "--add-opens=java.base/java.net=ALL-UNNAMED";
    static final String NIO = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    static final String UTIL = "--add-opens=java.base/java.util=ALL-UNNAMED";
    static final String CONCURRENT = "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED";
    static final String ATOMIC = "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED";
    static final String REF = "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED";
    static final String CH = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED";
    static final String CS = "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED";
    static final String ACTION = "--add-opens=java.base/sun.security.action=ALL-UNNAMED";
    static final String CALENDAR = "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED";
    static final String KRB5 = "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED";
    static final String NETTY_REFLECTION = "-Dio.netty.tryReflectionSetAccessible=true";
    static final String NETTY_POOLED = "-Dio.netty.allocator.type=pooled";
    static final String NETTY_SSL = "-Dio.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE";
    static final String UNSAFE = "--sun-misc-unsafe-memory-access=allow";
    /** Lets aircompressor-v3 decompress our pages with its bundled native libraries, as under spark-submit. */
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    private SparkJvm() {}
}
