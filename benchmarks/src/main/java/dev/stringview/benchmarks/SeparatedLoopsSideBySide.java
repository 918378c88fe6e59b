package dev.stringview.benchmarks;

import dev.stringview.InlineViews;
import dev.stringview.format.internal.AsciiBits;
import dev.stringview.format.internal.SizeCodec;
import dev.stringview.format.internal.ViewLoops;
import dev.stringview.internal.InlineViewLoop;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;

/**
 * The loops of seed 003's separated reader at sizes 1, 8 and 64 taken apart (one 65,535-row block of inline
 * values), each in the shape it has, or had, in {@code ColumnDeserializer} / {@code SizeCodec}, run in alternating
 * rounds in one JVM and timed in thread CPU time; prints medians, µs per block. It is how the size-1 read was
 * accounted for and why the loops look as they do:
 * <ul>
 *   <li>{@code signsOr} / {@code signsCount}: the sizes' sign check as one OR reduction (C2 on JDK 25 leaves it
 *       scalar, one OR a cycle) and as a count of sign bits (vectorized);
 *   <li>{@code sum}, {@code longestClass}: the other passes over the sizes, as they were until the reader fused
 *       them with the sign check into {@code summarize} ({@code SizeCodec.summarize}, the reader's one pass now);
 *   <li>{@code sizesCopy}: the raw sizes stream (little-endian ints in a heap segment) copied into the
 *       {@code int[]} the view loops read, what the raw decode does; {@code summarizeRaw}: the reader's
 *       summarizing pass over the raw sizes in their segment ({@code SizeCodec.summarize(MemorySegment, int)}),
 *       with no copy (C2 vectorizes it), and {@code copySummarize} the same pass storing each size into the
 *       {@code int[]} as well (C2 leaves that one scalar);
 *   <li>{@code asciiTest}: the chars' ASCII test of the validated read ({@code AsciiBits.highBits});
 *   <li>{@code viewsArray} / {@code viewsSegment} (maxLength 4 or less): the ≤ 4-byte view loop reading the chars through the array's
 *       {@code VarHandle} and through a heap segment over the same array (the views go to a native segment);
 *   <li>{@code storesOnly}: the same two stores a row with nothing computed, the floor of any view loop;
 *   <li>{@code copyViews}: 16 bytes a row copied from a heap array into the native views, what Arrow IPC's reader
 *       does with a block's stored views; {@code fillViews}: the views segment filled (memset), the floor of
 *       storing 16 bytes a row at all;
 *   <li>{@code copyToNative}: the block's chars copied from the heap array into native memory, what the reader
 *       now does for inline-only blocks so that {@code InlineViews}' vector form reads the memory kind it was
 *       compiled for;
 *   <li>{@code inlineViewsLoop} / {@code inlineViews}: core's {@code InlineViews} over those native chars, its
 *       scalar loop and its public entry (the vector form once warm: run with
 *       {@code --add-modules=jdk.incubator.vector}; the harness waits for the warm-up and says which ran);
 *       {@code inlineViewsUpTo4} (maxLength 4 or less): its entry for values of at most 4 bytes, which the reader
 *       takes for such blocks; {@code inlineViewsUpTo8} (lengths of at most 8 bytes: maxLength up to 6, whose
 *       longest is round(1.2 maxLength)): its entry for values of at most 8 bytes; {@code inlineViewsArray}: its
 *       entry over the heap chars themselves ({@code byte[]}, the form by the block's longest class, 4, 8 or 12),
 *       the one the reader takes, with no copy to native memory;
 *   <li>{@code inlineViewsHeapChars}, only with the fourth argument {@code heapChars}: the public entry over the
 *       heap chars themselves (no copy to native memory); it also recompiles the builder for both kinds of chars,
 *       so the {@code inlineViews} row of that run shows what a caller mixing them would pay.
 * </ul>
 * With a {@code maxLength} of 16 or more (SerializationBenchmark's data at that size, every value over 12 bytes,
 * e.g. 51..77 at 64) it takes a block of long values apart instead: {@code summarize}, {@code sizesCopy};
 * {@code copyToNative} ({@code MemorySegment.copy} of the chars), {@code asciiTest}, {@code testThenCopyPieces}
 * (the reader's former chars pass) and {@code copyHighBits} (its pass now, the copy that ORs the words);
 * {@code viewsMixed} and {@code viewsAllLong} (the reader's view loops, {@code ViewLoops}), {@code viewsAllLongArray}
 * (the all-long loop's first form, a 4-byte prefix load through the array's {@code VarHandle}),
 * {@code viewsAllLongMasked} (its second, word 0 masked and ORed with the length where it is now two stores),
 * {@code viewsNoPrefix} (their stores and offsets without the prefix load); the dropped alternatives
 * {@code viewsSplit}, {@code viewsUnrolled4}, {@code fusedBytes16k}, {@code fusedRows256CopyFirst} and
 * {@code fusedRows256ViewsFirst} (copy, test and views fused in chunks), {@code viewsAllLongRawSizes} (the sizes
 * read from the raw stream, no {@code int[]}), {@code viewsAllLong4Stores} (word 1 as two 4-byte stores),
 * {@code viewsAllLongIntStores} (the prefix as a 4-byte load and store at the value's start) and
 * {@code viewsAllLongChunk} (the views through a heap chunk copied 256 at a time), {@code viewsWindow256},
 * {@code 512}, {@code 1024} and {@code viewsWindowArray512} (each window of views built in a heap {@code long[]} by a
 * counted inner loop, then copied at once), {@code windowBuildOnly512} and {@code windowCopyOnly512} (its two parts),
 * {@code prefixLoadsOnly} and {@code prefixLoadsOneSum} (the loop's loads with no store), {@code viewsVectorWords512}
 * and {@code viewsVectorPermute4} (Vector API forms, {@link VectorForms}, only with the incubator module),
 * {@code viewsThenCopy1024},
 * {@code 4096} and {@code 16384} (views and copy interleaved by chunks of rows, against {@code copyThenViewsAllLong},
 * the reader's order); {@code summarizeRawLong} (the
 * summarizing pass over the raw sizes stream); and Arrow's parts, {@code copyViews} and {@code fillViews}.
 *
 * <p>{@code java --add-modules=jdk.incubator.vector -cp benchmarks/target/benchmarks.jar
 * dev.stringview.benchmarks.SeparatedLoopsSideBySide [rounds] [rows] [maxLength] [heapChars]} (maxLength 1: every value
 * 1 byte; 2..4: lengths uniform in 0..maxLength; 5..10 and 16..1024: SerializationBenchmark's data at that size,
 * lengths uniform in [round(0.8 size), round(1.2 size)], e.g. 6..10 at 8).
 */
