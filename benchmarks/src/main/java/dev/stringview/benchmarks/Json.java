package dev.stringview.benchmarks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.List;
import java.util.Map;

/**
 * JMH result files and run contexts through Jackson: objects become {@link Map}s, arrays {@link List}s, numbers
 * {@link Number}s. JMH writes NaN as the string {@code "NaN"}; {@link #number} accepts both.
 */
final class Json {
    private Json() {}

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static Object parse(String text) {
        try {
            return MAPPER.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("bad JSON: reason=\"" + e.getOriginalMessage() + "\" line="
                    + e.getLocation().getLineNr() + " column=" + e.getLocation().getColumnNr(), e);
        }
    }

    /** A number that may have been written as a string ("NaN", "Infinity"), or NaN if absent. */
    static double number(Object value) {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof String s) {
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
        return Double.NaN;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(Object value) {
        return value instanceof List<?> l ? (List<Object>) l : List.of();
    }

    /** Writes a map (run contexts: strings and numbers) as pretty JSON. */
    static String write(Map<String, ?> map) {
        try {
            return MAPPER.writeValueAsString(map) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write JSON: reason=\"" + e.getOriginalMessage() + "\"", e);
        }
    }
}
