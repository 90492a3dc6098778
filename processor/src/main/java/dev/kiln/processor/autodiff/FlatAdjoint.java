package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.PolyExpr;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.transform.ExprMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel storing one flattened occurrence's adjoint (see {@link ReverseSweep.Flat}): its grid
 * is the forward grid and then one dimension per loop around the read (its trip count), and its
 * worker computes the adjoint of the read at that worker and iteration, without loops. The merger
 * recomputes it inside the gather that sums it when it is cheap or read once, so a matrix
 * product's gradient is a product again rather than a stored cube of terms.
 *
 * @param sizes the new grid sizes, as polynomials over the forward sizes
 */
record FlatAdjoint(OperatorIr.Grid op, Map<String, Poly> sizes) {
  static FlatAdjoint of(ExprFactory f, OperatorIr.Grid forward, ReverseSweep.Flat flat, List<Param> params, int n) {
    Occurrence o = flat.occurrence();
    Map<String, Param.Scalar> named = new HashMap<>();
    forward.scalars().forEach(s -> named.put(s.name(), s));
    List<GridDim> grid = new ArrayList<>(forward.grid());
    List<Param> all = new ArrayList<>(params);
    Map<String, Poly> sizes = new HashMap<>();
    Map<Expr.Var, Expr> vars = new HashMap<>();
    List<Expr> coords = new ArrayList<>();
    forward.grid().forEach(g -> coords.add(g.var()));
    for (int d = 0; d < o.chain().size(); d++) {
      Stmt.Loop l = o.chain().get(d);
      Poly lo = AffineAnalysis.affine(l.lo()).constantPart();
      Poly hi = AffineAnalysis.affine(l.hi()).constantPart();
      Param.Scalar trips = new Param.Scalar("trips$" + n + "$" + d, -1, ScalarType.INT, true);
      all.add(trips);
      sizes.put(trips.name(), hi.subtract(lo));
      Expr.Var k = f.newVar(l.index().name(), ScalarType.INT, Expr.VarKind.GRID);
      grid.add(new GridDim(k, trips));
      coords.add(k);
      vars.put(l.index(), f.binary(BinaryOp.ADD, k, PolyExpr.of(f, lo, named), -1));
    }
    Param.Array temp = o.temp();
    all.add(temp);
    ExprMapper mapper = new ExprMapper(f, vars, f::scalar, a -> a, id -> 0, null, null);
    Expr index = PolyExpr.rowMajor(f, coords, temp.shape(), named);
    Stmt store = new Stmt.Store(temp, index, mapper.map(flat.adjoint()), f.trueValue(), o.origin());
    OperatorIr.Grid op = new OperatorIr.Grid(forward.owner(), forward.name() + "$adjoint" + n, all, grid, List.of(store));
    return new FlatAdjoint(op, sizes);
  }
}