public final class SeparatedLoopsSideBySide {
    private static final VarHandle BYTES_LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BYTES_LE_INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE_INT =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Word 0 masks of a value of 0..4 bytes (ColumnDeserializer's WORD0_MASKS up to 4). */
    private static final long[] WORD0_MASKS = new long[16];

    static {
        for (int length = 0; length < 16; length++) {
            int bytes = Math.min(length, 4);
            WORD0_MASKS[length] = ((1L << (8 * bytes)) - 1) << 32;
        }
    }

    private SeparatedLoopsSideBySide() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 65_535;
        int maxLength = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        boolean heapCharsToo = args.length > 3 && args[3].equals("heapChars");
        if (rounds < 1 || rows < 1 || maxLength < 1 || maxLength > 10 && maxLength < 16 || maxLength > 1024) {
            throw new IllegalArgumentException("rounds=" + rounds + " rows=" + rows + " maxLength=" + maxLength
                    + " (rounds >= 1, rows >= 1, maxLength 1..4, or 5..10 or 16..1024 for SerializationBenchmark's"
                    + " size)");
        }
        if (maxLength >= 16) {
            longValues(rounds, rows, maxLength);
            return;
        }
        Random random = new Random(42);
        int[] sizes = new int[rows];
        boolean tiny = maxLength <= 4; // the <= 4-byte view loops run only then
        boolean upTo8 = Math.round(1.2f * maxLength) <= 8; // the <= 8-byte builder runs only then
        int low = Math.round(0.8f * maxLength);
        int high = Math.round(1.2f * maxLength);
        Arrays.setAll(sizes, i -> maxLength == 1 ? 1 : tiny ? random.nextInt(maxLength + 1)
                : low + random.nextInt(high - low + 1));
        long total = Arrays.stream(sizes).asLongStream().sum();
        byte[] chars = new byte[(int) total + 8]; // 8 bytes of room: every row's load stays inside
        random.nextBytes(chars);
        MemorySegment heapChars = MemorySegment.ofArray(chars);
        MemorySegment views = Arena.global().allocate(16L * rows, 16);
        Map<String, LongSupplier> loops = new LinkedHashMap<>();
        loops.put("signsOr", () -> signsOr(sizes, rows));
        loops.put("signsCount", () -> signsCount(sizes, rows));
        loops.put("sum", () -> sum(sizes, rows));
        loops.put("longestClass", () -> longestClass(sizes, rows));
        loops.put("summarize", () -> SizeCodec.summarize(sizes, rows).sum());
        byte[] rawSizes = new byte[4 * rows];
        MemorySegment.copy(sizes, 0, MemorySegment.ofArray(rawSizes), LE_INT, 0, rows);
        MemorySegment rawSizesSegment = MemorySegment.ofArray(rawSizes);
        int[] decoded = new int[rows];
        loops.put("sizesCopy", () -> {
            MemorySegment.copy(rawSizesSegment, LE_INT, 0, decoded, 0, rows);
            return decoded[rows - 1];
        });
        loops.put("summarizeRaw", () -> SizeCodec.summarize(rawSizesSegment, rows).sum());
        loops.put("copySummarize", () -> copySummarize(rawSizesSegment, rows, decoded));
        loops.put("asciiTest", () -> AsciiBits.highBits(chars, 0, (int) total));
        if (tiny) {
            loops.put("viewsArray", () -> viewsArray(sizes, rows, chars, views));
            loops.put("viewsSegment", () -> viewsSegment(sizes, rows, heapChars, views));
        }
        loops.put("storesOnly", () -> storesOnly(sizes, rows, views));
        MemorySegment nativeChars = Arena.global().allocate(total, 64);
        loops.put("copyToNative", () -> {
            MemorySegment.copy(heapChars, 0, nativeChars, 0, total);
            return total;
        });
        putFloorRows(loops, views, rows, random);
        loops.put("inlineViewsLoop", () -> InlineViewLoop.build(sizes, 0, rows, nativeChars, 0, views, 0));
        loops.put("inlineViews", () -> InlineViews.build(sizes, 0, rows, nativeChars, 0, views, 0));
        if (tiny) {
            loops.put("inlineViewsUpTo4", () -> InlineViews.buildTestingAsciiUpTo4(sizes, 0, rows, nativeChars, 0,
                    views, 0));
        }
        if (upTo8) {
            loops.put("inlineViewsUpTo8", () -> InlineViews.buildTestingAsciiUpTo8(sizes, 0, rows, nativeChars, 0,
                    views, 0));
        }
        int longestClass = tiny ? 4 : upTo8 ? 8 : 12;
        loops.put("inlineViewsArray", () -> InlineViews.buildTestingAscii(sizes, 0, rows, chars, 0, views, 0,
                longestClass));
        if (heapCharsToo) { // opt-in: once the builder sees heap chars its native row is compiled for both kinds
            loops.put("inlineViewsHeapChars", () -> InlineViews.build(sizes, 0, rows, heapChars, 0, views, 0));
        }
        WarmUpGates.inlineViews();
        System.out.println(InlineViews.vectorized() ? "inlineViews: the vector form" : "inlineViews: the scalar loop");
        // The two view loops must write the same views and agree with the sizes on where the chars end.
        MemorySegment.copy(heapChars, 0, nativeChars, 0, total);
        long arrayEnd = tiny ? viewsArray(sizes, rows, chars, views)
                : InlineViewLoop.build(sizes, 0, rows, nativeChars, 0, views, 0);
        byte[] arrayViews = views.toArray(ValueLayout.JAVA_BYTE);
        views.fill((byte) 0x5A);
        long segmentEnd = tiny ? viewsSegment(sizes, rows, heapChars, views) : arrayEnd;
        boolean sameViews = !tiny || Arrays.equals(arrayViews, views.toArray(ValueLayout.JAVA_BYTE));
        views.fill((byte) 0x5A);
        long kernelEnd = InlineViews.build(sizes, 0, rows, nativeChars, 0, views, 0);
        sameViews &= Arrays.equals(arrayViews, views.toArray(ValueLayout.JAVA_BYTE));
        if (tiny) {
            views.fill((byte) 0x5A);
            long upTo4End = InlineViews.buildTestingAsciiUpTo4(sizes, 0, rows, nativeChars, 0, views, 0);
            sameViews &= (upTo4End < 0 ? ~upTo4End : upTo4End) == total
                    && Arrays.equals(arrayViews, views.toArray(ValueLayout.JAVA_BYTE));
        }
        if (upTo8) {
            views.fill((byte) 0x5A);
            long upTo8End = InlineViews.buildTestingAsciiUpTo8(sizes, 0, rows, nativeChars, 0, views, 0);
            sameViews &= (upTo8End < 0 ? ~upTo8End : upTo8End) == total
                    && Arrays.equals(arrayViews, views.toArray(ValueLayout.JAVA_BYTE));
        }
        views.fill((byte) 0x5A);
        long arrayEntryEnd = InlineViews.buildTestingAscii(sizes, 0, rows, chars, 0, views, 0, longestClass);
        sameViews &= (arrayEntryEnd < 0 ? ~arrayEntryEnd : arrayEntryEnd) == total
                && Arrays.equals(arrayViews, views.toArray(ValueLayout.JAVA_BYTE));
        if (arrayEnd != total || segmentEnd != total || kernelEnd != total || !sameViews) {
            throw new AssertionError("view loops disagree: arrayEnd=" + arrayEnd + " segmentEnd=" + segmentEnd
                    + " kernelEnd=" + kernelEnd + " sizesSum=" + total + " sameViews=" + sameViews);
        }
        time(loops, rounds, rows, maxLength);
    }

