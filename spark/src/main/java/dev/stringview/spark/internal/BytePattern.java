package dev.stringview.spark.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A SQL LIKE pattern (escape character {@code \}) or a prefix, compiled to tokens and matched on a
 * {@link UTF8String}'s bytes where they lie (on or off heap), for the V2 functions' row-at-a-time path. The
 * pushed-down path runs the same patterns through core's {@code ViewPredicates.like}; both treat {@code _} as one
 * UTF-8 character and an escaped character as itself.
 */
final class BytePattern {
    private static final int ANY_CHAR = -1;
    private static final int ANY_RUN = -2;

    private final int[] tokens;

    private BytePattern(int[] tokens) {
        this.tokens = tokens;
    }

    static BytePattern like(UTF8String pattern) {
        String p = pattern.toString();
        java.util.List<Integer> out = new java.util.ArrayList<>();
        for (int i = 0; i < p.length(); ) {
            int cp = p.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == '\\' && i < p.length()) {
                cp = p.codePointAt(i);
                i += Character.charCount(cp);
                literal(out, cp);
            } else if (cp == '\\') {
                throw new IllegalArgumentException("LIKE pattern ends with its escape character: pattern=" + p);
            } else if (cp == '%') {
                if (out.isEmpty() || out.get(out.size() - 1) != ANY_RUN) {
                    out.add(ANY_RUN);
                }
            } else if (cp == '_') {
                out.add(ANY_CHAR);
            } else {
                literal(out, cp);
            }
        }
        return new BytePattern(out.stream().mapToInt(Integer::intValue).toArray());
    }

    static BytePattern prefix(UTF8String prefix) {
        byte[] bytes = prefix.getBytes();
        int[] tokens = new int[bytes.length + 1];
        for (int i = 0; i < bytes.length; i++) {
            tokens[i] = bytes[i] & 0xFF;
        }
        tokens[bytes.length] = ANY_RUN;
        return new BytePattern(tokens);
    }

    private static void literal(java.util.List<Integer> out, int codePoint) {
        for (byte b : new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8)) {
            out.add(b & 0xFF);
        }
    }

    /** Whether the whole of {@code s} matches; backtracks only to the last {@code %}. */
    boolean matches(UTF8String s) {
        Object base = s.getBaseObject();
        long offset = s.getBaseOffset();
        int n = s.numBytes();
        int ti = 0;
        int si = 0;
        int starToken = -1;
        int starPosition = 0;
        while (si < n) {
            int token = ti < tokens.length ? tokens[ti] : Integer.MIN_VALUE;
            if (token >= 0 && (Platform.getByte(base, offset + si) & 0xFF) == token) {
                ti++;
                si++;
            } else if (token == ANY_CHAR) {
                si += charLength(Platform.getByte(base, offset + si), n - si);
                ti++;
            } else if (token == ANY_RUN) {
                starToken = ti++;
                starPosition = si;
            } else if (starToken >= 0) {
                starPosition += charLength(Platform.getByte(base, offset + starPosition), n - starPosition);
                si = starPosition;
                ti = starToken + 1;
            } else {
                return false;
            }
        }
        while (ti < tokens.length && tokens[ti] == ANY_RUN) {
            ti++;
        }
        return ti == tokens.length;
    }

    /** The length of the UTF-8 character starting with {@code lead}, at most {@code left}. */
    private static int charLength(byte lead, int left) {
        int b = lead & 0xFF;
        int length = b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        return Math.min(length, left);
    }

    @Override
    public String toString() {
        ByteArrayOutputStream shown = new ByteArrayOutputStream();
        for (int t : tokens) {
            if (t == ANY_RUN) {
                shown.write('%');
            } else if (t == ANY_CHAR) {
                shown.write('_');
            } else {
                shown.write(t);
            }
        }
        return shown.toString(StandardCharsets.UTF_8);
    }
}
