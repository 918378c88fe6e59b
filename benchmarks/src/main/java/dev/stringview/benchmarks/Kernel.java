package dev.stringview.benchmarks;

import dev.stringview.ViewPredicate;
import dev.stringview.ViewPredicates;

/** Suite 1's four prefix-compare kernels, named as the {@code kernel} JMH parameter spells them. */
enum Kernel {
    EQUAL("equal"),
    LESS_THAN("lessThan"),
    STARTS_WITH("startsWith"),
    CONTAINS("contains");

    final String param;

    Kernel(String param) {
        this.param = param;
    }

    static Kernel of(String param) {
        for (Kernel kernel : values()) {
            if (kernel.param.equals(param)) {
                return kernel;
            }
        }
        throw new IllegalArgumentException("unknown kernel: kernel=" + param
                + " expected=equal|lessThan|startsWith|contains");
    }

    /** This library's compiled predicate for the kernel and constant. */
    ViewPredicate predicate(byte[] constant) {
        return switch (this) {
            case EQUAL -> ViewPredicates.equalTo(constant);
            case LESS_THAN -> ViewPredicates.compare(dev.stringview.Comparison.LESS_THAN, constant);
            case STARTS_WITH -> ViewPredicates.startsWith(constant);
            case CONTAINS -> ViewPredicates.contains(constant);
        };
    }
}
