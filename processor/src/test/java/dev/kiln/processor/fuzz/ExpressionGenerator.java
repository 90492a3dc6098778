package dev.kiln.processor.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random, well-typed Java expressions of the operator language over what a {@link Scope} holds:
 * arithmetic ({@code + - * /}, unary minus, int {@code / %} by non-zero literals), comparisons and
 * {@code && || !} feeding {@code ?:}, casts between float, double and int, {@code KMath} calls
 * (qualified or statically imported, with arguments kept in their domain: {@code exp(min(v, 10f))},
 * {@code sqrt(abs(v))}, ...), {@code java.lang.Math} calls, calls of the class's other elementwise
 * operators, class constants, literals (including {@code -0f} and huge values), and reads of input
 * arrays at in-bounds indices, neighbours guarded by {@code ?:} or {@code &&}.
 *
 * <p>Every expression has exactly the requested type. Integer division and remainder are by
 * non-zero literals, or by a variable under {@code v != 0 ?}; reads are in bounds.
 */
final class ExpressionGenerator {
  /** A read of an input array: the access, and the condition it needs (null when none). */
  record Read(String guard, String access, FuzzType type) {
    String expression() {
      return guard == null ? access : "(" + guard + " ? " + access + " : " + type.zero() + ")";
    }
  }

  private final SplittableRandom r;
  private final Scope scope;
  private final List<OperatorSpec.Elementwise> callable;
  private final List<Scope.Var> constants;

  ExpressionGenerator(SplittableRandom r, Scope scope, List<OperatorSpec.Elementwise> callable, List<Scope.Var> constants) {
    this.r = r;
    this.scope = scope;
    this.callable = callable;
    this.constants = constants;
  }

  /** An expression of type {@code t} of at most {@code depth} levels. */
  String of(FuzzType t, int depth) {
    switch (t) {
      case FLOAT:
      case DOUBLE:
        return floating(t, depth);
      case INT:
      case LONG:
        return integral(t, depth);
      default:
        return condition(depth);
    }
  }

  private String floating(FuzzType t, int depth) {
    if (depth <= 0 || r.nextInt(5) == 0) {
      return leaf(t);
    }
    int d = depth - 1;
    switch (r.nextInt(11)) {
      case 0:
      case 1:
        return "(" + of(t, d) + " " + pick("+", "-", "*", "/") + " " + of(t, d) + ")";
      case 2:
        return "(-" + of(t, d) + ")";
      case 3:
        return "(" + condition(d) + " ? " + of(t, d) + " : " + of(t, d) + ")";
      case 4:
      case 5:
        return kmath(t, d);
      case 6:
        return javaMath(t, d);
      case 7:
        return callOperator(t, d);
      case 8:
        return t == FuzzType.FLOAT
            ? "((float) " + of(pick(FuzzType.DOUBLE, FuzzType.INT, FuzzType.LONG), d) + ")"
            : "((double) " + of(pick(FuzzType.FLOAT, FuzzType.INT, FuzzType.LONG), d) + ")";
      default:
        Read read = read(t);
        return read != null ? read.expression() : leaf(t);
    }
  }

  private String kmath(FuzzType t, int d) {
    String k = r.nextBoolean() ? "KMath." : "";
    String a = of(t, d);
    String one = t.literal(1);
    switch (r.nextInt(14)) {
      case 0: return k + "exp(" + k + "min(" + a + ", " + t.literal(10) + "))";
      case 1: return k + "tanh(" + a + ")";
      case 2: return k + "sigmoid(" + a + ")";
      case 3: return k + "sqrt(" + k + "abs(" + a + "))";
      case 4: return k + "max(" + a + ", " + of(t, d) + ")";
      case 5: return k + "min(" + a + ", " + of(t, d) + ")";
      case 6: return k + "abs(" + a + ")";
      case 7: return k + "erf(" + a + ")";
      case 8: return k + "sin(" + a + ")";
      case 9: return k + "cos(" + a + ")";
      case 10: return k + "log(" + k + "abs(" + a + ") + " + one + ")";
      case 11: return k + "rsqrt(" + k + "abs(" + a + ") + " + one + ")";
      case 12: return k + "pow(" + k + "abs(" + a + "), " + t.literal(0.5) + ")";
      default: return k + "exp(" + k + "max(" + k + "min(" + a + ", " + t.literal(10) + "), " + t.literal(-10) + "))";
    }
  }

