package dev.stringview;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module exports only the API package to everyone (and the readers' helpers to the reader modules alone),
 * needs nothing but java.base, and the compiled classes use no
 * {@code sun.misc.Unsafe}, no native methods and none of the FFM API's restricted methods.
 */
class ModuleDescriptorTest {
    private static final Path CLASSES = Path.of("target", "classes");

    @Test
    void exportsOnlyTheApiPackageToEveryone() {
        ModuleDescriptor descriptor = ModuleFinder.of(CLASSES).findAll().iterator().next().descriptor();
        assertEquals("dev.stringview", descriptor.name());
        Set<String> exports = descriptor.exports().stream().filter(e -> !e.isQualified())
                .map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
        assertEquals(Set.of("dev.stringview"), exports);
        Map<String, Set<String>> qualified = descriptor.exports().stream().filter(ModuleDescriptor.Exports::isQualified)
                .collect(Collectors.toMap(ModuleDescriptor.Exports::source, ModuleDescriptor.Exports::targets));
        assertEquals(Map.of("dev.stringview.internal.reader", Set.of("dev.stringview.format", "dev.stringview.parquet")),
                qualified, "the readers' helpers go to the reader modules only");
        assertTrue(descriptor.packages().contains("dev.stringview.internal"));
        assertTrue(descriptor.packages().contains("dev.stringview.internal.reader"));
        Set<String> requires = descriptor.requires().stream().map(ModuleDescriptor.Requires::name)
                .collect(Collectors.toSet());
        assertEquals(Set.of("java.base"), requires);
    }

    @Test
    void noUnsafeNoNativeNoRestrictedMethods() throws IOException {
        // MemorySegment.reinterpret as the exact constant-pool entry (two length bytes, then the name): the Vector
        // API's LongVector.reinterpretAsInts, a lane view with no memory access, only starts with that name.
        String reinterpret = "\u0000\u000Breinterpret";
        List<String> forbidden = List.of("sun/misc/Unsafe", "jdk/internal/misc/Unsafe", reinterpret,
                "nativeLinker", "SymbolLookup", "withTargetLayout", "System.loadLibrary", "loadLibrary");
        List<Path> classes;
        try (Stream<Path> files = Files.walk(CLASSES)) {
            classes = files.filter(p -> p.toString().endsWith(".class")).toList();
        }
        assertFalse(classes.isEmpty());
        for (Path file : classes) {
            String constantPool = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
            for (String name : forbidden) {
                assertFalse(constantPool.contains(name), file + " refers to " + name);
            }
        }
        for (Class<?> type : List.of(ViewColumn.class, ViewColumnBuilder.class, ViewColumns.class, ViewPredicate.class,
                ViewKernels.class, Utf8.class)) {
            for (var method : type.getDeclaredMethods()) {
                assertFalse(java.lang.reflect.Modifier.isNative(method.getModifiers()), method.toString());
            }
        }
    }
}
