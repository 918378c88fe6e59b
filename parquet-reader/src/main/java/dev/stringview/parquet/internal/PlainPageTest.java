package dev.stringview.parquet.internal;

import dev.stringview.ViewPredicate;
import dev.stringview.internal.reader.SubstringSearch;
import dev.stringview.parquet.RowFilter;
import java.util.Arrays;
import java.util.Objects;

/**
 * A string test that decides the values of a PLAIN page straight from the page's bytes, with no view built
 * ({@link PlainDecoder#selectContaining}, {@link PlainDecoder#selectComparing}): a substring (one search over the
 * page), equality or a prefix (a length check, then the constant's bytes against the value's first bytes). The scan
 * hands one to {@link ColumnChunkReader#filterRows} beside the predicate it stands for; pages that are not PLAIN
 * (dictionary ids, DELTA_*) are decided by the predicate.
 */
public final class PlainPageTest {
    private final SubstringSearch search;
    private final byte[] constant;
    private final boolean prefix;

    private PlainPageTest(SubstringSearch search, byte[] constant, boolean prefix) {
        this.search = search;
        this.constant = constant;
        this.prefix = prefix;
    }

    /** Values that contain {@code search}'s needle. */
    public static PlainPageTest contains(SubstringSearch search) {
        return new PlainPageTest(Objects.requireNonNull(search, "search"), null, false);
    }

    /** Values equal to {@code constant} (copied), byte for byte. */
    public static PlainPageTest equalTo(byte[] constant) {
        return new PlainPageTest(null, constant.clone(), false);
    }

    /** Values that start with {@code constant} (copied). */
    public static PlainPageTest startsWith(byte[] constant) {
        return new PlainPageTest(null, constant.clone(), true);
    }

    /**
     * The page test a scan's single string leaf can use, or null when its predicate has none: a substring test
     * ({@link SubstringSearch#of(ViewPredicate)}: CONTAINS, LIKE {@code '%literal%'}), EQUAL to one constant,
     * STARTS_WITH.
     */
    public static PlainPageTest of(BoundFilter.StringLeaf leaf) {
        SubstringSearch search = SubstringSearch.of(leaf.predicate()).orElse(null);
        if (search != null) {
            return contains(search);
        }
        if (leaf.like() || leaf.constants().size() != 1) {
            return null;
        }
        if (leaf.op() == RowFilter.Op.EQUAL) {
            return equalTo(leaf.constants().get(0));
        }
        if (leaf.op() == RowFilter.Op.STARTS_WITH) {
            return startsWith(leaf.constants().get(0));
        }
        return null;
    }

    /** The substring search, or null for an equality or prefix test. */
    SubstringSearch search() {
        return search;
    }

    /** The constant of an equality or prefix test (not copied: read only), or null for a substring test. */
    byte[] constant() {
        return constant;
    }

    /** Whether the constant is a prefix (else the whole value). */
    boolean prefix() {
        return prefix;
    }

    @Override
    public String toString() {
        return search != null ? "contains(needleLength=" + search.needleLength() + ")"
                : (prefix ? "startsWith" : "equalTo") + "(" + Arrays.toString(constant) + ")";
    }
}
