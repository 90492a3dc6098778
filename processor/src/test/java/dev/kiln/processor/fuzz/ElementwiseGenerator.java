package dev.kiln.processor.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates one elementwise operator: 1 to 5 scalar parameters (float, double, int, sometimes
 * long or boolean; some named like the variables of Kiln's map launchers: {@code out}, {@code n}, {@code i},
 * {@code lo}, {@code chunk}), a float, double, int, long or boolean result, and a body of local
 * declarations, assignments, compound assignments with implicit narrowing ({@code int k += 1.5f *
 * x}), {@code ++}/{@code --}, nested {@code if}/{@code else}, early {@code return}s inside {@code
 * if}s (some guarding an int division by a variable) and a final {@code return} (or {@code if}/{@code else} returning on both branches), over
 * {@link ExpressionGenerator} expressions that may call the operators generated before it.
 */
final class ElementwiseGenerator {
  private static final String[] PARAM_NAMES = {
    "x", "y", "a", "b", "s", "lo", "hi", "n", "i", "out", "chunk", "t", "e", "alpha", "beta", "k"
  };

  record Result(OperatorSpec.Elementwise spec, String source) {}

  private final SplittableRandom r;
  private final Scope scope = new Scope();
  private final ExpressionGenerator expr;
  private final SourceWriter w = new SourceWriter(1);
  private FuzzType result;

  private ElementwiseGenerator(SplittableRandom r, List<OperatorSpec.Elementwise> callable, List<Scope.Var> constants) {
    this.r = r;
    this.expr = new ExpressionGenerator(r, scope, callable, constants);
    constants.forEach(c -> scope.reserve(c.name()));
    callable.forEach(c -> scope.reserve(c.name()));
  }

  static Result generate(SplittableRandom r, String name, List<OperatorSpec.Elementwise> callable, List<Scope.Var> constants) {
    return new ElementwiseGenerator(r, callable, constants).operator(name);
  }

  private Result operator(String name) {
    scope.reserve(name);
    result = weighted(FuzzType.FLOAT, 10, FuzzType.DOUBLE, 5, FuzzType.INT, 3, FuzzType.LONG, 1, FuzzType.BOOLEAN, 1);
    int arity = 1 + r.nextInt(r.nextInt(8) == 0 ? 5 : 3);
    List<String> names = new ArrayList<>();
    List<FuzzType> types = new ArrayList<>();
    List<String> decls = new ArrayList<>();
    for (int k = 0; k < arity; k++) {
      FuzzType t = weighted(FuzzType.FLOAT, 10, FuzzType.DOUBLE, 4, FuzzType.INT, 4, FuzzType.LONG, 1, FuzzType.BOOLEAN, 1);
      String p = scope.fresh(r, PARAM_NAMES);
      scope.declare(new Scope.Var(p, t, false, null));
      names.add(p);
      types.add(t);
      decls.add(t.javaName() + " " + p);
    }
    w.line("@Operator");
    w.open("public static " + result.javaName() + " " + name + "(" + String.join(", ", decls) + ")");
    w.line("/*@E:" + name + "*/");
    block(0, r.nextInt(5));
    finalReturn();
    w.close();
    return new Result(new OperatorSpec.Elementwise(name, result, names, types), w.toString());
  }

  private void block(int nesting, int count) {
    for (int s = 0; s < count; s++) {
      if (r.nextInt(8) == 0) {
        division();
        continue;
      }
      switch (r.nextInt(nesting < 2 ? 9 : 7)) {
        case 0:
        case 1:
        case 2:
          declare();
          break;
        case 3:
          assign();
          break;
        case 4:
          compound();
          break;
        case 5:
          earlyReturn(nesting);
          break;
        case 6:
          increment();
          break;
        default:
          ifElse(nesting);
          break;
      }
    }
  }

  private void declare() {
    FuzzType t = r.nextBoolean() ? result : weighted(FuzzType.FLOAT, 4, FuzzType.DOUBLE, 2, FuzzType.INT, 2, FuzzType.LONG, 1, FuzzType.BOOLEAN, 1);
    String value = expr.of(t, 1 + r.nextInt(4));
    String name = scope.fresh(r);
    w.line(t.javaName() + " " + name + " = " + value + ";");
    scope.declare(new Scope.Var(name, t, true, null));
  }

