package dev.stringview.arrow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The module exports only its API package; internals (C Data structs, codecs, buffer wrapping) stay hidden. */
class ModuleDescriptorTest {
    @Test
    void exportsOnlyTheApiPackage() {
        ModuleDescriptor descriptor = ModuleFinder.of(Path.of("target", "classes")).findAll().iterator().next()
                .descriptor();
        assertEquals("dev.stringview.arrow", descriptor.name());
        assertEquals(Set.of("dev.stringview.arrow"),
                descriptor.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
        assertEquals(Set.of("dev.stringview.arrow", "dev.stringview.arrow.internal"), descriptor.packages());
        Set<String> requires = descriptor.requires().stream().map(ModuleDescriptor.Requires::name)
                .collect(Collectors.toSet());
        assertEquals(Set.of("java.base", "dev.stringview", "org.apache.arrow.vector", "org.apache.arrow.memory.core",
                "aircompressor.v3"), requires);
    }
}
