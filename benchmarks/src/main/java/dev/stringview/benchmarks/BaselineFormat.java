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
 * is shared with the current build, so an old reader returns a current {@code ViewColumn}. {@link #loadWithCore}
 * takes core's classes from the jar too (a benchmarks jar), so that the old reader runs on the old core's
 * {@code InlineViews}; it then returns the old core's column, of which only the rows are read.
 *
 * <p>The jar is the old build's own artifact, e.g. {@code git worktree add /tmp/old <commit>} then
 * {@code ./mvnw -pl benchmarks -am package -DskipTests} there, and {@code /tmp/old/benchmarks/target/benchmarks.jar}.
 */
final class BaselineFormat {
    private static final String PACKAGE = "dev.stringview.format.";
    private static final String CORE = "dev.stringview.";
    private static final String HARNESS = "dev.stringview.benchmarks.";

    private final MethodHandle read;
    private final MethodHandle size;
    private final Object deserializer;

    private BaselineFormat(MethodHandle read, MethodHandle size, Object deserializer) {
        this.read = read;
        this.size = size;
        this.deserializer = deserializer;
    }

    /** The old jar's {@code ColumnDeserializer.create().withUtf8Validation(validateUtf8)}. */
    static BaselineFormat load(Path jar, boolean validateUtf8) throws IOException {
        return load(jar, validateUtf8, false);
    }

    /**
     * The same on the old jar's core as well (its {@code dev.stringview} classes other than the harness's), once
     * that core's inline-view builder has ended its warm-up; {@link #rows} then reads the old column's size.
     */
    static BaselineFormat loadWithCore(Path jar, boolean validateUtf8) throws IOException {
        return load(jar, validateUtf8, true);
    }

    /** {@link #loadWithCore} over several jars or directories of classes (e.g. a build's core and format). */
    static BaselineFormat loadWithCore(java.util.List<Path> jars, boolean validateUtf8) throws IOException {
        return load(jars, validateUtf8, true);
    }

    private static BaselineFormat load(Path jar, boolean validateUtf8, boolean withCore) throws IOException {
        return load(java.util.List.of(jar), validateUtf8, withCore);
    }

    private static BaselineFormat load(java.util.List<Path> jars, boolean validateUtf8, boolean withCore)
            throws IOException {
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            if (!Files.exists(jars.get(i))) { // a jar, or a directory of classes
                throw new IOException("baseline jar not found: path=" + jars.get(i));
            }
            urls[i] = jars.get(i).toUri().toURL();
        }
        Path jar = jars.get(0);
        ClassLoader loader = new FormatFirst(urls, BaselineFormat.class.getClassLoader(), withCore);
        try {
            Class<?> type = Class.forName(PACKAGE + "ColumnDeserializer", true, loader);
            Class<?> column = Class.forName(CORE + "ViewColumn", false, loader);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Object created = lookup.findStatic(type, "create", MethodType.methodType(type)).invoke();
            Object deserializer = lookup.findVirtual(type, "withUtf8Validation",
                    MethodType.methodType(type, boolean.class)).invoke(created, validateUtf8);
            MethodHandle read = lookup.findVirtual(type, "read",
                    MethodType.methodType(column, MemorySegment.class, SegmentAllocator.class))
                    .asType(MethodType.methodType(Object.class, Object.class, MemorySegment.class,
                            SegmentAllocator.class));
            MethodHandle size = lookup.findVirtual(column, "size", MethodType.methodType(int.class))
                    .asType(MethodType.methodType(int.class, Object.class));
            if (withCore) {
                Class<?> vectorization = Class.forName(CORE + "internal.Vectorization", true, loader);
                try { // a core with the explicit warm-up, or an older one whose own thread warms up
                    lookup.findStatic(vectorization, "warmUp", MethodType.methodType(boolean.class)).invoke();
                } catch (NoSuchMethodException e) {
                    lookup.findStatic(vectorization, "awaitInlineViews", MethodType.methodType(boolean.class,
                            java.time.Duration.class)).invoke(java.time.Duration.ofSeconds(150));
                }
            }
            return new BaselineFormat(read, size, deserializer);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException("baseline jar has no usable ColumnDeserializer: path=" + jar, e);
        }
    }

    ViewColumn read(MemorySegment input, SegmentAllocator allocator) throws IOException {
        try {
            return (ViewColumn) (Object) read.invokeExact(deserializer, input, allocator);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException(e);
        }
    }

    /** Reads the column and returns its rows: the form that works with the old core's column too. */
    long rows(MemorySegment input, SegmentAllocator allocator) throws IOException {
        try {
            return (int) size.invokeExact((Object) read.invokeExact(deserializer, input, allocator));
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException(e);
        }
    }

    /**
     * Loads {@code dev.stringview.format} classes (with core: all {@code dev.stringview} classes but the
     * harness's) from its jar first, everything else from the parent.
     */
    private static final class FormatFirst extends URLClassLoader {
        private final boolean withCore;

        FormatFirst(URL[] urls, ClassLoader parent, boolean withCore) {
            super(urls, parent);
            this.withCore = withCore;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            boolean fromJar = withCore ? name.startsWith(CORE) && !name.startsWith(HARNESS) : name.startsWith(PACKAGE);
            if (!fromJar) {
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
