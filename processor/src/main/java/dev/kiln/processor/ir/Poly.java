package dev.kiln.processor.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A polynomial with integer coefficients over size symbols ({@code @Dim} parameters and other
 * invariant integer parameters): the coefficients of affine index forms and the extents of shapes.
 * Immutable; monomials are sorted lists of symbol names.
 */
public final class Poly {
  public static final Poly ZERO = new Poly(Map.of());
  public static final Poly ONE = constant(1);

  private final Map<List<String>, Long> terms; // monomial -> non-zero coefficient, sorted

  private Poly(Map<List<String>, Long> terms) {
    this.terms = terms;
  }

  public static Poly constant(long c) {
    return c == 0 ? ZERO : new Poly(Map.of(List.of(), c));
  }

  public static Poly symbol(String name) {
    return new Poly(Map.of(List.of(name), 1L));
  }

  public Map<List<String>, Long> terms() {
    return terms;
  }

  public boolean isZero() {
    return terms.isEmpty();
  }

  public boolean isConstant() {
    return terms.isEmpty() || (terms.size() == 1 && terms.containsKey(List.of()));
  }

  /** The constant term. */
  public long constantTerm() {
    return terms.getOrDefault(List.of(), 0L);
  }

  public Set<String> symbols() {
    Set<String> out = new java.util.TreeSet<>();
    terms.keySet().forEach(out::addAll);
    return out;
  }

  public Poly add(Poly other) {
    Map<List<String>, Long> out = new TreeMap<>(MONOMIAL_ORDER);
    out.putAll(terms);
    other.terms.forEach((m, c) -> out.merge(m, c, Math::addExact));
    out.values().removeIf(c -> c == 0);
    return of(out);
  }

  public Poly negate() {
    return scale(-1);
  }

  public Poly subtract(Poly other) {
    return add(other.negate());
  }

  public Poly scale(long k) {
    if (k == 0) {
      return ZERO;
    }
    Map<List<String>, Long> out = new TreeMap<>(MONOMIAL_ORDER);
    terms.forEach((m, c) -> out.put(m, Math.multiplyExact(c, k)));
    return of(out);
  }

  public Poly multiply(Poly other) {
    Map<List<String>, Long> out = new TreeMap<>(MONOMIAL_ORDER);
    for (Map.Entry<List<String>, Long> a : terms.entrySet()) {
      for (Map.Entry<List<String>, Long> b : other.terms.entrySet()) {
        List<String> m = new ArrayList<>(a.getKey());
        m.addAll(b.getKey());
        Collections.sort(m);
        out.merge(List.copyOf(m), Math.multiplyExact(a.getValue(), b.getValue()), Math::addExact);
      }
    }
    out.values().removeIf(c -> c == 0);
    return of(out);
  }

  /** This polynomial with each symbol in {@code values} replaced by its polynomial. */
  public Poly substitute(Map<String, Poly> values) {
    Poly out = ZERO;
    for (Map.Entry<List<String>, Long> t : terms.entrySet()) {
      Poly term = constant(t.getValue());
      for (String s : t.getKey()) {
        term = term.multiply(values.getOrDefault(s, symbol(s)));
      }
      out = out.add(term);
    }
    return out;
  }

  /**
   * This polynomial divided exactly by {@code divisor}, or null when the division leaves a
   * remainder. A divisor of several terms ({@code 3*W + 2*K - 4}) is divided by the division
   * algorithm under the graded lexicographic order, which leaves no remainder exactly when it
   * divides ({@code 9*W + 6*K - 12} gives 3).
   */
  public Poly divideExactly(Poly divisor) {
    if (divisor.isZero()) {
      return null;
    }
    if (equals(divisor)) {
      return ONE;
    }
    if (divisor.terms.size() != 1) {
      return divideByPolynomial(divisor);
    }
    Map.Entry<List<String>, Long> d = divisor.terms.entrySet().iterator().next();
    Map<List<String>, Long> out = new TreeMap<>(MONOMIAL_ORDER);
    for (Map.Entry<List<String>, Long> t : terms.entrySet()) {
      if (t.getValue() % d.getValue() != 0) {
        return null;
      }
      List<String> rest = new ArrayList<>(t.getKey());
      for (String s : d.getKey()) {
        if (!rest.remove(s)) {
          return null;
        }
      }
      out.put(List.copyOf(rest), t.getValue() / d.getValue());
    }
    return of(out);
  }

  private Poly divideByPolynomial(Poly divisor) {
    Map.Entry<List<String>, Long> lead = leading(divisor);
    Poly rest = this;
    Poly quotient = ZERO;
    for (int steps = 0; !rest.isZero(); steps++) {
      Map.Entry<List<String>, Long> t = leading(rest);
      if (steps > 64 || t.getValue() % lead.getValue() != 0) {
        return null;
      }
      List<String> monomial = new ArrayList<>(t.getKey());
      for (String v : lead.getKey()) {
        if (!monomial.remove(v)) {
          return null;
        }
      }
      Poly q = new Poly(Map.of(List.copyOf(monomial), t.getValue() / lead.getValue()));
      quotient = quotient.add(q);
      rest = rest.subtract(q.multiply(divisor));
    }
    return quotient;
  }

