package dev.stringview.benchmarks;

/** JVM flags every benchmark fork gets (annotation constants, so they are spelled once). */
final class Jvm {
    /** The 10M-row contiguous heap as a String[] is about 1 GB; parquet-java reading holds row groups on-heap. */
    static final String XMX = "-Xmx6g";
    /** Arrow 19 on JDK 25 (docs/arrow-java-notes.md). */
    static final String ADD_OPENS_NIO = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    static final String NETTY_REFLECTION = "-Dio.netty.tryReflectionSetAccessible=true";
    /** Without it, arrow-memory-netty cannot start on JDK 25 (Netty turns Unsafe off by default). */
    static final String NETTY_UNSAFE = "-Dio.netty.noUnsafe=false";
    /** Arrow's documented switch that drops its bounds checks: the peer runs in its fastest configuration. */
    static final String ARROW_UNSAFE = "-Darrow.enable_unsafe_memory_access=true";
    /** DuckDB's JDBC driver, snappy-java and zstd-jni load native code (JDK 24+ warns without it). */
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    /** Lets the library's substring search use the Vector API (see dev.stringview.internal.Vectorization). */
    static final String VECTOR = "--add-modules=jdk.incubator.vector";

    private Jvm() {}
}
