package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The module exports its API package and nothing else (the decoders, the read plan and the measuring switches stay
 * internal), and passes core on to its readers ({@code requires transitive}), as its API returns core's columns.
 */
class ModuleDescriptorTest {
    @Test
    void exportsOnlyTheApiPackage() {
        ModuleDescriptor descriptor = ModuleFinder.of(Path.of("target", "classes")).findAll().iterator().next()
                .descriptor();
        assertEquals("dev.stringview.parquet", descriptor.name());
        assertEquals(Set.of("dev.stringview.parquet"),
                descriptor.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
        assertTrue(descriptor.exports().stream().noneMatch(ModuleDescriptor.Exports::isQualified));
        assertEquals(Set.of("dev.stringview.parquet", "dev.stringview.parquet.internal"), descriptor.packages());
        assertTrue(descriptor.opens().isEmpty());
        assertEquals(Set.of(ModuleDescriptor.Requires.Modifier.TRANSITIVE), descriptor.requires().stream()
                .filter(r -> r.name().equals("dev.stringview")).findFirst().orElseThrow().modifiers());
    }
}
