package dev.stringview.internal.reader;

import dev.stringview.ViewPredicate;
import dev.stringview.internal.ByteSearch;
import dev.stringview.internal.SubstringPredicate;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Optional;

/**
 * A search for one byte string (the needle) in off-heap bytes, prepared once: the screen that core's
 * {@code contains} kernel runs (two rare needle bytes screened per position, vectorized when the Vector API is
 * enabled). For readers that search a whole encoded page in one pass and map the hits back to values themselves,
 * such as a Parquet PLAIN page, instead of searching value by value. Immutable and safe to share between threads.
 * It holds only heap memory (its copy of the needle); {@link #indexOf} reads the caller's segment during the call
 * and keeps no reference to it.
 *
 * <p>Not API: the package is exported only to the reader modules ({@code dev.stringview.format},
 * {@code dev.stringview.parquet}).
 */
public final class SubstringSearch {
    private final ByteSearch search;

    private SubstringSearch(ByteSearch search) {
        this.search = search;
    }

    /** A search for {@code needle} (copied). */
    public static SubstringSearch of(byte[] needle) {
        return new SubstringSearch(new ByteSearch(Objects.requireNonNull(needle, "needle")));
    }

    /**
     * The search {@code predicate} runs when it is a substring test ({@code ViewPredicates.contains}, or a LIKE
     * pattern {@code '%literal%'}), else empty.
     */
    public static Optional<SubstringSearch> of(ViewPredicate predicate) {
        return predicate instanceof SubstringPredicate substring
                ? Optional.of(new SubstringSearch(substring.search()))
                : Optional.empty();
    }

    public int needleLength() {
        return search.needleLength();
    }

    /**
     * The position of the needle's first occurrence wholly inside {@code [offset, offset + length)} of
     * {@code haystack}, relative to {@code offset}, or -1; 0 for an empty needle.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code haystack}
     */
    public long indexOf(MemorySegment haystack, long offset, long length) {
        Objects.checkFromIndexSize(offset, length, haystack.byteSize());
        return search.indexOf(haystack, offset, length);
    }
}
