package dev.stringview.internal;

/**
 * A predicate that is a substring test ({@code contains}, or LIKE {@code '%literal%'}): the prepared search its
 * kernel runs, so that a reader can run the same search over a whole encoded page
 * ({@link dev.stringview.internal.reader.SubstringSearch#of(dev.stringview.ViewPredicate)}).
 */
public interface SubstringPredicate {
    /** The search for this predicate's needle. */
    ByteSearch search();
}
