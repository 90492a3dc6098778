package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.analysis.DividedSizes;
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
import dev.kiln.processor.ir.UnaryOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The gradient of one input array as a gather (PlaidML's inversion of the index map): one worker
 * per element {@code j} of the array sums what every forward worker and loop iteration that read
 * {@code x[j]} stored in its adjoint temporary. For each read, the equation {@code index(i, k) = j}
 * is solved for the forward variables: per dimension of the array when the read provably stays
 * inside each dimension, else on the flat index. A variable with a constant coefficient is solved
 * ({@code v = (j - rest) / c}, valid when the division is exact and {@code v} is in its range);
 * the others become sequential loops over their ranges (a broadcast sums over the dimension it
 * ignores, a strided or dilated convolution loops over the kernel window). Out-of-range solutions
 * contribute nothing. No atomics: each element is written by exactly one worker.
 */
final class Gather {
  private final ExprFactory f;
  private final OperatorIr.Grid op;
  private final Map<String, Param.Scalar> sizes;
  private final Set<String> positive = new java.util.HashSet<>();
  private int loopIds;
  /** The sizes {@code N / c} that the read being gathered uses, read as polynomials. */
  private DividedSizes divided;

  /** One forward variable: its range and, for a loop index, its loop. */
  private record Var(Expr.Var var, Expr lo, Expr hi, long step, Stmt.Loop loop) {}

  Gather(ExprFactory f, OperatorIr.Grid op, Map<String, Param.Scalar> sizes) {
    this.f = f;
    this.op = op;
    this.sizes = sizes;
    op.dims().forEach(d -> positive.add(d.name()));
  }

  /**
   * The gather operator writing {@code dx}.
   *
   * @param temps the adjoint temporaries as the gather reads them (role IN), by occurrence
   */
  OperatorIr.Grid build(String name, Param.Array x, Param.Array dx, List<Occurrence> occurrences,
      Map<Occurrence, Param.Array> temps, List<Param> params) throws NotDifferentiable {
    loopIds = 1;
    List<GridDim> grid = new ArrayList<>();
    List<Expr> coords = new ArrayList<>();
    for (int d = 0; d < x.shape().rank(); d++) {
      Param.Scalar extent = extentParam(x.shape().extents().get(d), d, params);
      Expr.Var j = f.newVar("j" + d, ScalarType.INT, Expr.VarKind.GRID);
      grid.add(new GridDim(j, extent));
      coords.add(j);
    }
    Expr flat = flat(coords, x.shape());
    List<Stmt> body = new ArrayList<>();
    Expr total = null;
    for (Occurrence o : occurrences) {
      Expr part = f.cast(x.elementType(), sum(o, temps.get(o), x.shape(), coords, flat, body));
      total = total == null ? part : f.binary(BinaryOp.ADD, total, part, -1);
    }
    body.add(new Stmt.Store(dx, flat, total == null ? f.constant(x.elementType(), 0) : total, f.trueValue(), null));
    return new OperatorIr.Grid(op.owner(), name, params, grid, body);
  }

  /** The extent of gather dimension {@code d}: the size itself when it is one, else a new size parameter. */
  private Param.Scalar extentParam(Poly extent, int d, List<Param> params) {
    if (extent.terms().size() == 1 && extent.symbols().size() == 1) {
      String s = extent.symbols().iterator().next();
      if (extent.equals(Poly.symbol(s)) && sizes.containsKey(s) && sizes.get(s).dim()) {
        return sizes.get(s);
      }
    }
    Param.Scalar p = new Param.Scalar("n$" + d, -1, ScalarType.INT, true);
    params.add(p);
    return p;
  }

  private Expr flat(List<Expr> coords, Shape shape) {
    return PolyExpr.rowMajor(f, coords, shape, sizes);
  }

  /** {@code p}, in the sizes and the divided sizes of the read being gathered, as an int expression. */
  private Expr poly(Poly p) {
    return divided.expr(f, p);
  }

  // ---- one read ----

  private Expr sum(Occurrence o, Param.Array temp, Shape shape, List<Expr> coords, Expr flat, List<Stmt> body)
      throws NotDifferentiable {
    List<Expr> sizeUses = new ArrayList<>(o.guards());
    sizeUses.add(o.index());
    divided = DividedSizes.of(f, sizes, sizeUses);
    Affine index = divided.affine(o.index());
    if (index == null) {
      throw new NotDifferentiable("the index of '" + o.array().name() + "' is not an affine function of the"
          + " worker's variables (it depends on data, or uses / or %), so its gradient cannot be gathered", o.origin());
    }
    Map<String, Var> vars = new LinkedHashMap<>();
    for (GridDim g : op.grid()) {
      vars.put(g.var().name(), new Var(g.var(), f.integral(ScalarType.INT, 0), g.extentExpr(f, op::scalar), 1, null));
    }
    for (Stmt.Loop l : o.chain()) {
      vars.put(l.index().name(), new Var(l.index(), l.lo(), l.hi(), l.step(), l));
    }
    List<Affine> lhs = new ArrayList<>();
    List<Expr> rhs = new ArrayList<>();
    Shape dividedShape = divided.shape(shape);
    List<Affine> axes = AffineAnalysis.delinearize(index, dividedShape);
    if (insideEachAxis(axes, dividedShape, vars) || insideEachAxis(axes, dividedShape, narrowed(vars, o.guards()))) {
      lhs.addAll(axes);
      rhs.addAll(coords);
    } else {
      lhs.add(index);
      rhs.add(flat);
    }
    // choose pivots: per equation, one variable with a constant coefficient, grid variables first
    Map<Integer, String> pivots = new HashMap<>();
    Set<String> free = new LinkedHashSet<>();
    Set<String> solved = new java.util.HashSet<>();
    for (int e = 0; e < lhs.size(); e++) {
      String pivot = null;
      for (String v : lhs.get(e).coefficients().keySet()) {
        if (solved.contains(v) || free.contains(v) || !constant(lhs.get(e).coefficient(v))) {
          continue;
        }
        if (pivot == null || better(v, pivot, lhs.get(e), vars)) {
          pivot = v;
        }
      }
      for (String v : lhs.get(e).coefficients().keySet()) {
        if (!v.equals(pivot) && !solved.contains(v)) {
          free.add(v);
        }
      }
      if (pivot != null) {
        pivots.put(e, pivot);
        solved.add(pivot);
      }
    }
    for (String v : vars.keySet()) {
      if (!solved.contains(v)) {
        free.add(v);
      }
    }
    // open a loop per free variable, outermost first
    Map<Expr, Expr> value = new HashMap<>();
    List<Stmt.Loop> shells = new ArrayList<>();
    List<Expr.Var> loopVars = new ArrayList<>();
    for (String name : vars.keySet()) {
      if (!free.contains(name)) {
        continue;
      }
      Var v = vars.get(name);
      Map<Expr, Boolean> memo = new HashMap<>();
      Set<Expr.Var> forwardVars = new java.util.HashSet<>();
      vars.values().forEach(w -> forwardVars.add(w.var()));
      if (Levels.dependsOn(v.lo(), forwardVars, memo) || Levels.dependsOn(v.hi(), forwardVars, memo)) {
        throw new NotDifferentiable("cannot gather the gradient of '" + o.array().name() + "': the loop over '"
            + v.var().sourceName() + "' has bounds that depend on the worker", o.origin());
      }
      Expr.Var k = f.newVar(name, ScalarType.INT, Expr.VarKind.LOOP_INDEX);
      loopVars.add(k);
      value.put(v.var(), k);
      shells.add(new Stmt.Loop(loopIds++, k, v.lo(), v.hi(), v.step(), f.trueValue(), List.of(), List.of(), o.origin()));
    }
    int scope = shells.isEmpty() ? 0 : shells.get(shells.size() - 1).id();
    Expr cond = f.trueValue();
    for (int e = 0; e < lhs.size(); e++) {
      String pivot = pivots.get(e);
      if (pivot == null) {
        cond = and(cond, f.binary(BinaryOp.EQ, affineExpr(lhs.get(e), vars, value), rhs.get(e), -1));
        continue;
      }
      long c = lhs.get(e).coefficient(pivot).constantTerm();
      Affine rest = lhs.get(e).subtract(Affine.variable(pivot).scale(Poly.constant(c)));
      Expr num = f.binary(BinaryOp.SUB, rhs.get(e), affineExpr(rest, vars, value), scope);
      Expr v;
      if (c == 1) {
        v = num;
      } else if (c == -1) {
        v = f.unary(UnaryOp.NEG, num);
      } else {
        Expr k = f.integral(ScalarType.INT, c);
        cond = and(cond, f.binary(BinaryOp.EQ, f.binary(BinaryOp.REM, num, k, scope), f.integral(ScalarType.INT, 0), -1));
        v = f.binary(BinaryOp.DIV, num, k, scope);
      }
      value.put(vars.get(pivot).var(), v);
    }
    for (String name : solved) {
      Var v = vars.get(name);
      Expr x = value.get(v.var());
      if (sameRange(x, v, coords, shape)) {
        continue;
      }
      Expr lo = f.substitute(v.lo(), value, scope);
      cond = and(cond, f.binary(BinaryOp.GE, x, lo, -1));
      cond = and(cond, f.binary(BinaryOp.LT, x, f.substitute(v.hi(), value, scope), -1));
      if (v.step() != 1) {
        Expr step = f.integral(ScalarType.INT, v.step());
        cond = and(cond, f.binary(BinaryOp.EQ, f.binary(BinaryOp.REM, f.binary(BinaryOp.SUB, x, lo, -1), step, scope),
            f.integral(ScalarType.INT, 0), -1));
      }
    }
    // the select keeps a read outside the range zero even where the merger recomputes the adjoint in its place
    Expr read = f.select(cond, f.load(temp, tempIndex(temp, o, value, scope), cond, scope),
        f.constant(temp.elementType(), 0));
    if (shells.isEmpty()) {
      return read;
    }
    return loops(shells, read, temp.elementType(), body);
  }

  /**
   * Whether solved variable {@code v}'s value {@code x} is a gather coordinate whose extent is
   * {@code v}'s range {@code [0, size)} (a grid variable, or a loop from 0 to a size), so its range
   * check always holds.
   */
  private boolean sameRange(Expr x, Var v, List<Expr> coords, Shape shape) {
    int d = coords.indexOf(x);
    boolean fromZero = v.lo() instanceof Expr.Const c && c.integralValue() == 0;
    if (d < 0 || !fromZero || v.step() != 1 || !(v.hi() instanceof Expr.ScalarRef s)) {
      return false;
    }
    return shape.extents().get(d).equals(Poly.symbol(s.param().name()));
  }

  /** Whether each per-dimension index but the outermost provably stays within its extent. */
  private boolean insideEachAxis(List<Affine> axes, Shape shape, Map<String, Var> vars) {
    for (int d = 1; d < axes.size(); d++) {
      Poly min = axes.get(d).constantPart();
      Poly max = axes.get(d).constantPart();
      for (Map.Entry<String, Poly> t : axes.get(d).coefficients().entrySet()) {
        Var v = vars.get(t.getKey());
        Affine lo = v == null ? null : divided.affine(v.lo());
        Affine hi = v == null ? null : divided.affine(v.hi());
        if (lo == null || hi == null || !lo.isConstant() || !hi.isConstant()) {
          return false;
        }
        Poly first = lo.constantPart();
        Poly last = hi.constantPart().subtract(Poly.ONE);
        Poly c = t.getValue();
        if (c.provablyNonNegative(positive, divided.nonNegative())) {
          min = min.add(c.multiply(first));
          max = max.add(c.multiply(last));
        } else if (c.negate().provablyNonNegative(positive, divided.nonNegative())) {
          min = min.add(c.multiply(last));
          max = max.add(c.multiply(first));
        } else {
          return false;
        }
      }
      Poly room = shape.extents().get(d).subtract(Poly.ONE).subtract(max);
      if (!min.provablyNonNegative(positive, divided.nonNegative())
          || !room.provablyNonNegative(positive, divided.nonNegative())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The variables' ranges within the reads' conditions ({@code j < I} in {@code j < I ? x[b*I + j] :
   * ...}), for deciding whether a read stays inside each dimension: a worker outside every condition
   * contributes nothing, so only the union over the conditions matters. Only one condition is
   * used (no union taken); bounds are conjuncts comparing a variable with a size expression.
   */
  private Map<String, Var> narrowed(Map<String, Var> vars, List<Expr> guards) {
    if (guards.size() != 1) {
      return vars;
    }
    Map<String, Var> out = new LinkedHashMap<>(vars);
    narrow(guards.get(0), out);
    return out;
  }

  private void narrow(Expr g, Map<String, Var> out) {
    if (g instanceof Expr.Unary u && u.op() == UnaryOp.NOT && u.operand() instanceof Expr.Binary c) {
      BinaryOp flipped = switch (c.op()) {
        case LT -> BinaryOp.GE;
        case LE -> BinaryOp.GT;
        case GT -> BinaryOp.LE;
        case GE -> BinaryOp.LT;
        default -> null;
      };
      if (flipped != null) {
        narrow(f.binary(flipped, c.left(), c.right(), -1), out);
      }
      return;
    }
    if (!(g instanceof Expr.Binary b)) {
      return;
    }
    if (b.op() == BinaryOp.LAND) {
      narrow(b.left(), out);
      narrow(b.right(), out);
      return;
    }
    Expr one = f.integral(ScalarType.INT, 1);
    if (b.left() instanceof Expr.Var v && out.containsKey(v.name()) && sizeOnly(b.right())) {
      Var w = out.get(v.name());
      switch (b.op()) {
        case LT -> out.put(v.name(), new Var(w.var(), w.lo(), b.right(), w.step(), w.loop()));
        case LE -> out.put(v.name(), new Var(w.var(), w.lo(), f.binary(BinaryOp.ADD, b.right(), one, -1), w.step(), w.loop()));
        case GE -> out.put(v.name(), new Var(w.var(), b.right(), w.hi(), w.step(), w.loop()));
        case GT -> out.put(v.name(), new Var(w.var(), f.binary(BinaryOp.ADD, b.right(), one, -1), w.hi(), w.step(), w.loop()));
        default -> { }
      }
    } else if (b.right() instanceof Expr.Var v && out.containsKey(v.name()) && sizeOnly(b.left())) {
      Var w = out.get(v.name());
      switch (b.op()) {
        case GT -> out.put(v.name(), new Var(w.var(), w.lo(), b.left(), w.step(), w.loop()));
        case GE -> out.put(v.name(), new Var(w.var(), w.lo(), f.binary(BinaryOp.ADD, b.left(), one, -1), w.step(), w.loop()));
        case LE -> out.put(v.name(), new Var(w.var(), b.left(), w.hi(), w.step(), w.loop()));
        case LT -> out.put(v.name(), new Var(w.var(), f.binary(BinaryOp.ADD, b.left(), one, -1), w.hi(), w.step(), w.loop()));
        default -> { }
      }
    }
  }

  private boolean sizeOnly(Expr e) {
    Affine a = divided.affine(e);
    return a != null && a.isConstant();
  }

  private static boolean constant(Poly c) {
    return c.isConstant() && c.constantTerm() != 0;
  }

  /** Whether {@code v} is a better pivot than {@code than}: grid variables first, then unit coefficients. */
  private static boolean better(String v, String than, Affine eq, Map<String, Var> vars) {
    boolean grid = vars.get(v).loop() == null;
    boolean gridThan = vars.get(than).loop() == null;
    if (grid != gridThan) {
      return grid;
    }
    return Math.abs(eq.coefficient(v).constantTerm()) == 1 && Math.abs(eq.coefficient(than).constantTerm()) != 1;
  }

  private Expr affineExpr(Affine a, Map<String, Var> vars, Map<Expr, Expr> value) {
    Expr sum = poly(a.constantPart());
    for (Map.Entry<String, Poly> t : a.coefficients().entrySet()) {
      Expr v = value.get(vars.get(t.getKey()).var());
      sum = f.binary(BinaryOp.ADD, sum, f.binary(BinaryOp.MUL, poly(t.getValue()), v, -1), -1);
    }
    return sum;
  }

  private Expr tempIndex(Param.Array temp, Occurrence o, Map<Expr, Expr> value, int scope) {
    List<Expr> coords = new ArrayList<>();
    for (GridDim g : op.grid()) {
      coords.add(value.get(g.var()));
    }
    for (Stmt.Loop l : o.chain()) {
      coords.add(f.binary(BinaryOp.SUB, value.get(l.index()), f.substitute(l.lo(), value, scope), -1));
    }
    return flat(coords, temp.shape());
  }

  private Expr and(Expr a, Expr b) {
    return f.binary(BinaryOp.LAND, a, b, -1);
  }

  /** Nested loops summing {@code value}; the outermost is appended to {@code body}, its result returned. */
  private Expr loops(List<Stmt.Loop> shells, Expr value, ScalarType type, List<Stmt> body) {
    int m = shells.size();
    Expr.Var[] phis = new Expr.Var[m];
    Expr.Var[] results = new Expr.Var[m];
    for (int k = 0; k < m; k++) {
      phis[k] = f.newVar("sum", type, Expr.VarKind.CARRIED);
      results[k] = f.newVar("sum", type, Expr.VarKind.LOOP_RESULT);
    }
    Stmt.Loop inner = null;
    for (int k = m - 1; k >= 0; k--) {
      Stmt.Loop s = shells.get(k);
      Expr init = k == 0 ? f.constant(type, 0) : phis[k - 1];
      Expr next = k == m - 1 ? f.binary(BinaryOp.ADD, phis[k], f.cast(type, value), -1) : results[k + 1];
      List<Stmt> inside = inner == null ? List.of() : List.of(inner);
      inner = new Stmt.Loop(s.id(), s.index(), s.lo(), s.hi(), s.step(), s.guard(),
          List.of(new Stmt.Carried(phis[k], init, next, results[k])), inside, s.origin());
    }
    body.add(inner);
    return results[0];
  }
}
