package dev.stringview.arrow.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flatbuf.BodyCompression;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.FieldNode;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.vector.TypeLayout;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Checks the framing of every record batch of an IPC file or stream on disk before Arrow Java reads it: message
 * and body inside the file, the batch's row count, field nodes, variadic buffer counts and buffers as the schema
 * needs them, each buffer inside the body.
 *
 * <p>Why: Arrow Java 19 allocates a batch's whole message before it parses it, and its {@code MessageSerializer}
 * and {@code VectorLoader} do not free that memory (or a field's already loaded buffers) when the message turns
 * out malformed: "Memory was leaked by query". Rejecting such a batch here, with one line naming it, means Arrow
 * Java only ever sees batches it reads without failing.
 */
public final class IpcFrameCheck {
    private IpcFrameCheck() {}

    private static final int CONTINUATION = 0xFFFFFFFF;

    /** Checks the record batches a file's footer lists. */
    public static void checkFileBlocks(FileChannel channel, List<ArrowBlock> blocks, Schema schema)
            throws IOException {
        long size = channel.size();
        for (int i = 0; i < blocks.size(); i++) {
            ArrowBlock block = blocks.get(i);
            String where = "batch=" + i + " ";
            long offset = block.getOffset();
            int metadataLength = block.getMetadataLength();
            long bodyLength = block.getBodyLength();
            if (offset < 0 || metadataLength < 8 || bodyLength < 0 || offset > size
                    || metadataLength > size - offset || bodyLength > size - offset - metadataLength) {
                throw new IllegalArgumentException(where + "footer block outside the file: offset=" + offset
                        + " metadataLength=" + metadataLength + " bodyLength=" + bodyLength + " fileBytes=" + size);
            }
            ByteBuffer metadata = read(channel, offset, metadataLength);
            int prefix = metadata.getInt(0) == CONTINUATION ? 8 : 4;
            metadata.position(prefix);
            checkRecordBatch(where, message(where, metadata.slice()), bodyLength, schema);
        }
    }

    /** Checks every message of the stream that starts at {@code start}, up to its end-of-stream marker. */
    public static void checkStream(FileChannel channel, long start, Schema schema) throws IOException {
        long size = channel.size();
        long position = start;
        int batch = 0;
        boolean schemaSeen = false;
        while (position + 4 <= size) {
            String where = "batch=" + batch + " ";
            int length = read(channel, position, 4).getInt(0);
            long metadataStart = position + 4;
            if (length == CONTINUATION) {
                if (position + 8 > size) {
                    break;
                }
                length = read(channel, position + 4, 4).getInt(0);
                metadataStart = position + 8;
            }
            if (length == 0) {
                return;
            }
            if (length < 0 || length > size - metadataStart) {
                throw new IllegalArgumentException(where + "message outside the stream: offset=" + position
                        + " metadataLength=" + length + " streamBytes=" + size);
            }
            Message message = message(where, read(channel, metadataStart, length));
            long bodyStart = metadataStart + length;
            long bodyLength;
            byte type;
            try {
                bodyLength = message.bodyLength();
                type = message.headerType();
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(where + "corrupt message metadata: offset=" + position + " " + e,
                        e);
            }
            if (bodyLength < 0 || bodyLength > size - bodyStart) {
                throw new IllegalArgumentException(where + "message body outside the stream: offset=" + bodyStart
                        + " bodyLength=" + bodyLength + " streamBytes=" + size);
            }
            if (type == MessageHeader.Schema && !schemaSeen) {
                schemaSeen = true;
            } else if (type == MessageHeader.RecordBatch) {
                checkRecordBatch(where, message, bodyLength, schema);
                batch++;
            } else if (type == MessageHeader.DictionaryBatch) {
                // Dictionaries of columns other than the string ones read here; their body lies inside the stream
                // (checked above), their batches are Arrow Java's to read.
            } else {
                throw new IllegalArgumentException(where + "unexpected message: offset=" + position + " headerType="
                        + type + " (expected a record batch " + MessageHeader.RecordBatch + " or a dictionary batch "
                        + MessageHeader.DictionaryBatch + ")");
            }
            position = bodyStart + bodyLength;
        }
        // A stream cut inside a message prefix: Arrow Java reads it as the end of the stream.
    }

    private static Message message(String where, ByteBuffer metadata) {
        try {
            return Message.getRootAsMessage(metadata.order(ByteOrder.LITTLE_ENDIAN));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(where + "corrupt message metadata: metadataBytes="
                    + metadata.remaining() + " " + e, e);
        }
    }

    private static void checkRecordBatch(String where, Message message, long bodyLength, Schema schema) {
        try {
            if (message.headerType() != MessageHeader.RecordBatch) {
                throw new IllegalArgumentException(where + "not a record batch: headerType=" + message.headerType());
            }
            RecordBatch batch = (RecordBatch) message.header(new RecordBatch());
            if (batch == null) {
                throw new IllegalArgumentException(where + "record batch message without its header");
            }
            long rows = batch.length();
            if (rows < 0 || rows > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(where + "bad row count: rows=" + rows);
            }
            List<Field> fields = new ArrayList<>();
            flatten(schema.getFields(), fields);
            if (batch.nodesLength() != fields.size()) {
                throw new IllegalArgumentException(where + "field node count differs from the schema: nodes="
                        + batch.nodesLength() + " fields=" + fields.size());
            }
            long buffers = 0;
            int views = 0;
            FieldNode node = new FieldNode();
            for (int i = 0; i < fields.size(); i++) {
                batch.nodes(node, i);
                if (node.length() < 0 || node.length() > Integer.MAX_VALUE || node.nullCount() < 0
                        || node.nullCount() > node.length()) {
                    throw new IllegalArgumentException(where + "bad field node: node=" + i + " length="
                            + node.length() + " nullCount=" + node.nullCount());
                }
                ArrowType type = fields.get(i).getType();
                buffers += TypeLayout.getTypeBufferCount(type);
                if (type.getTypeID() == ArrowType.ArrowTypeID.Utf8View
                        || type.getTypeID() == ArrowType.ArrowTypeID.BinaryView) {
                    if (views >= batch.variadicBufferCountsLength()) {
                        throw new IllegalArgumentException(where + "missing variadic buffer count: field=" + i
                                + " variadicBufferCounts=" + batch.variadicBufferCountsLength());
                    }
                    long variadic = batch.variadicBufferCounts(views++);
                    if (variadic < 0 || variadic > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException(where + "bad variadic buffer count: field=" + i
                                + " variadicBufferCount=" + variadic);
                    }
                    buffers += variadic;
                }
            }
            if (views != batch.variadicBufferCountsLength()) {
                throw new IllegalArgumentException(where + "variadic buffer counts differ from the view fields: "
                        + "variadicBufferCounts=" + batch.variadicBufferCountsLength() + " viewFields=" + views);
            }
            // Touched here so that a corrupt table fails now, not inside Arrow Java's reading.
            BodyCompression compression = batch.compression();
            if (compression != null) {
                compression.codec();
                compression.method();
            }
            if (batch.buffersLength() != buffers) {
                throw new IllegalArgumentException(where + "buffer count differs from the schema's: buffers="
                        + batch.buffersLength() + " expected=" + buffers);
            }
            Buffer buffer = new Buffer();
            for (int i = 0; i < batch.buffersLength(); i++) {
                batch.buffers(buffer, i);
                long offset = buffer.offset();
                long length = buffer.length();
                if (offset < 0 || length < 0 || offset > bodyLength || length > bodyLength - offset) {
                    throw new IllegalArgumentException(where + "buffer outside the body: bufferIndex=" + i
                            + " offset=" + offset + " length=" + length + " bodyLength=" + bodyLength);
                }
            }
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(where + "corrupt record batch metadata: " + e, e);
        }
    }

    private static void flatten(List<Field> fields, List<Field> out) {
        for (Field field : fields) {
            out.add(field);
            flatten(field.getChildren(), out);
        }
    }

    private static ByteBuffer read(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new IllegalArgumentException("IPC input ends early: offset=" + (position + buffer.position())
                        + " needed=" + buffer.remaining());
            }
        }
        return buffer.flip();
    }
}
