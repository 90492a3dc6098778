package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Derived gradients of an elementwise operator {@code y = f(p1, ..., pn)}: for each floating-point
 * parameter {@code p}, an elementwise operator of {@code (p1, ..., pn, y, dy)} returning
 * {@code dy * df/dp}, named {@code fGrad} when {@code f} has one floating-point parameter and
 * {@code fGrad_<p>} otherwise. Where the derivative uses {@code f}'s own value (exp, tanh,
 * sigmoid, ...) it reads {@code y} instead of recomputing it. Being elementwise operators, they get
 * the scalar form, the map launchers and CUDA map kernels like any other.
 */
public final class ElementwiseGradient {
  private ElementwiseGradient() {}

  public static boolean applies(OperatorIr op) {
    return op instanceof OperatorIr.Elementwise map && map.resultType().isFloating() && !floating(map).isEmpty();
  }

  static List<Param.Scalar> floating(OperatorIr.Elementwise op) {
    return op.scalars().stream().filter(s -> s.type().isFloating()).toList();
  }

  /** The name of the gradient with respect to {@code p}. */
  public static String name(OperatorIr.Elementwise op, Param.Scalar p) {
    return floating(op).size() == 1 ? GradientNames.launcher(op.name()) : GradientNames.launcher(op.name()) + "_" + p.name();
  }

  public static List<OperatorIr.Elementwise> derive(OperatorIr.Elementwise op) {
    ExprFactory f = new ExprFactory();
    Set<String> taken = new HashSet<>();
    op.params().forEach(p -> taken.add(p.name()));
    Param.Scalar y = new Param.Scalar(GradientNames.unique("y", taken), op.params().size(), op.resultType(), false);
    Param.Scalar dy = new Param.Scalar(GradientNames.unique("dy", taken), op.params().size() + 1, op.resultType(), false);
    List<Param> params = new ArrayList<>(op.params());
    params.add(y);
    params.add(dy);
    Map<Expr, Expr> adjoints = sweep(f, op.result(), f.scalar(dy));
    List<OperatorIr.Elementwise> out = new ArrayList<>();
    for (Param.Scalar p : floating(op)) {
      Expr a = adjoints.get(f.scalar(p));
      Expr result = a == null ? f.constant(p.type(), 0) : f.cast(p.type(), a);
      result = f.substitute(result, Map.of(op.result(), f.scalar(y)), 0);
      out.add(new OperatorIr.Elementwise(op.owner(), name(op, p), params, p.type(), result, Map.of()));
    }
    return out;
  }

  /** Reverse mode over an expression: the adjoint of every node it reaches, parameters included. */
  private static Map<Expr, Expr> sweep(ExprFactory f, Expr result, Expr seed) {
    Derivatives rules = new Derivatives(f);
    Map<Expr, Expr> adj = new HashMap<>();
    PriorityQueue<Expr> queue = new PriorityQueue<>(Comparator.comparingInt(Expr::id).reversed());
    adj.put(result, f.cast(result.type(), seed));
    queue.add(result);
    Map<Expr, Expr> params = new HashMap<>();
    while (!queue.isEmpty()) {
      Expr n = queue.poll();
      Expr a = adj.get(n);
      if (n instanceof Expr.ScalarRef s) {
        params.put(f.scalar(s.param()), a);
        continue;
      }
      for (Derivatives.Share s : rules.of(n, a)) {
        Expr typed = f.cast(s.operand().type(), s.adjoint());
        Expr before = adj.merge(s.operand(), typed, (x, z) -> f.binary(BinaryOp.ADD, x, z, -1));
        if (before == typed) {
          queue.add(s.operand());
        }
      }
    }
    return params;
  }
}
