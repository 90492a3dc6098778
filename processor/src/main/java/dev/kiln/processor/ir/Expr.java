package dev.kiln.processor.ir;

import java.util.List;

/**
 * A node of a worker's expression DAG. Nodes are hash-consed by {@link ExprFactory}: two
 * structurally equal nodes made by one factory are the same object, so identity is equality and a
 * DAG shares every common subexpression. Expressions are pure; the only nodes that may trap (array
 * loads, integer division) carry the scope they were written in, so code generation never hoists
 * them out of a loop that might not run.
 */
public abstract sealed class Expr
    permits Expr.Const, Expr.ScalarRef, Expr.Var, Expr.Load, Expr.Unary, Expr.Binary, Expr.Select,
        Expr.Cast, Expr.Call {
  private final int id;
  private final ScalarType type;

  Expr(int id, ScalarType type) {
    this.id = id;
    this.type = type;
  }

  /** A number unique within the factory, increasing in creation order (operands first). */
  public int id() {
    return id;
  }

  public ScalarType type() {
    return type;
  }

  public abstract List<Expr> operands();

  /** Whether this node is {@code target} or computed from it (through any operand, at any depth). */
  public boolean dependsOn(Expr target) {
    java.util.ArrayDeque<Expr> work = new java.util.ArrayDeque<>();
    java.util.Set<Expr> seen = new java.util.HashSet<>();
    work.push(this);
    while (!work.isEmpty()) {
      Expr e = work.pop();
      if (e == target) {
        return true;
      }
      if (seen.add(e)) {
        e.operands().forEach(work::push);
      }
    }
    return false;
  }

  /** A literal. Floating values are stored as doubles; a float literal holds the float's value. */
  public static final class Const extends Expr {
    private final double floating;
    private final long integral;

    Const(int id, ScalarType type, double floating, long integral) {
      super(id, type);
      this.floating = floating;
      this.integral = integral;
    }

    public double floatingValue() {
      return type().isFloating() ? floating : integral;
    }

    public long integralValue() {
      return integral;
    }

    public boolean booleanValue() {
      return integral != 0;
    }

    public boolean isTrue() {
      return type() == ScalarType.BOOL && integral != 0;
    }

    public boolean isFalse() {
      return type() == ScalarType.BOOL && integral == 0;
    }

    @Override
    public List<Expr> operands() {
      return List.of();
    }
  }

  /** A scalar parameter of the operator (a {@code @Dim} size included). */
  public static final class ScalarRef extends Expr {
    private final Param.Scalar param;

    ScalarRef(int id, Param.Scalar param) {
      super(id, param.type());
      this.param = param;
    }

    public Param.Scalar param() {
      return param;
    }

    @Override
    public List<Expr> operands() {
      return List.of();
    }
  }

  /** A variable bound by the structure of the body. */
  public static final class Var extends Expr {
    private final String name;
    private final String sourceName;
    private final VarKind kind;

    Var(int id, String name, String sourceName, ScalarType type, VarKind kind) {
      super(id, type);
      this.name = name;
      this.sourceName = sourceName;
      this.kind = kind;
    }

    /** The name, unique within its operator ({@code s_2} for the second variable named {@code s}). */
    public String name() {
      return name;
    }

    /** The name the source gave it ({@code s}), for messages to the user. */
    public String sourceName() {
      return sourceName;
    }

    public VarKind kind() {
      return kind;
    }

    @Override
    public List<Expr> operands() {
      return List.of();
    }
  }

  /** What binds a {@link Var}. */
  public enum VarKind {
    /** A {@code @Parallel} loop variable: a coordinate of the worker grid. */
    GRID,
    /** The index of a sequential loop inside a worker. */
    LOOP_INDEX,
    /** A value carried around a sequential loop, inside the loop. */
    CARRIED,
    /** A carried value after its loop ends. */
    LOOP_RESULT,
    /** An operand of a user monoid's combining method ({@link Monoid}), bound where it is applied. */
    OPERAND
  }

  /** {@code array[index]}, read only when {@code guard} holds (else zero). */
  public static final class Load extends Expr {
    private final Param.Array array;
    private final Expr index;
    private final Expr guard;
    private final int scope;

    Load(int id, Param.Array array, Expr index, Expr guard, int scope) {
      super(id, array.elementType());
      this.array = array;
      this.index = index;
      this.guard = guard;
      this.scope = scope;
    }

    public Param.Array array() {
      return array;
    }

    public Expr index() {
      return index;
    }

    public Expr guard() {
      return guard;
    }

    /** The sequential loop it was written in (0: the worker's top level). */
    public int scope() {
      return scope;
    }

    @Override
    public List<Expr> operands() {
      return List.of(index, guard);
    }
  }

  /** A unary operator. */
  public static final class Unary extends Expr {
    private final UnaryOp op;
    private final Expr operand;

    Unary(int id, UnaryOp op, Expr operand) {
      super(id, operand.type());
      this.op = op;
      this.operand = operand;
    }

    public UnaryOp op() {
      return op;
    }

    public Expr operand() {
      return operand;
    }

    @Override
    public List<Expr> operands() {
      return List.of(operand);
    }
  }

  /** A binary operator; operands already promoted to a common type (shifts excepted). */
  public static final class Binary extends Expr {
    private final BinaryOp op;
    private final Expr left;
    private final Expr right;
    private final int scope;

    Binary(int id, BinaryOp op, Expr left, Expr right, ScalarType type, int scope) {
      super(id, type);
      this.op = op;
      this.left = left;
      this.right = right;
      this.scope = scope;
    }

    public BinaryOp op() {
      return op;
    }

    public Expr left() {
      return left;
    }

    public Expr right() {
      return right;
    }

    /** For integer division and remainder, which trap on zero: the loop written in; else -1. */
    public int scope() {
      return scope;
    }

    @Override
    public List<Expr> operands() {
      return List.of(left, right);
    }
  }

  /** {@code cond ? ifTrue : ifFalse}. */
  public static final class Select extends Expr {
    private final Expr cond;
    private final Expr ifTrue;
    private final Expr ifFalse;

    Select(int id, Expr cond, Expr ifTrue, Expr ifFalse) {
      super(id, ifTrue.type());
      this.cond = cond;
      this.ifTrue = ifTrue;
      this.ifFalse = ifFalse;
    }

    public Expr cond() {
      return cond;
    }

    public Expr ifTrue() {
      return ifTrue;
    }

    public Expr ifFalse() {
      return ifFalse;
    }

    @Override
    public List<Expr> operands() {
      return List.of(cond, ifTrue, ifFalse);
    }
  }

  /** A primitive conversion, as Java's cast does it. */
  public static final class Cast extends Expr {
    private final Expr operand;

    Cast(int id, ScalarType type, Expr operand) {
      super(id, type);
      this.operand = operand;
    }

    public Expr operand() {
      return operand;
    }

    @Override
    public List<Expr> operands() {
      return List.of(operand);
    }
  }

  /** A call of a math function; the result type selects the overload. */
  public static final class Call extends Expr {
    private final MathFn fn;
    private final List<Expr> args;

    Call(int id, MathFn fn, ScalarType type, List<Expr> args) {
      super(id, type);
      this.fn = fn;
      this.args = List.copyOf(args);
    }

    public MathFn fn() {
      return fn;
    }

    public List<Expr> args() {
      return args;
    }

    @Override
    public List<Expr> operands() {
      return args;
    }
  }
}