    /** Runs {@code loops} in alternating rounds (two uncounted first) and prints their medians, µs per block. */
    /**
     * The floor rows: Arrow IPC's read of a block is one copy of its stored views (16 bytes a row) out of the input
     * into fresh memory ({@code copyViews}); the floor of any reader that builds the views is storing them, at
     * memset speed at best ({@code fillViews}).
     */
    private static void putFloorRows(Map<String, LongSupplier> loops, MemorySegment views, int rows, Random random) {
        byte[] storedViews = new byte[16 * rows];
        random.nextBytes(storedViews);
        MemorySegment storedViewsSegment = MemorySegment.ofArray(storedViews);
        loops.put("copyViews", () -> {
            MemorySegment.copy(storedViewsSegment, 0, views, 0, 16L * rows);
            return views.get(LE_LONG, 0);
        });
        loops.put("fillViews", () -> {
            views.fill((byte) rows);
            return views.get(LE_LONG, 0);
        });
    }

    private static void time(Map<String, LongSupplier> loops, int rounds, int rows, int maxLength) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, double[]> micros = new LinkedHashMap<>();
        loops.keySet().forEach(name -> micros.put(name, new double[rounds]));
        long sink = 0;
        int calls = Math.max(1, (int) (20_000_000L / rows / Math.max(1, maxLength / 8)));
        for (int round = -2; round < rounds; round++) { // two uncounted warm-up rounds
            for (Map.Entry<String, LongSupplier> loop : loops.entrySet()) {
                long start = threads.getCurrentThreadCpuTime();
                for (int c = 0; c < calls; c++) {
                    sink += loop.getValue().getAsLong();
                }
                if (round >= 0) {
                    micros.get(loop.getKey())[round] = (threads.getCurrentThreadCpuTime() - start) / 1e3 / calls;
                }
            }
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "rows=%d maxLength=%d, µs per block,"
                + " medians of %d rounds:", rows, maxLength, rounds));
        micros.forEach((name, m) -> line.append(String.format(Locale.ROOT, " %s %.2f", name, CoreBuilds.median(m))));
        System.out.println(line + " (sink " + (sink & 1) + ")");
    }

    /**
     * A block of long values ({@code SerializationBenchmark}'s data at size {@code size}, 16 or more: lengths
     * uniform in [round(0.8 size), round(1.2 size)], every one over 12 bytes) taken apart: what the reader does
     * with it, and the copies Arrow IPC's read makes of the same block.
     */
    private static void longValues(int rounds, int rows, int size) {
        Random random = new Random(42);
        int low = Math.round(0.8f * size);
        int high = Math.round(1.2f * size);
        int[] sizes = new int[rows];
        Arrays.setAll(sizes, i -> low + random.nextInt(high - low + 1));
        int total = (int) Arrays.stream(sizes).asLongStream().sum();
        int base = 37; // the chars sit inside a larger array, as in a read of a whole column from one heap segment
        byte[] input = new byte[base + total + 29];
        for (int i = 0; i < input.length; i++) {
            input[i] = (byte) ('a' + random.nextInt(26));
        }
        MemorySegment heapInput = MemorySegment.ofArray(input);
        MemorySegment kept = Arena.global().allocate(total, 16);
        MemorySegment views = Arena.global().allocate(16L * rows, 16);
        int bufferIndex = 3;
        Map<String, LongSupplier> loops = new LinkedHashMap<>();
        loops.put("summarize", () -> SizeCodec.summarize(sizes, rows).sum());
        byte[] rawSizes = new byte[4 * rows];
        MemorySegment.copy(sizes, 0, MemorySegment.ofArray(rawSizes), LE_INT, 0, rows);
        MemorySegment rawSizesSegment = MemorySegment.ofArray(rawSizes);
        loops.put("summarizeRawLong", () -> SizeCodec.summarize(rawSizesSegment, rows).sum());
        int[] decoded = new int[rows];
        loops.put("sizesCopy", () -> {
            MemorySegment.copy(rawSizesSegment, LE_INT, 0, decoded, 0, rows);
            return decoded[rows - 1];
        });
        loops.put("copyToNative", () -> {
            MemorySegment.copy(heapInput, base, kept, 0, total);
            return kept.get(ValueLayout.JAVA_BYTE, 0);
        });
        loops.put("asciiTest", () -> AsciiBits.highBits(input, base, total));
        loops.put("testThenCopyPieces", () -> testThenCopyPieces(input, base, total, kept));
        loops.put("copyHighBits", () -> AsciiBits.copyHighBits(heapInput, base, kept, total));
        loops.put("viewsMixed", () -> ViewLoops.mixed(sizes, rows, input, base, bufferIndex, views, 0));
        loops.put("viewsAllLong", () -> ViewLoops.allLong(sizes, rows, heapInput, base, bufferIndex, views, 0));
        loops.put("viewsAllLongArray", () -> allLongArray(sizes, rows, input, base, bufferIndex, views));
        loops.put("viewsNoPrefix", () -> viewsNoPrefix(sizes, rows, bufferIndex, views));
        // Measured and dropped (docs/serialization.md, "Size 64"): the views in two loops, the loop unrolled by
        // four, and the copy, the test and the views fused in chunks, by bytes and by rows, in either order.
        int[] prefixes = new int[rows];
        loops.put("viewsSplit", () -> viewsSplit(sizes, rows, input, base, prefixes, bufferIndex, views));
        loops.put("viewsUnrolled4", () -> viewsUnrolled4(sizes, rows, input, base, bufferIndex, views));
        loops.put("fusedBytes16k", () -> fusedByBytes(sizes, rows, heapInput, input, base, total, kept, bufferIndex,
                views, 16 << 10));
        loops.put("fusedRows256CopyFirst", () -> fusedByRows(sizes, rows, heapInput, input, base, kept, bufferIndex,
                views, 256, true));
        loops.put("fusedRows256ViewsFirst", () -> fusedByRows(sizes, rows, heapInput, input, base, kept,
                bufferIndex, views, 256, false));
        // The all-long loop's word 0 masked (its former form), and forms measured and dropped: the sizes read
        // from the raw stream, word 1 as two 4-byte stores, the prefix as a 4-byte store, the views through a
        // heap chunk copied 256 at a time.
        loops.put("viewsAllLongMasked", () -> allLongMasked(sizes, rows, heapInput, base, bufferIndex, views, 0));
        loops.put("viewsAllLongRawSizes", () -> ViewLoops.allLongRawSizes(rawSizesSegment, rows, heapInput, base,
                bufferIndex, views, 0));
        loops.put("viewsAllLong4Stores", () -> allLong4Stores(sizes, rows, heapInput, base, bufferIndex, views, 0));
        loops.put("viewsAllLongIntStores", () -> allLongIntStores(sizes, rows, heapInput, base, bufferIndex, views,
                0));
        loops.put("copyThenViewsAllLong", () -> AsciiBits.copyHighBits(heapInput, base, kept, total)
                + ViewLoops.allLong(sizes, rows, heapInput, base, bufferIndex, views, 0));
        for (int chunkRows : new int[] {1024, 4096, 16384}) {
            loops.put("viewsThenCopy" + chunkRows, () -> viewsThenCopyByRows(sizes, rows, heapInput, base, kept,
                    bufferIndex, views, chunkRows));
        }
        long[] chunk = new long[2 * 256];
        loops.put("viewsAllLongChunk", () -> allLongChunk(sizes, rows, heapInput, base, bufferIndex, views, chunk));
        // Measured and dropped (docs/serialization.md): each window of views built in a reused heap long[] with
        // plain array stores and copied to the views with one MemorySegment.copy, and its two parts alone; the
        // prefix loads alone, with no store; the vector forms (only with the incubator module).
        for (int windowRows : new int[] {256, 512, 1024}) {
            long[] window = new long[2 * windowRows];
            loops.put("viewsWindow" + windowRows, () -> allLongWindow(sizes, rows, heapInput, base, bufferIndex,
                    views, 0, window, true));
        }
        long[] window512 = new long[2 * 512];
        loops.put("viewsWindowArray512", () -> allLongWindowArray(sizes, rows, input, base, bufferIndex, views, 0,
                window512));
        loops.put("windowBuildOnly512", () -> allLongWindow(sizes, rows, heapInput, base, bufferIndex, views, 0,
                window512, false));
        loops.put("windowCopyOnly512", () -> {
            for (int from = 0; from < rows; from += 512) {
                MemorySegment.copy(window512, 0, views, LE_LONG, 16L * from, 2 * Math.min(512, rows - from));
            }
            return views.get(LE_LONG, 0);
        });
        loops.put("prefixLoadsOnly", () -> prefixLoadsOnly(sizes, rows, heapInput, base));
        loops.put("prefixLoadsOneSum", () -> prefixLoadsOneSum(sizes, rows, heapInput, base));
        boolean vectorModule = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
        if (vectorModule) {
            VectorForms.put(loops, sizes, rows, input, heapInput, base, bufferIndex, views);
        }
        putFloorRows(loops, views, rows, random);
        // The two view loops must write the same views, and the copy must keep the chars as they are.
        long mixedEnd = ViewLoops.mixed(sizes, rows, input, base, bufferIndex, views, 0);
        byte[] mixedViews = views.toArray(ValueLayout.JAVA_BYTE);
        boolean same = true;
        for (LongSupplier alternative : List.<LongSupplier>of(
                () -> viewsSplit(sizes, rows, input, base, prefixes, bufferIndex, views),
                () -> viewsUnrolled4(sizes, rows, input, base, bufferIndex, views),
                () -> allLongArray(sizes, rows, input, base, bufferIndex, views),
                () -> fusedByBytes(sizes, rows, heapInput, input, base, total, kept, bufferIndex, views, 16 << 10),
                () -> fusedByRows(sizes, rows, heapInput, input, base, kept, bufferIndex, views, 256, true),
                () -> fusedByRows(sizes, rows, heapInput, input, base, kept, bufferIndex, views, 256, false))) {
            views.fill((byte) 0x5A);
            alternative.getAsLong();
            same &= Arrays.equals(mixedViews, views.toArray(ValueLayout.JAVA_BYTE));
        }
        for (LongSupplier alternative : List.<LongSupplier>of(
                () -> allLongMasked(sizes, rows, heapInput, base, bufferIndex, views, 0),
                () -> ViewLoops.allLongRawSizes(rawSizesSegment, rows, heapInput, base, bufferIndex, views, 0),
                () -> allLong4Stores(sizes, rows, heapInput, base, bufferIndex, views, 0),
                () -> allLongIntStores(sizes, rows, heapInput, base, bufferIndex, views, 0),
                () -> allLongChunk(sizes, rows, heapInput, base, bufferIndex, views, chunk),
                () -> allLongWindowArray(sizes, rows, input, base, bufferIndex, views, 0, new long[2 * 300]),
                () -> allLongWindow(sizes, rows, heapInput, base, bufferIndex, views, 0, new long[2 * 300], true),
                () -> viewsThenCopyByRows(sizes, rows, heapInput, base, kept, bufferIndex, views, 1000) - total
                        - AsciiBits.highBits(input, base, total) + total)) {
            views.fill((byte) 0x5A);
            same &= alternative.getAsLong() == total;
            same &= Arrays.equals(mixedViews, views.toArray(ValueLayout.JAVA_BYTE));
        }
        if (vectorModule) {
            for (LongSupplier alternative : VectorForms.alternatives(sizes, rows, input, base, bufferIndex, views)) {
                views.fill((byte) 0x5A);
                same &= alternative.getAsLong() == total;
                same &= Arrays.equals(mixedViews, views.toArray(ValueLayout.JAVA_BYTE));
            }
        }
        views.fill((byte) 0x5A);
        long allLongEnd = ViewLoops.allLong(sizes, rows, heapInput, base, bufferIndex, views, 0);
        long copied = AsciiBits.copyHighBits(heapInput, base, kept, total);
        if (!same || mixedEnd != total || allLongEnd != total
                || !Arrays.equals(mixedViews, views.toArray(ValueLayout.JAVA_BYTE))
                || copied != AsciiBits.highBits(input, base, total)
                || MemorySegment.mismatch(heapInput, base, base + total, kept, 0, total) != -1) {
            throw new AssertionError("long-value loops disagree: mixedEnd=" + mixedEnd + " allLongEnd=" + allLongEnd
                    + " sizesSum=" + total);
        }
        time(loops, rounds, rows, size);
    }

    /**
     * The reader's former chars pass for blocks with a long value: the ASCII test and the copy into the block's
     * buffer in 64 KiB pieces, each piece tested and then copied while it is in the cache (replaced by
     * {@code AsciiBits.copyHighBits}).
     */
    static long testThenCopyPieces(byte[] bytes, int from, int length, MemorySegment kept) {
        MemorySegment source = MemorySegment.ofArray(bytes);
        long high = 0;
        for (int done = 0; done < length; done += 64 << 10) {
            int piece = Math.min(64 << 10, length - done);
            high |= AsciiBits.highBits(bytes, from + done, piece);
            MemorySegment.copy(source, from + done, kept, done, piece);
        }
        return high;
    }

    /** The long-value views of rows {@code [from, to)}, row {@code from}'s value at {@code bytes[base + p]}. */
    static int viewsOfRows(int[] sizes, int from, int to, byte[] bytes, int base, int p, int bufferIndex,
            MemorySegment out) {
        for (int i = from; i < to; i++) {
            int length = sizes[i];
            out.set(LE_LONG, 16L * i, length | ((long) (int) BYTES_LE_INT.get(bytes, base + p) << 32));
            out.set(LE_LONG, 16L * i + 8, bufferIndex | ((long) p << 32));
            p += length;
        }
        return p;
    }

    /** The prefixes gathered into an {@code int[]} by one loop, the views written by a second. */
    static long viewsSplit(int[] sizes, int n, byte[] bytes, int base, int[] prefixes, int bufferIndex,
            MemorySegment out) {
        int p = base;
        for (int i = 0; i < n; i++) {
            prefixes[i] = (int) BYTES_LE_INT.get(bytes, p);
            p += sizes[i];
        }
        long offset = 0;
        for (int i = 0; i < n; i++) {
            out.set(LE_LONG, 16L * i, sizes[i] | ((long) prefixes[i] << 32));
            out.set(LE_LONG, 16L * i + 8, bufferIndex | (offset << 32));
            offset += sizes[i];
        }
        return offset;
    }

    /** The long-value view loop unrolled by four, the four prefix loads first. */
    static long viewsUnrolled4(int[] sizes, int n, byte[] bytes, int base, int bufferIndex, MemorySegment out) {
        int p = base;
        int i = 0;
        for (; i + 4 <= n; i += 4) {
            int p1 = p + sizes[i];
            int p2 = p1 + sizes[i + 1];
            int p3 = p2 + sizes[i + 2];
            long a0 = (int) BYTES_LE_INT.get(bytes, p);
            long a1 = (int) BYTES_LE_INT.get(bytes, p1);
            long a2 = (int) BYTES_LE_INT.get(bytes, p2);
            long a3 = (int) BYTES_LE_INT.get(bytes, p3);
            long at = 16L * i;
            out.set(LE_LONG, at, sizes[i] | a0 << 32);
            out.set(LE_LONG, at + 8, bufferIndex | ((long) (p - base) << 32));
            out.set(LE_LONG, at + 16, sizes[i + 1] | a1 << 32);
            out.set(LE_LONG, at + 24, bufferIndex | ((long) (p1 - base) << 32));
            out.set(LE_LONG, at + 32, sizes[i + 2] | a2 << 32);
            out.set(LE_LONG, at + 40, bufferIndex | ((long) (p2 - base) << 32));
            out.set(LE_LONG, at + 48, sizes[i + 3] | a3 << 32);
            out.set(LE_LONG, at + 56, bufferIndex | ((long) (p3 - base) << 32));
            p = p3 + sizes[i + 3];
        }
        return viewsOfRows(sizes, i, n, bytes, base, p - base, bufferIndex, out);
    }

    /**
     * The chars copied and tested {@code chunk} bytes at a time, each chunk followed by the views of the rows that
     * start in it, while the chunk is in the cache.
     */
    static long fusedByBytes(int[] sizes, int n, MemorySegment source, byte[] bytes, int base, int length,
            MemorySegment kept, int bufferIndex, MemorySegment out, int chunk) {
        long high = 0;
        int row = 0;
        int p = 0;
        for (int done = 0; done < length; done += chunk) {
            int piece = Math.min(chunk, length - done);
            high |= AsciiBits.copyHighBits(source, base + done, kept.asSlice(done, piece), piece);
            int first = row;
            int end = p;
            while (row < n && end < done + piece) {
                end += sizes[row++];
            }
            p = viewsOfRows(sizes, first, row, bytes, base, p, bufferIndex, out);
        }
        return high;
    }

    /** The same by {@code chunkRows} rows: their bytes copied and tested, then their views, or the other way. */
    static long fusedByRows(int[] sizes, int n, MemorySegment source, byte[] bytes, int base, MemorySegment kept,
            int bufferIndex, MemorySegment out, int chunkRows, boolean copyFirst) {
        long high = 0;
        int p = 0;
        for (int row = 0; row < n; row += chunkRows) {
            int to = Math.min(n, row + chunkRows);
            int span = 0;
            for (int i = row; i < to; i++) {
                span += sizes[i];
            }
            if (copyFirst) {
                high |= AsciiBits.copyHighBits(source, base + p, kept.asSlice(p, span), span);
            }
            viewsOfRows(sizes, row, to, bytes, base, p, bufferIndex, out);
            if (!copyFirst) {
                high |= AsciiBits.copyHighBits(source, base + p, kept.asSlice(p, span), span);
            }
            p += span;
        }
        return high;
    }

    /**
     * {@code ViewLoops.allLong} as it was until 2026-11-24: the prefix as a 4-byte load through the array's
     * {@code VarHandle} at the value's start, the baseline of the reader's form (one 8-byte load four bytes
     * earlier, through a heap segment).
     */
    static long allLongArray(int[] sizes, int rows, byte[] bytes, int base, int bufferIndex, MemorySegment out) {
        int p = base;
        long word1 = bufferIndex & 0xFFFF_FFFFL;
        for (int i = 0; i < rows; i++) {
            int length = sizes[i];
            out.set(LE_LONG, 16L * i, length | ((long) (int) BYTES_LE_INT.get(bytes, p) << 32));
            out.set(LE_LONG, 16L * i + 8, word1);
            p += length;
            word1 += (long) length << 32;
        }
        return p - base;
    }

    /** The long-value views' two stores and running offset with no prefix loaded: what the chars' reads add. */
    static long viewsNoPrefix(int[] sizes, int n, int bufferIndex, MemorySegment out) {
        long p = 0;
        for (int i = 0; i < n; i++) {
            int length = sizes[i];
            out.set(LE_LONG, 16L * i, length);
            out.set(LE_LONG, 16L * i + 8, bufferIndex | (p << 32));
            p += length;
        }
        return p;
    }

    /**
     * The all-long views and the chars' copy with its ASCII test, by chunks of {@code chunkRows} rows: each chunk's
     * views (whose loads bring its chars into the cache), then the copy of the chunk's chars.
     */
    static long viewsThenCopyByRows(int[] sizes, int n, MemorySegment chars, int base, MemorySegment kept,
            int bufferIndex, MemorySegment out, int chunkRows) {
        long high = 0;
        int p = 0;
        for (int row = 0; row < n; row += chunkRows) {
            int to = Math.min(n, row + chunkRows);
            int span = allLongRange(sizes, row, to, chars, base, p, bufferIndex, out);
            high |= AsciiBits.copyHighBits(chars, base + p, kept.asSlice(p, span), span);
            p += span;
        }
        return high + p;
    }

    /** {@code ViewLoops.allLong} over rows {@code [from, to)}, row {@code from} at chars offset {@code p}. */
    static int allLongRange(int[] sizes, int from, int to, MemorySegment chars, int base, int p, int bufferIndex,
            MemorySegment out) {
        long word1 = (bufferIndex & 0xFFFF_FFFFL) | (long) p << 32;
        long before = base + p - 4;
        int i = from;
        if (from == 0 && to > 0) {
            out.set(LE_LONG, 0, sizes[0] | (long) chars.get(LE_INT, base) << 32);
            out.set(LE_LONG, 8, word1);
            before += sizes[0];
            word1 += (long) sizes[0] << 32;
            i = 1;
        }
        for (; i < to; i++) {
            int length = sizes[i];
            out.set(LE_LONG, 16L * i, chars.get(LE_LONG, before));
            out.set(LE_INT, 16L * i, length);
            out.set(LE_LONG, 16L * i + 8, word1);
            before += length;
            word1 += (long) length << 32;
        }
        return (int) (before + 4 - base) - p;
    }

    /** {@code ViewLoops.allLong} with word 1 as two 4-byte stores, the buffer index and the running offset. */
    static int allLong4Stores(int[] sizes, int rows, MemorySegment chars, int base, int bufferIndex,
            MemorySegment out, long outAt) {
        if (rows == 0) {
            return 0;
        }
        out.set(LE_LONG, outAt, sizes[0] | (long) chars.get(LE_INT, base) << 32);
        out.set(LE_LONG, outAt + 8, bufferIndex & 0xFFFF_FFFFL);
        long before = base + sizes[0] - 4;
        int offset = sizes[0];
        for (int i = 1; i < rows; i++) {
            int length = sizes[i];
            out.set(LE_LONG, outAt + 16L * i, chars.get(LE_LONG, before));
            out.set(LE_INT, outAt + 16L * i, length);
            out.set(LE_INT, outAt + 16L * i + 8, bufferIndex);
            out.set(LE_INT, outAt + 16L * i + 12, offset);
            before += length;
            offset += length;
        }
        return offset;
    }

    /** The view as a 4-byte length, the 4-byte prefix loaded at the value's start, and word 1 carried. */
    static int allLongIntStores(int[] sizes, int rows, MemorySegment chars, int base, int bufferIndex,
            MemorySegment out, long outAt) {
        long word1 = bufferIndex & 0xFFFF_FFFFL;
        long at = base;
        for (int i = 0; i < rows; i++) {
            int length = sizes[i];
            out.set(LE_INT, outAt + 16L * i, length);
            out.set(LE_INT, outAt + 16L * i + 4, chars.get(LE_INT, at));
            out.set(LE_LONG, outAt + 16L * i + 8, word1);
            at += length;
            word1 += (long) length << 32;
        }
        return (int) (at - base);
    }

    /**
     * {@code ViewLoops.allLong}'s former form: word 0 as {@code length | word & 0xFFFF_FFFF_0000_0000} from the 8
     * bytes before the value, where it now stores those bytes as they are and the length over their low half.
     */
    static int allLongMasked(int[] sizes, int rows, MemorySegment chars, int base, int bufferIndex,
            MemorySegment out, long outAt) {
        if (rows == 0) {
            return 0;
        }
        long word1 = bufferIndex & 0xFFFF_FFFFL;
        out.set(LE_LONG, outAt, sizes[0] | (long) chars.get(LE_INT, base) << 32);
        out.set(LE_LONG, outAt + 8, word1);
        long before = base + sizes[0] - 4;
        word1 += (long) sizes[0] << 32;
        for (int i = 1; i < rows; i++) {
            int length = sizes[i];
            out.set(LE_LONG, outAt + 16L * i, length | chars.get(LE_LONG, before) & 0xFFFF_FFFF_0000_0000L);
            out.set(LE_LONG, outAt + 16L * i + 8, word1);
            before += length;
            word1 += (long) length << 32;
        }
        return (int) (before + 4 - base);
    }

    /** {@code ViewLoops.allLong} into a heap chunk of 256 views, each chunk copied to {@code out} in one copy. */
    static int allLongChunk(int[] sizes, int rows, MemorySegment chars, int base, int bufferIndex,
            MemorySegment out, long[] chunk) {
        if (rows == 0) {
            return 0;
        }
        long word1 = bufferIndex & 0xFFFF_FFFFL;
        chunk[0] = sizes[0] | (long) chars.get(LE_INT, base) << 32;
        chunk[1] = word1;
        long before = base + sizes[0] - 4;
        word1 += (long) sizes[0] << 32;
        int c = 1;
        int done = 0;
        int per = chunk.length / 2;
        for (int i = 1; i < rows; i++) {
            int length = sizes[i];
            chunk[2 * c] = length | chars.get(LE_LONG, before) & 0xFFFF_FFFF_0000_0000L;
            chunk[2 * c + 1] = word1;
            before += length;
            word1 += (long) length << 32;
            if (++c == per) {
                MemorySegment.copy(chunk, 0, out, LE_LONG, 16L * done, 2 * per);
                done += per;
                c = 0;
            }
        }
        MemorySegment.copy(chunk, 0, out, LE_LONG, 16L * done, 2 * c);
        return (int) (before + 4 - base);
    }

    /**
     * {@code ViewLoops.allLong} building each window of {@code window.length / 2} views in a reused heap
     * {@code long[]} with plain array stores (a counted inner loop over the window's index, so the stores keep no
     * check), each window then copied into {@code out} with one {@code MemorySegment.copy} ({@code copy} false:
     * the windows are built and not copied); word 0 is the length ORed with a 4-byte prefix load at the value's
     * start.
     */
    static int allLongWindow(int[] sizes, int rows, MemorySegment chars, int base, int bufferIndex,
            MemorySegment out, long outAt, long[] window, boolean copy) {
        int per = window.length >>> 1;
        long word1 = bufferIndex & 0xFFFF_FFFFL;
        long at = base;
        for (int from = 0; from < rows; from += per) {
            int count = Math.min(per, rows - from);
            for (int j = 0; j < count; j++) {
                int length = sizes[from + j];
                window[2 * j] = (long) chars.get(LE_INT, at) << 32 | length;
                window[2 * j + 1] = word1;
                at += length;
                word1 += (long) length << 32;
            }
            if (copy) {
                MemorySegment.copy(window, 0, out, LE_LONG, outAt + 16L * from, 2 * count);
            }
        }
        return (int) (at - base);
    }

    /** {@link #allLongWindow} with the prefix loaded through the array's {@code VarHandle}. */
    static int allLongWindowArray(int[] sizes, int rows, byte[] bytes, int base, int bufferIndex,
            MemorySegment out, long outAt, long[] window) {
        int per = window.length >>> 1;
        long word1 = bufferIndex & 0xFFFF_FFFFL;
        int at = base;
        for (int from = 0; from < rows; from += per) {
            int count = Math.min(per, rows - from);
            for (int j = 0; j < count; j++) {
                int length = sizes[from + j];
                window[2 * j] = (long) (int) BYTES_LE_INT.get(bytes, at) << 32 | length;
                window[2 * j + 1] = word1;
                at += length;
                word1 += (long) length << 32;
            }
            MemorySegment.copy(window, 0, out, LE_LONG, outAt + 16L * from, 2 * count);
        }
        return at - base;
    }

    /**
     * The all-long loop's reads with no store: per row the size, the 8-byte load four bytes before the value and
     * the two running sums (the offset and word 1), the loads' words summed so that C2 keeps them.
     */
    static long prefixLoadsOnly(int[] sizes, int rows, MemorySegment chars, int base) {
        long word1 = 3;
        long sink = 0;
        long before = base;
        for (int i = 0; i < rows; i++) {
            int length = sizes[i];
            sink += chars.get(LE_LONG, before) ^ word1;
            before += length;
            word1 += (long) length << 32;
        }
        return sink;
    }

    /** {@link #prefixLoadsOnly} with one running sum: the size, the load, the offset. */
    static long prefixLoadsOneSum(int[] sizes, int rows, MemorySegment chars, int base) {
        long sink = 0;
        long before = base;
        for (int i = 0; i < rows; i++) {
            sink += chars.get(LE_LONG, before);
            before += sizes[i];
        }
        return sink;
    }

    /**
     * {@code SizeCodec.summarize(MemorySegment, int)} that also stores each size into {@code sizes}: the copy and
     * the pass fused.
     */
    static long copySummarize(MemorySegment raw, int n, int[] sizes) {
        int sum = 0;
        int signs = 0;
        int over4 = 0;
        int over8 = 0;
        int over12 = 0;
        for (int i = 0; i < n; i++) {
            int size = raw.get(LE_INT, 4L * i);
            sizes[i] = size;
            sum += size;
            signs |= size;
            over4 |= 4 - size;
            over8 |= 8 - size;
            over12 |= 12 - size;
        }
        return signs < 0 ? -1 : sum + (over4 >= 0 ? 4 : over8 >= 0 ? 8 : over12 >= 0 ? 12 : 13);
    }

    static long signsOr(int[] sizes, int n) {
        int any = 0;
        for (int i = 0; i < n; i++) {
            any |= sizes[i];
        }
        return any >>> 31;
    }

    static long signsCount(int[] sizes, int n) {
        int negative = 0;
        for (int i = 0; i < n; i++) {
            negative += sizes[i] >>> 31;
        }
        return negative;
    }

    static long sum(int[] sizes, int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += sizes[i];
        }
        return sum;
    }

    static long longestClass(int[] sizes, int n) {
        int over4 = 0;
        int over8 = 0;
        int over12 = 0;
        for (int i = 0; i < n; i++) {
            int size = sizes[i];
            over4 |= 4 - size;
            over8 |= 8 - size;
            over12 |= 12 - size;
        }
        return over4 >= 0 ? 4 : over8 >= 0 ? 8 : over12 >= 0 ? 12 : Integer.MAX_VALUE;
    }

    static long viewsArray(int[] sizes, int n, byte[] chars, MemorySegment out) {
        int p = 0;
        for (int i = 0; i < n; i++) {
            int length = sizes[i];
            long word = (long) BYTES_LE_LONG.get(chars, p);
            out.set(LE_LONG, 16L * i, length | (word << 32) & WORD0_MASKS[length & 15]);
            out.set(LE_LONG, 16L * i + 8, 0L);
            p += length;
        }
        return p;
    }

    static long viewsSegment(int[] sizes, int n, MemorySegment chars, MemorySegment out) {
        long p = 0;
        for (int i = 0; i < n; i++) {
            int length = sizes[i];
            long word = chars.get(LE_LONG, p);
            out.set(LE_LONG, 16L * i, length | (word << 32) & WORD0_MASKS[length & 15]);
            out.set(LE_LONG, 16L * i + 8, 0L);
            p += length;
        }
        return p;
    }

    static long storesOnly(int[] sizes, int n, MemorySegment out) {
        for (int i = 0; i < n; i++) {
            out.set(LE_LONG, 16L * i, sizes[i]);
            out.set(LE_LONG, 16L * i + 8, 0L);
        }
        return out.get(LE_LONG, 0);
    }

    /**
     * Vector API forms of the all-long view loop, measured and dropped (docs/serialization.md); loaded only when
     * the JVM has {@code jdk.incubator.vector}. {@code viewsVectorWords512}: per window of 512 rows a scalar loop
     * stores one word a row into a heap {@code long[]} ({@code prefix << 32 | offset}), then per 8 rows two
     * array loads of those words (at the row and one further: the next offset gives the length), lane-wise ands,
     * ors and a shift make the 8 rows' words 0 and 1, two two-vector rearranges interleave them, two 512-bit
     * stores.
     * {@code viewsVectorPermute4}: per 4 rows whose first three values span at most 60 bytes (size 16's data),
     * the 4 views with each prefix's byte indexes in its prefix bytes, built in a vector by lane inserts, a 64-byte
     * window of the chars at the first value, one byte permute of the window by those indexes, a blend, one
     * 512-bit store; other rows the scalar loop.
     */
    static final class VectorForms {
        private static final jdk.incubator.vector.VectorSpecies<Long> LONGS = jdk.incubator.vector.LongVector.SPECIES_512;
        private static final jdk.incubator.vector.VectorSpecies<Byte> BYTES = jdk.incubator.vector.ByteVector.SPECIES_512;
        /** Lanes of word 0 (0..7) and word 1 (exceptional indexes, -8..-1: the second vector's lanes) interleaved. */
        private static final jdk.incubator.vector.VectorShuffle<Long> FIRST_HALF =
                jdk.incubator.vector.VectorShuffle.fromValues(LONGS, 0, -8, 1, -7, 2, -6, 3, -5);
        private static final jdk.incubator.vector.VectorShuffle<Long> SECOND_HALF =
                jdk.incubator.vector.VectorShuffle.fromValues(LONGS, 4, -4, 5, -3, 6, -2, 7, -1);
        private static final jdk.incubator.vector.VectorMask<Byte> PREFIX_BYTES;
        private static final long HIGH = 0xFFFF_FFFF_0000_0000L;

        static {
            boolean[] prefixBytes = new boolean[64];
            for (int i = 0; i < 64; i++) {
                prefixBytes[i] = (i & 15) >= 4 && (i & 15) < 8;
            }
            PREFIX_BYTES = jdk.incubator.vector.VectorMask.fromArray(BYTES, prefixBytes, 0);
        }

        private VectorForms() {}

        static void put(Map<String, LongSupplier> loops, int[] sizes, int rows, byte[] input, MemorySegment heapInput,
                int base, int bufferIndex, MemorySegment views) {
            long[] words = new long[513];
            loops.put("viewsVectorWords512", () -> words(sizes, rows, heapInput, base, bufferIndex, views, 0, words));
            loops.put("viewsVectorPermute4", () -> permute4(sizes, rows, input, base, bufferIndex, views, 0));
        }

        static List<LongSupplier> alternatives(int[] sizes, int rows, byte[] input, int base, int bufferIndex,
                MemorySegment views) {
            MemorySegment heapInput = MemorySegment.ofArray(input);
            return List.of(() -> words(sizes, rows, heapInput, base, bufferIndex, views, 0, new long[257]),
                    () -> permute4(sizes, rows, input, base, bufferIndex, views, 0));
        }

        static int words(int[] sizes, int rows, MemorySegment chars, int base, int bufferIndex, MemorySegment out,
                long outAt, long[] words) {
            int per = words.length - 1; // a multiple of 8
            jdk.incubator.vector.LongVector index = jdk.incubator.vector.LongVector.broadcast(LONGS,
                    bufferIndex & 0xFFFF_FFFFL);
            long offset = 0; // of row from
            int from = 0;
            int full = rows & -8;
            for (int count; from < full; from += count) {
                count = Math.min(per, full - from);
                int j = 0;
                if (from == 0) { // row 0 loads its 4 bytes alone
                    words[0] = (long) chars.get(LE_INT, base) << 32;
                    offset = sizes[0];
                    j = 1;
                }
                long before = base + offset - 4;
                for (; j < count; j++) {
                    words[j] = chars.get(LE_LONG, before) & HIGH | offset;
                    int length = sizes[from + j];
                    before += length;
                    offset += length;
                }
                words[count] = offset;
                for (int g = 0; g < count; g += 8) {
                    var a = jdk.incubator.vector.LongVector.fromArray(LONGS, words, g);
                    var b = jdk.incubator.vector.LongVector.fromArray(LONGS, words, g + 1);
                    var word0 = a.and(HIGH).or(b.sub(a).and(0xFFFF_FFFFL));
                    var word1 = a.lanewise(jdk.incubator.vector.VectorOperators.LSHL, 32).or(index);
                    word0.rearrange(FIRST_HALF, word1).intoMemorySegment(out, outAt + 16L * (from + g),
                            ByteOrder.LITTLE_ENDIAN);
                    word0.rearrange(SECOND_HALF, word1).intoMemorySegment(out, outAt + 16L * (from + g) + 64,
                            ByteOrder.LITTLE_ENDIAN);
                }
            }
            return scalarRest(sizes, from, rows, chars, base, (int) offset, bufferIndex, out, outAt);
        }

        static int permute4(int[] sizes, int rows, byte[] bytes, int base, int bufferIndex, MemorySegment out,
                long outAt) {
            long index = bufferIndex & 0xFFFF_FFFFL;
            int p = 0;
            int i = 0;
            int limit = bytes.length - 64 - base; // a window at p ends inside the array
            var zero = jdk.incubator.vector.LongVector.zero(LONGS);
            for (; i + 4 <= rows; i += 4) {
                int l0 = sizes[i];
                int l1 = sizes[i + 1];
                int l2 = sizes[i + 2];
                int o1 = l0;
                int o2 = o1 + l1;
                int o3 = o2 + l2;
                if (o3 > 60 || p > limit) {
                    break;
                }
                var indexes = zero.withLane(0, l0 | 0x0302_0100L << 32)
                        .withLane(1, index | (long) p << 32)
                        .withLane(2, l1 | (0x0302_0100L + 0x0101_0101L * o1) << 32)
                        .withLane(3, index | (long) (p + o1) << 32)
                        .withLane(4, l2 | (0x0302_0100L + 0x0101_0101L * o2) << 32)
                        .withLane(5, index | (long) (p + o2) << 32)
                        .withLane(6, sizes[i + 3] | (0x0302_0100L + 0x0101_0101L * o3) << 32)
                        .withLane(7, index | (long) (p + o3) << 32)
                        .reinterpretAsBytes();
                var window = jdk.incubator.vector.ByteVector.fromArray(BYTES, bytes, base + p);
                indexes.blend(indexes.and((byte) 63).selectFrom(window), PREFIX_BYTES)
                        .intoMemorySegment(out, outAt + 16L * i, ByteOrder.LITTLE_ENDIAN);
                p += o3 + sizes[i + 3];
            }
            return scalarRest(sizes, i, rows, MemorySegment.ofArray(bytes), base, p, bufferIndex, out, outAt);
        }

        /** The views of rows {@code [from, rows)}, row {@code from} at chars offset {@code p}; returns the end. */
        private static int scalarRest(int[] sizes, int from, int rows, MemorySegment chars, int base, int p,
                int bufferIndex, MemorySegment out, long outAt) {
            long word1 = (bufferIndex & 0xFFFF_FFFFL) | (long) p << 32;
            long at = base + p;
            for (int i = from; i < rows; i++) {
                int length = sizes[i];
                out.set(LE_LONG, outAt + 16L * i, length | (long) chars.get(LE_INT, at) << 32);
                out.set(LE_LONG, outAt + 16L * i + 8, word1);
                at += length;
                word1 += (long) length << 32;
            }
            return (int) (at - base);
        }
    }
}
