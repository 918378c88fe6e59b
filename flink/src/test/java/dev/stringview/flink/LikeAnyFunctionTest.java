package dev.stringview.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.regex.Pattern;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.junit.jupiter.api.Test;

/** {@link LikeAnyFunction} called directly, against a regular-expression model of LIKE, on seeded strings. */
class LikeAnyFunctionTest {
    private static final String ALPHABET = "ab%_é日\n";
    private static final String[] PATTERNS = {"%", "a%", "%a", "%ab%", "a_b", "_", "%é%", "é%", "%日_", "ab",
        "abababababab", "abababababab%", "%b_a%b", "a\\%b", "\\_%", ""};

    /** LIKE with escape '\' as a regular expression over code points; '%' and '_' also match newlines. */
    private static boolean model(String s, String pattern) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); ) {
            int cp = pattern.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == '\\') {
                cp = pattern.codePointAt(i);
                i += Character.charCount(cp);
                regex.append(Pattern.quote(Character.toString(cp)));
            } else if (cp == '%') {
                regex.append(".*");
            } else if (cp == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(Character.toString(cp)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(s).matches();
    }

    /** The string's bytes at an offset inside a larger heap segment, as Flink's rows hold them. */
    private static BinaryStringData inRow(String s, int offset) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        byte[] row = new byte[offset + bytes.length + 5];
        System.arraycopy(bytes, 0, row, offset, bytes.length);
        return BinaryStringData.fromAddress(new MemorySegment[] {MemorySegmentFactory.wrap(row)}, offset,
                bytes.length);
    }

    @Test
    void matchesLikeTheModel() {
        Random random = new Random(42);
        for (int trial = 0; trial < 3000; trial++) {
            int length = random.nextInt(18); // 0..17 characters: inline and long views
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < length; i++) {
                s.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            String p1 = PATTERNS[random.nextInt(PATTERNS.length)];
            String p2 = PATTERNS[random.nextInt(PATTERNS.length)];
            LikeAnyFunction f = new LikeAnyFunction(p1, p2);
            boolean expected = model(s.toString(), p1) || model(s.toString(), p2);
            String value = s.toString();
            assertEquals(expected, f.eval(inRow(value, random.nextInt(40))),
                    () -> "value=" + value.replace("\n", "\\n") + " patterns=" + p1 + "," + p2);
            assertEquals(expected, f.eval(BinaryStringData.fromString(value)));
        }
    }

    @Test
    void longValuesAndSplitSegments() {
        LikeAnyFunction f = new LikeAnyFunction("%needle%", "prefix%");
        String hay = "x".repeat(100) + "needle" + "y".repeat(50);
        assertEquals(true, f.eval(inRow(hay, 7)));
        assertEquals(false, f.eval(inRow("x".repeat(100), 3)));
        // A string spread over two segments is copied into one array first.
        byte[] bytes = ("prefix" + "z".repeat(30)).getBytes(StandardCharsets.UTF_8);
        byte[] a = java.util.Arrays.copyOfRange(bytes, 0, 16);
        BinaryStringData split = BinaryStringData.fromAddress(new MemorySegment[] {MemorySegmentFactory.wrap(a),
            MemorySegmentFactory.wrap(java.util.Arrays.copyOfRange(bytes, 16, bytes.length))}, 0, bytes.length);
        assertEquals(true, f.eval(split));
    }

    @Test
    void nullAndBadPatterns() {
        assertNull(new LikeAnyFunction("%").eval(null));
        assertThrows(IllegalArgumentException.class, LikeAnyFunction::new);
        assertThrows(IllegalArgumentException.class, () -> new LikeAnyFunction("abc\\"));
    }
}
