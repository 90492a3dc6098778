package dev.kiln;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the static method of a monoid record (one with an {@link Identity} and a combining method)
 * that gives the gradient of a reduction's total with respect to one of the values combined into
 * it: {@code static R name(R total, R totalGradient, R element)} returns, component by component,
 * the derivative of {@code sum_c totalGradient.c * total.c} with respect to {@code element}'s
 * components. With it, an operator that reduces into an {@code @Out @Reduce} array of {@code R}
 * gets a derived gradient: each update {@code s[i] = s[i].combine(e)} sends {@code
 * name(s[i], ds[i], e)} back to the expressions that built {@code e}.
 *
 * <p>That is right when the total depends on the elements' multiset alone, as a commutative
 * monoid's does (counts, sums, means and variances, log-sum-exp), so that its derivative with
 * respect to one element is a function of the total and that element; the method is the user's
 * statement of that function, which Kiln inlines and does not check. Its body follows the
 * operators' rules (no loops, no calls beyond {@code KMath} and the record's own methods).
 *
 * <pre>{@code
 * record MeanVar(float n, float mean, float m2) {
 *   @ElementGradient
 *   static MeanVar gradient(MeanVar t, MeanVar dt, MeanVar e) {
 *     if (t.n == 0f) return new MeanVar(0f, 0f, 0f);
 *     float d = e.mean - t.mean;
 *     return new MeanVar(dt.n + dt.mean * d / t.n + dt.m2 * d * d,
 *         dt.mean * e.n / t.n + dt.m2 * 2f * e.n * d, dt.m2);
 *   }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ElementGradient {}
