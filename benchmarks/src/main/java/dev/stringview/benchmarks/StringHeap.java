package dev.stringview.benchmarks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Suite 1's data (seed 001): {@code rows} ASCII strings whose bytes sit in one off-heap "heap" segment, either
 * back to back in row order ({@link Layout#CONTIGUOUS}) or each at a random offset of a large buffer
 * ({@link Layout#SCATTERED}, one random slot of {@code heapBytes / rows} bytes per row, at a random position
 * inside its slot). Every representation under test (views, pointer+length records, Arrow vectors, Java arrays)
 * is built from the same bytes.
 *
 * <p>Values: a 4-byte prefix drawn from 20 prefixes (so 5% of rows share any given prefix, as in the seed's
 * "only ~5% of rows need a deref"), then random characters from a 64-symbol alphabet. One row in a hundred among
 * those with the target's length is the equality target itself. The four constants:
 * <ul>
 *   <li>equal: the target, 8 bytes for {@code lengths=8}, 25 bytes otherwise;</li>
 *   <li>lessThan: the median prefix followed by the target's remaining bytes (about half the rows are less);</li>
 *   <li>startsWith: the target's first 6 bytes (longer than the 4-byte view prefix, so long rows whose prefix
 *   matches must read their bytes);</li>
 *   <li>contains: 4 bytes from the middle of the target.</li>
 * </ul>
 * Deterministic: the same arguments give the same bytes.
 */
final class StringHeap implements AutoCloseable {
    enum Layout { SCATTERED, CONTIGUOUS }

    static final byte[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".getBytes(StandardCharsets.US_ASCII);
    static final int PREFIXES = 20;
    static final long SEED = 0x5EED_0001L;

    final Arena arena;
    final MemorySegment heap;
    final int rows;
    final int[] offsets;
    final int[] lengths;
    final byte[] equal;
    final byte[] lessThan;
    final byte[] startsWith;
    final byte[] contains;

    private StringHeap(Arena arena, MemorySegment heap, int rows, int[] offsets, int[] lengths, byte[] equal,
            byte[] lessThan, byte[] startsWith, byte[] contains) {
        this.arena = arena;
        this.heap = heap;
        this.rows = rows;
        this.offsets = offsets;
        this.lengths = lengths;
        this.equal = equal;
        this.lessThan = lessThan;
        this.startsWith = startsWith;
        this.contains = contains;
    }

    /**
     * @param lengths "8", "25" or "mix" (each row 8 or 25 bytes with probability 1/2)
     * @param heapBytes size of the scattered buffer (ignored for contiguous heaps)
     */
    static StringHeap generate(Layout layout, int rows, String lengths, long heapBytes) {
        return generate(layout, rows, lengths, heapBytes, PREFIXES);
    }

    /**
     * As above with {@code prefixCount} distinct 4-byte prefixes instead of {@value #PREFIXES}; with one, every
     * value shares the constants' first four bytes (the prefix-collision variant, arrow-rs#7351).
     */
    static StringHeap generate(Layout layout, int rows, String lengths, long heapBytes, int prefixCount) {
        if (rows <= 0) {
            throw new IllegalArgumentException("rows must be positive: rows=" + rows);
        }
        if (prefixCount <= 0) {
            throw new IllegalArgumentException("prefix count must be positive: prefixes=" + prefixCount);
        }
        int fixed = switch (lengths) {
            case "8" -> 8;
            case "25" -> 25;
            case "mix" -> -1;
            default -> throw new IllegalArgumentException("unknown lengths: lengths=" + lengths + " expected=8|25|mix");
        };
        int targetLength = fixed == 8 ? 8 : 25;
        SplittableRandom random = new SplittableRandom(SEED ^ (31L * targetLength + fixed) ^ layout.ordinal());
        byte[][] prefixes = distinctPrefixes(random, prefixCount);
        byte[] target = new byte[targetLength];
        System.arraycopy(prefixes[0], 0, target, 0, 4);
        fillRandom(random, target, 4, targetLength);

        int[] rowLengths = new int[rows];
        long total = 0;
        for (int row = 0; row < rows; row++) {
            rowLengths[row] = fixed > 0 ? fixed : (random.nextBoolean() ? 8 : 25);
            total += rowLengths[row];
        }
        long size;
        int slot = 0;
        if (layout == Layout.SCATTERED) {
            slot = (int) Math.min(Integer.MAX_VALUE, heapBytes / rows);
            if (slot < 32) {
                throw new IllegalArgumentException("scattered heap too small for its rows: heapBytes=" + heapBytes
                        + " rows=" + rows + " slotBytes=" + slot + " minSlotBytes=32");
            }
            size = (long) slot * rows;
        } else {
            size = total;
        }
        if (size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("heap larger than a view offset can address: heapBytes=" + size);
        }
        Arena arena = Arena.ofShared();
        try {
            MemorySegment heap = arena.allocate(Math.max(1, size), 64);
            int[] offsets = new int[rows];
            int[] slots = layout == Layout.SCATTERED ? permutation(random, rows) : null;
            byte[] value = new byte[32];
            long next = 0;
            for (int row = 0; row < rows; row++) {
                int length = rowLengths[row];
                if (length == targetLength && random.nextInt(100) == 0) {
                    System.arraycopy(target, 0, value, 0, length);
                } else {
                    System.arraycopy(prefixes[random.nextInt(prefixCount)], 0, value, 0, 4);
                    fillRandom(random, value, 4, length);
                }
                long offset;
                if (slots != null) {
                    offset = (long) slots[row] * slot + random.nextInt(slot - length + 1);
                } else {
                    offset = next;
                    next += length;
                }
                offsets[row] = (int) offset;
                MemorySegment.copy(value, 0, heap, ValueLayout.JAVA_BYTE, offset, length);
            }
            byte[][] sorted = prefixes.clone();
            Arrays.sort(sorted, Arrays::compareUnsigned);
            byte[] lessThan = target.clone();
            System.arraycopy(sorted[prefixCount / 2], 0, lessThan, 0, 4);
            byte[] startsWith = Arrays.copyOf(target, 6);
            int middle = targetLength / 2 - 2;
            byte[] contains = Arrays.copyOfRange(target, middle, middle + 4);
            return new StringHeap(arena, heap, rows, offsets, rowLengths, target, lessThan, startsWith, contains);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /** The constant of {@code kernel}. */
    byte[] constant(Kernel kernel) {
        return switch (kernel) {
            case EQUAL -> equal;
            case LESS_THAN -> lessThan;
            case STARTS_WITH -> startsWith;
            case CONTAINS -> contains;
        };
    }

    /** A copy of row {@code row}'s bytes. */
    byte[] bytes(int row) {
        byte[] value = new byte[lengths[row]];
        MemorySegment.copy(heap, ValueLayout.JAVA_BYTE, offsets[row], value, 0, value.length);
        return value;
    }

    /** Row indices in a random order (seeded): the order in which on-heap peers allocate their objects. */
    int[] allocationOrder() {
        return permutation(new SplittableRandom(SEED * 7 + rows), rows);
    }

    private static byte[][] distinctPrefixes(SplittableRandom random, int count) {
        byte[][] prefixes = new byte[count][];
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < count; ) {
            byte[] p = new byte[4];
            fillRandom(random, p, 0, 4);
            if (seen.add(new String(p, StandardCharsets.US_ASCII))) {
                prefixes[i++] = p;
            }
        }
        return prefixes;
    }

    /** Fills {@code [from, to)} with alphabet symbols, 10 per random long. */
    static void fillRandom(SplittableRandom random, byte[] out, int from, int to) {
        long bits = 0;
        int left = 0;
        for (int i = from; i < to; i++) {
            if (left == 0) {
                bits = random.nextLong();
                left = 10;
            }
            out[i] = ALPHABET[(int) (bits & 63)];
            bits >>>= 6;
            left--;
        }
    }

    static int[] permutation(SplittableRandom random, int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    @Override
    public void close() {
        arena.close();
    }
}
