package dev.stringview.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ArrowWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream.BlockSize;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream.Parameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * IPC files and streams whose bodies are LZ4 frames with linked 64 KiB blocks, as pyarrow (liblz4) writes them,
 * here written by Arrow Java with commons-compress's framed LZ4 writer as the codec: stringview reads what Arrow
 * Java reads, and every corrupted frame fails with one line and leaks nothing (each case runs under its own
 * {@link RootAllocator}, whose close throws on a leak).
 */
class Lz4LinkedIpcTest {
    @TempDir
    Path dir;

    /** Arrow Java's LZ4_FRAME codec for writing, with linked blocks; every buffer, even 1 byte, becomes a frame. */
    private static final class LinkedLz4Codec extends AbstractCompressionCodec {
        @Override
        public ArrowBuf compress(BufferAllocator allocator, ArrowBuf uncompressed) {
            ArrowBuf out = doCompress(allocator, uncompressed);
            uncompressed.close();
            return out;
        }

        @Override
        protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
            byte[] content = new byte[(int) uncompressed.writerIndex()];
            uncompressed.getBytes(0, content);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (FramedLZ4CompressorOutputStream out = new FramedLZ4CompressorOutputStream(bytes,
                    new Parameters(BlockSize.K64, true, content.length % 2 == 0, true))) {
                out.write(content);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            byte[] frame = bytes.toByteArray();
            ArrowBuf buf = allocator.buffer(8 + frame.length);
            buf.setLong(0, content.length);
            buf.setBytes(8, frame);
            buf.writerIndex(8 + frame.length);
            return buf;
        }

        @Override
        protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
            throw new UnsupportedOperationException("write only");
        }

