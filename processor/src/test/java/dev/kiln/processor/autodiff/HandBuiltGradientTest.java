package dev.kiln.processor.autodiff;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.UnaryOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The autodiff stage on IR built by hand, with no javac source and no front end: derived gradients
 * of elementwise and grid operators are run by a small double-precision evaluator of the IR (below)
 * and compared with the exact derivative or with central differences of the operator itself, so a
 * wrong chain rule, adjoint, gather, name or signature fails here on its own.
 */
class HandBuiltGradientTest {
  private static final double H = 1e-5;
  private static final Shape N_SHAPE = new Shape("N", List.of(Poly.symbol("N")));

  private final ExprFactory f = new ExprFactory();
  private final Param.Scalar n = new Param.Scalar("N", 0, ScalarType.INT, true);

  @Test
  void aMapsGradientsMatchFiniteDifferences() {
    // f(x, y) = x * (y - x) - 3 * y: one gradient per floating parameter, each dy * df/dp
    Param.Scalar x = scalar("x", 0, ScalarType.FLOAT);
    Param.Scalar y = scalar("y", 1, ScalarType.FLOAT);
    Expr body = f.binary(BinaryOp.SUB, mul(f.scalar(x), f.binary(BinaryOp.SUB, f.scalar(y), f.scalar(x), -1)),
        mul(f.constant(ScalarType.FLOAT, 3), f.scalar(y)), -1);
    OperatorIr.Elementwise map = map("f", List.of(x, y), ScalarType.FLOAT, body);
    List<OperatorIr.Elementwise> grads = ElementwiseGradient.derive(map);
    assertThat(grads.stream().map(OperatorIr::name).toList()).containsExactly("fGrad_x", "fGrad_y").inOrder();
    assertThat(ElementwiseGradient.name(map, y)).isEqualTo("fGrad_y");
    // the forward value's parameter is renamed away from the operand y
    assertThat(names(grads.get(0).params())).containsExactly("x", "y", "y_", "dy").inOrder();
    for (double[] p : new double[][] {{0.5, -1.25}, {2, 3}, {-1.5, 0.25}}) {
      double fxy = scalars("x", p[0], "y", p[1]).eval(body);
      for (int k = 0; k < 2; k++) {
        int wrt = k;
        double slope = derivative(v -> scalars("x", wrt == 0 ? v : p[0], "y", wrt == 1 ? v : p[1]).eval(body), p[k]);
        double grad = scalars("x", p[0], "y", p[1], "y_", fxy, "dy", 0.75).eval(grads.get(k).result());
        assertEquals(0.75 * slope, grad, 1e-6, grads.get(k).name() + " at " + p[0] + ", " + p[1]);
      }
    }
  }

  @Test
  void aOneParameterMapsGradientReadsTheForwardValue() {
    // g(x) = exp(x * x): g' = 2x * exp(x * x), which the gradient reads from y instead of recomputing
    Param.Scalar x = scalar("x", 0, ScalarType.DOUBLE);
    Expr body = f.call(MathFn.EXP, ScalarType.DOUBLE, List.of(mul(f.scalar(x), f.scalar(x))));
    List<OperatorIr.Elementwise> grads = ElementwiseGradient.derive(map("g", List.of(x), ScalarType.DOUBLE, body));
    assertThat(grads).hasSize(1);
    OperatorIr.Elementwise grad = grads.get(0);
    assertThat(grad.name()).isEqualTo("gGrad");
    assertThat(names(grad.params())).containsExactly("x", "y", "dy").inOrder();
    assertThat(grad.resultType()).isEqualTo(ScalarType.DOUBLE);
    assertThat(refersTo(grad.result(), "y")).isTrue();
    assertThat(refersTo(grad.result(), "exp")).isFalse();
    for (double v : new double[] {-0.8, 0.0, 0.3, 1.1}) {
      double got = scalars("x", v, "y", Math.exp(v * v), "dy", -1.5).eval(grad.result());
      assertEquals(-1.5 * 2 * v * Math.exp(v * v), got, 1e-9, "gGrad at x = " + v);
    }
  }

