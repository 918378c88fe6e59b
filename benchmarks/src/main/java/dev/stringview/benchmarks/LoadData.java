package dev.stringview.benchmarks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Suite 2's files: one required UTF-8 column {@code s}, written by parquet-java (v1 pages, no page checksums).
 *
 * <ul>
 *   <li>{@code plainShort}: PLAIN, uncompressed, 1-12 bytes (every value inline in a view);</li>
 *   <li>{@code plainLong}: PLAIN, uncompressed, 13-120 bytes of text-like ASCII;</li>
 *   <li>{@code dictionary}: dictionary-encoded, uncompressed, 1000 distinct values of 13-60 bytes (Zipf-like);</li>
 *   <li>{@code snappy}, {@code zstd}: the long strings, PLAIN, compressed.</li>
 * </ul>
 */
final class LoadData {
    static final String COLUMN = "s";
    static final List<String> DATASETS = List.of("plainShort", "plainLong", "dictionary", "snappy", "zstd");
    private static final long SEED = 0x10AD_0002L;
    private static final int VERSION = 1;
    private static final String[] DICTIONARY = dictionary(1000);

    private LoadData() {}

    static Path file(Path dir, String dataset, long rows) {
        ParquetFiles.Layout layout = switch (dataset) {
            case "plainShort", "plainLong" -> new ParquetFiles.Layout(dataset, false, CompressionCodecName.UNCOMPRESSED);
            case "dictionary" -> new ParquetFiles.Layout(dataset, true, CompressionCodecName.UNCOMPRESSED);
            case "snappy" -> new ParquetFiles.Layout(dataset, false, CompressionCodecName.SNAPPY);
            case "zstd" -> new ParquetFiles.Layout(dataset, false, CompressionCodecName.ZSTD);
            default -> throw new IllegalArgumentException("unknown dataset: dataset=" + dataset + " expected=" + DATASETS);
        };
        Path file = dir.resolve("load-v" + VERSION + "-" + dataset + "-" + rows + ".parquet");
        return ParquetFiles.write(file, List.of(COLUMN), rows, layout, row -> new String[] {value(dataset, row)}, null);
    }

    static String value(String dataset, long row) {
        SplittableRandom r = new SplittableRandom(SEED ^ (row * 0x9E37_79B9_7F4A_7C15L));
        return switch (dataset) {
            case "plainShort" -> {
                byte[] b = new byte[1 + r.nextInt(12)];
                StringHeap.fillRandom(r, b, 0, b.length);
                yield new String(b, StandardCharsets.US_ASCII);
            }
            case "dictionary" -> {
                double u = r.nextDouble();
                yield DICTIONARY[(int) (DICTIONARY.length * u * u)];
            }
            default -> HitsGenerator.text(r, 13, 120);
        };
    }

    private static String[] dictionary(int n) {
        SplittableRandom r = new SplittableRandom(SEED * 17);
        java.util.LinkedHashSet<String> values = new java.util.LinkedHashSet<>();
        while (values.size() < n) {
            values.add(HitsGenerator.text(r, 13, 60));
        }
        return values.toArray(String[]::new);
    }
}
