package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * For {@code @Reduce max} and {@code min} outputs: how many terms attain each result. The gradient
 * of such an output is split evenly among the terms equal to it (a valid subgradient, and exact
 * where the ties come from reading one input several times), so a backward pass first counts them
 * with an operator over the forward grid that accumulates {@code term == result ? 1 : 0} into an
 * int {@code @Reduce +} temporary per output.
 */
final class TieCounts {
  private TieCounts() {}

  /** The outputs of {@code op} reduced with max or min. */
  static List<Param.Array> outputs(OperatorIr.Grid op) {
    List<Param.Array> out = new ArrayList<>();
    collect(op.body(), out);
    return out;
  }

  private static void collect(List<Stmt> body, List<Param.Array> out) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Accumulate a && (a.op() == ReduceKind.MAX || a.op() == ReduceKind.MIN)
          && a.array().elementType().isFloating() && !out.contains(a.array())) {
        out.add(a.array());
      } else if (s instanceof Stmt.Loop l) {
        collect(l.body(), out);
      }
    }
  }

  /** The int count array of output {@code y}, in the role given. */
  static Param.Array counts(Param.Array y, ArrayRole role) {
    return new Param.Array("ties$" + y.name(), -1, ScalarType.INT, y.shape(), role);
  }

  /**
   * The counting operator: {@code params} (the forward parameters, outputs as inputs) and one
   * count array per output in {@code outputsIn}'s key order.
   */
  static OperatorIr.Grid counter(OperatorIr.Grid op, List<Param> params, Map<Param.Array, Param.Array> outputsIn) {
    ExprFactory f = new ExprFactory();
    Map<Param.Array, Param.Array> counts = new LinkedHashMap<>();
    List<Param> all = new ArrayList<>(params);
    for (Param.Array y : outputs(op)) {
      Param.Array c = counts(y, ArrayRole.REDUCE);
      counts.put(y, c);
      all.add(c);
    }
    List<Stmt> body = body(op.body(), 0, f, counts, outputsIn);
    return new OperatorIr.Grid(op.owner(), op.name() + "$ties", all, op.grid(), body);
  }

  private static List<Stmt> body(List<Stmt> stmts, int scope, ExprFactory f, Map<Param.Array, Param.Array> counts,
      Map<Param.Array, Param.Array> outputsIn) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : stmts) {
      if (s instanceof Stmt.Accumulate a && counts.containsKey(a.array())) {
        Expr y = f.load(outputsIn.get(a.array()), a.index(), a.guard(), scope);
        Expr attains = f.binary(BinaryOp.EQ, f.cast(y.type(), a.value()), y, -1);
        Expr one = f.select(attains, f.integral(ScalarType.INT, 1), f.integral(ScalarType.INT, 0));
        out.add(new Stmt.Accumulate(counts.get(a.array()), a.index(), ReduceKind.SUM, one, a.guard(), a.origin()));
      } else if (s instanceof Stmt.Loop l) {
        List<Stmt> inner = body(l.body(), l.id(), f, counts, outputsIn);
        if (!inner.isEmpty() || !l.carried().isEmpty()) {
          out.add(new Stmt.Loop(l.id(), l.index(), l.lo(), l.hi(), l.step(), l.guard(), l.carried(), inner, l.origin()));
        }
      }
    }
    return out;
  }
}