  private String javaMath(FuzzType t, int d) {
    String a = of(t, d);
    if (t == FuzzType.FLOAT) {
      switch (r.nextInt(7)) {
        case 0: return "Math.abs(" + a + ")";
        case 1: return "Math.max(" + a + ", " + of(t, d) + ")";
        case 2: return "Math.min(" + a + ", " + of(t, d) + ")";
        case 3: return "((float) Math.sqrt(Math.abs(" + a + ")))";
        case 4: return "Math.signum(" + a + ")";
        case 5: return "((float) Math.atan(" + a + "))";
        default: return "((float) Math.floor(" + a + "))";
      }
    }
    switch (r.nextInt(10)) {
      case 0: return "Math.abs(" + a + ")";
      case 1: return "Math.max(" + a + ", " + of(t, d) + ")";
      case 2: return "Math.min(" + a + ", " + of(t, d) + ")";
      case 3: return "Math.sqrt(Math.abs(" + a + "))";
      case 4: return "Math.exp(Math.min(" + a + ", 10.0))";
      case 5: return "Math.tanh(" + a + ")";
      case 6: return "Math.atan2(" + a + ", " + of(t, d) + ")";
      case 7: return "Math.hypot(" + a + ", " + of(t, d) + ")";
      case 8: return "Math.cbrt(" + a + ")";
      default: return "Math.rint(" + a + ")";
    }
  }

  /** A call of an earlier elementwise operator of the class, converted to {@code t}. */
  private String callOperator(FuzzType t, int d) {
    List<OperatorSpec.Elementwise> fit = callable.stream().filter(op -> op.result() != FuzzType.BOOLEAN).toList();
    if (fit.isEmpty()) {
      return leaf(t);
    }
    OperatorSpec.Elementwise op = fit.get(r.nextInt(fit.size()));
    List<String> args = new ArrayList<>();
    for (FuzzType p : op.paramTypes()) {
      args.add(of(p, Math.min(d, 2)));
    }
    String call = op.name() + "(" + String.join(", ", args) + ")";
    return op.result() == t ? call : "((" + t.javaName() + ") " + call + ")";
  }

  /** An int or long expression. */
  private String integral(FuzzType t, int depth) {
    if (depth <= 0 || r.nextInt(4) == 0) {
      return leaf(t);
    }
    int d = depth - 1;
    switch (r.nextInt(11)) {
      case 10: {
        // a guarded division by a variable: the kernel must not divide where the guard says not to
        String divisor = leaf(t);
        return "(" + divisor + " != 0 ? " + integral(t, d) + " " + pick("/", "%") + " " + divisor + " : " + integral(t, d) + ")";
      }
      case 0:
      case 1:
        return "(" + integral(t, d) + " " + pick("+", "-", "*") + " " + integral(t, d) + ")";
      case 2:
        return "(" + integral(t, d) + " " + pick("/", "%") + " " + pick("1", "2", "3", "7", "(-3)") + ")";
      case 3:
        return pick("Math.abs(", "(-") + integral(t, d) + ")";
      case 4:
        return "Math." + pick("max", "min") + "(" + integral(t, d) + ", " + integral(t, d) + ")";
      case 5:
        return "(" + condition(d) + " ? " + integral(t, d) + " : " + integral(t, d) + ")";
      case 6:
        return "((" + t.javaName() + ") " + of(r.nextBoolean() ? FuzzType.FLOAT : FuzzType.DOUBLE, d) + ")";
      case 7:
        return callOperator(t, d);
      case 8:
        return "((" + t.javaName() + ") " + integral(t == FuzzType.INT ? FuzzType.LONG : FuzzType.INT, d) + ")";
      default:
        Read read = read(t);
        return read != null ? read.expression() : leaf(t);
    }
  }

