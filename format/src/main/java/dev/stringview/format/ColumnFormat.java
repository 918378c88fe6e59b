package dev.stringview.format;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * The two layouts of a serialized string column (docs/serialization.md). Both share the file header; the type
 * name and format version in it say which block layout follows, so a reader recognizes old data by its name the
 * way TiFlash keeps reading {@code String} next to {@code StringV2} (seed 003).
 */
public enum ColumnFormat {
    /** The legacy layout: every value is preceded by its length as an unsigned LEB128 varint. */
    SIZE_PREFIX("String", 1),
    /** Sizes of a block in one stream and all its bytes in another: values are read in bulk, never one by one. */
    SEPARATED("StringV2", 2);

    /** The four bytes every serialized column starts with: ASCII {@code SVCL}. */
    static final byte[] MAGIC = {'S', 'V', 'C', 'L'};

    private final String typeName;
    private final int version;

    ColumnFormat(String typeName, int version) {
        this.typeName = typeName;
        this.version = version;
    }

    /** The type name written in the header. */
    public String typeName() {
        return typeName;
    }

    /** The format version written in the header. */
    public int version() {
        return version;
    }

    /** The format with this header version and type name, if both belong to one format. */
    static Optional<ColumnFormat> of(int version, String typeName) {
        for (ColumnFormat format : values()) {
            if (format.version == version && format.typeName.equals(typeName)) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }

    /**
     * The format of the serialized column in {@code file}, or empty if the file does not start with the magic
     * bytes, a known version and its type name (a Parquet file, say).
     */
    public static Optional<ColumnFormat> probe(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(7);
            if (head.length < 7 || !Arrays.equals(head, 0, 4, MAGIC, 0, 4)) {
                return Optional.empty();
            }
            int version = (head[4] & 0xFF) | (head[5] & 0xFF) << 8;
            byte[] name = in.readNBytes(head[6] & 0xFF);
            return of(version, new String(name, StandardCharsets.US_ASCII));
        }
    }
}
