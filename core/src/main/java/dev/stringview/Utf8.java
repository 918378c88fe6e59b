package dev.stringview;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * UTF-8 well-formedness (RFC 3629 / Unicode Table 3-7 "Well-Formed UTF-8 Byte Sequences"): no overlong forms, no
 * surrogates, nothing above U+10FFFF, no truncated sequences; exactly what {@code new String(bytes, UTF_8)} decodes
 * without replacement characters.
 *
 * <p>ASCII runs are skipped eight bytes at a time ({@code word & 0x8080808080808080 == 0}). Everything else goes
 * through a table-driven DFA in its "shift" form: each state is a multiple of 6, and one {@code long} per input
 * byte packs the next state for every current state, so a byte costs one table load, one shift and one mask, with
 * no branch on the byte's value. Only when a range is rejected is it walked again, byte by byte, to find where the
 * first ill-formed sequence starts.
 *
 * <p>The checks read the caller's memory during the call only, allocate no off-heap memory and keep no reference
 * to it.
 */
public final class Utf8 {
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

    // DFA states, as shift amounts into a transition word. ACCEPT must be 0: a well-formed range ends there.
    private static final int ACCEPT = 0;
    private static final int REJECT = 6;
    /** One more continuation byte (80..BF) completes the character. */
    private static final int TAIL1 = 12;
    /** Two more continuation bytes. */
    private static final int TAIL2 = 18;
    /** Three more continuation bytes. */
    private static final int TAIL3 = 24;
    /** After E0: the next byte is A0..BF (no overlong 3-byte forms). */
    private static final int AFTER_E0 = 30;
    /** After ED: the next byte is 80..9F (no UTF-16 surrogates D800..DFFF). */
    private static final int AFTER_ED = 36;
    /** After F0: the next byte is 90..BF (no overlong 4-byte forms). */
    private static final int AFTER_F0 = 42;
    /** After F4: the next byte is 80..8F (nothing above U+10FFFF). */
    private static final int AFTER_F4 = 48;
    private static final int[] STATES = {ACCEPT, REJECT, TAIL1, TAIL2, TAIL3, AFTER_E0, AFTER_ED, AFTER_F0, AFTER_F4};

    /** {@code (TRANSITIONS[byte] >>> state) & 63} is the state after {@code byte}. */
    private static final long[] TRANSITIONS = new long[256];

    static {
        for (int b = 0; b < 256; b++) {
            long word = 0;
            for (int state : STATES) {
                word |= (long) next(state, b) << state;
            }
            TRANSITIONS[b] = word;
        }
    }

    /** The transition function, spelled out as Table 3-7 reads; it only fills {@link #TRANSITIONS}. */
    private static int next(int state, int b) {
        if (state == ACCEPT) {
            if (b < 0x80) {
                return ACCEPT;
            }
            if (b >= 0xC2 && b <= 0xDF) {
                return TAIL1;
            }
            if (b == 0xE0) {
                return AFTER_E0;
            }
            if (b == 0xED) {
                return AFTER_ED;
            }
            if (b >= 0xE1 && b <= 0xEF) {
                return TAIL2;
            }
            if (b == 0xF0) {
                return AFTER_F0;
            }
            if (b >= 0xF1 && b <= 0xF3) {
                return TAIL3;
            }
            if (b == 0xF4) {
                return AFTER_F4;
            }
            return REJECT; // a continuation byte, C0/C1 or F5..FF as a lead byte
        }
        int lo = 0x80;
        int hi = 0xBF;
        int then;
        switch (state) {
            case TAIL1 -> then = ACCEPT;
            case TAIL2 -> then = TAIL1;
            case TAIL3 -> then = TAIL2;
            case AFTER_E0 -> {
                lo = 0xA0;
                then = TAIL1;
            }
            case AFTER_ED -> {
                hi = 0x9F;
                then = TAIL1;
            }
            case AFTER_F0 -> {
                lo = 0x90;
                then = TAIL2;
            }
            case AFTER_F4 -> {
                hi = 0x8F;
                then = TAIL2;
            }
            default -> {
                return REJECT; // REJECT stays
            }
        }
        return b >= lo && b <= hi ? then : REJECT;
    }

    private Utf8() {}