  @Test
  void onlyMapsWithAFloatingParameterHaveAGradient() {
    Param.Scalar i = scalar("i", 0, ScalarType.INT);
    Param.Scalar j = scalar("j", 1, ScalarType.INT);
    Param.Scalar x = scalar("x", 0, ScalarType.FLOAT);
    Expr half = mul(f.cast(ScalarType.FLOAT, f.scalar(i)), f.constant(ScalarType.FLOAT, 0.5));
    Expr sum = f.binary(BinaryOp.ADD, f.scalar(i), f.scalar(j), -1);
    assertThat(ElementwiseGradient.applies(map("sum", List.of(i, j), ScalarType.INT, sum))).isFalse();
    assertThat(ElementwiseGradient.applies(map("half", List.of(i), ScalarType.FLOAT, half))).isFalse();
    assertThat(ElementwiseGradient.applies(scale())).isFalse();
    assertThat(ElementwiseGradient.applies(map("sq", List.of(x), ScalarType.FLOAT, mul(f.scalar(x), f.scalar(x)))))
        .isTrue();
  }

  @Test
  void aScaledCopysGradientIsTheUpstreamGradientScaled() throws NotDifferentiable {
    CompositeIr grad = GridGradient.derive(scale());
    assertThat(grad.name()).isEqualTo("scaleGrad");
    // the forward parameters (the output now read), the upstream gradient dy, then dx
    assertThat(grad.signature().params().stream().map(HandBuiltGradientTest::describe).toList())
        .containsExactly("N dim", "a f32", "x in", "y in", "dy in", "dx out").inOrder();
    double[] dy = {0.5, -2, 3.25, 1};
    Map<String, double[]> arrays = new HashMap<>(Map.of("x", new double[] {1, 2, 3, 4}, "y", new double[4],
        "dy", dy.clone(), "dx", new double[] {9, 9, 9, 9}));
    run(grad, Map.of("N", 4.0, "a", -1.5), arrays);
    for (int k = 0; k < dy.length; k++) {
      assertEquals(-1.5 * dy[k], arrays.get("dx")[k], 1e-12, "dx[" + k + "]");
    }
    assertThat(arrays.get("dy")).isEqualTo(dy);
  }

  @Test
  void aGatheredGridGradientMatchesFiniteDifferences() throws NotDifferentiable {
    // y[i] = x[i] * x[N - 1 - i]: two reads of x per worker, so each dx[k] gathers two adjoints
    Param.Array x = array("x", 1, ScalarType.FLOAT, ArrayRole.IN);
    OperatorIr.Grid op = grid("mirror", x, array("y", 2, ScalarType.FLOAT, ArrayRole.OUT), List.of(), i -> {
      Expr last = f.binary(BinaryOp.SUB, f.scalar(n), f.integral(ScalarType.INT, 1), -1);
      return mul(load(x, i), load(x, f.binary(BinaryOp.SUB, last, i, -1)));
    });
    double[] x0 = {0.5, -1, 2, 1.5, -0.25};
    double[] dy = {1, -0.5, 2, 0.75, 3};
    Map<String, Double> sizes = Map.of("N", (double) x0.length);
    Map<String, double[]> arrays = new HashMap<>(Map.of("x", x0.clone(), "y", new double[x0.length], "dy", dy,
        "dx", new double[x0.length]));
    run(GridGradient.derive(op), sizes, arrays);
    for (int k = 0; k < x0.length; k++) {
      int at = k;
      double slope = derivative(v -> {
        double[] xs = x0.clone();
        xs[at] = v;
        Map<String, double[]> forward = new HashMap<>(Map.of("x", xs, "y", new double[xs.length]));
        run(op, sizes, forward);
        double loss = 0;
        for (int m = 0; m < xs.length; m++) {
          loss += dy[m] * forward.get("y")[m];
        }
        return loss;
      }, x0[k]);
      assertEquals(slope, arrays.get("dx")[k], 1e-6, "dx[" + k + "]");
    }
  }

