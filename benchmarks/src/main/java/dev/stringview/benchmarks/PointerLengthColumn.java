package dev.stringview.benchmarks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Seed 001's "SimpleStr" peer: 16 bytes per row, {@code {address, length}}, in a segment. Java cannot
 * dereference a raw address without restricted methods, so the record holds the value's offset in the heap
 * segment instead (int64 at 0, length int32 at 8, 4 bytes of padding): reading {@code heap} at that offset is the
 * faithful equivalent of {@code *ptr}. Every kernel checks the length first, then compares bytes at the address:
 * the first 8 bytes as one word, then {@link MemorySegment#mismatch} (vectorized by the JIT) for the rest, as a
 * C {@code memcmp} inlined by the compiler would.
 */
final class PointerLengthColumn {
    static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final int RECORD = 16;

    final MemorySegment records;
    final MemorySegment heap;
    final int rows;

    PointerLengthColumn(Arena arena, StringHeap data) {
        this.heap = data.heap;
        this.rows = data.rows;
        this.records = arena.allocate((long) rows * RECORD, RECORD);
        for (int row = 0; row < rows; row++) {
            long at = (long) row * RECORD;
            records.set(LE_LONG, at, data.offsets[row]);
            records.set(LE_INT, at + 8, data.lengths[row]);
        }
    }

    int count(Kernel kernel, byte[] constant) {
        MemorySegment k = MemorySegment.ofArray(constant);
        return switch (kernel) {
            case EQUAL -> countEqual(k, constant.length);
            case LESS_THAN -> countLessThan(k, constant.length);
            case STARTS_WITH -> countStartsWith(k, constant.length);
            case CONTAINS -> countContains(k, constant.length);
        };
    }

    private int countEqual(MemorySegment k, int klen) {
        MemorySegment records = this.records;
        MemorySegment heap = this.heap;
        long first = klen >= 8 ? k.get(LE_LONG, 0) : 0;
        int n = rows;
        int count = 0;
        for (int row = 0; row < n; row++) {
            long at = (long) row * RECORD;
            if (records.get(LE_INT, at + 8) != klen) {
                continue;
            }
            long address = records.get(LE_LONG, at);
            if (klen >= 8) {
                if (heap.get(LE_LONG, address) != first) {
                    continue;
                }
                if (klen > 8 && MemorySegment.mismatch(heap, address + 8, address + klen, k, 8, klen) >= 0) {
                    continue;
                }
            } else if (MemorySegment.mismatch(heap, address, address + klen, k, 0, klen) >= 0) {
                continue;
            }
            count++;
        }
        return count;
    }

    private int countLessThan(MemorySegment k, int klen) {
        MemorySegment records = this.records;
        MemorySegment heap = this.heap;
        long first = klen >= 8 ? k.get(BE_LONG, 0) : 0;
        int n = rows;
        int count = 0;
        for (int row = 0; row < n; row++) {
            long at = (long) row * RECORD;
            int length = records.get(LE_INT, at + 8);
            long address = records.get(LE_LONG, at);
            int cmp;
            if (length >= 8 && klen >= 8) {
                long word = heap.get(BE_LONG, address);
                cmp = word != first ? Long.compareUnsigned(word, first)
                        : compare(heap, address + 8, length - 8, k, 8, klen - 8);
            } else {
                cmp = compare(heap, address, length, k, 0, klen);
            }
            if (cmp < 0) {
                count++;
            }
        }
        return count;
    }

    private int countStartsWith(MemorySegment k, int klen) {
        MemorySegment records = this.records;
        MemorySegment heap = this.heap;
        long mask = klen >= 8 ? -1L : (1L << (8 * klen)) - 1;
        long bits = klen >= 8 ? k.get(LE_LONG, 0) : littleEndianPrefix(k, klen);
        int n = rows;
        int count = 0;
        for (int row = 0; row < n; row++) {
            long at = (long) row * RECORD;
            int length = records.get(LE_INT, at + 8);
            if (length < klen) {
                continue;
            }
            long address = records.get(LE_LONG, at);
            boolean match;
            if (length >= 8) {
                match = (heap.get(LE_LONG, address) & mask) == bits
                        && (klen <= 8 || MemorySegment.mismatch(heap, address + 8, address + klen, k, 8, klen) < 0);
            } else {
                match = MemorySegment.mismatch(heap, address, address + klen, k, 0, klen) < 0;
            }
            if (match) {
                count++;
            }
        }
        return count;
    }

    private int countContains(MemorySegment k, int klen) {
        MemorySegment records = this.records;
        MemorySegment heap = this.heap;
        int n = rows;
        int count = 0;
        for (int row = 0; row < n; row++) {
            long at = (long) row * RECORD;
            int length = records.get(LE_INT, at + 8);
            if (length < klen) {
                continue;
            }
            if (Search.indexOf(heap, records.get(LE_LONG, at), length, k, klen) >= 0) {
                count++;
            }
        }
        return count;
    }

    /** Unsigned lexicographic comparison; a proper prefix sorts first. */
    static int compare(MemorySegment a, long aOffset, long aLength, MemorySegment b, long bOffset, long bLength) {
        long m = MemorySegment.mismatch(a, aOffset, aOffset + aLength, b, bOffset, bOffset + bLength);
        if (m < 0) {
            return 0;
        }
        if (m == aLength || m == bLength) {
            return Long.compare(aLength, bLength);
        }
        return Integer.compare(a.get(ValueLayout.JAVA_BYTE, aOffset + m) & 0xFF,
                b.get(ValueLayout.JAVA_BYTE, bOffset + m) & 0xFF);
    }

    static long littleEndianPrefix(MemorySegment k, int length) {
        long bits = 0;
        for (int i = 0; i < Math.min(8, length); i++) {
            bits |= (k.get(ValueLayout.JAVA_BYTE, i) & 0xFFL) << (8 * i);
        }
        return bits;
    }
}
