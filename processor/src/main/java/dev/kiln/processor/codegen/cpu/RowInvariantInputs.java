package dev.kiln.processor.codegen.cpu;

import dev.kiln.processor.check.InPlace;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The inputs of a grid operator that every outer index reads (layer norm's {@code gamma} and {@code
 * beta}), which a launcher may hand to its SIMD form as copies in arrays of known alignment
 * ({@code dev.kiln.runtime.simd.AlignedCopies}). A copy is a longer array than its input, so only
 * where the copy's results are provably the input's does a launcher make one: a float array the
 * operator only reads ({@link ArrayRole#IN}) and no output may alias ({@link InPlace}), of rank 1,
 * whose every load is at a grid or loop variable other than the outermost grid variable, and
 * whose variable provably stays inside the array's length: from a non-negative start, a positive
 * step, up to a bound at most the length for every size. Then no load of the copy reads past the
 * input's floats, and no load the plain method would throw at is reached.
 */
final class RowInvariantInputs {
  private RowInvariantInputs() {}

  /** The inputs of {@code op} a launcher may copy, in parameter order; empty for none. */
  static List<Param.Array> of(OperatorIr.Grid op) {
    if (op.grid().isEmpty()) {
      return List.of();
    }
    Set<String> dims = new HashSet<>();
    op.dims().forEach(d -> dims.add(d.name()));
    Ranges ranges = new Ranges(dims);
    for (int k = 1; k < op.grid().size(); k++) {
      ranges.add(op.grid().get(k).var(), true, Affine.constant(op.grid().get(k).size()));
    }
    ranges.loops(op.body());
    List<Expr> exprs = new ArrayList<>();
    op.body().forEach(s -> exprs.addAll(StmtWalk.exprs(s)));
    List<Expr.Load> loads = StmtWalk.loads(exprs);

    List<Param.Array> out = new ArrayList<>();
    for (Param.Array a : op.arrays()) {
      if (a.role() != ArrayRole.IN || a.elementType() != ScalarType.FLOAT || a.shape().rank() != 1
          || aliasable(op, a)) {
        continue;
      }
      boolean read = false;
      boolean inside = true;
      for (Expr.Load l : loads) {
        if (l.array().name().equals(a.name())) {
          read = true;
          inside &= l.index() instanceof Expr.Var v && ranges.within(v, a.shape().length());
        }
      }
      if (read && inside) {
        out.add(a);
      }
    }
    return out;
  }

  private static boolean aliasable(OperatorIr op, Param.Array in) {
    for (Param.Array out : op.arrays()) {
      if (out != in && out.role() != ArrayRole.IN && InPlace.safe(op, out, in)) {
        return true;
      }
    }
    return false;
  }

  /**
   * What is known of each grid and loop variable: the bound it stays below (a polynomial of the
   * sizes) when it provably starts at a non-negative value, or that it is unknown (a variable that
   * two loops bind is known only where both start non-negative and share one bound).
   */
  private static final class Ranges {
    private final Set<String> dims;
    private final Map<Expr.Var, Poly> below = new HashMap<>();
    private final Set<Expr.Var> unknown = new HashSet<>();

    Ranges(Set<String> dims) {
      this.dims = dims;
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
      return bound != null && length.subtract(bound).provablyNonNegative(dims);
    }
  }
}
