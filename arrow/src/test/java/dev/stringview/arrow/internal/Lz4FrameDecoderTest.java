package dev.stringview.arrow.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.airlift.compress.v3.lz4.Lz4FrameJavaCompressor;
import io.airlift.compress.v3.xxhash.XxHash32Hasher;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream.BlockSize;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream.Parameters;
import org.junit.jupiter.api.Test;

/**
 * {@link Lz4FrameDecoder} against frames written by a second implementation (commons-compress's framed LZ4 writer,
 * with linked blocks, both checksums, every block size) and against corrupted frames.
 */
class Lz4FrameDecoderTest {
    private static final int K64 = 64 * 1024;

    /** Compressible data with repeats at distances up to a few KiB, so matches cross block boundaries. */
    static byte[] data(int length, long seed) {
        Random random = new Random(seed);
        byte[] words = "stringview 16-byte views über Arrow \u00e9\u00e8 \u4e2d\u6587 https://example.com/?q="
                .getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[length];
        int i = 0;
        while (i < length) {
            int kind = random.nextInt(4);
            if (kind == 0 || i < 16) {
                out[i++] = (byte) random.nextInt(256);
            } else if (kind == 1) {
                int n = Math.min(length - i, 1 + random.nextInt(words.length));
                System.arraycopy(words, random.nextInt(words.length - n + 1), out, i, n);
                i += n;
            } else {
                int distance = 1 + random.nextInt(Math.min(i, kind == 2 ? 8 : 4096));
                int n = Math.min(length - i, 4 + random.nextInt(300));
                for (int k = 0; k < n; k++, i++) {
                    out[i] = out[i - distance];
                }
            }
        }
        return out;
    }

    static byte[] commonsFrame(byte[] content, BlockSize blockSize, boolean contentChecksum, boolean blockChecksum,
            boolean linked) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (FramedLZ4CompressorOutputStream out = new FramedLZ4CompressorOutputStream(bytes,
                new Parameters(blockSize, contentChecksum, blockChecksum, linked))) {
            out.write(content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static byte[] decode(byte[] frame, int declared) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(Math.max(1, frame.length)).asSlice(0, frame.length);
            src.copyFrom(MemorySegment.ofArray(frame));
            MemorySegment dst = arena.allocate(Math.max(1, declared)).asSlice(0, declared);
            long produced = Lz4FrameDecoder.decode(src, dst);
            return dst.asSlice(0, produced).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    /** The number of blocks in a well-formed single frame, read from its block headers. */
    static int blocks(byte[] frame) {
        int flags = frame[4] & 0xFF;
        int at = 4 + 2 + ((flags & 0x08) != 0 ? 8 : 0) + 1;
        int blocks = 0;
        while (true) {
            int word = MemorySegment.ofArray(frame).get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(
                    java.nio.ByteOrder.LITTLE_ENDIAN), at);
            at += 4;
            if (word == 0) {
                return blocks;
            }
            at += (word & 0x7FFFFFFF) + ((flags & 0x10) != 0 ? 4 : 0);
            blocks++;
        }
    }

    /** The same frame with the block-independence flag set, and the header checksum recomputed. */
    static byte[] markedIndependent(byte[] frame) {
        byte[] copy = frame.clone();
        copy[4] |= 0x20;
        int descriptorEnd = 4 + 2 + ((copy[4] & 0x08) != 0 ? 8 : 0);
        copy[descriptorEnd] = (byte) (XxHash32Hasher.hash(copy, 4, descriptorEnd - 4, 0) >>> 8);
        return copy;
    }

    static int size(BlockSize blockSize) {
        return switch (blockSize) {
            case K64 -> K64;
            case K256 -> 4 * K64;
            case M1 -> 16 * K64;
            case M4 -> 64 * K64;
        };
    }

    /**
     * Linked 64 KiB blocks, as liblz4 (and so pyarrow) writes by default. Larger linked blocks are covered by
     * {@link #largerLinkedBlocksDecodeAsCommonsCompressReadsThem}: commons-compress 1.28.0 writes them wrongly.
     */
    @Test
    void linkedFramesOfOneToFiveBlocksFromCommonsCompressDecode() {
        long seed = 0;
        for (int blocks = 1; blocks <= 5; blocks++) {
            for (int length : new int[] {(blocks - 1) * K64 + 1, blocks * K64 - 17, blocks * K64}) {
                byte[] content = data(length, ++seed);
                for (int flags = 0; flags < 4; flags++) {
                    boolean contentChecksum = (flags & 1) != 0;
                    boolean blockChecksum = (flags & 2) != 0;
                    byte[] frame = commonsFrame(content, BlockSize.K64, contentChecksum, blockChecksum, true);
                    String where = "length=" + length + " flags=" + flags;
                    assertEquals(0, frame[4] & 0x20, "a linked frame: " + where);
                    assertEquals(blocks, blocks(frame), where);
                    assertArrayEquals(content, decode(frame, length), where);
                    if (blocks > 2 || length - K64 > 64) {
                        // The frame really uses its links: read as independent blocks, a match leaves its block.
                        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                () -> decode(markedIndependent(frame), length), where);
                        assertTrue(e.getMessage().contains("match offset outside the window"), e.getMessage());
                    }
                }
            }
        }
    }

