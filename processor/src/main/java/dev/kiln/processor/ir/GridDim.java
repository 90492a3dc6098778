package dev.kiln.processor.ir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * One {@code @Parallel} loop: {@code for (var = 0; var < size; var++)}, {@code size} a polynomial of
 * the operator's {@code @Dim}s with non-negative coefficients. Most often it is one {@code @Dim},
 * {@code extent}; a derived size ({@code j < 4 * H}, {@code i < N1 + N2}) has an {@code extent} of its
 * own that is not a parameter (named {@code <var>$extent}): analyses use {@link #size}, generated
 * code the expression {@link #extentText}.
 */
public record GridDim(Expr.Var var, Param.Scalar extent, Poly size) {
  /** A loop up to a {@code @Dim} (or another int scalar standing for a size). */
  public GridDim(Expr.Var var, Param.Scalar extent) {
    this(var, extent, Poly.symbol(extent.name()));
  }

  /** The extent of a bound made of {@code @Dim}s over the loop variable {@code var}: an int size that is not a parameter. */
  public static Param.Scalar derivedExtent(String var) {
    return new Param.Scalar(var + "$extent", -1, ScalarType.INT, true);
  }

  /** Whether the bound is a polynomial of {@code @Dim}s rather than one {@code @Dim}. */
  public boolean derived() {
    return !size.equals(Poly.symbol(extent.name()));
  }

  /** The bound as the IR and reports print it: the {@code @Dim}'s name or the polynomial ({@code 4*H}). */
  public String bound() {
    return derived() ? size.toString() : extent.name();
  }

  /** {@link #extentText(UnaryOperator)} with each {@code @Dim} by its own name (Java). */
  public String extentText() {
    return extentText(UnaryOperator.identity());
  }

  /**
   * The extent as an int expression of the target language: the {@code @Dim}'s name, or the
   * polynomial in parentheses ({@code (4 * H)}), each {@code @Dim} spelled by {@code names}.
   */
  public String extentText(UnaryOperator<String> names) {
    if (!derived()) {
      return names.apply(extent.name());
    }
    List<String> terms = new ArrayList<>();
    for (Map.Entry<List<String>, Long> t : size.terms().entrySet()) {
      List<String> factors = new ArrayList<>();
      if (t.getValue() != 1 || t.getKey().isEmpty()) {
        factors.add(Long.toString(t.getValue()));
      }
      t.getKey().forEach(s -> factors.add(names.apply(s)));
      terms.add(String.join(" * ", factors));
    }
    return "(" + (terms.isEmpty() ? "0" : String.join(" + ", terms)) + ")";
  }

  /** The extent as an IR expression: the {@code @Dim}'s scalar, or the polynomial over the {@code @Dim}s {@code dims} names. */
  public Expr extentExpr(ExprFactory f, Function<String, Param.Scalar> dims) {
    return derived() ? f.poly(size, dims) : f.scalar(extent);
  }
}
