package dev.stringview.arrow;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Forges one field of the views {@code [ "ok" (inline), "a value longer than twelve" (buffer 0, offset 0),
 * "inline" ]}: each forgery breaks exactly the rule its name says.
 */
final class Forgery {
    private Forgery() {}

    static void forge(long viewsAddress, String field) {
        MemorySegment views = MemorySegment.ofAddress(viewsAddress).reinterpret(48);
        switch (field) {
            case "bufferIndex" -> views.set(ValueLayout.JAVA_INT_UNALIGNED, 16 + 8, 7);
            case "offset" -> views.set(ValueLayout.JAVA_INT_UNALIGNED, 16 + 12, 1 << 20);
            case "prefix" -> views.set(ValueLayout.JAVA_BYTE, 16 + 4, (byte) 'X');
            case "padding" -> views.set(ValueLayout.JAVA_BYTE, 15, (byte) 1);
            case "length" -> views.set(ValueLayout.JAVA_INT_UNALIGNED, 32, -5);
            case "utf8" -> views.set(ValueLayout.JAVA_BYTE, 32 + 4, (byte) 0xFF);
            default -> throw new AssertionError(field);
        }
    }
}
