package dev.stringview.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The on-heap peers: {@code String[]} and {@code byte[][]}, with the JDK's own (intrinsified) comparisons.
 *
 * <p>Objects are allocated in a random order of rows, so that on a fresh heap row {@code i} and row {@code i + 1}
 * are not neighbours in memory, as the scattered heap intends. The garbage collector may move them later (a
 * copying collection tends to lay objects out in the order it reaches them from the array): the on-heap layout is
 * whatever the JVM makes of it, which is what a Java engine holding these arrays gets.
 */
final class JavaArrays {
    private JavaArrays() {}

    static String[] strings(StringHeap data) {
        String[] strings = new String[data.rows];
        for (int row : data.allocationOrder()) {
            strings[row] = new String(data.bytes(row), StandardCharsets.ISO_8859_1);
        }
        return strings;
    }

    static byte[][] bytes(StringHeap data) {
        byte[][] bytes = new byte[data.rows][];
        for (int row : data.allocationOrder()) {
            bytes[row] = data.bytes(row);
        }
        return bytes;
    }

    static int count(String[] values, Kernel kernel, byte[] constant) {
        String k = new String(constant, StandardCharsets.ISO_8859_1);
        int count = 0;
        switch (kernel) {
            case EQUAL -> {
                for (String value : values) {
                    if (value.equals(k)) {
                        count++;
                    }
                }
            }
            case LESS_THAN -> {
                for (String value : values) {
                    if (value.compareTo(k) < 0) {
                        count++;
                    }
                }
            }
            case STARTS_WITH -> {
                for (String value : values) {
                    if (value.startsWith(k)) {
                        count++;
                    }
                }
            }
            case CONTAINS -> {
                for (String value : values) {
                    if (value.contains(k)) {
                        count++;
                    }
                }
            }
        }
        return count;
    }

    static int count(byte[][] values, Kernel kernel, byte[] k) {
        int klen = k.length;
        int count = 0;
        switch (kernel) {
            case EQUAL -> {
                for (byte[] value : values) {
                    if (Arrays.equals(value, k)) {
                        count++;
                    }
                }
            }
            case LESS_THAN -> {
                for (byte[] value : values) {
                    if (Arrays.compareUnsigned(value, k) < 0) {
                        count++;
                    }
                }
            }
            case STARTS_WITH -> {
                for (byte[] value : values) {
                    if (value.length >= klen && Arrays.equals(value, 0, klen, k, 0, klen)) {
                        count++;
                    }
                }
            }
            case CONTAINS -> {
                for (byte[] value : values) {
                    if (value.length >= klen && Search.indexOf(value, k) >= 0) {
                        count++;
                    }
                }
            }
        }
        return count;
    }
}