  @Test
  void onlyGridsFromAFloatingInputToAFloatingOutputHaveAGradient() {
    assertThat(GridGradient.applies(convert(ScalarType.INT, ScalarType.INT))).isFalse();
    assertThat(GridGradient.applies(convert(ScalarType.INT, ScalarType.FLOAT))).isFalse();
    assertThat(GridGradient.applies(convert(ScalarType.FLOAT, ScalarType.INT))).isFalse();
    assertThat(GridGradient.applies(convert(ScalarType.FLOAT, ScalarType.DOUBLE))).isTrue();
    Param.Scalar x = scalar("x", 0, ScalarType.FLOAT);
    assertThat(GridGradient.applies(map("id", List.of(x), ScalarType.FLOAT, f.scalar(x)))).isFalse();
  }

  /** {@code scale(@Dim int N, float a, float[N] x, @Out float[N] y)}: {@code y[i] = a * x[i]}. */
  private OperatorIr.Grid scale() {
    Param.Scalar a = scalar("a", 1, ScalarType.FLOAT);
    Param.Array x = array("x", 2, ScalarType.FLOAT, ArrayRole.IN);
    return grid("scale", x, array("y", 3, ScalarType.FLOAT, ArrayRole.OUT), List.of(a),
        i -> mul(f.scalar(a), load(x, i)));
  }

  /** {@code y[i] = (to) x[i]}, {@code x} an array of {@code from}. */
  private OperatorIr.Grid convert(ScalarType from, ScalarType to) {
    Param.Array x = array("x", 1, from, ArrayRole.IN);
    return grid("convert", x, array("y", 2, to, ArrayRole.OUT), List.of(), i -> f.cast(to, load(x, i)));
  }

  /** {@code name(N, scalars..., x, y)} storing {@code y[i] = value(i)} for each {@code i < N}. */
  private OperatorIr.Grid grid(String name, Param.Array x, Param.Array y, List<Param.Scalar> scalars,
      Function<Expr.Var, Expr> value) {
    Expr.Var i = f.newVar("i", ScalarType.INT, Expr.VarKind.GRID);
    List<Param> params = new ArrayList<>(List.of(n));
    params.addAll(scalars);
    params.addAll(List.of(x, y));
    return new OperatorIr.Grid("t.Ops", name, params, List.of(new GridDim(i, n)),
        List.of(new Stmt.Store(y, i, value.apply(i), f.trueValue(), null)));
  }

  private static OperatorIr.Elementwise map(String name, List<Param> params, ScalarType type, Expr result) {
    return new OperatorIr.Elementwise("t.Ops", name, params, type, result, Map.of());
  }

  private Expr load(Param.Array array, Expr index) {
    return f.load(array, index, f.trueValue(), 0);
  }

  private Expr mul(Expr a, Expr b) {
    return f.binary(BinaryOp.MUL, a, b, -1);
  }

  private static Param.Scalar scalar(String name, int position, ScalarType type) {
    return new Param.Scalar(name, position, type, false);
  }

  private static Param.Array array(String name, int position, ScalarType type, ArrayRole role) {
    return new Param.Array(name, position, type, N_SHAPE, role);
  }

  private static List<String> names(List<Param> params) {
    return params.stream().map(Param::name).toList();
  }

  private static String describe(Param p) {
    return p instanceof Param.Array a ? a.name() + " " + a.role().text()
        : p.name() + " " + (((Param.Scalar) p).dim() ? "dim" : ((Param.Scalar) p).type().irName());
  }

  private static double derivative(DoubleUnaryOperator g, double at) {
    return (g.applyAsDouble(at + H) - g.applyAsDouble(at - H)) / (2 * H);
  }

  /** Whether {@code e} reads the scalar parameter {@code name}, or calls the function so named. */
  private static boolean refersTo(Expr e, String name) {
    return (e instanceof Expr.ScalarRef s && s.param().name().equals(name))
        || (e instanceof Expr.Call c && c.fn().name().equalsIgnoreCase(name))
        || e.operands().stream().anyMatch(o -> refersTo(o, name));
  }

  /** An environment of scalar parameters only, from alternating names and values. */
  private static Env scalars(Object... nameValue) {
    Map<String, Double> s = new HashMap<>();
    for (int k = 0; k < nameValue.length; k += 2) {
      s.put((String) nameValue[k], (Double) nameValue[k + 1]);
    }
    return new Env(s, Map.of(), Map.of());
  }

