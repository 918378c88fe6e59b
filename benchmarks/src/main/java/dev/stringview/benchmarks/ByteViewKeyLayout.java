package dev.stringview.benchmarks;

import dev.stringview.ByteView;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Where {@link ByteViewBenchmark}'s lookup keys sit in the heap: for the keys the maps hold, the distance from
 * each key object to its byte array ({@code String.value}, the array of a {@code ByteView} copy) and from each
 * map node to its key, for the {@code String} side and the {@code ByteView}-copy side. A lookup misses on the
 * node, the key and the key's bytes; when two of them share a cache line (or the next one, which the adjacent-line
 * prefetcher brings in) one miss is saved, so a side with more near pairs is faster for reasons that have nothing
 * to do with its code. Printed once right after {@code Keys.setup} and again after a full collection.
 *
 * <p>Reads compressed references with {@code sun.misc.Unsafe} (diagnostics only: the JDK warns once); needs
 * compressed oops with shift 3 (any heap under 32 GiB, as {@link Jvm#XMX}).
 *
 * <pre>
 * java -Xmx6g --enable-native-access=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *     dev.stringview.benchmarks.ByteViewKeyLayout [rows]
 * </pre>
 */
public final class ByteViewKeyLayout {
    private ByteViewKeyLayout() {}

    public static void main(String[] args) throws ReflectiveOperationException {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        ByteViewBenchmark.Keys k = new ByteViewBenchmark.Keys();
        k.rows = rows;
        k.setup();
        try {
            System.out.println(Demo.machine() + ", commit " + RunContext.commit() + ", rows=" + rows);
            print("after setup", measure(k));
            System.gc();
            print("after System.gc()", measure(k));
        } finally {
            k.tearDown();
        }
    }

    private static void print(String when, Map<String, double[]> rows) {
        System.out.println(when + ": pair, share within 64 B / 128 B, median |distance| in bytes");
        rows.forEach((name, r) -> System.out.println(String.format(Locale.ROOT, "  %-28s %5.1f%% %5.1f%% %10.0f",
                name, 100 * r[0], 100 * r[1], r[2])));
    }

    /** Per pair: share of keys within 64 and 128 bytes, median absolute distance. */
    static Map<String, double[]> measure(ByteViewBenchmark.Keys k) throws ReflectiveOperationException {
        Heap heap = new Heap();
        int mapped = k.stringMap.size();
        long[] stringToValue = new long[mapped];
        long[] copyToArray = new long[mapped];
        long[] nodeToString = new long[mapped];
        long[] nodeToCopy = new long[mapped];
        for (int i = 0; i < mapped; i++) {
            stringToValue[i] = heap.address(k.strings[i], heap.stringValue)
                    - heap.address(k.strings[i]);
            copyToArray[i] = heap.address(k.copies[i], heap.viewData) - heap.address(k.copies[i]);
        }
        heap.nodeDistances(k.stringMap, nodeToString);
        heap.nodeDistances(k.copyMap, nodeToCopy);
        Map<String, double[]> out = new LinkedHashMap<>();
        out.put("String -> value", summary(stringToValue));
        out.put("ByteView copy -> array", summary(copyToArray));
        out.put("node -> String", summary(nodeToString));
        out.put("node -> ByteView copy", summary(nodeToCopy));
        return out;
    }

    private static double[] summary(long[] distances) {
        long[] abs = Arrays.stream(distances).map(Math::abs).sorted().toArray();
        long near64 = Arrays.stream(abs).filter(d -> d <= 64).count();
        long near128 = Arrays.stream(abs).filter(d -> d <= 128).count();
        return new double[] {near64 / (double) abs.length, near128 / (double) abs.length, abs[abs.length / 2]};
    }

    /** Addresses of objects and of what their reference fields point to, from compressed references. */
    private static final class Heap {
        final sun.misc.Unsafe unsafe;
        final long stringValue;
        final long viewData;
        final long nodeKey;
        final long nodeNext;
        final long mapTable;
        final Object[] holder = new Object[1];

        Heap() throws ReflectiveOperationException {
            Field field = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            unsafe = (sun.misc.Unsafe) field.get(null);
            if (sun.misc.Unsafe.ARRAY_OBJECT_INDEX_SCALE != 4) {
                throw new IllegalStateException("needs compressed references: referenceBytes="
                        + sun.misc.Unsafe.ARRAY_OBJECT_INDEX_SCALE);
            }
            stringValue = unsafe.objectFieldOffset(String.class.getDeclaredField("value"));
            viewData = unsafe.objectFieldOffset(ByteView.class.getDeclaredField("data"));
            Class<?> node = Class.forName("java.util.HashMap$Node");
            nodeKey = unsafe.objectFieldOffset(node.getDeclaredField("key"));
            nodeNext = unsafe.objectFieldOffset(node.getDeclaredField("next"));
            mapTable = unsafe.objectFieldOffset(java.util.HashMap.class.getDeclaredField("table"));
        }

        /** Address of {@code object} (compressed reference, shift 3). */
        long address(Object object) {
            holder[0] = object;
            long narrow = unsafe.getInt(holder, (long) sun.misc.Unsafe.ARRAY_OBJECT_BASE_OFFSET) & 0xFFFF_FFFFL;
            holder[0] = null;
            return narrow << 3;
        }

        /** Address of the object that the reference field at {@code offset} of {@code object} points to. */
        long address(Object object, long offset) {
            return (unsafe.getInt(object, offset) & 0xFFFF_FFFFL) << 3;
        }

        /** Node-to-key distances of every entry of {@code map} (a {@code HashMap}), in table order. */
        void nodeDistances(Map<?, ?> map, long[] out) {
            Object[] table = (Object[]) unsafe.getObject(map, mapTable);
            int n = 0;
            for (Object first : table) {
                for (Object node = first; node != null; node = unsafe.getObject(node, nodeNext)) {
                    out[n++] = address(node, nodeKey) - address(node);
                }
            }
            if (n != out.length) {
                throw new IllegalStateException("map walk found " + n + " nodes, expected " + out.length);
            }
        }
    }
}
