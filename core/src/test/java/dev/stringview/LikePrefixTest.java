package dev.stringview;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ViewPredicates#likePrefix}: the literal bytes every match of a LIKE pattern starts with, from the same parser
 * as {@link ViewPredicates#like} (readers prune by it, so a match outside it would be a wrong answer).
 */
class LikePrefixTest {
    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void thePrefixIsTheLeadingLiterals() {
        assertArrayEquals(utf8("ab"), ViewPredicates.likePrefix("ab%c", null));
        assertArrayEquals(utf8("abc"), ViewPredicates.likePrefix("abc", null));
        assertArrayEquals(utf8("a%b"), ViewPredicates.likePrefix("a\\%b%", '\\'));
        assertArrayEquals(utf8("a\\"), ViewPredicates.likePrefix("a\\%b%", null));
        assertArrayEquals(utf8(""), ViewPredicates.likePrefix("_x", null));
        assertArrayEquals(utf8("é中"), ViewPredicates.likePrefix("é中_%", null));
        assertThrows(IllegalArgumentException.class, () -> ViewPredicates.likePrefix("ab\\", '\\'));
    }

    @Test
    void everyMatchStartsWithThePrefix() {
        Random random = new Random(5);
        String[] pieces = {"a", "b", "é", "%", "_", "\\%", "\\_", "\\\\", "ab"};
        String[] values = {"", "a", "ab", "aab", "abab", "é", "éa", "a%", "a_b", "ba", "%", "\\", "abcdefghijklmnop"};
        try (Arena arena = Arena.ofConfined()) {
            ViewColumn column = ViewColumns.ofStrings(arena, values);
            int[] out = new int[values.length];
            for (int t = 0; t < 3000; t++) {
                StringBuilder p = new StringBuilder();
                for (int i = random.nextInt(5); i > 0; i--) {
                    p.append(pieces[random.nextInt(pieces.length)]);
                }
                Character escape = random.nextBoolean() ? '\\' : null;
                String pattern = p.toString();
                byte[] prefix;
                try {
                    prefix = ViewPredicates.likePrefix(pattern, escape);
                } catch (IllegalArgumentException e) {
                    assertThrows(IllegalArgumentException.class, () -> ViewPredicates.like(pattern, escape));
                    continue;
                }
                int n = ViewPredicates.like(pattern, escape).select(column, out);
                for (int i = 0; i < n; i++) {
                    byte[] v = utf8(values[out[i]]);
                    assertTrue(v.length >= prefix.length && Arrays.equals(v, 0, prefix.length, prefix, 0,
                            prefix.length), "pattern=" + pattern + " escape=" + escape + " value=" + values[out[i]]);
                }
            }
        }
    }
}
