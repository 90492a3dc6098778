package dev.kiln.processor.ir.analysis;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.UnaryOp;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads integer expressions as affine forms over grid and loop variables, and flat array indices
 * back as per-dimension indices of the array's shape.
 */
public final class AffineAnalysis {
  private AffineAnalysis() {}

  /** The affine form of an integer expression, or null when it is not affine. */
  public static Affine affine(Expr e) {
    return affine(e, x -> null);
  }

  /**
   * The affine form of an integer expression where {@code opaque} may name a size the plain rules
   * do not read ({@code N / 2} of a {@code @Dim}) as a polynomial of symbols of its own: it is asked
   * for every integral subexpression that is not otherwise affine, and answers null to refuse.
   */
  public static Affine affine(Expr e, java.util.function.Function<Expr, Poly> opaque) {
    if (!e.type().isIntegral()) {
      return null;
    }
    Affine plain = plainAffine(e, opaque);
    if (plain != null) {
      return plain;
    }
    Poly size = opaque.apply(e);
    return size == null ? null : Affine.constant(size);
  }

  private static Affine plainAffine(Expr e, java.util.function.Function<Expr, Poly> opaque) {
    if (e instanceof Expr.Const c) {
      return Affine.constant(Poly.constant(c.integralValue()));
    }
    if (e instanceof Expr.ScalarRef s) {
      return Affine.constant(Poly.symbol(s.param().name()));
    }
    if (e instanceof Expr.Var v) {
      return v.kind() == Expr.VarKind.GRID || v.kind() == Expr.VarKind.LOOP_INDEX
          ? Affine.variable(v.name())
          : null;
    }
    if (e instanceof Expr.Cast c) {
      return c.operand().type().isIntegral() ? affine(c.operand(), opaque) : null;
    }
    if (e instanceof Expr.Unary u) {
      Affine a = u.op() == UnaryOp.NEG ? affine(u.operand(), opaque) : null;
      return a == null ? null : a.scale(Poly.constant(-1));
    }
    if (e instanceof Expr.Binary b) {
      if (b.op() != BinaryOp.ADD && b.op() != BinaryOp.SUB && b.op() != BinaryOp.MUL) {
        return null;
      }
      Affine l = affine(b.left(), opaque);
      Affine r = l == null ? null : affine(b.right(), opaque);
      if (r == null) {
        return null;
      }
      try {
        switch (b.op()) {
          case ADD:
            return l.add(r);
          case SUB:
            return l.subtract(r);
          default:
            if (l.isConstant()) {
              return r.scale(l.constantPart());
            }
            return r.isConstant() ? l.scale(r.constantPart()) : null;
        }
      } catch (ArithmeticException overflow) {
        return null;
      }
    }
    return null;
  }

  /**
   * The per-dimension indices whose row-major combination is {@code flat}: each term of the flat
   * form goes to the outermost dimension whose stride divides it exactly. Always an exact
   * decomposition ({@code flat == sum(index_k * stride_k)}); not a proof that each index is within
   * its extent.
   */
  public static List<Affine> delinearize(Affine flat, Shape shape) {
    List<Affine> out = new ArrayList<>();
    Affine rest = flat;
    for (int k = 0; k < shape.rank() - 1; k++) {
      Poly stride = shape.stride(k);
      Affine here = Affine.constant(Poly.ZERO);
      Affine left = Affine.constant(Poly.ZERO);
      for (var t : rest.coefficients().entrySet()) {
        Poly[] qr = t.getValue().splitByDivisor(stride);
        here = here.add(Affine.variable(t.getKey()).scale(qr[0]));
        left = left.add(Affine.variable(t.getKey()).scale(qr[1]));
      }
      Poly[] qr = rest.constantPart().splitByDivisor(stride);
      here = here.add(Affine.constant(qr[0]));
      left = left.add(Affine.constant(qr[1]));
      out.add(here);
      rest = left;
    }
    out.add(rest);
    return out;
  }

  /**
   * Whether the elements a store of {@code loop} at {@code index} writes are its own within one run
   * of the loop: every other index in {@code others} (where the loop's other stores into the same
   * array write) differs from it by a constant, non-zero multiple of what the index covers, its
   * step in the loop's variable times the loop's trip count ({@code (b + j) * N + k} for rows j,
   * with k from 0 to N; {@code 2k} and {@code 2k + 2N}), so no store of any iteration of the loop
   * writes them. An index identical to {@code index} (the same expression) is skipped. Says
   * nothing of the loops around it.
   */
  public static boolean wholeTripsApart(Stmt.Loop loop, Expr index, List<Expr> others) {
    Affine read = affine(index);
    Affine lo = affine(loop.lo());
    Affine hi = affine(loop.hi());
    if (read == null || lo == null || hi == null || !lo.isConstant() || !hi.isConstant()) {
      return false;
    }
    Poly step = read.coefficient(loop.index().name());
    if (step.isZero()) {
      return false;
    }
    Poly trip = hi.constantPart().subtract(lo.constantPart()).multiply(step);
    for (Expr other : others) {
      if (other == index) {
        continue;
      }
      Affine o = affine(other);
      if (o == null) {
        return false;
      }
      Affine diff = read.subtract(o);
      Poly times = diff.isConstant() ? diff.constantPart().divideExactly(trip) : null;
      if (times == null || !times.isConstant() || times.constantTerm() == 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a loop's stores into one array, at {@code indices}, never write one element from two
   * of them: every index that differs from another is {@link #wholeTripsApart} from all of them.
   */
  public static boolean storesApart(Stmt.Loop loop, List<Expr> indices) {
    for (Expr index : indices) {
      if (indices.stream().anyMatch(other -> other != index) && !wholeTripsApart(loop, index, indices)) {
        return false;
      }
    }
    return true;
  }
}
