package dev.stringview.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stringview.parquet.ParquetType.Logical;
import dev.stringview.parquet.ParquetType.Physical;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code ParquetScan.readLongs} (the one-pass read a filter's value leaves compare) against the column's own
 * {@link FixedWidthColumn#getLong}, row by row, for every integer width and signedness, with nulls and with the
 * extreme values of each width.
 */
class ReadLongsTest {
    private static ParquetType integer(Physical physical, int bits, boolean signed) {
        return new ParquetType(physical, Logical.INTEGER, 0, bits, signed, 0, 0, null, false);
    }

    @Test
    void everyIntegerWidthReadsAsGetLongDoes() {
        ParquetType[] types = {
            integer(Physical.INT32, 8, true), integer(Physical.INT32, 8, false),
            integer(Physical.INT32, 16, true), integer(Physical.INT32, 16, false),
            integer(Physical.INT32, 32, true), integer(Physical.INT32, 32, false),
            integer(Physical.INT64, 64, true),
            new ParquetType(Physical.INT32, Logical.DATE, 0, 0, true, 0, 0, null, false),
            new ParquetType(Physical.INT32, Logical.NONE, 0, 32, true, 0, 0, null, false),
        };
        SplittableRandom random = new SplittableRandom(32);
        for (ParquetType type : types) {
            for (int rows : new int[] {0, 1, 7, 64, 65, 1000}) {
                try (Arena arena = Arena.ofConfined()) {
                    int width = type.byteWidth();
                    MemorySegment values = arena.allocate(Math.max(1, (long) rows * width));
                    MemorySegment validity = arena.allocate(Math.max(1, (rows + 7) / 8));
                    int nulls = 0;
                    for (int r = 0; r < rows; r++) {
                        // Extremes of every byte pattern: 0x00, 0x7F.., 0x80.., 0xFF.., and random bytes.
                        int kind = random.nextInt(5);
                        for (int b = 0; b < width; b++) {
                            byte v = switch (kind) {
                                case 0 -> 0;
                                case 1 -> (byte) (b == width - 1 ? 0x7F : 0xFF);
                                case 2 -> (byte) (b == width - 1 ? 0x80 : 0);
                                case 3 -> (byte) 0xFF;
                                default -> (byte) random.nextInt(256);
                            };
                            values.set(ValueLayout.JAVA_BYTE, (long) r * width + b, v);
                        }
                        if (random.nextInt(4) != 0) {
                            validity.set(ValueLayout.JAVA_BYTE, r >>> 3,
                                    (byte) (validity.get(ValueLayout.JAVA_BYTE, r >>> 3) | (1 << (r & 7))));
                        } else {
                            nulls++;
                        }
                    }
                    FixedWidthColumn column = new FixedWidthColumn("c", type, rows, values, validity, nulls);
                    long[] out = new long[rows];
                    ParquetScan.readLongs(column, rows, out);
                    for (int r = 0; r < rows; r++) {
                        if (!column.isNull(r)) {
                            assertEquals(column.getLong(r), out[r], "type=" + type + " rows=" + rows + " row=" + r);
                        }
                    }
                }
            }
        }
    }
}