    /**
     * commons-compress 1.28.0 keeps the first 64 KiB of a block, not the last, as the next linked block's window
     * (FramedLZ4CompressorOutputStream.appendToBlockDependencyBuffer), so its linked blocks over 64 KiB decode to
     * other bytes than it was given. Its own reader is then the oracle: both read the same bytes, or both reject the
     * frame's content checksum.
     */
    @Test
    void largerLinkedBlocksDecodeAsCommonsCompressReadsThem() throws IOException {
        long seed = 50;
        for (BlockSize blockSize : new BlockSize[] {BlockSize.K256, BlockSize.M1}) {
            for (int blocks = 1; blocks <= 3; blocks++) {
                int length = blocks * size(blockSize) - 5;
                byte[] content = data(length, ++seed);
                for (boolean contentChecksum : new boolean[] {false, true}) {
                    byte[] frame = commonsFrame(content, blockSize, contentChecksum, true, true);
                    String where = "blockSize=" + blockSize + " length=" + length + " contentChecksum="
                            + contentChecksum;
                    byte[] peer;
                    try {
                        peer = new org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorInputStream(
                                new java.io.ByteArrayInputStream(frame)).readAllBytes();
                    } catch (IOException e) {
                        assertTrue(e.getMessage().contains("checksum"), where + ": " + e.getMessage());
                        IllegalArgumentException ours = assertThrows(IllegalArgumentException.class,
                                () -> decode(frame, length), where);
                        assertTrue(ours.getMessage().startsWith("LZ4 frame: content checksum mismatch: "),
                                ours.getMessage());
                        continue;
                    }
                    assertArrayEquals(peer, decode(frame, length), where);
                }
            }
        }
    }

    @Test
    void edgeLengthsAndBuffersOverFourMebibytesDecode() {
        List<Integer> lengths = new ArrayList<>(List.of(0, 1, 11, 12, 13, 15, 16, 17, K64 - 1, K64, K64 + 1));
        lengths.add(4 * 1024 * 1024 + 1);
        lengths.add(5 * 1024 * 1024 + 3);
        long seed = 100;
        for (int length : lengths) {
            byte[] content = data(length, ++seed);
            for (BlockSize blockSize : new BlockSize[] {BlockSize.K64, BlockSize.M4}) {
                // Linked only at 64 KiB: see largerLinkedBlocksDecodeAsCommonsCompressReadsThem.
                for (boolean linked : blockSize == BlockSize.K64 ? new boolean[] {true, false}
                        : new boolean[] {false}) {
                    byte[] frame = commonsFrame(content, blockSize, true, true, linked);
                    assertArrayEquals(content, decode(frame, length), "length=" + length + " linked=" + linked
                            + " blockSize=" + blockSize);
                }
            }
            // aircompressor-v3's writer: content size field, independent blocks.
            byte[] frame = new byte[new Lz4FrameJavaCompressor().maxCompressedLength(length)];
            int written = new Lz4FrameJavaCompressor().compress(content, 0, length, frame, 0, frame.length);
            assertArrayEquals(content, decode(Arrays.copyOf(frame, written), length), "aircompressor length=" + length);
        }
    }

