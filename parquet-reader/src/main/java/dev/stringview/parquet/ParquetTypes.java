package dev.stringview.parquet;

import dev.stringview.parquet.ParquetType.Logical;
import dev.stringview.parquet.ParquetType.Physical;
import dev.stringview.parquet.ParquetType.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DateLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.EnumLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.Float16LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.JsonLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.StringLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.UUIDLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/** parquet-java's description of a primitive column, as a {@link ParquetType}. */
final class ParquetTypes {
    private ParquetTypes() {}

    /** The type of {@code primitive}; throws {@link IllegalArgumentException} saying why it cannot be read. */
    static ParquetType of(PrimitiveType primitive) {
        LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
        Physical physical = switch (primitive.getPrimitiveTypeName()) {
            case BOOLEAN -> Physical.BOOLEAN;
            case INT32 -> Physical.INT32;
            case INT64 -> Physical.INT64;
            case INT96 -> Physical.INT96;
            case FLOAT -> Physical.FLOAT;
            case DOUBLE -> Physical.DOUBLE;
            case BINARY -> Physical.BYTE_ARRAY;
            case FIXED_LEN_BYTE_ARRAY -> Physical.FIXED_LEN_BYTE_ARRAY;
        };
        int typeLength = physical == Physical.FIXED_LEN_BYTE_ARRAY ? primitive.getTypeLength() : 0;
        if (physical == Physical.FIXED_LEN_BYTE_ARRAY && typeLength <= 0) {
            throw new IllegalArgumentException("FIXED_LEN_BYTE_ARRAY without a length: typeLength=" + typeLength);
        }
        int physicalBits = physical == Physical.INT32 ? 32 : physical == Physical.INT64 ? 64 : 0;
        if (logical instanceof DecimalLogicalTypeAnnotation d) {
            if (d.getPrecision() > ParquetType.MAX_DECIMAL_PRECISION || d.getPrecision() <= 0) {
                throw new IllegalArgumentException("DECIMAL precision not read: precision=" + d.getPrecision()
                        + " maxPrecision=" + ParquetType.MAX_DECIMAL_PRECISION);
            }
            return new ParquetType(physical, Logical.DECIMAL, typeLength, 0, true, d.getPrecision(), d.getScale(),
                    null, false);
        }
        if (physical == Physical.INT96) {
            return new ParquetType(physical, Logical.NONE, 0, 64, true, 0, 0, TimeUnit.MICROS, false);
        }
        if (physicalBits > 0) {
            if (logical instanceof IntLogicalTypeAnnotation i) {
                // INT(8/16/32) annotate INT32 and INT(64) INT64 (LogicalTypes.md)
                if (i.getBitWidth() > physicalBits || (physicalBits == 64) != (i.getBitWidth() == 64)) {
                    throw new IllegalArgumentException("INTEGER width does not fit its physical type: bitWidth="
                            + i.getBitWidth() + " physicalType=" + physical);
                }
                return new ParquetType(physical, Logical.INTEGER, 0, i.getBitWidth(), i.isSigned(), 0, 0, null,
                        false);
            }
            if (logical instanceof DateLogicalTypeAnnotation && physical == Physical.INT32) {
                return new ParquetType(physical, Logical.DATE, 0, 32, true, 0, 0, null, false);
            }
            if (logical instanceof TimeLogicalTypeAnnotation t) {
                return new ParquetType(physical, Logical.TIME, 0, physicalBits, true, 0, 0, unit(t.getUnit()),
                        t.isAdjustedToUTC());
            }
            if (logical instanceof TimestampLogicalTypeAnnotation t) {
                return new ParquetType(physical, Logical.TIMESTAMP, 0, physicalBits, true, 0, 0, unit(t.getUnit()),
                        t.isAdjustedToUTC());
            }
            return new ParquetType(physical, logical == null ? Logical.NONE : Logical.OTHER, 0, physicalBits, true,
                    0, 0, null, false);
        }
        if (logical instanceof Float16LogicalTypeAnnotation && typeLength == 2) {
            return new ParquetType(physical, Logical.FLOAT16, typeLength, 0, false, 0, 0, null, false);
        }
        if (logical instanceof UUIDLogicalTypeAnnotation && typeLength == 16) {
            return new ParquetType(physical, Logical.UUID, typeLength, 0, false, 0, 0, null, false);
        }
        if (physical == Physical.BYTE_ARRAY && (logical instanceof StringLogicalTypeAnnotation
                || logical instanceof EnumLogicalTypeAnnotation || logical instanceof JsonLogicalTypeAnnotation)) {
            return new ParquetType(physical, Logical.STRING, 0, 0, false, 0, 0, null, false);
        }
        return new ParquetType(physical, logical == null ? Logical.NONE : Logical.OTHER, typeLength, 0, false, 0, 0,
                null, false);
    }

    private static TimeUnit unit(LogicalTypeAnnotation.TimeUnit unit) {
        return switch (unit) {
            case MILLIS -> TimeUnit.MILLIS;
            case MICROS -> TimeUnit.MICROS;
            case NANOS -> TimeUnit.NANOS;
        };
    }
}