    /** Whether {@code length} bytes at {@code offset} of {@code segment} are well-formed UTF-8. */
    public static boolean isValid(MemorySegment segment, long offset, long length) {
        checkRange(segment, offset, length);
        return wellFormed(segment, offset, offset + length);
    }

    /**
     * The position, relative to {@code offset}, of the first byte that starts an ill-formed sequence, or -1
     * when all {@code length} bytes are well-formed.
     *
     * @throws IndexOutOfBoundsException if the range is outside the segment
     */
    public static long firstInvalid(MemorySegment segment, long offset, long length) {
        checkRange(segment, offset, length);
        return wellFormed(segment, offset, offset + length) ? -1 : locate(segment, offset, offset + length);
    }

    /** Whether {@code bytes} are well-formed UTF-8. */
    public static boolean isValid(byte[] bytes) {
        return isValid(MemorySegment.ofArray(bytes), 0, bytes.length);
    }

    private static void checkRange(MemorySegment segment, long offset, long length) {
        if (offset < 0 || length < 0 || offset + length > segment.byteSize()) {
            throw new IndexOutOfBoundsException("utf8 range outside segment: offset=" + offset + " length="
                    + length + " segmentSize=" + segment.byteSize());
        }
    }

    /**
     * Whether {@code [from, end)} is well-formed (the caller has checked the bounds). Between ASCII runs the DFA
     * takes up to 16 bytes without looking at its state; REJECT absorbs, so checking it once per run loses nothing.
     *
     * <p>The loop exists twice, once for native and once for heap segments, chosen once per call: HotSpot profiles
     * the receiver type of each {@code segment.get} call site, and one loop that has seen both segment classes
     * cannot be specialized for either, so its accesses keep their liveness and bounds checks inside the loop and
     * native ranges ran about 8 times slower per byte once heap ranges had been validated too (issue 11). Two
     * copies keep two profiles, each monomorphic. Keep them identical.
     */
    static boolean wellFormed(MemorySegment segment, long from, long end) {
        return segment.isNative() ? wellFormedNative(segment, from, end) : wellFormedHeap(segment, from, end);
    }

    /** {@link #wellFormed} for native segments; the same code as {@link #wellFormedHeap}. */
    private static boolean wellFormedNative(MemorySegment segment, long from, long end) {
        long i = from;
        int state = ACCEPT;
        while (i < end) {
            if (state == ACCEPT) {
                while (i + 32 <= end && ((segment.get(ViewLayout.LAYOUT_LE_LONG, i)
                        | segment.get(ViewLayout.LAYOUT_LE_LONG, i + 8) | segment.get(ViewLayout.LAYOUT_LE_LONG, i + 16)
                        | segment.get(ViewLayout.LAYOUT_LE_LONG, i + 24)) & HIGH_BITS) == 0) {
                    i += 32;
                }
                while (i + 8 <= end && (segment.get(ViewLayout.LAYOUT_LE_LONG, i) & HIGH_BITS) == 0) {
                    i += 8;
                }
                if (i >= end) {
                    return true;
                }
            }
            long stop = Math.min(end, i + 16);
            for (; i < stop; i++) {
                state = (int) (TRANSITIONS[segment.get(ValueLayout.JAVA_BYTE, i) & 0xFF] >>> state) & 63;
            }
            if (state == REJECT) {
                return false;
            }
        }
        return state == ACCEPT;
    }

    /** {@link #wellFormed} for heap segments; the same code as {@link #wellFormedNative}. */
    private static boolean wellFormedHeap(MemorySegment segment, long from, long end) {
        long i = from;
        int state = ACCEPT;
        while (i < end) {
            if (state == ACCEPT) {
                while (i + 32 <= end && ((segment.get(ViewLayout.LAYOUT_LE_LONG, i)
                        | segment.get(ViewLayout.LAYOUT_LE_LONG, i + 8) | segment.get(ViewLayout.LAYOUT_LE_LONG, i + 16)
                        | segment.get(ViewLayout.LAYOUT_LE_LONG, i + 24)) & HIGH_BITS) == 0) {
                    i += 32;
                }
                while (i + 8 <= end && (segment.get(ViewLayout.LAYOUT_LE_LONG, i) & HIGH_BITS) == 0) {
                    i += 8;
                }
                if (i >= end) {
                    return true;
                }
            }
            long stop = Math.min(end, i + 16);
            for (; i < stop; i++) {
                state = (int) (TRANSITIONS[segment.get(ValueLayout.JAVA_BYTE, i) & 0xFF] >>> state) & 63;
            }
            if (state == REJECT) {
                return false;
            }
        }
        return state == ACCEPT;
    }

