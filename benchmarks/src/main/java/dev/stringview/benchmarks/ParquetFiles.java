package dev.stringview.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Writing test files with parquet-java (no Hadoop file system: {@link LocalOutputFile} and a
 * {@link PlainParquetConfiguration}) and reading them through parquet-java's standard column path:
 * {@code ParquetFileReader} → {@code readNextRowGroup} → {@code ColumnReader.getBinary()}.
 */
final class ParquetFiles {
    private ParquetFiles() {}

    /**
     * How a file is written: dictionary encoding on or off (off means PLAIN for v1 pages), the codec, rows per
     * row group (0: parquet-java's default, row groups of 128 MiB), and the distinct URLs of the hits-like table
     * (0: the generator's, nearly all distinct; see {@link HitsGenerator#withUrlsFrom}). Pages are parquet-java's default 1 MiB and
     * statistics are on either way.
     */
    record Layout(String name, boolean dictionary, CompressionCodecName codec, int rowGroupRows, int distinctUrls) {
        Layout(String name, boolean dictionary, CompressionCodecName codec) {
            this(name, dictionary, codec, 0, 0);
        }

        Layout(String name, boolean dictionary, CompressionCodecName codec, int rowGroupRows) {
            this(name, dictionary, codec, rowGroupRows, 0);
        }

        /** The same encoding and codec with pyarrow's defaults: 1M-row row groups (1 MiB pages, statistics on). */
        Layout pyarrowLike() {
            return new Layout(name + "Pa", dictionary, codec, PYARROW_ROW_GROUP_ROWS, distinctUrls);
        }
    }

    /** pyarrow's default {@code row_group_size} (rows); its data pages are 1 MiB like parquet-java's. */
    static final int PYARROW_ROW_GROUP_ROWS = 1 << 20;

    static final Layout PLAIN = new Layout("plain", false, CompressionCodecName.UNCOMPRESSED);
    static final Layout SNAPPY = new Layout("snappy", false, CompressionCodecName.SNAPPY);
    static final Layout DICTIONARY_ZSTD = new Layout("dictZstd", true, CompressionCodecName.ZSTD);
    /** PLAIN + LZ4_RAW: the snappy layout's twin for the third codec the floor benchmark measures. */
    static final Layout LZ4 = new Layout("lz4", false, CompressionCodecName.LZ4_RAW);
    /**
     * Dictionary + zstd with a URL column a dictionary really holds: the hits generator's URLs have so many distinct
     * values that parquet-java's dictionary (1 MiB, as pyarrow's) overflows and the {@code dictZstd} chunks fall
     * back to PLAIN; here each row's URL is drawn from {@value #DICTIONARY_URLS} of them (about 0.7 MiB), so every
     * URL page is RLE_DICTIONARY-encoded (the other columns are as in {@code dictZstd}).
     */
    static final Layout DICTIONARY_URLS_ZSTD = new Layout("dictUrlsZstd", true, CompressionCodecName.ZSTD, 0,
            HitsGenerator.DICTIONARY_URLS);

    /** Produces row {@code row}'s values, one per column, in schema order. */
    interface Rows {
        String[] row(long row);
    }

    /** A schema of required UTF-8 columns. */
    static MessageType schema(List<String> columns) {
        StringBuilder sb = new StringBuilder("message t {");
        for (String column : columns) {
            sb.append(" required binary ").append(column).append(" (STRING);");
        }
        return MessageTypeParser.parseMessageType(sb.append(" }").toString());
    }

    /**
     * Writes {@code rows} rows to {@code file} unless it already exists (a cache keyed by the file name),
     * through a temporary file so that an interrupted write never leaves a partial file behind.
     *
     * @param progress called with the number of rows written so far, every 64Ki rows, or null
     */
    static Path write(Path file, List<String> columns, long rows, Layout layout, Rows values,
            java.util.function.LongConsumer progress) {
        if (Files.isRegularFile(file)) {
            return file;
        }
        try {
            Files.createDirectories(file.getParent());
            Path temp = file.resolveSibling(file.getFileName() + ".tmp-" + ProcessHandle.current().pid());
            Files.deleteIfExists(temp);
            MessageType schema = schema(columns);
            SimpleGroupFactory groups = new SimpleGroupFactory(schema);
            try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(temp))
                    .withConf(new PlainParquetConfiguration())
                    .withType(schema)
                    .withCodecFactory(new JniCodecs())
                    .withCompressionCodec(layout.codec())
                    .withDictionaryEncoding(layout.dictionary())
                    .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                    .withPageWriteChecksumEnabled(false)
                    .withRowGroupRowCountLimit(layout.rowGroupRows() > 0 ? layout.rowGroupRows() : Integer.MAX_VALUE)
                    .build()) {
                for (long row = 0; row < rows; row++) {
                    String[] v = values.row(row);
                    Group g = groups.newGroup();
                    for (int c = 0; c < v.length; c++) {
                        g.add(c, v[c]);
                    }
                    writer.write(g);
                    if (progress != null && (row & 0xFFFF) == 0xFFFF) {
                        progress.accept(row + 1);
                    }
                }
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            if (progress != null) {
                progress.accept(rows);
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write parquet file: file=" + file, e);
        }
    }

    static ParquetReadOptions readOptions() {
        return ParquetReadOptions.builder(new PlainParquetConfiguration()).withCodecFactory(new JniCodecs()).build();
    }

    /** Receives each value of a column from parquet-java's ColumnReader. */
    interface BinaryVisitor {
        void value(Binary value);
    }

    /**
     * parquet-java's standard column reading path over one column: every row group, every value as a
     * {@link Binary}. Returns the number of rows read.
     */
    static long scan(Path file, String column, BinaryVisitor visitor) throws IOException {
        return scan(new LocalInputFile(file), readOptions(), column, visitor);
    }

    /** {@link #scan(Path, String, BinaryVisitor)} of any parquet-java {@code InputFile}, with {@code options}. */
    static long scan(org.apache.parquet.io.InputFile file, ParquetReadOptions options, String column,
            BinaryVisitor visitor) throws IOException {
        long rows = 0;
        try (ParquetFileReader reader = ParquetFileReader.open(file, options)) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            MessageType projection = new MessageType(schema.getName(), schema.getType(column));
            reader.setRequestedSchema(projection);
            ColumnDescriptor descriptor = projection.getColumnDescription(new String[] {column});
            int maxDefinition = descriptor.getMaxDefinitionLevel();
            String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
            PageReadStore rowGroup;
            while ((rowGroup = reader.readNextRowGroup()) != null) {
                try {
                    ColumnReadStoreImpl store = new ColumnReadStoreImpl(rowGroup,
                            new GroupRecordConverter(projection).getRootConverter(), projection, createdBy);
                    ColumnReader values = store.getColumnReader(descriptor);
                    long n = values.getTotalValueCount();
                    for (long i = 0; i < n; i++) {
                        if (values.getCurrentDefinitionLevel() == maxDefinition) {
                            visitor.value(values.getBinary());
                        } else {
                            visitor.value(null);
                        }
                        values.consume();
                    }
                    rows += n;
                } finally {
                    rowGroup.close();
                }
            }
        }
        return rows;
    }
}
