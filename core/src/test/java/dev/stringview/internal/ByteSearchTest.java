package dev.stringview.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import static dev.stringview.Gen.API;

import com.sageserpent.americium.java.Trials;
import dev.stringview.Gen;
import org.junit.jupiter.api.Test;

/** The SWAR rare-byte search finds exactly the first occurrence a naive search finds, at every offset and length. */
class ByteSearchTest {
    /**
     * The properties run on the vector loops where this JVM has them (the default surefire run) and on the scalar
     * loops where it has not (the scalar-kernels run, core/pom.xml): the kernels take the vector loops only after
     * the explicit warm-up.
     */
    @org.junit.jupiter.api.BeforeAll
    static void warmUpVectorLoops() {
        Vectorization.warmUp();
    }

    static Trials<byte[]> text() {
        // Few distinct bytes (including NUL, 0x01 right above it, and bytes >= 0x80) so needles recur often.
        // The content comes from one recorded seed (cheap for Americium to generate); length and seed shrink.
        byte[] alphabet = {'a', 'b', 'g', 'e', 0, 1, (byte) 0x80, (byte) 0xFF};
        return Gen.zip(API.integers(0, 120), API.longs(), (n, seed) -> {
            java.util.Random random = new java.util.Random(seed);
            byte[] out = new byte[n];
            for (int i = 0; i < n; i++) {
                out[i] = alphabet[random.nextInt(alphabet.length)];
            }
            return out;
        });
    }

    /** Where to cut a needle out of the text: whether to, and a start and length (reduced modulo the text). */
    record Cut(boolean take, int from, int length) {}

    static Trials<Cut> cuts() {
        return API.booleans().and(small()).and(small()).trials().map(t -> new Cut(t._1(), t._2(), t._3()));
    }

    @Test
    void findsTheFirstOccurrence() {
        Gen.forAll(3000, text(), text(), cuts(), (haystack, randomNeedle, cut) ->
                findsTheFirstOccurrence(haystack, randomNeedle, cut.take(), cut.from(), cut.length()));
    }

    private static void findsTheFirstOccurrence(byte[] haystack, byte[] randomNeedle, boolean takeFromHaystack,
            int from, int length) {
        byte[] needle = randomNeedle.length > 20 ? java.util.Arrays.copyOf(randomNeedle, 20) : randomNeedle;
        if (takeFromHaystack && haystack.length > 0) {
            int start = from % haystack.length;
            int end = Math.min(haystack.length, start + length % 21);
            needle = java.util.Arrays.copyOfRange(haystack, start, end);
        }
        // Search a window in the middle of a larger segment so reads past the window would be noticed.
        byte[] padded = new byte[haystack.length + 16];
        java.util.Arrays.fill(padded, (byte) 'g');
        System.arraycopy(haystack, 0, padded, 8, haystack.length);
        ByteSearch search = new ByteSearch(needle);
        long expected = naive(haystack, needle);
        // indexOf takes the vector screen for long haystacks (the test JVM has the incubator module); the scalar
        // code is checked on its own as well, so both implementations face every case.
        assertEquals(expected, search.indexOf(MemorySegment.ofArray(padded), 8, haystack.length));
        assertEquals(expected, search.indexOfScalar(MemorySegment.ofArray(padded), 8, haystack.length));
    }

    /** The in-register search of inline values agrees with a naive search, whatever lies past the value's end. */
    @Test
    void searchesInlineValuesInRegisters() {
        Gen.forAll(3000, text(), text(), cuts(), API.longs(), (text, randomNeedle, cut, garbage) ->
                searchesInlineValuesInRegisters(text, randomNeedle, cut.take(), cut.from(), cut.length(), garbage));
    }

    private static void searchesInlineValuesInRegisters(byte[] text, byte[] randomNeedle, boolean takeFromValue,
            int from, int length, long garbage) {
        byte[] value = java.util.Arrays.copyOf(text, Math.min(12, text.length));
        byte[] needle = java.util.Arrays.copyOf(randomNeedle, Math.min(13, randomNeedle.length));
        if (takeFromValue && value.length > 0) {
            int start = from % value.length;
            needle = java.util.Arrays.copyOfRange(value, start, Math.min(value.length, start + length % 13));
        }
        // The 12 bytes as the two words would hold them, with garbage (not zeros) past the value's end.
        byte[] twelve = new byte[16];
        for (int i = 0; i < 16; i++) {
            twelve[i] = i < value.length ? value[i] : (byte) (garbage >>> (8 * (i % 8)));
        }
        MemorySegment words = MemorySegment.ofArray(twelve);
        long low = words.get(dev.stringview.ViewLayout.LAYOUT_LE_LONG, 0);
        long high = words.get(dev.stringview.ViewLayout.LAYOUT_LE_LONG, 8) & 0xFFFF_FFFFL;
        assertEquals(naive(value, needle) >= 0, new ByteSearch(needle).occursInInline(low, high, value.length),
                () -> "value=" + java.util.Arrays.toString(value));
    }

    /**
     * Surefire runs the kernel tests twice (core/pom.xml): with --add-modules jdk.incubator.vector, where the vector
     * code must be active once warmed up, and with -Dstringview.vectorization=false, where it must not be. So
     * neither run can silently test the other's code.
     */
    @Test
    void vectorCodeIsActiveExactlyWhenExpected() {
        boolean expected = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
                && !"false".equals(System.getProperty(Vectorization.PROPERTY));
        assertEquals(expected, Vectorization.warmUp(), Vectorization.describe());
        assertEquals(expected, Vectorization.search() != null, Vectorization.describe());
    }

    static Trials<Integer> small() {
        return API.integers(0, 1000);
    }

    @Test
    void urlExamples() {
        byte[] url = "https://www.example.com/search?q=google+views&lang=en".getBytes(StandardCharsets.US_ASCII);
        MemorySegment segment = MemorySegment.ofArray(url);
        assertEquals(33, new ByteSearch("google".getBytes(StandardCharsets.US_ASCII)).indexOf(segment, 0, url.length));
        assertEquals(-1, new ByteSearch("googlx".getBytes(StandardCharsets.US_ASCII)).indexOf(segment, 0, url.length));
        assertEquals(url.length - 2, new ByteSearch("en".getBytes(StandardCharsets.US_ASCII)).indexOf(segment, url.length - 2, 2) + url.length - 2);
        assertEquals(0, new ByteSearch(new byte[0]).indexOf(segment, 5, 0));
    }

    private static long naive(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (haystack[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