        @Override
        public CompressionUtil.CodecType getCodecType() {
            return CompressionUtil.CodecType.LZ4_FRAME;
        }
    }

    private static final CompressionCodec.Factory LINKED_LZ4 = new CompressionCodec.Factory() {
        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type) {
            return new LinkedLz4Codec();
        }

        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type, int level) {
            return new LinkedLz4Codec();
        }
    };

    /** The batches: 0 rows (0-byte buffers), 1 row of 1 byte, edge lengths with nulls, and over 4 MiB of data. */
    static List<List<byte[]>> batches() {
        List<List<byte[]>> batches = new ArrayList<>();
        batches.add(List.of());
        batches.add(List.of(new byte[] {'x'}));
        List<byte[]> edges = new ArrayList<>();
        Random random = new Random(36);
        for (int length : new int[] {0, 1, 11, 12, 13, 15, 16, 17, 100}) {
            // Valid non-ASCII UTF-8 of exactly `length` bytes.
            byte[] value = ("\u00e9".repeat(length / 2) + (length % 2 == 1 ? "a" : ""))
                    .getBytes(StandardCharsets.UTF_8);
            edges.add(random.nextBoolean() ? value : null);
            edges.add(value);
        }
        batches.add(edges);
        List<byte[]> large = new ArrayList<>();
        long total = 0;
        for (int row = 0; total <= 4L * 1024 * 1024 + 1; row++) {
            byte[] value = ("row " + row + " https://example.com/path/" + "über".repeat(row % 50) + " "
                    + random.nextLong()).repeat(1 + row % 40).getBytes(StandardCharsets.UTF_8);
            large.add(row % 97 == 0 ? null : value);
            total += value.length;
        }
        batches.add(large);
        return batches;
    }

    static Path write(Path file, List<List<byte[]>> batches, boolean stream) throws IOException {
        try (BufferAllocator allocator = new RootAllocator();
                ViewVarCharVector view = new ViewVarCharVector("view", allocator);
                VarCharVector utf8 = new VarCharVector("utf8", allocator);
                VectorSchemaRoot root = VectorSchemaRoot.of(view, utf8);
                FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
                ArrowWriter writer = stream
                        ? new ArrowStreamWriter(root, null, channel, IpcOption.DEFAULT, LINKED_LZ4,
                                CompressionUtil.CodecType.LZ4_FRAME)
                        : new ArrowFileWriter(root, null, channel, Map.of(), IpcOption.DEFAULT, LINKED_LZ4,
                                CompressionUtil.CodecType.LZ4_FRAME)) {
            writer.start();
            for (List<byte[]> batch : batches) {
                root.allocateNew();
                for (int row = 0; row < batch.size(); row++) {
                    if (batch.get(row) != null) {
                        view.setSafe(row, batch.get(row));
                        utf8.setSafe(row, batch.get(row));
                    }
                }
                root.setRowCount(batch.size());
                writer.writeBatch();
            }
            writer.end();
        }
        return file;
    }

    /** Arrow Java's reading (its commons-compress LZ4 codec): per batch, per column, per row. */
    static List<List<List<byte[]>>> arrowJavaRead(Path file, boolean stream) throws IOException {
        List<List<List<byte[]>>> batches = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                ArrowReader reader = stream
                        ? new ArrowStreamReader(channel, allocator, CommonsCompressionFactory.INSTANCE)
                        : new ArrowFileReader(channel, allocator, CommonsCompressionFactory.INSTANCE)) {
            while (reader.loadNextBatch()) {
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                List<List<byte[]>> columns = new ArrayList<>();
                for (int c = 0; c < 2; c++) {
                    List<byte[]> values = new ArrayList<>();
                    for (int row = 0; row < root.getRowCount(); row++) {
                        values.add(root.getVector(c).isNull(row) ? null
                                : (byte[]) root.getVector(c).getObject(row).toString()
                                        .getBytes(StandardCharsets.UTF_8));
                    }
                    columns.add(values);
                }
                batches.add(columns);
            }
        }
        return batches;
    }

    @Test
    void linkedLz4FilesAndStreamsReadAsArrowJavaReadsThem() throws IOException {
        List<List<byte[]>> written = batches();
        for (boolean stream : new boolean[] {false, true}) {
            Path file = write(dir.resolve(stream ? "linked.arrows" : "linked.arrow"), written, stream);
            List<List<List<byte[]>>> peer = arrowJavaRead(file, stream);
            assertEquals(written.size(), peer.size());
            try (BufferAllocator allocator = new RootAllocator(); Arena arena = Arena.ofConfined();
                    ViewTableReader reader = ArrowIpc.open(file, allocator, arena)) {
                int batch = 0;
                while (reader.hasNext()) {
                    ViewTable table = reader.next();
                    for (int c = 0; c < 2; c++) {
                        List<byte[]> expected = peer.get(batch).get(c);
                        var column = table.column(c);
                        assertEquals(expected.size(), column.size(), "batch=" + batch + " column=" + c);
                        for (int row = 0; row < expected.size(); row++) {
                            String where = "stream=" + stream + " batch=" + batch + " column=" + c + " row=" + row;
                            assertEquals(written.get(batch).get(row) == null, column.isNull(row), where);
                            if (expected.get(row) == null) {
                                assertTrue(column.isNull(row), where);
                            } else {
                                assertArrayEquals(expected.get(row), column.bytes(row), where);
                                assertArrayEquals(written.get(batch).get(row), column.bytes(row), where);
                            }
                        }
                    }
                    batch++;
                }
                assertEquals(written.size(), batch);
            }
        }
    }

    /**
     * Corrupts bytes inside the LZ4 frames of a file and a stream (each frame's header, block sizes, block data,
     * checksums) and reads everything: each case either fails with one ArrowDataException line naming the batch,
     * or reads (a flipped byte in a stored literal is caught by the content checksum, so reading means the bytes
     * were not corrupted in any way that matters); the allocator's close checks that nothing leaked.
     */
    @Test
    void corruptFramesFailWithOneLineAndLeakNothing() throws IOException {
        List<List<byte[]>> written = batches().subList(0, 3);
        Random random = new Random(7);
        int failures = 0;
        int cases = 0;
        for (boolean stream : new boolean[] {false, true}) {
            Path file = write(dir.resolve(stream ? "good.arrows" : "good.arrow"), written, stream);
            byte[] bytes = Files.readAllBytes(file);
            List<Integer> frames = new ArrayList<>();
            for (int i = 0; i + 4 <= bytes.length; i++) {
                if (bytes[i] == 0x04 && bytes[i + 1] == 0x22 && bytes[i + 2] == 0x4D && bytes[i + 3] == 0x18) {
                    frames.add(i);
                }
            }
            assertTrue(frames.size() >= 6, "frames=" + frames.size());
            for (int frame : frames) {
                for (int k = 0; k < 12; k++) {
                    int at = frame + (k < 8 ? k : 8 + random.nextInt(24));
                    if (at >= bytes.length) {
                        continue;
                    }
                    byte[] corrupt = bytes.clone();
                    corrupt[at] ^= (byte) (1 + random.nextInt(255));
                    Path bad = dir.resolve("bad");
                    Files.write(bad, corrupt);
                    cases++;
                    try (BufferAllocator allocator = new RootAllocator()) {
                        try (Arena arena = Arena.ofConfined();
                                ViewTableReader reader = ArrowIpc.open(bad, allocator, arena)) {
                            while (reader.hasNext()) {
                                reader.next();
                            }
                        } catch (ArrowDataException e) {
                            failures++;
                            assertFalse(e.getMessage().contains("\n"), e.getMessage());
                            assertTrue(e.getMessage().startsWith("file=bad "), e.getMessage());
                            if (e.getMessage().contains("LZ4")) {
                                assertTrue(e.getMessage().contains("batch="), e.getMessage());
                                assertTrue(e.getMessage().contains("codec=LZ4_FRAME nonEmptyBufferIndex="),
                                        e.getMessage());
                            }
                        }
                    } catch (RuntimeException e) {
                        fail("stream=" + stream + " at=" + at + " (a leak fails here at the allocator's close): "
                                + e, e);
                    }
                }
            }
        }
        assertTrue(failures > cases / 2, "failures=" + failures + " cases=" + cases);
    }

    /**
     * Corrupts any byte of a file or a stream (schema, footer, message metadata, buffer offsets, bodies), or cuts
     * it: each case reads, or fails with one ArrowDataException line naming the file; the allocator's close checks
     * that nothing leaked (Arrow Java alone leaks on most malformed messages: see IpcFrameCheck).
     */
    @Test
    void anyCorruptByteOrCutFailsWithOneLineAndLeaksNothing() throws IOException {
        List<List<byte[]>> written = batches().subList(0, 3);
        Random random = new Random(11);
        int failures = 0;
        int cases = 0;
        for (boolean stream : new boolean[] {false, true}) {
            byte[] bytes = Files.readAllBytes(write(dir.resolve(stream ? "good.arrows" : "good.arrow"), written,
                    stream));
            for (int k = 0; k < 400; k++) {
                byte[] corrupt = bytes.clone();
                int at = random.nextInt(corrupt.length);
                corrupt[at] ^= (byte) (1 + random.nextInt(255));
                if (k % 3 == 0) {
                    corrupt = Arrays.copyOf(corrupt, random.nextInt(corrupt.length));
                }
                Path bad = dir.resolve("bad");
                Files.write(bad, corrupt);
                cases++;
                String where = "stream=" + stream + " case=" + k + " at=" + at + " bytes=" + corrupt.length;
                try (BufferAllocator allocator = new RootAllocator()) {
                    try (Arena arena = Arena.ofConfined();
                            ViewTableReader reader = ArrowIpc.open(bad, allocator, arena)) {
                        while (reader.hasNext()) {
                            reader.next();
                        }
                    } catch (ArrowDataException e) {
                        failures++;
                        assertFalse(e.getMessage().contains("\n"), where + ": " + e.getMessage());
                        assertTrue(e.getMessage().startsWith("file=bad ")
                                || e.getMessage().startsWith("not an Arrow IPC file or stream: file="),
                                where + ": " + e.getMessage());
                    }
                } catch (RuntimeException e) {
                    fail(where + " (a leak fails here, at the allocator's close): " + e, e);
                }
            }
        }
        assertTrue(failures > cases / 2, "failures=" + failures + " cases=" + cases);
    }

    /** A failed buffer in the middle of a batch: the failing case of the issue, with its message and no leak. */
    @Test
    void aBadFrameAfterGoodBuffersOfTheSameFieldLeaksNothing() throws IOException {
        Path file = write(dir.resolve("one.arrow"), List.of(batches().get(2)), false);
        byte[] bytes = Files.readAllBytes(file);
        List<Integer> frames = new ArrayList<>();
        for (int i = 0; i + 4 <= bytes.length; i++) {
            if (bytes[i] == 0x04 && bytes[i + 1] == 0x22 && bytes[i + 2] == 0x4D && bytes[i + 3] == 0x18) {
                frames.add(i);
            }
        }
        // The view column's buffers come first: validity, views; corrupt the views frame's magic.
        byte[] corrupt = Arrays.copyOf(bytes, bytes.length);
        corrupt[frames.get(1)] = 0x05;
        Path bad = dir.resolve("bad.arrow");
        Files.write(bad, corrupt);
        try (BufferAllocator allocator = new RootAllocator()) {
            ArrowDataException e;
            try (Arena arena = Arena.ofConfined(); ViewTableReader reader = ArrowIpc.open(bad, allocator, arena)) {
                e = org.junit.jupiter.api.Assertions.assertThrows(ArrowDataException.class, reader::next);
            }
            assertEquals("file=bad.arrow batch=0 cannot load the record batch: cannot decompress: codec=LZ4_FRAME "
                    + "nonEmptyBufferIndex=1 LZ4 frame: bad magic: offset=0 magic=0x184d2205 expected=0x184d2204",
                    e.getMessage());
        }
        // Arrow Java alone leaks here (its VectorLoader drops the field's first buffer when the second throws):
        // the leak check of these tests sees such a leak.
        try (BufferAllocator allocator = new RootAllocator()) {
            RuntimeException leak = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, () -> {
                try (BufferAllocator child = allocator.newChildAllocator("arrow-java", 0, Long.MAX_VALUE)) {
                    try (FileChannel channel = FileChannel.open(bad, StandardOpenOption.READ);
                            ArrowFileReader reader = new ArrowFileReader(channel, child,
                                    CommonsCompressionFactory.INSTANCE)) {
                        reader.loadNextBatch();
                    } catch (IOException | RuntimeException expected) {
                        // the corrupt frame
                    }
                }
            });
            assertTrue(leak.getMessage().contains("Memory was leaked"), leak.getMessage());
        } catch (IllegalStateException parentLeak) {
            // The root then holds the leaked child: the same leak of Arrow Java's, already asserted above.
        }
    }
}
