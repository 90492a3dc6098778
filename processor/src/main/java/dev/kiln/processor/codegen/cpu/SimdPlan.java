package dev.kiln.processor.codegen.cpu;

import dev.kiln.processor.ir.Affine;
import dev.kiln.processor.ir.AffineAnalysis;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.OperatorKind;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.UnaryOp;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether a grid kernel has a SIMD form: its workers along the innermost grid dimension
 * {@code v} run as the lanes of a {@code FloatVector}, with the same floats as the scalar kernel.
 *
 * <p>The rule: every effect is a store (its guard becomes the store's lane mask) into a {@code float} array at an index whose
 * affine form has coefficient exactly 1 in {@code v} (neighbouring workers write neighbouring
 * elements); every value that depends on {@code v} is a {@code float} (or a comparison of floats)
 * computed by +, -, *, /, negation, a select, or a function with a bit-exact vector form ({@link
 * #VECTOR_FUNCTIONS}); every read that depends on {@code v} is a unit-stride load of a {@code float}
 * array (a guarded read is a masked load: lanes whose guard is false read nothing and get zero,
 * as the scalar read does); {@code v} itself appears only in indices; and no array is both read and
 * written. Everything independent of {@code v} stays scalar code. Workers are independent (the
 * race check proved it), so running sixteen of them at once statement by statement is the same
 * computation as running them one after another.
 */
public final class SimdPlan {
  /** Calls whose vector form gives KMath's float bits: Vector API lanewise ops and VectorMath. */
  static final Set<MathFn> VECTOR_FUNCTIONS =
      EnumSet.of(MathFn.MAX, MathFn.MIN, MathFn.ABS, MathFn.SQRT, MathFn.EXP, MathFn.TANH, MathFn.SIGMOID);

  private static final Set<BinaryOp> ARITHMETIC = EnumSet.of(BinaryOp.ADD, BinaryOp.SUB, BinaryOp.MUL, BinaryOp.DIV);

  private final Expr.Var lane;
  private final Set<Param.Array> stored = new HashSet<>();
  private final Map<Expr, Boolean> varying = new HashMap<>();
  private final Set<Expr> checked = new HashSet<>();

  private SimdPlan(Expr.Var lane) {
    this.lane = lane;
  }

  /** The dependence test alone, for code generation. */
  static SimdPlan forLane(Expr.Var lane) {
    return new SimdPlan(lane);
  }

  /** Null when {@code op} has a SIMD form; else why not, in words. */
  public static String refusal(OperatorIr op) {
    if (op.kind() != OperatorKind.GRID || op.grid().isEmpty()) {
      return "not a grid kernel";
    }
    SimdPlan plan = new SimdPlan(op.grid().get(op.grid().size() - 1).var());
    for (Stmt s : op.body()) {
      if (!(s instanceof Stmt.Store store)) {
        return s instanceof Stmt.Loop ? "a worker runs a sequential loop" : "a worker accumulates into a @Reduce output";
      }
      if (store.array().elementType() != ScalarType.FLOAT) {
        return store.array().name() + " is not a float array";
      }
      if (!plan.unitStride(store.index())) {
        return "neighbouring workers do not write neighbouring elements of " + store.array().name();
      }
      plan.stored.add(store.array());
    }
    for (Stmt s : op.body()) {
      Stmt.Store store = (Stmt.Store) s;
      String why = plan.checkValue(store.value());
      if (why == null) {
        why = plan.checkIndex(store.index());
      }
      if (why == null) {
        why = plan.checkValue(store.guard());
      }
      if (why != null) {
        return why;
      }
    }
    return null;
  }

  /** Whether {@code e} depends on the lane variable. */
  boolean varying(Expr e) {
    Boolean known = varying.get(e);
    if (known != null) {
      return known;
    }
    boolean v = e == lane;
    for (Expr o : e.operands()) {
      v |= varying(o);
    }
    varying.put(e, v);
    return v;
  }

  private boolean unitStride(Expr index) {
    Affine a = AffineAnalysis.affine(index);
    return a != null && a.coefficient(lane.name()).equals(Poly.ONE);
  }

  /** Scalar parts of an index may be anything but reads of written arrays; the lane enters with stride 1. */
  private String checkIndex(Expr index) {
    if (varying(index) && !unitStride(index)) {
      return "an index is not unit-stride in " + lane.name();
    }
    return checkScalar(index);
  }

  private String checkScalar(Expr e) {
    if (!checked.add(e)) {
      return null;
    }
    if (e instanceof Expr.Load load) {
      if (stored.contains(load.array())) {
        return "a worker reads " + load.array().name() + ", which it also writes";
      }
    }
    for (Expr o : e.operands()) {
      String why = checkScalar(o);
      if (why != null) {
        return why;
      }
    }
    return null;
  }

  private String checkValue(Expr e) {
    if (!varying(e)) {
      return checkScalar(e);
    }
    if (!checked.add(e)) {
      return null;
    }
    if (e instanceof Expr.Load load) {
      if (load.array().elementType() != ScalarType.FLOAT) {
        return "a worker reads " + load.array().name() + ", not a float array, at its own index";
      }
      if (!unitStride(load.index())) {
        return "a read of " + load.array().name() + " is not unit-stride in " + lane.name();
      }
      if (stored.contains(load.array())) {
        return "a worker reads " + load.array().name() + ", which it also writes";
      }
      String why = checkScalar(load.index());
      return why != null ? why : checkValue(load.guard()); // a guard becomes the load's mask
    }
    if (e.type() != ScalarType.FLOAT && e.type() != ScalarType.BOOL) {
      return "a " + e.type().javaName() + " value depends on " + lane.name();
    }
    if (e instanceof Expr.Binary b) {
      boolean ok = b.op().isComparison() ? b.left().type() == ScalarType.FLOAT
          : e.type() == ScalarType.FLOAT ? ARITHMETIC.contains(b.op())
          : b.op() == BinaryOp.LAND || b.op() == BinaryOp.LOR;
      return ok ? first(checkValue(b.left()), b.right()) : "operator " + b.op().javaSymbol() + " has no vector form here";
    }
    if (e instanceof Expr.Unary u) {
      boolean ok = e.type() == ScalarType.FLOAT ? u.op() == UnaryOp.NEG : u.op() == UnaryOp.NOT;
      return ok ? checkValue(u.operand()) : "operator " + u.op().javaSymbol() + " has no vector form here";
    }
    if (e instanceof Expr.Select s) {
      if (e.type() != ScalarType.FLOAT) {
        return "a boolean select depends on " + lane.name();
      }
      return first(first(checkValue(s.cond()), s.ifTrue()), s.ifFalse());
    }
    if (e instanceof Expr.Call c) {
      if (e.type() != ScalarType.FLOAT || !VECTOR_FUNCTIONS.contains(c.fn())) {
        return c.fn().javaName() + " has no bit-exact vector form";
      }
      String why = null;
      for (Expr a : c.args()) {
        why = why != null ? why : checkValue(a);
      }
      return why;
    }
    if (e instanceof Expr.Cast c) {
      return c.operand().type() == ScalarType.FLOAT ? checkValue(c.operand()) : "a conversion depends on " + lane.name();
    }
    return lane.name() + " is used as a value, not only as an index";
  }

  private String first(String why, Expr next) {
    return why != null ? why : checkValue(next);
  }

  static boolean isTrue(Expr guard) {
    return guard instanceof Expr.Const c && c.isTrue();
  }
}