    @Test
    void incompressibleDataGoesInStoredBlocks() {
        byte[] content = new byte[3 * K64 + 5];
        new Random(7).nextBytes(content);
        byte[] frame = commonsFrame(content, BlockSize.K64, true, true, true);
        assertTrue(MemorySegment.ofArray(frame).get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(
                java.nio.ByteOrder.LITTLE_ENDIAN), 7) < 0, "the first block is stored uncompressed");
        assertArrayEquals(content, decode(frame, content.length));
    }

    @Test
    void concatenatedAndSkippableFramesDecodeInOrder() {
        byte[] a = data(70_000, 1);
        byte[] b = data(3, 2);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(commonsFrame(a, BlockSize.K64, true, false, true));
        bytes.writeBytes(new byte[] {0x5A, 0x2A, 0x4D, 0x18, 2, 0, 0, 0, 9, 9});
        bytes.writeBytes(commonsFrame(b, BlockSize.K64, false, true, true));
        byte[] expected = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, expected, a.length, b.length);
        assertArrayEquals(expected, decode(bytes.toByteArray(), expected.length));
    }

    @Test
    void contentLongerOrShorterThanDeclaredFails() {
        byte[] content = data(1000, 3);
        byte[] frame = commonsFrame(content, BlockSize.K64, true, true, true);
        IllegalArgumentException longer = assertThrows(IllegalArgumentException.class, () -> decode(frame, 999));
        assertTrue(longer.getMessage().contains("exceeds the declared length"), longer.getMessage());
        assertTrue(longer.getMessage().contains("declared=999"), longer.getMessage());
        assertEquals(1000, decode(frame, 1001).length, "the caller compares produced with declared");
    }

    /**
     * Fuzz: every corruption of a valid frame (each byte flipped in small frames, random flips, truncation at every
     * length) either decodes, or fails with one IllegalArgumentException of one line; nothing else escapes. With
     * the content checksum on, a corrupted frame that decodes decodes to the original.
     */
    @Test
    void corruptFramesFailWithOneLineOrDecodeTheOriginal() {
        Random random = new Random(36);
        int cases = 0;
        int failures = 0;
        for (int round = 0; round < 40; round++) {
            int length = round < 10 ? round : random.nextInt(3 * K64);
            byte[] content = data(length, 1000 + round);
            boolean contentChecksum = random.nextBoolean();
            byte[] frame = commonsFrame(content, BlockSize.K64, contentChecksum, random.nextBoolean(),
                    random.nextBoolean());
            List<byte[]> corrupt = new ArrayList<>();
            for (int cut = 0; cut < frame.length; cut += Math.max(1, frame.length / 200)) {
                corrupt.add(Arrays.copyOf(frame, cut));
            }
            for (int k = 0; k < 300; k++) {
                byte[] c = frame.clone();
                int at = frame.length <= 300 ? k % frame.length : random.nextInt(frame.length);
                c[at] ^= (byte) (1 + random.nextInt(255));
                corrupt.add(c);
            }
            for (byte[] c : corrupt) {
                cases++;
                try {
                    byte[] decoded = decode(c, length);
                    if (contentChecksum && decoded.length == length) {
                        assertArrayEquals(content, decoded, "a corrupted frame passed its content checksum");
                    }
                } catch (IllegalArgumentException e) {
                    failures++;
                    assertFalse(e.getMessage().contains("\n"), e.getMessage());
                    assertTrue(e.getMessage().startsWith("LZ4 "), e.getMessage());
                    assertTrue(e.getMessage().contains("="), e.getMessage());
                } catch (RuntimeException e) {
                    fail("round=" + round + " length=" + length + ": " + e, e);
                }
            }
        }
        assertTrue(failures > cases / 2, "most corruptions are detected: failures=" + failures + " cases=" + cases);
    }
}
