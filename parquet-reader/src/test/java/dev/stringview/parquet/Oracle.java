package dev.stringview.parquet;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/** parquet-java's own column reader, the reference the tests compare against. */
final class Oracle {
    private Oracle() {}

    static ParquetReadOptions options() {
        return ParquetReadOptions.builder(new PlainParquetConfiguration()).withCodecFactory(new TestCodecs())
                .usePageChecksumVerification(false).build();
    }

    static MessageType schema(Path path) throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(path), options())) {
            return reader.getFooter().getFileMetaData().getSchema();
        }
    }

    /** Top-level, non-repeated BYTE_ARRAY columns but DECIMAL ones: those read as views. */
    static List<String> flatByteArrayColumns(MessageType schema) {
        List<String> names = new ArrayList<>();
        for (Type field : schema.getFields()) {
            if (field.isPrimitive() && !field.isRepetition(Type.Repetition.REPEATED)
                    && field.asPrimitiveType().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BINARY
                    && !(field.getLogicalTypeAnnotation()
                            instanceof org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation)) {
                names.add(field.getName());
            }
        }
        return names;
    }

    /** The values of {@code column}, null for nulls. */
    static List<byte[]> read(Path path, String column) throws IOException {
        List<byte[]> values = new ArrayList<>();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(path), options())) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            MessageType projection = new MessageType(schema.getName(), schema.getType(column));
            reader.setRequestedSchema(projection);
            ColumnDescriptor descriptor = projection.getColumnDescription(new String[] {column});
            String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
            PageReadStore rowGroup;
            while ((rowGroup = reader.readNextRowGroup()) != null) {
                try {
                    ColumnReadStoreImpl store = new ColumnReadStoreImpl(rowGroup,
                            new GroupRecordConverter(projection).getRootConverter(), projection, createdBy);
                    ColumnReader columnReader = store.getColumnReader(descriptor);
                    long n = rowGroup.getRowCount(); // flat column: one value per row
                    for (long i = 0; i < n; i++) {
                        if (columnReader.getCurrentDefinitionLevel() == descriptor.getMaxDefinitionLevel()) {
                            values.add(columnReader.getBinary().getBytes());
                        } else {
                            values.add(null);
                        }
                        columnReader.consume();
                    }
                } finally {
                    rowGroup.close();
                }
            }
        }
        return values;
    }
}
