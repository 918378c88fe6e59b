package dev.stringview.samples.engine;

import dev.stringview.ViewColumn;
import dev.stringview.ViewColumnBuilder;
import dev.stringview.ViewColumns;
import dev.stringview.ViewKernels;
import dev.stringview.ViewKind;
import dev.stringview.ViewPredicate;
import dev.stringview.ViewPredicates;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a query engine does with a string column: build it once, filter it with a compiled predicate, sort the
 * survivors and group them by value through the column's hash. The column lives in the caller's {@link Arena};
 * closing the arena frees it, so nothing returned here points into it (results are plain Java values).
 */
public final class CityReport {

    /** Rows that matched, their values in ascending byte order, and how often each distinct value occurs. */
    public record Result(int matches, List<String> sorted, Map<String, Integer> countsByValue) {
    }

    private CityReport() {
    }

    /**
     * Filters {@code cities} (null entries are SQL nulls) to the values that start with {@code prefix}, then
     * sorts and counts the matches.
     */
    public static Result run(Arena arena, List<String> cities, String prefix) {
        ViewColumnBuilder builder = ViewColumns.builder(arena, ViewKind.UTF8).withExpectedRows(cities.size());
        for (String city : cities) {
            if (city == null) {
                builder.appendNull();
            } else {
                builder.append(city);
            }
        }
        ViewColumn column = builder.build();

        ViewPredicate startsWith = ViewPredicates.startsWith(prefix);
        int[] selected = new int[column.size()];
        int matches = startsWith.select(column, selected);

        // take() copies only the selected 16-byte views into the arena; the data buffers are shared.
        ViewColumn survivors = column.take(arena, selected, matches);
        int[] order = ViewKernels.argsort(survivors);
        List<String> sorted = new ArrayList<>(matches);
        for (int row : order) {
            sorted.add(survivors.string(row));
        }

        // Group by hash, then confirm with valueEquals: equal hashes do not prove equal bytes.
        long[] hashes = new long[survivors.size()];
        ViewKernels.hash(survivors, hashes);
        Map<Long, List<Integer>> groupsByHash = new LinkedHashMap<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (int row = 0; row < survivors.size(); row++) {
            List<Integer> group = groupsByHash.computeIfAbsent(hashes[row], h -> new ArrayList<>());
            int representative = -1;
            for (int candidate : group) {
                if (survivors.valueEquals(candidate, survivors, row)) {
                    representative = candidate;
                    break;
                }
            }
            if (representative < 0) {
                group.add(row);
                representative = row;
            }
            counts.merge(survivors.string(representative), 1, Integer::sum);
        }
        return new Result(matches, sorted, counts);
    }

    /** Prints the report for a few cities; {@code args[0]} is the prefix (default "S"). */
    public static void main(String[] args) {
        String prefix = args.length > 0 ? args[0] : "S";
        List<String> cities = List.of("Stockholm", "Seville", "São Paulo", "Oslo", "Stockholm",
                "Santiago de Compostela", "Sevilla");
        try (Arena arena = Arena.ofConfined()) {
            Result result = run(arena, cities, prefix);
            System.out.println("matches=" + result.matches());
            System.out.println("sorted=" + result.sorted());
            System.out.println("counts=" + result.countsByValue());
        }
    }
}
