package dev.stringview.benchmarks;

import dev.stringview.ViewColumn;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code dev.stringview.format} classes of another build (a benchmarks jar or a format jar built at an older
 * commit), loaded next to the current ones so that old and new readers run side by side in one JVM. Only
 * {@code dev.stringview.format} classes come from the jar; everything else (core's {@code ViewColumn}, the JDK)
 * is shared with the current build, so an old reader returns a current {@code ViewColumn}.
 *
 * <p>The jar is the old build's own artifact, e.g. {@code git worktree add /tmp/old <commit>} then
 * {@code ./mvnw -pl benchmarks -am package -DskipTests} there, and {@code /tmp/old/benchmarks/target/benchmarks.jar}.
 */
final class BaselineFormat {
    private static final String PACKAGE = "dev.stringview.format.";

    private final MethodHandle read;
    private final Object deserializer;

    private BaselineFormat(MethodHandle read, Object deserializer) {
        this.read = read;
        this.deserializer = deserializer;
    }

    /** The old jar's {@code ColumnDeserializer.create().withUtf8Validation(validateUtf8)}. */
    static BaselineFormat load(Path jar, boolean validateUtf8) throws IOException {
        if (!Files.exists(jar)) { // a jar, or a directory of classes
            throw new IOException("baseline jar not found: path=" + jar);
        }
        ClassLoader loader = new FormatFirst(new URL[] {jar.toUri().toURL()}, BaselineFormat.class.getClassLoader());
        try {
            Class<?> type = Class.forName(PACKAGE + "ColumnDeserializer", true, loader);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Object created = lookup.findStatic(type, "create", MethodType.methodType(type)).invoke();
            Object deserializer = lookup.findVirtual(type, "withUtf8Validation",
                    MethodType.methodType(type, boolean.class)).invoke(created, validateUtf8);
            MethodHandle read = lookup.findVirtual(type, "read",
                    MethodType.methodType(ViewColumn.class, MemorySegment.class, SegmentAllocator.class))
                    .asType(MethodType.methodType(ViewColumn.class, Object.class, MemorySegment.class,
                            SegmentAllocator.class));
            return new BaselineFormat(read, deserializer);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException("baseline jar has no usable ColumnDeserializer: path=" + jar, e);
        }
    }

    ViewColumn read(MemorySegment input, SegmentAllocator allocator) throws IOException {
        try {
            return (ViewColumn) read.invokeExact(deserializer, input, allocator);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException(e);
        }
    }

    /** Loads {@code dev.stringview.format} classes from its jar first, everything else from the parent. */
    private static final class FormatFirst extends URLClassLoader {
        FormatFirst(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(PACKAGE)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    loaded = findClass(name);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }
    }
}
