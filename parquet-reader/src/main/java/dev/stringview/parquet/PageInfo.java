package dev.stringview.parquet;

/**
 * What one page of a column chunk held and how its views were made (for {@code stringview pages} and tests).
 *
 * @param column the column
 * @param rowGroup the row group
 * @param page the page's index within the column chunk (the dictionary page, if any, is page 0)
 * @param kind {@code DICTIONARY}, {@code DATA_V1} or {@code DATA_V2}
 * @param encoding the values' encoding, e.g. {@code PLAIN}, {@code RLE_DICTIONARY}
 * @param codec the chunk's compression codec
 * @param values values in the page (nulls included), or dictionary entries
 * @param nulls null values in the page
 * @param compressedBytes page bytes in the file, header excluded
 * @param uncompressedBytes page bytes once decompressed, header excluded
 * @param views how the page's values became views
 */
public record PageInfo(String column, int rowGroup, int page, String kind, String encoding, String codec,
        long values, long nulls, long compressedBytes, long uncompressedBytes, PageViews views) {

    /** How the views of a page's values were built. */
    public enum PageViews {
        /** Views point into the file's bytes where they lie (memory-mapped): nothing copied. */
        IN_PLACE_FILE,
        /** Views point into the page's decompressed buffer: the only copy is decompression itself. */
        IN_PLACE_DECOMPRESSED,
        /** 16-byte views copied from the dictionary, whose values stay where the dictionary page put them. */
        DICTIONARY,
        /** Values rebuilt into a new buffer (DELTA_BYTE_ARRAY: prefix + suffix). */
        MATERIALIZED,
        /** The page had no values to make views of. */
        NONE
    }
}
