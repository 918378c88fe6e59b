package dev.stringview.benchmarks;

/**
 * The flags of every {@link FlinkScanBenchmark} fork: what Flink's launch scripts pass ({@code env.java.opts.all}
 * in Flink 2.x's config.yaml; the module's pom repeats it for the smoke test), native access for aircompressor's
 * codecs and Flink's {@code Unsafe} use on JDK 24+, plus a heap. Annotation constants, so they are spelled once.
 */
final class FlinkJvm {
    static final String XMX = "-Xmx4g";
    static final String NET_UTIL = "--add-exports=java.base/sun.net.util=ALL-UNNAMED";
    static final String RMI = "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED";
    static final String KRB5 = "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED";
    static final String LANG = "--add-opens=java.base/java.lang=ALL-UNNAMED";
    static final String NET = "--add-opens=java.base/java.net=ALL-UNNAMED";
    static final String IO = "--add-opens=java.base/java.io=ALL-UNNAMED";
    static final String NIO = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    static final String CH = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED";
    static final String REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    static final String TEXT = "--add-opens=java.base/java.text=ALL-UNNAMED";
    static final String TIME = "--add-opens=java.base/java.time=ALL-UNNAMED";
    static final String UTIL = "--add-opens=java.base/java.util=ALL-UNNAMED";
    static final String CONCURRENT = "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED";
    static final String ATOMIC = "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED";
    static final String LOCKS = "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED";
    /** Lets aircompressor-v3 decompress our pages with its bundled native libraries. */
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    static final String UNSAFE = "--sun-misc-unsafe-memory-access=allow";

    private FlinkJvm() {}
}