  /** A boolean expression: comparisons, {@code && || !}, boolean variables. */
  String condition(int depth) {
    List<Scope.Var> bools = scope.ofType(FuzzType.BOOLEAN);
    if (!bools.isEmpty() && r.nextInt(5) == 0) {
      return bools.get(r.nextInt(bools.size())).name();
    }
    int d = Math.max(0, depth - 1);
    switch (depth <= 0 ? 0 : r.nextInt(7)) {
      case 1:
        return "(" + condition(d) + " && " + condition(d) + ")";
      case 2:
        return "(" + condition(d) + " || " + condition(d) + ")";
      case 3:
        return "(!" + condition(d) + ")";
      case 4: {
        Read read = read(null);
        if (read != null && read.guard() != null) {
          // the guard must protect the read, as && does in Java
          return "(" + read.guard() + " && " + read.access() + " " + pick("<", ">", ">=") + " " + read.type().zero() + ")";
        }
        return comparison(d);
      }
      default:
        return comparison(d);
    }
  }

  private String comparison(int d) {
    FuzzType t = pick(FuzzType.FLOAT, FuzzType.DOUBLE, FuzzType.INT, FuzzType.LONG);
    String left = d > 0 ? of(t, Math.min(d, 2)) : variable(t);
    return "(" + left + " " + pick("<", "<=", ">", ">=", "==", "!=") + " " + of(t, Math.min(d, 2)) + ")";
  }

  /** A variable converted to {@code t}, preferring locals; a leaf when there is none. */
  private String variable(FuzzType t) {
    List<Scope.Var> numeric = scope.visible().stream().filter(v -> v.type().isNumeric()).toList();
    if (numeric.isEmpty()) {
      return literal(t);
    }
    List<Scope.Var> locals = numeric.stream().filter(Scope.Var::assignable).toList();
    Scope.Var v = pick(locals.isEmpty() || r.nextInt(3) == 0 ? numeric : locals);
    return v.type() == t ? v.name() : "((" + t.javaName() + ") " + v.name() + ")";
  }

  /** A variable, constant, literal or array read of type {@code t}. */
  String leaf(FuzzType t) {
    int choice = r.nextInt(12);
    if (choice < 5) {
      List<Scope.Var> same = scope.ofType(t);
      if (!same.isEmpty()) {
        return same.get(r.nextInt(same.size())).name();
      }
    } else if (choice < 8) {
      return variable(t);
    } else if (choice == 8) {
      List<Scope.Var> same = constants.stream().filter(c -> c.type() == t).toList();
      if (!same.isEmpty()) {
        return same.get(r.nextInt(same.size())).name();
      }
    } else if (choice == 9) {
      Read read = read(t);
      if (read != null) {
        return read.expression();
      }
    }
    return literal(t);
  }

  String literal(FuzzType t) {
    if (t == FuzzType.INT) {
      int roll = r.nextInt(20);
      int v = roll == 0 ? pick(Integer.MAX_VALUE, Integer.MIN_VALUE, 1 << 20) : r.nextInt(-8, 40);
      return v < 0 ? "(" + v + ")" : Integer.toString(v);
    }
    if (t == FuzzType.LONG) {
      int roll = r.nextInt(20);
      long v = roll == 0 ? pick(Long.MAX_VALUE, Long.MIN_VALUE + 1, 1L << 40, (1L << 53) - 1, 3_000_000_000L)
          : roll == 1 ? 9_007_199_791_611_905L // 2^53 + 2^29 + 1: (float) must round once, not through double
          : r.nextInt(-8, 40);
      return v < 0 ? "(" + v + "L)" : v + "L";
    }
    if (t == FuzzType.BOOLEAN) {
      return r.nextBoolean() ? "true" : "false";
    }
    double v;
    switch (r.nextInt(12)) {
      case 0: v = -0.0; break;
      case 1: v = pick(1e30, -3e-5, 65504.0, 1e-42); break;
      case 2: v = 0.1; break;
      default: v = r.nextInt(-24, 24) / 8.0; break;
    }
    String text;
    if (t == FuzzType.FLOAT) {
      text = (v == (int) v && !(v == 0 && 1 / v < 0) ? Integer.toString((int) v) : Float.toString((float) v)) + "f";
    } else {
      text = Double.toString(v);
    }
    return v < 0 || (v == 0 && 1 / v < 0) ? "(" + text + ")" : text;
  }

