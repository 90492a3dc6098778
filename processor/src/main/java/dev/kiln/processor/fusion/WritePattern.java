package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.PolyExpr;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.transform.ExprMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A producer's top-level store of a tensor, read as a function of its worker. When every
 * coordinate of the store (delinearized against the tensor's shape) is a constant or one grid
 * variable plus a constant, each grid variable in one coordinate, the pattern is injective and
 * affine-invertible: a consumer's read {@code t[L]} is produced by the worker whose grid variables
 * are {@code L}'s coordinates minus those constants. That covers identity, transpose, split,
 * concat, slice and reshape. {@link #at} builds the producer's value at a read, with the condition
 * under which that worker exists and wrote it.
 */
final class WritePattern {
  final Stmt.Store store;
  final CallInstance producer;
  final Shape shape;
  final List<Affine> coords;
  /** For each producer grid variable, the coordinate holding it. */
  private final int[] coordOf;

  private WritePattern(Stmt.Store store, CallInstance producer, Shape shape, List<Affine> coords, int[] coordOf) {
    this.store = store;
    this.producer = producer;
    this.shape = shape;
    this.coords = coords;
    this.coordOf = coordOf;
  }

  /** The pattern of {@code store}, or null when it is not invertible this way. */
  static WritePattern of(CallInstance producer, Stmt.Store store, Ranges ranges) {
    Shape shape = store.array().shape();
    Affine flat = AffineAnalysis.affine(store.index());
    if (flat == null) {
      return null;
    }
    List<Affine> coords = AffineAnalysis.delinearize(flat, shape);
    int[] coordOf = new int[producer.grid().size()];
    java.util.Arrays.fill(coordOf, -1);
    for (int j = 0; j < coords.size(); j++) {
      Affine c = coords.get(j);
      if (c.coefficients().size() > 1) {
        return null;
      }
      for (Map.Entry<String, Poly> t : c.coefficients().entrySet()) {
        int k = gridIndex(producer, t.getKey());
        if (k < 0 || !t.getValue().equals(Poly.ONE) || coordOf[k] >= 0) {
          return null;
        }
        coordOf[k] = j;
      }
      if (j > 0 && !ranges.within(c, shape.extents().get(j))) {
        return null; // the coordinate may spill into the next row: not a plain pattern
      }
    }
    for (int k : coordOf) {
      if (k < 0) {
        return null;
      }
    }
    return new WritePattern(store, producer, shape, coords, coordOf);
  }

  private static int gridIndex(CallInstance p, String name) {
    for (int k = 0; k < p.grid().size(); k++) {
      if (p.grid().get(k).name().equals(name)) {
        return k;
      }
    }
    return -1;
  }

  /** The pattern as text, e.g. {@code [b, h + H]}. */
  String text() {
    StringBuilder b = new StringBuilder("[");
    for (int j = 0; j < coords.size(); j++) {
      b.append(j == 0 ? "" : ", ").append(coords.get(j));
    }
    return b.append(']').toString();
  }

  /**
   * The producer's worker for a read: {@code {condition, value}} where value is what the store
   * writes at the read's index and condition says that a worker of the producer's grid wrote it.
   *
   * @param readRanges the ranges of the consumer's variables, to drop conditions that always hold
   */
  Expr[] at(ExprFactory f, Expr.Load read, Ranges readRanges, Map<String, Param.Scalar> dims) {
    List<Expr> coordinates = readCoordinates(f, read, readRanges, dims);
    List<Affine> facts = new ArrayList<>();
    facts(read.guard(), facts);
    Expr cond = f.trueValue();
    Map<Expr.Var, Expr> vars = new HashMap<>();
    for (int j = 0; j < coords.size(); j++) {
      Affine w = coords.get(j);
      Expr c = PolyExpr.of(f, w.constantPart(), dims);
      if (w.coefficients().isEmpty()) {
        if (!provablyEqual(read, j, w, readRanges)) {
          cond = f.binary(BinaryOp.LAND, cond, f.binary(BinaryOp.EQ, coordinates.get(j), c, -1), -1);
        }
        continue;
      }
      int k = -1;
      for (int g = 0; g < coordOf.length; g++) {
        if (coordOf[g] == j) {
          k = g;
        }
      }
      Expr g = f.binary(BinaryOp.SUB, coordinates.get(j), c, -1);
      vars.put(producer.grid().get(k), g);
      Affine ga = AffineAnalysis.affine(g);
      Poly extent = producer.extents().get(k);
      if (ga == null || !nonNegative(ga, readRanges, facts)) {
        cond = f.binary(BinaryOp.LAND, cond, f.binary(BinaryOp.GE, g, f.integral(ScalarType.INT, 0), -1), -1);
      }
      if (ga == null || !nonNegative(Affine.constant(extent.subtract(Poly.ONE)).subtract(ga), readRanges, facts)) {
        cond = f.binary(BinaryOp.LAND, cond, f.binary(BinaryOp.LT, g, PolyExpr.of(f, extent, dims), -1), -1);
      }
    }
    Expr guard = f.binary(BinaryOp.LAND, read.guard(), cond, -1);
    int scope = read.scope();
    ExprMapper m = new ExprMapper(f, vars, f::scalar, a -> a, s -> scope, guard, null);
    // where the read's own guard fails it reads zero (a temporary) or its guarded load (zero too), never the value
    Expr written = f.binary(BinaryOp.LAND, guard, m.map(store.guard()), -1);
    return new Expr[] {written, m.map(store.value())};
  }

  /**
   * What the read's guard says about indices, as affine forms known to be {@code >= 0}: each
   * conjunct {@code a > b}, {@code a >= b}, {@code a < b}, {@code a <= b} over affine ints.
   */
  private static void facts(Expr guard, List<Affine> out) {
    if (!(guard instanceof Expr.Binary b)) {
      return;
    }
    if (b.op() == BinaryOp.LAND) {
      facts(b.left(), out);
      facts(b.right(), out);
      return;
    }
    Affine l = AffineAnalysis.affine(b.left());
    Affine r = l == null ? null : AffineAnalysis.affine(b.right());
    if (r == null) {
      return;
    }
    Affine one = Affine.constant(Poly.ONE);
    switch (b.op()) {
      case GT: out.add(l.subtract(r).subtract(one)); break;
      case GE: out.add(l.subtract(r)); break;
      case LT: out.add(r.subtract(l).subtract(one)); break;
      case LE: out.add(r.subtract(l)); break;
      default: break;
    }
  }

  /** Whether {@code a >= 0} for every worker: from the variables' ranges, or as a known fact plus something non-negative. */
  private static boolean nonNegative(Affine a, Ranges ranges, List<Affine> facts) {
    Poly[] b = ranges.bounds(a);
    if (b != null && b[0].provablyNonNegative(ranges.dims())) {
      return true;
    }
    for (Affine fact : facts) {
      Poly[] d = ranges.bounds(a.subtract(fact));
      if (d != null && d[0].provablyNonNegative(ranges.dims())) {
        return true;
      }
    }
    return false;
  }

  private boolean provablyEqual(Expr.Load read, int j, Affine w, Ranges ranges) {
    Affine flat = AffineAnalysis.affine(read.index());
    if (flat == null) {
      return false;
    }
    List<Affine> rc = AffineAnalysis.delinearize(flat, shape);
    return coordinatesExact(rc, ranges) && rc.get(j).equals(w);
  }

  private boolean coordinatesExact(List<Affine> rc, Ranges ranges) {
    for (int j = 1; j < rc.size(); j++) {
      if (!ranges.within(rc.get(j), shape.extents().get(j))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The read's coordinates in the tensor's shape: from its affine form when every inner coordinate
   * is provably within its extent, else with division and remainder (exact for any index in bounds).
   */
  private List<Expr> readCoordinates(ExprFactory f, Expr.Load read, Ranges ranges, Map<String, Param.Scalar> dims) {
    Affine flat = AffineAnalysis.affine(read.index());
    List<Expr> out = new ArrayList<>();
    if (flat != null) {
      List<Affine> rc = AffineAnalysis.delinearize(flat, shape);
      if (coordinatesExact(rc, ranges)) {
        Map<String, Expr> vars = new HashMap<>();
        collectVars(read.index(), vars);
        for (Affine a : rc) {
          Expr e = PolyExpr.of(f, a.constantPart(), dims);
          for (Map.Entry<String, Poly> t : a.coefficients().entrySet()) {
            e = f.binary(BinaryOp.ADD, e, f.binary(BinaryOp.MUL, PolyExpr.of(f, t.getValue(), dims), vars.get(t.getKey()), -1), -1);
          }
          out.add(e);
        }
        return out;
      }
    }
    Expr index = read.index();
    for (int j = 0; j < shape.rank(); j++) {
      Expr e = j == 0 && shape.rank() == 1 ? index
          : f.binary(BinaryOp.DIV, index, atLeastOne(f, PolyExpr.of(f, shape.stride(j), dims)), read.scope());
      if (j > 0) {
        e = f.binary(BinaryOp.REM, e, atLeastOne(f, PolyExpr.of(f, shape.extents().get(j), dims)), read.scope());
      }
      out.add(e);
    }
    return out;
  }

  /**
   * {@code max(d, 1)}: an extent of the array may be 0 (a loop's trip count, a size of 0), and then
   * no read of it is valid and its guard is false, but the division must still not trap.
   */
  private static Expr atLeastOne(ExprFactory f, Expr d) {
    if (d instanceof Expr.Const c && c.integralValue() >= 1) {
      return d;
    }
    Expr one = f.integral(d.type(), 1);
    return f.select(f.binary(BinaryOp.GE, d, one, -1), d, one);
  }

  private static void collectVars(Expr e, Map<String, Expr> vars) {
    if (e instanceof Expr.Var v) {
      vars.put(v.name(), v);
    }
    for (Expr o : e.operands()) {
      collectVars(o, vars);
    }
  }
}
