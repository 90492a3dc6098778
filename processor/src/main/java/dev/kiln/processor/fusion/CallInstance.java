package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.PolyExpr;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.transform.ExprMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * One call of a composite, instantiated in the composite's namespace: the callee's worker with its
 * sizes, scalars and arrays replaced by the call's arguments, fresh variables, and loop ids unique
 * in the composite.
 *
 * @param index the call's position in the composite
 * @param extents the grid's extents as sizes over the composite's dims
 */
record CallInstance(int index, CompositeIr.Call call, List<Expr.Var> grid, List<Poly> extents, List<Stmt> body) {

  static CallInstance of(int index, CompositeIr.Call call, ExprFactory f, Tensors tensors,
      Map<String, Param.Scalar> dims, IntSupplier loopIds) {
    OperatorIr.Grid callee = call.callee();
    Map<Expr.Var, Expr> vars = new HashMap<>();
    List<Expr.Var> grid = new ArrayList<>();
    List<Poly> extents = new ArrayList<>();
    Shape reshape = callee.grid().size() == 1 ? reshape(call, tensors) : null;
    if (reshape != null) {
      // a 1-D grid over a tensor's whole length runs over that tensor's shape instead: the same
      // workers, with index patterns that delinearize like the producers' and consumers' around it
      GridDim g = callee.grid().get(0);
      Expr flat = f.integral(ScalarType.INT, 0);
      for (int k = 0; k < reshape.rank(); k++) {
        Expr.Var v = f.newVar(g.var().name() + k, ScalarType.INT, Expr.VarKind.GRID);
        grid.add(v);
        extents.add(reshape.extents().get(k));
        flat = f.binary(BinaryOp.ADD, flat, f.binary(BinaryOp.MUL, v, PolyExpr.of(f, reshape.stride(k), dims), -1), -1);
      }
      vars.put(g.var(), flat);
    } else {
      for (GridDim g : callee.grid()) {
        Expr.Var v = f.newVar(g.var().name(), ScalarType.INT, Expr.VarKind.GRID);
        vars.put(g.var(), v);
        grid.add(v);
        extents.add(g.size().substitute(call.dims()));
      }
    }
    collectVars(callee.body(), f, vars);
    Map<Param.Scalar, Expr> scalars = new HashMap<>();
    Map<Param.Array, Param.Array> arrays = new HashMap<>();
    for (int i = 0; i < callee.params().size(); i++) {
      Param p = callee.params().get(i);
      CompositeIr.Arg a = call.args().get(i);
      if (p instanceof Param.Array pa) {
        arrays.put(pa, tensors.get(((CompositeIr.Arg.Tensor) a).name()));
      } else if (a instanceof CompositeIr.Arg.Size s) {
        scalars.put((Param.Scalar) p, PolyExpr.of(f, s.value(), dims));
      } else {
        CompositeIr.Arg.Value v = (CompositeIr.Arg.Value) a;
        ScalarType type = ((Param.Scalar) p).type();
        Expr value = v.param() != null ? f.cast(type, f.scalar(v.param()))
            : type.isFloating() ? f.constant(type, v.literal()) : f.integral(type, (long) v.literal());
        scalars.put((Param.Scalar) p, value);
      }
    }
    Map<Integer, Integer> ids = new HashMap<>();
    ids.put(0, 0);
    ExprMapper mapper = new ExprMapper(f, vars, scalars::get, arrays::get,
        s -> ids.computeIfAbsent(s, k -> loopIds.getAsInt()), null, null);
    return new CallInstance(index, call, grid, extents, mapper.map(callee.body()));
  }

  /** The shape of a tensor argument of rank 2 or more whose length is the 1-D grid's extent, or null. */
  private static Shape reshape(CompositeIr.Call call, Tensors tensors) {
    Poly extent = call.callee().grid().get(0).size().substitute(call.dims());
    for (CompositeIr.Arg a : call.args()) {
      if (a instanceof CompositeIr.Arg.Tensor t) {
        Shape shape = tensors.get(t.name()).shape();
        if (shape.rank() > 1 && shape.length().equals(extent)) {
          return shape;
        }
      }
    }
    return null;
  }

  private static void collectVars(List<Stmt> body, ExprFactory f, Map<Expr.Var, Expr> vars) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l) {
        vars.put(l.index(), fresh(f, l.index()));
        for (Stmt.Carried c : l.carried()) {
          vars.put(c.phi(), fresh(f, c.phi()));
          vars.put(c.result(), fresh(f, c.result()));
        }
        collectVars(l.body(), f, vars);
      }
    }
  }

  private static Expr.Var fresh(ExprFactory f, Expr.Var v) {
    return f.newVar(v.name(), v.type(), v.kind());
  }

  String id() {
    return call.id();
  }
}
