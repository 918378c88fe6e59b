package dev.stringview.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The module exports only its API package; the codecs and byte sources stay hidden. */
class ModuleDescriptorTest {
    @Test
    void exportsOnlyTheApiPackage() {
        ModuleDescriptor descriptor = ModuleFinder.of(Path.of("target", "classes")).findAll().iterator().next()
                .descriptor();
        assertEquals("dev.stringview.format", descriptor.name());
        assertEquals(Set.of("dev.stringview.format"),
                descriptor.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
        assertEquals(Set.of("dev.stringview.format", "dev.stringview.format.internal"), descriptor.packages());
        Set<String> requires = descriptor.requires().stream().map(ModuleDescriptor.Requires::name)
                .collect(Collectors.toSet());
        assertEquals(Set.of("java.base", "dev.stringview", "aircompressor.v3"), requires);
        assertEquals(Set.of(ModuleDescriptor.Requires.Modifier.TRANSITIVE), descriptor.requires().stream()
                .filter(r -> r.name().equals("dev.stringview")).findFirst().orElseThrow().modifiers());
    }
}
