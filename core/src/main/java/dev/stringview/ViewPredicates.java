package dev.stringview;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Compiles predicates against constants. Strings are encoded as UTF-8; all comparisons are unsigned bytewise,
 * which for UTF-8 is Unicode code point order. Every predicate is immutable and thread-safe.
 */
public final class ViewPredicates {
    private ViewPredicates() {}

    public static ViewPredicate equalTo(String value) {
        return equalTo(utf8(value));
    }

    public static ViewPredicate equalTo(byte[] value) {
        return new EqualityPredicate(constant(value), false);
    }

    public static ViewPredicate notEqualTo(String value) {
        return notEqualTo(utf8(value));
    }

    public static ViewPredicate notEqualTo(byte[] value) {
        return new EqualityPredicate(constant(value), true);
    }

    public static ViewPredicate lessThan(String value) {
        return compare(Comparison.LESS_THAN, utf8(value));
    }

    public static ViewPredicate lessThanOrEqual(String value) {
        return compare(Comparison.LESS_THAN_OR_EQUAL, utf8(value));
    }

    public static ViewPredicate greaterThan(String value) {
        return compare(Comparison.GREATER_THAN, utf8(value));
    }

    public static ViewPredicate greaterThanOrEqual(String value) {
        return compare(Comparison.GREATER_THAN_OR_EQUAL, utf8(value));
    }

    /** {@code value <op> constant}. */
    public static ViewPredicate compare(Comparison comparison, String value) {
        return compare(comparison, utf8(value));
    }

    /** {@code value <op> constant}. */
    public static ViewPredicate compare(Comparison comparison, byte[] value) {
        return switch (Objects.requireNonNull(comparison, "comparison")) {
            case EQUAL -> equalTo(value);
            case NOT_EQUAL -> notEqualTo(value);
            default -> new OrderPredicate(constant(value), comparison);
        };
    }

    public static ViewPredicate startsWith(String prefix) {
        return startsWith(utf8(prefix));
    }

    public static ViewPredicate startsWith(byte[] prefix) {
        return new PrefixPredicate(constant(prefix));
    }

    public static ViewPredicate endsWith(String suffix) {
        return endsWith(utf8(suffix));
    }

    public static ViewPredicate endsWith(byte[] suffix) {
        return new SuffixPredicate(constant(suffix));
    }

    public static ViewPredicate contains(String needle) {
        return contains(utf8(needle));
    }

    public static ViewPredicate contains(byte[] needle) {
        return new ContainsPredicate(constant(needle));
    }

    /** SQL {@code LIKE} without an escape character: {@code %} is any run of characters, {@code _} one character. */
    public static ViewPredicate like(String pattern) {
        return like(pattern, null);
    }

    /**
     * SQL {@code LIKE pattern ESCAPE escape}: the escape character makes the next character ({@code %}, {@code _}
     * or the escape itself) literal. Patterns of the shapes {@code abc}, {@code abc%}, {@code %abc} and
     * {@code %abc%} run as the equality, prefix, suffix and substring kernels.
     *
     * @param escape the escape character, or null for none
     * @throws IllegalArgumentException if the pattern ends with the escape character
     */
    public static ViewPredicate like(String pattern, Character escape) {
        int[] items = parseLike(pattern, escape);
        for (int item : items) {
            if (item == LikePredicate.ANY) {
                return new LikePredicate(items);
            }
        }
        return simpleLike(items);
    }

    /**
     * The literal bytes every value matching {@code pattern LIKE ... ESCAPE escape} starts with (empty when the
     * pattern starts with a wildcard), parsed exactly as {@link #like(String, Character)} parses it: for readers that
     * prune by bounds (a value outside every string starting with these bytes cannot match).
     *
     * @throws IllegalArgumentException if the pattern ends with the escape character
     */
    public static byte[] likePrefix(String pattern, Character escape) {
        int[] items = parseLike(pattern, escape);
        int n = 0;
        while (n < items.length && items[n] >= 0) {
            n++;
        }
        return literalBytes(items, 0, n);
    }

    /** The pattern as LikePredicate items: literal bytes 0..255, ANY or STAR (no two STARs in a row). */
    private static int[] parseLike(String pattern, Character escape) {
        Objects.requireNonNull(pattern, "pattern");
        List<Integer> items = new ArrayList<>();
        for (int i = 0; i < pattern.length(); ) {
            int cp = pattern.codePointAt(i);
            int width = Character.charCount(cp);
            if (escape != null && cp == escape) {
                if (i + width >= pattern.length()) {
                    throw new IllegalArgumentException("LIKE pattern ends with its escape character: pattern="
                            + pattern + " position=" + i);
                }
                i += width;
                cp = pattern.codePointAt(i);
                width = Character.charCount(cp);
                addLiteral(items, cp);
            } else if (cp == '%') {
                if (items.isEmpty() || items.get(items.size() - 1) != LikePredicate.STAR) {
                    items.add(LikePredicate.STAR);
                }
            } else if (cp == '_') {
                items.add(LikePredicate.ANY);
            } else {
                addLiteral(items, cp);
            }
            i += width;
        }
        return items.stream().mapToInt(Integer::intValue).toArray();
    }

    /** {@code value IN (values...)}; null elements are ignored, as they can never make a row match. */
    public static ViewPredicate in(String... values) {
        List<byte[]> bytes = new ArrayList<>(values.length);
        for (String value : values) {
            if (value != null) {
                bytes.add(utf8(value));
            }
        }
        return in(bytes);
    }

    /** {@code value IN (values...)} over byte strings; null elements are ignored. */
    public static ViewPredicate in(List<byte[]> values) {
        List<Constant> distinct = new ArrayList<>();
        Set<ByteBuffer> seen = new HashSet<>(); // ByteBuffer equality compares the bytes
        for (byte[] value : values) {
            if (value != null && seen.add(ByteBuffer.wrap(value))) {
                distinct.add(new Constant(value));
            }
        }
        return new InListPredicate(distinct);
    }

    /** Maps a pattern without {@code _} to the cheapest kernel for its shape. */
    private static ViewPredicate simpleLike(int[] items) {
        int stars = 0;
        for (int item : items) {
            stars += item == LikePredicate.STAR ? 1 : 0;
        }
        boolean leading = items.length > 0 && items[0] == LikePredicate.STAR;
        boolean trailing = items.length > 0 && items[items.length - 1] == LikePredicate.STAR;
        if (stars == 0) {
            return equalTo(literalBytes(items, 0, items.length));
        }
        if (stars == 1 && trailing) {
            return startsWith(literalBytes(items, 0, items.length - 1));
        }
        if (stars == 1 && leading) {
            return endsWith(literalBytes(items, 1, items.length));
        }
        if (stars == 2 && leading && trailing) {
            return contains(literalBytes(items, 1, items.length - 1));
        }
        return new LikePredicate(items);
    }

    private static byte[] literalBytes(int[] items, int from, int to) {
        byte[] bytes = new byte[to - from];
        for (int i = from; i < to; i++) {
            bytes[i - from] = (byte) items[i];
        }
        return bytes;
    }

    private static void addLiteral(List<Integer> items, int codePoint) {
        for (byte b : new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8)) {
            items.add(b & 0xFF);
        }
    }

    private static byte[] utf8(String value) {
        return Objects.requireNonNull(value, "constant").getBytes(StandardCharsets.UTF_8);
    }

    private static Constant constant(byte[] value) {
        return new Constant(Objects.requireNonNull(value, "constant"));
    }
}
