package dev.kiln.processor.codegen.cpu;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What is known of each grid and loop variable of a kernel ({@link RowInvariantInputs}, {@link
 * SafeLoads}): the bound it stays below (a polynomial of the
 * sizes) when it provably starts at a non-negative value, or that it is unknown (a variable that
 * two loops bind is known only where both start non-negative and share one bound).
 */
final class IndexRanges {
  private final Set<String> dims;
  private final Map<Expr.Var, Poly> below = new HashMap<>();
  private final Set<Expr.Var> unknown = new HashSet<>();

  private IndexRanges(Set<String> dims) {
    this.dims = dims;
  }

  /**
   * The ranges of {@code op}'s grid variables from the {@code first}-th dimension on, each in
   * {@code [0, size)}; its {@code @Dim} sizes taken to be at least 1.
   */
  static IndexRanges ofGrid(OperatorIr.Grid op, int first) {
    Set<String> dims = new HashSet<>();
    op.dims().forEach(d -> dims.add(d.name()));
    IndexRanges ranges = new IndexRanges(dims);
    for (int k = first; k < op.grid().size(); k++) {
      ranges.add(op.grid().get(k).var(), true, Affine.constant(op.grid().get(k).size()));
    }
    return ranges;
  }

  void add(Expr.Var v, boolean nonNegativeStart, Affine bound) {
    if (!nonNegativeStart || bound == null || !bound.isConstant() || unknown.contains(v)) {
      unknown.add(v);
      below.remove(v);
      return;
    }
    Poly previous = below.putIfAbsent(v, bound.constantPart());
    if (previous != null && !previous.equals(bound.constantPart())) {
      unknown.add(v);
      below.remove(v);
    }
  }

  /** Adds the variable of every sequential loop in {@code body}, nested loops too. */
  void loops(List<Stmt> body) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l) {
        add(l.index(), l.step() > 0 && nonNegative(l.lo()), AffineAnalysis.affine(l.hi()));
        loops(l.body());
      }
    }
  }

  /** Whether {@code e} is a non-negative constant or a variable known to start non-negative. */
  private boolean nonNegative(Expr e) {
    if (e instanceof Expr.Const c) {
      return c.type().isIntegral() && c.integralValue() >= 0;
    }
    return e instanceof Expr.Var v && below.containsKey(v);
  }

  /** Whether {@code v} provably stays in {@code [0, length)} at every size. */
  boolean within(Expr.Var v, Poly length) {
    Poly bound = below.get(v);
    return bound != null && atLeastZero(length.subtract(bound));
  }

  /** Whether {@code p} is at least zero at every size (each {@code @Dim} at least 1). */
  boolean atLeastZero(Poly p) {
    return p.provablyNonNegative(dims);
  }
}
