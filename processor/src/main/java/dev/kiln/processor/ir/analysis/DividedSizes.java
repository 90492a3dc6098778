package dev.kiln.processor.ir.analysis;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.StmtWalk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sizes that are a {@code @Dim} divided by a constant ({@code N / 2}, {@code N % 2}), read as
 * polynomials: each such {@code @Dim} {@code N} with divisor {@code c} is written {@code c*Q + R}
 * with the new symbols {@code Q = N / c} and {@code R = N % c}, both at least 0 (and {@code R} below
 * {@code c}), so an index such as {@code b*N + i + N/2} is affine in {@code b} and {@code i} and the
 * proofs over sizes (a read stays inside its row when {@code i < N/2}: {@code N - 2Q = R >= 0}) go
 * through. A {@code @Dim} divided by two different constants is not read this way.
 */
public final class DividedSizes {
  private final Map<String, Long> divisors;
  private final Map<String, Param.Scalar> sizes;
  private final Map<String, Poly> substitution = new HashMap<>();
  private final Map<String, Expr> symbolValues = new HashMap<>();

  private DividedSizes(Map<String, Long> divisors, Map<String, Param.Scalar> sizes) {
    this.divisors = divisors;
    this.sizes = sizes;
  }

  /**
   * The divided {@code @Dim}s that {@code roots} use, each with its one divisor.
   *
   * @param sizes the operator's int scalars by name ({@code @Dim}s among them)
   */
  public static DividedSizes of(ExprFactory f, Map<String, Param.Scalar> sizes, List<Expr> roots) {
    Map<String, Long> divisors = new LinkedHashMap<>();
    List<String> conflicting = new ArrayList<>();
    for (Expr e : StmtWalk.nodes(roots)) {
      Division d = division(e, sizes);
      if (d != null) {
        Long before = divisors.putIfAbsent(d.dim().name(), d.divisor());
        if (before != null && before != d.divisor()) {
          conflicting.add(d.dim().name());
        }
      }
    }
    conflicting.forEach(divisors::remove);
    DividedSizes out = new DividedSizes(divisors, sizes);
    divisors.forEach((name, c) -> {
      Param.Scalar dim = sizes.get(name);
      out.substitution.put(name, Poly.symbol(quotient(name, c)).scale(c).add(Poly.symbol(remainder(name, c))));
      Expr value = f.scalar(dim);
      Expr k = f.integral(ScalarType.INT, c);
      out.symbolValues.put(quotient(name, c), f.binary(BinaryOp.DIV, value, k, -1));
      out.symbolValues.put(remainder(name, c), f.binary(BinaryOp.REM, value, k, -1));
    });
    return out;
  }

  private record Division(Param.Scalar dim, long divisor, boolean remainder) {}

  private static Division division(Expr e, Map<String, Param.Scalar> sizes) {
    if (!(e instanceof Expr.Binary b) || (b.op() != BinaryOp.DIV && b.op() != BinaryOp.REM)) {
      return null;
    }
    if (!(b.left() instanceof Expr.ScalarRef s) || !s.param().dim() || !sizes.containsKey(s.param().name())
        || !(b.right() instanceof Expr.Const c) || c.integralValue() < 2 || c.integralValue() > Integer.MAX_VALUE) {
      return null;
    }
    return new Division(s.param(), c.integralValue(), b.op() == BinaryOp.REM);
  }

  private static String quotient(String dim, long c) {
    return dim + "/" + c;
  }

  private static String remainder(String dim, long c) {
    return dim + "%" + c;
  }

  /** The affine form of {@code e} in the divided symbols, or null when it is not affine even so. */
  public Affine affine(Expr e) {
    Affine a = AffineAnalysis.affine(e, this::symbolOf);
    return a == null ? null : a.substitute(substitution);
  }

  private Poly symbolOf(Expr e) {
    Division d = division(e, sizes);
    if (d == null || !Long.valueOf(d.divisor()).equals(divisors.get(d.dim().name()))) {
      return null;
    }
    String name = d.dim().name();
    return Poly.symbol(d.remainder() ? remainder(name, d.divisor()) : quotient(name, d.divisor()));
  }

  /** {@code p} in the divided symbols. */
  public Poly poly(Poly p) {
    return p.substitute(substitution);
  }

  /** {@code shape} with its extents in the divided symbols. */
  public Shape shape(Shape shape) {
    if (substitution.isEmpty()) {
      return shape;
    }
    return new Shape(shape.text(), shape.extents().stream().map(this::poly).toList());
  }

  /** The symbols known only to be at least 0: every quotient and remainder. */
  public Set<String> nonNegative() {
    return symbolValues.keySet();
  }

  /** {@code p}, a polynomial of {@code @Dim}s and divided symbols, as an int expression. */
  public Expr expr(ExprFactory f, Poly p) {
    return f.polyOf(p, s -> symbolValues.containsKey(s) ? symbolValues.get(s) : f.scalar(sizes.get(s)));
  }
}