  /** Values for an expression's leaves; it evaluates in double precision, booleans as 0 and 1. */
  private record Env(Map<String, Double> scalars, Map<String, double[]> arrays, Map<Expr, Double> vars) {
    double eval(Expr e) {
      if (e instanceof Expr.Const c) {
        return c.floatingValue();
      } else if (e instanceof Expr.ScalarRef s) {
        return scalars.get(s.param().name());
      } else if (e instanceof Expr.Var v) {
        return vars.get(v);
      } else if (e instanceof Expr.Load l) {
        return eval(l.guard()) != 0 ? arrays.get(l.array().name())[(int) eval(l.index())] : 0;
      } else if (e instanceof Expr.Unary u && u.op() == UnaryOp.NEG) {
        return -eval(u.operand());
      } else if (e instanceof Expr.Binary b) {
        double l = eval(b.left());
        double r = eval(b.right());
        return switch (b.op()) {
          case ADD -> l + r;
          case SUB -> l - r;
          case MUL -> l * r;
          case LT -> l < r ? 1 : 0;
          case GE -> l >= r ? 1 : 0;
          case LAND -> l != 0 && r != 0 ? 1 : 0;
          default -> throw new AssertionError("the test evaluator has no rule for " + b.op());
        };
      } else if (e instanceof Expr.Select s) {
        return eval(s.cond()) != 0 ? eval(s.ifTrue()) : eval(s.ifFalse());
      } else if (e instanceof Expr.Cast c) {
        return c.type().isIntegral() ? (long) eval(c.operand()) : eval(c.operand());
      } else if (e instanceof Expr.Call c && c.fn() == MathFn.EXP) {
        return Math.exp(eval(c.args().get(0)));
      }
      throw new AssertionError("the test evaluator has no rule for " + e.getClass().getSimpleName());
    }
  }

  /** Runs each call of {@code c} in order over its arrays, its temporaries zero-filled. */
  private static void run(CompositeIr c, Map<String, Double> scalars, Map<String, double[]> arrays) {
    c.temps().forEach(t -> arrays.put(t.name(), new double[size(t.length(), scalars)]));
    for (CompositeIr.Call call : c.calls()) {
      Map<String, Double> s = new HashMap<>();
      Map<String, double[]> a = new HashMap<>();
      for (int k = 0; k < call.callee().params().size(); k++) {
        String name = call.callee().params().get(k).name();
        CompositeIr.Arg arg = call.args().get(k);
        if (arg instanceof CompositeIr.Arg.Tensor t) {
          a.put(name, arrays.get(t.name()));
        } else if (arg instanceof CompositeIr.Arg.Size z) {
          s.put(name, (double) size(z.value(), scalars));
        } else if (arg instanceof CompositeIr.Arg.Value v) {
          s.put(name, v.param() == null ? v.literal() : scalars.get(v.param().name()));
        }
      }
      run(call.callee(), s, a);
    }
  }

  /** Runs each worker of a one-loop grid in turn (a race-free grid gives the same result in any order). */
  private static void run(OperatorIr.Grid op, Map<String, Double> scalars, Map<String, double[]> arrays) {
    assertThat(op.grid()).hasSize(1);
    for (int w = 0; w < size(op.grid().get(0).size(), scalars); w++) {
      Env env = new Env(scalars, arrays, Map.of(op.grid().get(0).var(), (double) w));
      for (Stmt s : op.body()) {
        if (!(s instanceof Stmt.Store st)) {
          throw new AssertionError("the test evaluator has no rule for " + s);
        } else if (env.eval(st.guard()) != 0) {
          arrays.get(st.array().name())[(int) env.eval(st.index())] = env.eval(st.value());
        }
      }
    }
  }

  /** The value of a size polynomial at the {@code @Dim}s in {@code scalars}. */
  private static int size(Poly p, Map<String, Double> scalars) {
    return (int) p.terms().entrySet().stream().mapToDouble(
        t -> t.getValue() * t.getKey().stream().mapToDouble(scalars::get).reduce(1, (u, v) -> u * v)).sum();
  }
}
