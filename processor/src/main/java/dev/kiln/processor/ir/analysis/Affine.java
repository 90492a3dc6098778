package dev.kiln.processor.ir.analysis;

import dev.kiln.processor.ir.Poly;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An affine form {@code sum(coefficient_v * v) + constant} over index variables (grid and loop
 * variables), with coefficients and constant that are {@link Poly}s in size symbols.
 */
public final class Affine {
  private final Map<String, Poly> coefficients; // variable -> non-zero coefficient, insertion order
  private final Poly constant;

  private Affine(Map<String, Poly> coefficients, Poly constant) {
    this.coefficients = coefficients;
    this.constant = constant;
  }

  public static Affine constant(Poly c) {
    return new Affine(Map.of(), c);
  }

  public static Affine variable(String name) {
    return new Affine(Map.of(name, Poly.ONE), Poly.ZERO);
  }

  public Map<String, Poly> coefficients() {
    return coefficients;
  }

  public Poly constantPart() {
    return constant;
  }

  public Poly coefficient(String variable) {
    return coefficients.getOrDefault(variable, Poly.ZERO);
  }

  public boolean isConstant() {
    return coefficients.isEmpty();
  }

  public Affine add(Affine other) {
    Map<String, Poly> out = new LinkedHashMap<>(coefficients);
    other.coefficients.forEach((v, c) -> out.merge(v, c, Poly::add));
    out.values().removeIf(Poly::isZero);
    return new Affine(Collections.unmodifiableMap(out), constant.add(other.constant));
  }

  public Affine subtract(Affine other) {
    return add(other.scale(Poly.constant(-1)));
  }

  public Affine scale(Poly k) {
    Map<String, Poly> out = new LinkedHashMap<>();
    coefficients.forEach((v, c) -> out.put(v, c.multiply(k)));
    out.values().removeIf(Poly::isZero);
    return new Affine(Collections.unmodifiableMap(out), constant.multiply(k));
  }

  /** This form with each size symbol in {@code values} replaced by its polynomial, in every coefficient and the constant. */
  public Affine substitute(Map<String, Poly> values) {
    Map<String, Poly> out = new LinkedHashMap<>();
    coefficients.forEach((v, c) -> out.put(v, c.substitute(values)));
    out.values().removeIf(Poly::isZero);
    return new Affine(Collections.unmodifiableMap(out), constant.substitute(values));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Affine
        && ((Affine) o).coefficients.equals(coefficients)
        && ((Affine) o).constant.equals(constant);
  }

  @Override
  public int hashCode() {
    return Objects.hash(coefficients, constant);
  }

  /** Text like {@code b*4*H + h + H}: variable terms first, then the constant. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Poly> t : coefficients.entrySet()) {
      String c = t.getValue().toString();
      String term;
      if (t.getValue().equals(Poly.ONE)) {
        term = t.getKey();
      } else if (t.getValue().equals(Poly.constant(-1))) {
        term = "-" + t.getKey();
      } else if (t.getValue().terms().size() == 1) {
        term = c + "*" + t.getKey();
      } else {
        term = "(" + c + ")*" + t.getKey();
      }
      append(sb, term);
    }
    if (!constant.isZero() || sb.length() == 0) {
      append(sb, constant.toString());
    }
    return sb.toString();
  }

  private static void append(StringBuilder sb, String term) {
    if (sb.length() == 0) {
      sb.append(term);
    } else if (term.startsWith("-")) {
      sb.append(" - ").append(term.substring(1));
    } else {
      sb.append(" + ").append(term);
    }
  }
}
