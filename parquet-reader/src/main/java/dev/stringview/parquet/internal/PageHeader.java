package dev.stringview.parquet.internal;

import java.lang.foreign.MemorySegment;

/**
 * The fields of a Parquet {@code PageHeader} this reader uses, parsed by {@link #parse} with its own bounded
 * Thrift compact reader (statistics and index pages are skipped without allocating).
 *
 * @param headerSize bytes taken by the header itself; the page data follows
 * @param hasCrc whether the writer stored a CRC-32 of the page data
 * @param crc that CRC-32 (0 when there is none)
 * @param numValues values in the page, nulls included (data pages), or dictionary entries
 * @param numNulls v2 only, else -1
 * @param numRows v2 only, else -1
 * @param encoding the values' encoding (Parquet {@code Encoding} number)
 * @param defLevelEncoding v1 only, else -1
 * @param defLevelsByteLength v2 only, else -1
 * @param repLevelsByteLength v2 only, else -1
 * @param compressed v2 only: whether the values section is compressed (default true)
 */
public record PageHeader(int type, int headerSize, int uncompressedSize, int compressedSize, boolean hasCrc, int crc,
        int numValues, int numNulls, int numRows, int encoding, int defLevelEncoding, int defLevelsByteLength,
        int repLevelsByteLength, boolean compressed) {

    public static final int DATA_PAGE = 0;
    public static final int INDEX_PAGE = 1;
    public static final int DICTIONARY_PAGE = 2;
    public static final int DATA_PAGE_V2 = 3;

    /** Parses the header at {@code position}; it must end before {@code limit}. */
    public static PageHeader parse(MemorySegment data, long position, long limit) {
        ThriftCompactReader in = new ThriftCompactReader(data, position, limit);
        int type = -1;
        int uncompressed = -1;
        int compressed = -1;
        boolean sawType = false;
        boolean sawUncompressed = false;
        boolean sawCompressed = false;
        boolean sawCrc = false;
        int crc = 0;
        int numValues = -1;
        int numNulls = -1;
        int numRows = -1;
        int encoding = -1;
        int defEncoding = -1;
        int defLength = -1;
        int repLength = -1;
        boolean isCompressed = true;
        boolean sawSubHeader = false;
        int id = 0;
        while (true) {
            int header = in.readFieldHeader(id);
            if (header == ThriftCompactReader.STOP) {
                break;
            }
            id = header >> 8;
            int fieldType = header & 0xFF;
            switch (id) {
                case 1 -> {
                    type = in.readI32(fieldType);
                    sawType = true;
                }
                case 2 -> {
                    uncompressed = in.readI32(fieldType);
                    sawUncompressed = true;
                }
                case 3 -> {
                    compressed = in.readI32(fieldType);
                    sawCompressed = true;
                }
                case 4 -> {
                    crc = in.readI32(fieldType);
                    sawCrc = true;
                }
                case 5, 7, 8 -> {
                    if (fieldType != ThriftCompactReader.STRUCT) {
                        in.skip(fieldType);
                        break;
                    }
                    sawSubHeader = true;
                    int sub = 0;
                    while (true) {
                        int h = in.readFieldHeader(sub);
                        if (h == ThriftCompactReader.STOP) {
                            break;
                        }
                        sub = h >> 8;
                        int t = h & 0xFF;
                        if (id == 5) { // DataPageHeader
                            switch (sub) {
                                case 1 -> numValues = in.readI32(t);
                                case 2 -> encoding = in.readI32(t);
                                case 3 -> defEncoding = in.readI32(t);
                                default -> in.skip(t); // 4 repetition level encoding, 5 statistics
                            }
                        } else if (id == 7) { // DictionaryPageHeader
                            switch (sub) {
                                case 1 -> numValues = in.readI32(t);
                                case 2 -> encoding = in.readI32(t);
                                default -> in.skip(t); // 3 is_sorted
                            }
                        } else { // DataPageHeaderV2
                            switch (sub) {
                                case 1 -> numValues = in.readI32(t);
                                case 2 -> numNulls = in.readI32(t);
                                case 3 -> numRows = in.readI32(t);
                                case 4 -> encoding = in.readI32(t);
                                case 5 -> defLength = in.readI32(t);
                                case 6 -> repLength = in.readI32(t);
                                case 7 -> isCompressed = in.readBool(t);
                                default -> in.skip(t); // 8 statistics
                            }
                        }
                    }
                }
                default -> in.skip(fieldType); // 6 index page header, future fields
            }
        }
        if (!sawType || !sawUncompressed || !sawCompressed) {
            throw new CorruptDataException("bad page header: required field missing: headerOffset=" + position
                    + " type=" + (sawType ? type : "none") + " uncompressedSize="
                    + (sawUncompressed ? uncompressed : "none") + " compressedSize="
                    + (sawCompressed ? compressed : "none"));
        }
        if (uncompressed < 0 || compressed < 0) {
            throw new CorruptDataException("bad page header: negative page size: headerOffset=" + position
                    + " uncompressedSize=" + uncompressed + " compressedSize=" + compressed);
        }
        int headerSize = Math.toIntExact(in.position() - position);
        boolean needsSubHeader = type == DATA_PAGE || type == DATA_PAGE_V2 || type == DICTIONARY_PAGE;
        if (needsSubHeader && (!sawSubHeader || numValues < 0 || encoding < 0)) {
            throw new CorruptDataException("bad page header: missing or negative page header fields: headerOffset="
                    + position + " type=" + type + " numValues=" + numValues + " encoding=" + encoding);
        }
        if (type == DATA_PAGE_V2 && (numNulls < 0 || numRows < 0 || defLength < 0 || repLength < 0)) {
            throw new CorruptDataException("bad page header: negative v2 fields: headerOffset=" + position
                    + " numNulls=" + numNulls + " numRows=" + numRows + " defLevelsByteLength=" + defLength
                    + " repLevelsByteLength=" + repLength);
        }
        return new PageHeader(type, headerSize, uncompressed, compressed, sawCrc, crc, numValues, numNulls, numRows,
                encoding, defEncoding, defLength, repLength, isCompressed);
    }

    public String typeName() {
        return switch (type) {
            case DATA_PAGE -> "DATA_PAGE";
            case INDEX_PAGE -> "INDEX_PAGE";
            case DICTIONARY_PAGE -> "DICTIONARY_PAGE";
            case DATA_PAGE_V2 -> "DATA_PAGE_V2";
            default -> "UNKNOWN(" + type + ")";
        };
    }
}