  /** The greatest term under the graded lexicographic order (degree, then exponents of the variables by name). */
  private static Map.Entry<List<String>, Long> leading(Poly p) {
    Map.Entry<List<String>, Long> best = null;
    for (Map.Entry<List<String>, Long> t : p.terms.entrySet()) {
      if (best == null || GRLEX.compare(t.getKey(), best.getKey()) > 0) {
        best = t;
      }
    }
    return best;
  }

  private static final java.util.Comparator<List<String>> GRLEX = (a, b) -> {
    if (a.size() != b.size()) {
      return Integer.compare(a.size(), b.size());
    }
    java.util.TreeSet<String> vars = new java.util.TreeSet<>(a);
    vars.addAll(b);
    for (String v : vars) {
      int c = Integer.compare(java.util.Collections.frequency(a, v), java.util.Collections.frequency(b, v));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  };

  /** The part of this polynomial that {@code divisor} divides exactly, divided; see {@link #divideExactly}. */
  public Poly[] splitByDivisor(Poly divisor) {
    // returns {quotient, remainder} with this = quotient * divisor + remainder
    Poly whole = divideExactly(divisor);
    if (whole != null) {
      return new Poly[] {whole, ZERO};
    }
    if (divisor.terms.size() != 1) {
      return new Poly[] {ZERO, this};
    }
    Poly quotient = ZERO;
    Poly remainder = ZERO;
    for (Map.Entry<List<String>, Long> t : terms.entrySet()) {
      Poly term = new Poly(Map.of(t.getKey(), t.getValue()));
      Poly q = term.divideExactly(divisor);
      if (q == null) {
        remainder = remainder.add(term);
      } else {
        quotient = quotient.add(q);
      }
    }
    return new Poly[] {quotient, remainder};
  }

  /**
   * Whether the polynomial is provably {@code >= 0} when every symbol in {@code positive} is at
   * least 1: after substituting {@code s = 1 + s'} every coefficient is non-negative. Symbols not
   * in {@code positive} make the answer false.
   */
  public boolean provablyNonNegative(Set<String> positive) {
    return provablyNonNegative(positive, Set.of());
  }

  /**
   * The same proof where the symbols in {@code nonNegative} are only known to be at least 0 (such
   * a symbol is kept as it is instead of shifted by 1).
   */
  public boolean provablyNonNegative(Set<String> positive, Set<String> nonNegative) {
    for (String s : symbols()) {
      if (!positive.contains(s) && !nonNegative.contains(s)) {
        return false;
      }
    }
    Poly shifted = ONE.scale(0);
    for (Map.Entry<List<String>, Long> t : terms.entrySet()) {
      Poly term = constant(t.getValue());
      for (String s : t.getKey()) {
        term = term.multiply(positive.contains(s) ? symbol(s).add(ONE) : symbol(s));
      }
      shifted = shifted.add(term);
    }
    for (long c : shifted.terms.values()) {
      if (c < 0) {
        return false;
      }
    }
    return true;
  }

  /** Whether the polynomial is provably {@code >= 1} under the same rule. */
  public boolean provablyPositive(Set<String> positive) {
    return subtract(ONE).provablyNonNegative(positive);
  }

  private static Poly of(Map<List<String>, Long> out) {
    return out.isEmpty() ? ZERO : new Poly(Collections.unmodifiableMap(out));
  }

  /** Degree-then-lexicographic order, highest degree first, so "4*H + 1" prints naturally. */
  private static final java.util.Comparator<List<String>> MONOMIAL_ORDER =
      (a, b) -> {
        if (a.size() != b.size()) {
          return Integer.compare(b.size(), a.size());
        }
        for (int i = 0; i < a.size(); i++) {
          int c = a.get(i).compareTo(b.get(i));
          if (c != 0) {
            return c;
          }
        }
        return 0;
      };

  @Override
  public boolean equals(Object o) {
    return o instanceof Poly && ((Poly) o).terms.equals(terms);
  }

  @Override
  public int hashCode() {
    return Objects.hash(terms);
  }

  /** Text like {@code 4*H}, {@code B*H + 2}, {@code -N + 1}, {@code 0}. */
  @Override
  public String toString() {
    if (terms.isEmpty()) {
      return "0";
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<List<String>, Long> t : terms.entrySet()) {
      long c = t.getValue();
      List<String> m = t.getKey();
      if (sb.length() > 0) {
        sb.append(c < 0 ? " - " : " + ");
        c = Math.abs(c);
      } else if (c < 0 && !m.isEmpty()) {
        sb.append('-');
        c = -c;
      }
      if (m.isEmpty()) {
        sb.append(c);
      } else {
        if (c != 1) {
          sb.append(c).append('*');
        }
        sb.append(String.join("*", m));
      }
    }
    return sb.toString();
  }
}