  private void assign() {
    List<Scope.Var> locals = scope.assignable();
    if (locals.isEmpty()) {
      declare();
      return;
    }
    Scope.Var v = locals.get(r.nextInt(locals.size()));
    w.line(v.name() + " = " + expr.of(v.type(), 1 + r.nextInt(4)) + ";");
  }

  /** {@code v op= e}, with Java's implicit narrowing when {@code e} is wider than {@code v}. */
  private void compound() {
    List<Scope.Var> locals = scope.assignable().stream().filter(v -> v.type().isNumeric()).toList();
    if (locals.isEmpty()) {
      declare();
      return;
    }
    Scope.Var v = locals.get(r.nextInt(locals.size()));
    FuzzType t = r.nextInt(3) == 0 ? weighted(FuzzType.FLOAT, 1, FuzzType.DOUBLE, 1, FuzzType.INT, 1, FuzzType.LONG, 1) : v.type();
    boolean integral = v.type().isIntegral() && t.isIntegral();
    String op = integral ? pick("+=", "-=", "*=") : pick("+=", "-=", "*=", "/=");
    if (integral && r.nextInt(4) == 0) {
      w.line(v.name() + " " + pick("/=", "%=") + " " + pick("2", "5", "(-7)") + ";");
      return;
    }
    w.line(v.name() + " " + op + " " + expr.of(t, 1 + r.nextInt(3)) + ";");
  }

  /**
   * An int division by a variable guarded by an early return, or the same guarded division twice
   * (the kernel must not divide where the source does not).
   */
  private void division() {
    List<Scope.Var> ints = scope.ofType(FuzzType.INT);
    if (ints.isEmpty()) {
      declare();
      return;
    }
    String v = Picks.one(r, ints).name();
    String q = scope.fresh(r);
    if (r.nextBoolean()) {
      w.line("if (" + v + " == 0) return " + expr.of(result, 2) + ";");
      w.line("int " + q + " = " + expr.of(FuzzType.INT, 2) + " / " + v + ";");
    } else {
      String dividend = expr.of(FuzzType.INT, 1);
      String q2 = scope.fresh(r);
      w.line("int " + q + " = " + v + " != 0 ? " + dividend + " / " + v + " : 0;");
      w.line("int " + q2 + " = " + v + " != 0 ? " + dividend + " / " + v + " : 1;");
      scope.declare(new Scope.Var(q2, FuzzType.INT, true, null));
    }
    scope.declare(new Scope.Var(q, FuzzType.INT, true, null));
  }

  private void increment() {
    List<Scope.Var> locals = scope.assignable().stream().filter(v -> v.type().isNumeric()).toList();
    if (locals.isEmpty()) {
      declare();
      return;
    }
    String v = locals.get(r.nextInt(locals.size())).name();
    w.line(pick(v + "++;", v + "--;", "++" + v + ";", "--" + v + ";"));
  }

  private void ifElse(int nesting) {
    w.open("if (" + expr.condition(2) + ")");
    scope.push();
    block(nesting + 1, 1 + r.nextInt(3));
    scope.pop();
    if (r.nextBoolean()) {
      w.close("} else {");
      scope.push();
      block(nesting + 1, 1 + r.nextInt(3));
      scope.pop();
    }
    w.close();
  }

  private void earlyReturn(int nesting) {
    String cond = expr.condition(2);
    if (r.nextBoolean()) {
      w.line("if (" + cond + ") return " + expr.of(result, 1 + r.nextInt(4)) + ";");
      return;
    }
    w.open("if (" + cond + ")");
    scope.push();
    block(Math.max(nesting + 1, 2), r.nextInt(2));
    w.line("return " + expr.of(result, 1 + r.nextInt(4)) + ";");
    scope.pop();
    w.close();
  }

  private void finalReturn() {
    if (r.nextInt(6) > 0) {
      w.line("return " + expr.of(result, 2 + r.nextInt(4)) + ";");
      return;
    }
    w.open("if (" + expr.condition(2) + ")");
    scope.push();
    block(2, r.nextInt(2));
    w.line("return " + expr.of(result, 1 + r.nextInt(4)) + ";");
    scope.pop();
    w.close("} else {");
    scope.push();
    block(2, r.nextInt(2));
    w.line("return " + expr.of(result, 1 + r.nextInt(4)) + ";");
    scope.pop();
    w.close();
  }

  private FuzzType weighted(Object... typesAndWeights) {
    return Picks.weighted(r, typesAndWeights);
  }

  @SafeVarargs
  private <T> T pick(T... options) {
    return Picks.one(r, options);
  }
}