  /**
   * A read of a readable input array at an in-bounds index, converted to {@code t} (any element
   * type when {@code t} is null); null when no array can be read here.
   */
  Read read(FuzzType t) {
    List<OperatorSpec.Array> candidates = new ArrayList<>();
    for (OperatorSpec.Array a : scope.readable) {
      if (a.shape().stream().allMatch(e -> e.kind() == Extent.Kind.LITERAL || !scope.rangingOver(e.dim()).isEmpty())) {
        candidates.add(a);
      }
    }
    if (candidates.isEmpty()) {
      return null;
    }
    OperatorSpec.Array a = candidates.get(r.nextInt(candidates.size()));
    List<Extent> shape = a.shape();
    int neighbour = r.nextInt(4) == 0 ? r.nextInt(shape.size()) : -1;
    List<String> positions = new ArrayList<>();
    List<String> vars = new ArrayList<>();
    String guard = null;
    int offset = 0;
    for (int j = 0; j < shape.size(); j++) {
      Extent e = shape.get(j);
      if (e.kind() == Extent.Kind.LITERAL) {
        positions.add(Integer.toString(r.nextInt(e.literal())));
        vars.add(null);
        continue;
      }
      List<String> over = scope.rangingOver(e.dim());
      String v = over.get(r.nextInt(over.size()));
      vars.add(v);
      switch (e.kind()) {
        case DIM:
          if (j == neighbour) {
            offset = r.nextBoolean() ? -1 : 1;
            guard = offset < 0 ? "(" + v + " > 0)" : "(" + v + " < " + e.dim() + " - 1)";
            positions.add("(" + v + (offset < 0 ? " - 1)" : " + 1)"));
          } else {
            positions.add(v);
          }
          break;
        case HALO: {
          int c = r.nextInt(3);
          positions.add(c == 0 ? v : r.nextBoolean() ? "(" + v + " + " + c + ")" : "(" + c + " + " + v + ")");
          break;
        }
        default:
          positions.add(pick(v, "(" + e.dim() + " + " + v + ")", "(2 * " + v + ")", "(2 * " + v + " + 1)"));
          break;
      }
    }
    String index = rowIndex(a, vars, offset, neighbour);
    if (index == null) {
      index = IndexBuilder.flat(shape, positions, r.nextBoolean());
    }
    String access = a.name() + "[" + index + "]";
    if (t != null && t != a.element()) {
      access = "((" + t.javaName() + ") " + access + ")";
      return new Read(guard, access, t);
    }
    return new Read(guard, access, a.element());
  }

  /** The index through the worker's row-major local {@code p}, where it names this element. */
  private String rowIndex(OperatorSpec.Array a, List<String> vars, int offset, int neighbour) {
    if (scope.rowLocal == null || r.nextBoolean() || a.shape().size() != scope.rowDims.size()) {
      return null;
    }
    for (int j = 0; j < a.shape().size(); j++) {
      Extent e = a.shape().get(j);
      if (e.kind() != Extent.Kind.DIM || !e.dim().equals(scope.rowDims.get(j)) || !scope.rowVars.get(j).equals(vars.get(j))) {
        return null;
      }
    }
    if (offset == 0) {
      return scope.rowLocal;
    }
    return scope.rowLocal + (offset < 0 ? " - " : " + ") + IndexBuilder.stride(a.shape(), neighbour);
  }

  @SafeVarargs
  private <T> T pick(T... options) {
    return Picks.one(r, options);
  }

  private <T> T pick(List<T> options) {
    return Picks.one(r, options);
  }
}
