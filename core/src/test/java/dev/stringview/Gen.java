package dev.stringview;

import com.sageserpent.americium.java.Builder;
import com.sageserpent.americium.java.Trials;
import com.sageserpent.americium.java.TrialsApi;
import com.sageserpent.americium.java.TrialsScaffolding.OptionalLimits;
import cyclops.function.Consumer3;
import cyclops.function.Consumer4;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * The few Americium idioms the property tests share. A property is a JUnit {@code @Test} that hands {@code cases}
 * generated cases to its body; on failure Americium shrinks the case and throws with the smallest one it found
 * (its {@code toString}) and a recipe that replays it ({@code withRecipe}). Generation is deterministic from run to
 * run, like the fixed seeds the rest of the suite uses.
 */
public final class Gen {
    private Gen() {}

    public static final TrialsApi API = Trials.api();

    /**
     * Americium rejects cases that take more random decisions than the complexity limit (100 by default); a model
     * of a few thousand values takes tens of thousands, so the limit is set far above any generator here.
     */
    private static final OptionalLimits LIMITS = OptionalLimits.builder().complexity(1_000_000).shrinkageAttempts(200)
            .build();

    public static <A> void forAll(int cases, Trials<A> a, Consumer<A> body) {
        a.withLimits(cases, LIMITS).supplyTo(body);
    }

    public static <A, B> void forAll(int cases, Trials<A> a, Trials<B> b, BiConsumer<A, B> body) {
        a.and(b).withLimits(cases, LIMITS).supplyTo(body);
    }

    public static <A, B, C> void forAll(int cases, Trials<A> a, Trials<B> b, Trials<C> c, Consumer3<A, B, C> body) {
        a.and(b).and(c).withLimits(cases, LIMITS).supplyTo(body);
    }

    public static <A, B, C, D> void forAll(int cases, Trials<A> a, Trials<B> b, Trials<C> c, Trials<D> d,
            Consumer4<A, B, C, D> body) {
        a.and(b).and(c).and(d).withLimits(cases, LIMITS).supplyTo(body);
    }

    public static <A, B, C, D, E> void forAll(int cases, Trials<A> a, Trials<B> b, Trials<C> c, Trials<D> d,
            Trials<E> e, Body5<A, B, C, D, E> body) {
        a.and(b).and(c).trials().and(d.and(e).trials()).withLimits(cases, LIMITS)
                .supplyTo((x, y) -> body.accept(x._1(), x._2(), x._3(), y._1(), y._2()));
    }

    public static <A, B, C, D, E, F> void forAll(int cases, Trials<A> a, Trials<B> b, Trials<C> c, Trials<D> d,
            Trials<E> e, Trials<F> f, Body6<A, B, C, D, E, F> body) {
        a.and(b).and(c).trials().and(d.and(e).and(f).trials()).withLimits(cases, LIMITS)
                .supplyTo((x, y) -> body.accept(x._1(), x._2(), x._3(), y._1(), y._2(), y._3()));
    }

    @FunctionalInterface
    public interface Body5<A, B, C, D, E> {
        void accept(A a, B b, C c, D d, E e);
    }

    @FunctionalInterface
    public interface Body6<A, B, C, D, E, F> {
        void accept(A a, B b, C c, D d, E e, F f);
    }

    /** Two independent generators combined into one (each still shrinks on its own). */
    public static <A, B, R> Trials<R> zip(Trials<A> a, Trials<B> b, BiFunction<A, B, R> combine) {
        return a.and(b).trials().map(t -> combine.apply(t._1(), t._2()));
    }

    /** Lists of {@code min..max} elements; unlike Guava's immutable lists they may hold nulls. */
    public static <T> Trials<List<T>> lists(Trials<T> element, int min, int max) {
        return API.integers(min, max).flatMap(n -> element.collectionsOfSize(n, ArrayBuilder::new));
    }

    /** {@code element} with weight {@code weight}, null with weight {@code nullWeight}. */
    @SuppressWarnings("unchecked")
    public static <T> Trials<T> orNull(int weight, Trials<T> element, int nullWeight) {
        return API.alternateWithWeights(Map.entry(weight, element), Map.entry(nullWeight, API.only((T) null)));
    }

    public static Trials<Long> seeds() {
        return API.longs();
    }

    private static final class ArrayBuilder<T> implements Builder<T, List<T>> {
        private final List<T> list = new ArrayList<>();

        @Override
        public void add(T value) {
            list.add(value);
        }

        @Override
        public List<T> build() {
            return list;
        }
    }
}