    /** Bytes per block of {@link #wellFormedWhole}'s ASCII test. */
    private static final int WHOLE_BLOCK = 1024;

    /**
     * Whether {@code [from, end)} is well-formed, like {@link #wellFormed}, for long ranges such as a whole data
     * buffer whose values tile it (the caller has checked the bounds). Blocks of {@link #WHOLE_BLOCK} bytes are
     * first tested for a byte of 80..FF by one OR over their words, a loop without a branch or a call that the
     * JIT unrolls and vectorizes; only a block that has one runs the DFA, from its start to the first character
     * boundary at or after its end. Cutting a range at a byte that is not a continuation byte (80..BF) keeps the
     * answer: such a position is a character boundary of any well-formed text, and each piece of a well-formed
     * text is well-formed. A cut right after an ASCII block at a continuation byte, or after three continuation
     * bytes, makes the next piece fail, as the whole range would: there a continuation byte follows ASCII, or a
     * fourth one follows three.
     *
     * <p>One copy for native and one for heap segments, chosen once per call (decision 016).
     */
    static boolean wellFormedWhole(MemorySegment segment, long from, long end) {
        return segment.isNative() ? wellFormedWholeNative(segment, from, end) : wellFormedWholeHeap(segment, from, end);
    }

    /** {@link #wellFormedWhole} for native segments; the same code as {@link #wellFormedWholeHeap}. */
    private static boolean wellFormedWholeNative(MemorySegment segment, long from, long end) {
        long i = from;
        while (end - i >= WHOLE_BLOCK) {
            long any = 0;
            for (int k = 0; k < WHOLE_BLOCK; k += 8) {
                any |= segment.get(ViewLayout.LAYOUT_LE_LONG, i + k);
            }
            if ((any & HIGH_BITS) == 0) {
                i += WHOLE_BLOCK;
                continue;
            }
            long stop = i + WHOLE_BLOCK;
            for (int extra = 0; extra < 3 && stop < end
                    && (segment.get(ValueLayout.JAVA_BYTE, stop) & 0xC0) == 0x80; extra++) {
                stop++;
            }
            if (!wellFormedNative(segment, i, stop)) {
                return false;
            }
            i = stop;
        }
        return wellFormedNative(segment, i, end);
    }

    /** {@link #wellFormedWhole} for heap segments; the same code as {@link #wellFormedWholeNative}. */
    private static boolean wellFormedWholeHeap(MemorySegment segment, long from, long end) {
        long i = from;
        while (end - i >= WHOLE_BLOCK) {
            long any = 0;
            for (int k = 0; k < WHOLE_BLOCK; k += 8) {
                any |= segment.get(ViewLayout.LAYOUT_LE_LONG, i + k);
            }
            if ((any & HIGH_BITS) == 0) {
                i += WHOLE_BLOCK;
                continue;
            }
            long stop = i + WHOLE_BLOCK;
            for (int extra = 0; extra < 3 && stop < end
                    && (segment.get(ValueLayout.JAVA_BYTE, stop) & 0xC0) == 0x80; extra++) {
                stop++;
            }
            if (!wellFormedHeap(segment, i, stop)) {
                return false;
            }
            i = stop;
        }
        return wellFormedHeap(segment, i, end);
    }

    /**
     * Where the first ill-formed sequence of {@code [from, end)} starts, relative to {@code from}, or -1: the DFA
     * again, one byte at a time, remembering where the current character began.
     */
    private static long locate(MemorySegment segment, long from, long end) {
        int state = ACCEPT;
        long start = from;
        for (long i = from; i < end; i++) {
            if (state == ACCEPT) {
                start = i;
            }
            state = (int) (TRANSITIONS[segment.get(ValueLayout.JAVA_BYTE, i) & 0xFF] >>> state) & 63;
            if (state == REJECT) {
                return start - from;
            }
        }
        return state == ACCEPT ? -1 : start - from; // a truncated sequence at the end
    }
}
