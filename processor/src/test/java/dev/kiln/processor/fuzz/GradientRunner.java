package dev.kiln.processor.fuzz;

import dev.kiln.testing.Loss;
import dev.kiln.testing.Precision;
import dev.kiln.testing.Probe;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Checks the derived gradients of one compiled generated class against central differences of the
 * operators' plain Java (see {@link GradientFuzzTest} for what is checked and why the tolerances).
 * Problems are collected; {@link Stats} counts what was checked, rejected and refused.
 */
final class GradientRunner {
  /** Grid operators: draws of inputs tried before giving up (not a failure: counted unchecked). */
  static final int GRID_DRAWS = 6;
  /** From this draw on, floating input arrays are positive (for operators defined only there). */
  static final int POSITIVE_FROM = 3;
  /** Single elements checked per input array after the directional check. */
  static final int SINGLES = 3;
  /** Elementwise operators: points checked per gradient, and attempts to find them. */
  static final int POINTS = 5;
  static final int ATTEMPTS = 20;
  static final int MAP_LENGTH = 13;

  /** Replace every gradient under test by a finite-difference stand-in (calibration only). */
  static final boolean FD_STAND_IN = Boolean.getBoolean("kiln.gradfuzz.fdStandIn");

  /**
   * A non-finite gradient element where L is smooth is counted, not a failure, unless {@code
   * -Dkiln.gradfuzz.nonFinite=fail}: it is the 0 * inf of a reverse sweep through an infinite local
   * derivative inside a finite output ({@code tanh(x / 0f)}: its gradient is NaN, as in JAX and
   * PyTorch), which Kiln accepts and documents. Masked adjoints (branches not taken, reads out of
   * range) do not produce it.
   */
  static final boolean COUNT_NON_FINITE = !"fail".equals(System.getProperty("kiln.gradfuzz.nonFinite"));

  /** Counters over a whole run, printed at its end. */
  static final class Stats {
    int gridChecked;
    int gridUnchecked;
    int elementwiseChecked;
    int elementwiseUnchecked;
    int refused;
    int probes;
    int nonFinite;
    double worstPassingRatio;
    final Map<String, Integer> refusals = new LinkedHashMap<>();
    final Map<String, Integer> rejections = new LinkedHashMap<>();
    final double[] ratioBuckets = new double[6]; // <1e-4, <1e-3, <1e-2, <1e-1, <1, >=1

    synchronized void ratio(double r) {
      probes++;
      if (r <= 1) {
        worstPassingRatio = Math.max(worstPassingRatio, r);
      }
      int b = r < 1e-4 ? 0 : r < 1e-3 ? 1 : r < 1e-2 ? 2 : r < 1e-1 ? 3 : r <= 1 ? 4 : 5;
      ratioBuckets[b]++;
    }

    synchronized void reject(String why) {
      String key = why.replaceAll("[-0-9.e]+", "#").replaceAll("\\[#\\]", "[]");
      key = key.length() > 90 ? key.substring(0, 90) : key;
      rejections.merge(key, 1, Integer::sum);
    }

    @Override
    public synchronized String toString() {
      return String.format("grid gradients checked %d, unchecked (every draw rejected) %d; elementwise gradients checked %d,"
              + " unchecked %d; refused with KILN043 %d; non-finite where L is smooth (counted) %d; probes %d, |fd - predicted|/tolerance histogram"
              + " [<1e-4, <1e-3, <1e-2, <1e-1, <=1, >1] %s, worst passing %.3g%n  refusals: %s%n  rejections: %s",
          gridChecked, gridUnchecked, elementwiseChecked, elementwiseUnchecked, refused, nonFinite, probes,
          Arrays.toString(ratioBuckets), worstPassingRatio, refusals, rejections);
    }
  }

  static final Stats STATS = new Stats();

  private final Class<?> ops;
  private final Class<?> kernels;
  private final String source;
  private final List<OperatorSpec> all;
  private final SplittableRandom r;
  private final List<String> problems = new ArrayList<>();

  GradientRunner(Class<?> ops, Class<?> kernels, String source, List<OperatorSpec> all, long seed) {
    this.ops = ops;
    this.kernels = kernels;
    this.source = source;
    this.all = all;
    this.r = new SplittableRandom(seed ^ 0x6A09E667F3BCC908L);
  }

  /** Whether Kiln has anything to differentiate in {@code op} (so it owes a gradient or a KILN043 note). */
  static boolean differentiable(OperatorSpec op) {
    if (op instanceof OperatorSpec.Elementwise e) {
      return e.result().isFloating() && e.paramTypes().stream().anyMatch(FuzzType::isFloating);
    }
    OperatorSpec.Grid g = (OperatorSpec.Grid) op;
    boolean in = false;
    boolean out = false;
    for (OperatorSpec.Param p : g.params()) {
      if (p instanceof OperatorSpec.Array a && a.element().isFloating()) {
        in |= a.role() == OperatorSpec.Role.IN;
        out |= a.role() != OperatorSpec.Role.IN;
      }
    }
    return in && out;
  }

  /** The names of the gradient launchers of a differentiable operator. */
  static List<String> gradientNames(OperatorSpec op) {
    if (op instanceof OperatorSpec.Elementwise e) {
      List<String> floating = new ArrayList<>();
      for (int k = 0; k < e.paramTypes().size(); k++) {
        if (e.paramTypes().get(k).isFloating()) {
          floating.add(e.paramNames().get(k));
        }
      }
      if (floating.size() == 1) {
        return List.of(e.name() + "Grad");
      }
      return floating.stream().map(p -> e.name() + "Grad_" + p).toList();
    }
    return List.of(op.name() + "Grad");
  }

  /** Checks the gradient(s) of {@code op}, which the kernels class must have; returns the problems so far. */
  List<String> check(OperatorSpec op) throws Exception {
    if (op == null) {
      return problems;
    }
    Precision precision = precision(op);
    if (op instanceof OperatorSpec.Elementwise e) {
      elementwise(e, precision);
    } else {
      grid((OperatorSpec.Grid) op, precision);
    }
    return problems;
  }

  // ---- precision ----

  /** FLOAT when the operator's text or that of an operator it calls (transitively) says float. */
  private Precision precision(OperatorSpec op) {
    List<String> todo = new ArrayList<>(List.of(op.name()));
    List<String> seen = new ArrayList<>();
    while (!todo.isEmpty()) {
      String name = todo.remove(todo.size() - 1);
      if (seen.contains(name)) {
        continue;
      }
      seen.add(name);
      String text = methodText(source, name);
      if (text.contains("float")) {
        return Precision.FLOAT;
      }
      for (OperatorSpec other : all) {
        if (other instanceof OperatorSpec.Elementwise && text.matches("(?s).*\\b" + other.name() + "\\(.*")) {
          todo.add(other.name());
        }
      }
    }
    return Precision.DOUBLE;
  }

  /** The text of method {@code name} in a generated class (from its signature to its closing brace). */
  static String methodText(String source, String name) {
    int start = source.indexOf(" " + name + "(");
    while (start >= 0 && !source.substring(source.lastIndexOf('\n', start) + 1, start).startsWith("  public static")) {
      start = source.indexOf(" " + name + "(", start + 1);
    }
    if (start < 0) {
      throw new IllegalStateException("no method " + name);
    }
    int end = source.indexOf("\n  }\n", start);
    return source.substring(source.lastIndexOf('\n', start) + 1, end + 4);
  }

  // ---- elementwise ----

  private void elementwise(OperatorSpec.Elementwise op, Precision precision) throws Exception {
    List<FuzzType> types = op.paramTypes();
    Class<?>[] prim = types.stream().map(FuzzType::primitive).toArray(Class<?>[]::new);
    Method f = ops.getMethod(op.name(), prim);
    Class<?>[] gradTypes = Arrays.copyOf(prim, prim.length + 2);
    gradTypes[prim.length] = op.result().primitive();
    gradTypes[prim.length + 1] = op.result().primitive();
    List<String> names = gradientNames(op);
    int k = 0;
    for (int p = 0; p < types.size(); p++) {
      if (!types.get(p).isFloating()) {
        continue;
      }
      String gname = names.get(k++);
      Method g;
      try {
        g = kernels.getMethod(gname, gradTypes);
      } catch (NoSuchMethodException e) {
        problems.add(gname + Arrays.toString(gradTypes).replace("class ", "") + " is missing (" + op.name() + " got no KILN043 note)");
        continue;
      }
      if (g.getReturnType() != prim[p]) {
        problems.add(gname + " returns " + g.getReturnType() + ", expected " + prim[p]);
        continue;
      }
      elementwiseScalar(op, f, g, gname, p, precision);
      if (op.mappable()) {
        elementwiseMap(op, f, g, gname, p);
      }
    }
  }

  private void elementwiseScalar(OperatorSpec.Elementwise op, Method f, Method g, String gname, int p, Precision precision)
      throws Exception {
    int checked = 0;
    for (int attempt = 0; attempt < ATTEMPTS && checked < POINTS; attempt++) {
      boolean positive = attempt >= ATTEMPTS / 2;
      Object[] args = new Object[op.paramTypes().size()];
      for (int i = 0; i < args.length; i++) {
        args[i] = operand(op.paramTypes().get(i), positive);
      }
      Object y = invoke(f, args);
      if (y == null || !Double.isFinite(((Number) y).doubleValue())) {
        STATS.reject("f is not finite");
        continue;
      }
      double dyValue = r.nextDouble(-1, 1);
      Object dy = op.result() == FuzzType.FLOAT ? (Object) (float) dyValue : (Object) dyValue;
      dyValue = ((Number) dy).doubleValue();
      Object[] call = Arrays.copyOf(args, args.length + 2);
      call[args.length] = y;
      call[args.length + 1] = dy;
      Object grad = invokeKernel(g, call.clone());
      if (grad == null) {
        problems.add(gname + Arrays.toString(call) + " threw " + lastThrown);
        return;
      }
      Object x = Values.array(r, op.paramTypes().get(p), 1, 0);
      java.lang.reflect.Array.set(x, 0, args[p]);
      final double dyv = dyValue;
      Loss loss = a -> {
        Object[] at = args.clone();
        at[p] = java.lang.reflect.Array.get(a, 0);
        Object v = f.invoke(null, at);
        return new double[] {dyv * ((Number) v).doubleValue()};
      };
      double[] gd = {((Number) grad).doubleValue()};
      if (FD_STAND_IN) {
        gd = standIn(loss, x, precision);
      }
      String what = gname + " at " + describe(call);
      String why = new Check(what, loss, x, gd, precision).run();
      if (why == null) {
        checked++;
      } else if (why.startsWith("!")) {
        problems.add(why.substring(1));
        return;
      } else {
        STATS.reject(why.substring(why.indexOf(": ") + 2));
      }
    }
    if (checked == 0) {
      STATS.elementwiseUnchecked++;
    } else {
      STATS.elementwiseChecked++;
    }
  }

  /** The map launcher {@code fGrad(p1[]..., y[], dy[], dx[])} agrees with the scalar one exactly. */
  private void elementwiseMap(OperatorSpec.Elementwise op, Method f, Method g, String gname, int p) throws Exception {
    int arity = op.paramTypes().size();
    Class<?>[] types = new Class<?>[arity + 3];
    Object[] args = new Object[arity + 3];
    int n = MAP_LENGTH;
    for (int i = 0; i < arity; i++) {
      FuzzType t = op.paramTypes().get(i);
      types[i] = t.array();
      Object a = Values.array(r, t, n, 0);
      for (int e = 0; e < n; e++) {
        java.lang.reflect.Array.set(a, e, operand(t, false));
      }
      args[i] = a;
    }
    types[arity] = op.result().array();
    types[arity + 1] = op.result().array();
    types[arity + 2] = op.paramTypes().get(p).array();
    Object y = Values.array(r, op.result(), n, 0);
    Object dy = Values.array(r, op.result(), n, 0);
    Object[][] points = new Object[n][];
    for (int e = 0; e < n; e++) {
      Object[] at = new Object[arity + 2];
      for (int i = 0; i < arity; i++) {
        at[i] = java.lang.reflect.Array.get(args[i], e);
      }
      Object v = invoke(f, Arrays.copyOf(at, arity));
      if (v == null) {
        return;
      }
      java.lang.reflect.Array.set(y, e, v);
      at[arity] = v;
      at[arity + 1] = java.lang.reflect.Array.get(dy, e);
      points[e] = at;
    }
    args[arity] = y;
    args[arity + 1] = dy;
    args[arity + 2] = Values.array(r, op.paramTypes().get(p), n, 0);
    Method map;
    try {
      map = kernels.getMethod(gname, types);
    } catch (NoSuchMethodException e) {
      problems.add("map launcher " + gname + Arrays.toString(types).replace("class ", "") + " is missing");
      return;
    }
    if (invokeKernel(map, args) == FAILED) {
      problems.add("map launcher " + gname + " threw " + lastThrown);
      return;
    }
    for (int e = 0; e < n; e++) {
      Object expected = invokeKernel(g, points[e]);
      Object actual = java.lang.reflect.Array.get(args[arity + 2], e);
      if (expected == null || !Values.sameBits(expected, actual)) {
        problems.add("map launcher " + gname + " at [" + e + "], arguments " + describe(points[e]) + ": scalar "
            + (expected == null ? "threw " + lastThrown : Values.describe(expected)) + ", map " + Values.describe(actual));
        return;
      }
    }
  }

  // ---- grid ----

  private void grid(OperatorSpec.Grid op, Precision precision) throws Exception {
    List<OperatorSpec.Param> params = op.params();
    Class<?>[] types = params.stream().map(OperatorSpec::javaType).toArray(Class<?>[]::new);
    Method f = ops.getMethod(op.name(), types);
    List<Integer> outs = new ArrayList<>();
    List<Integer> ins = new ArrayList<>();
    for (int i = 0; i < params.size(); i++) {
      if (params.get(i) instanceof OperatorSpec.Array a && a.element().isFloating()) {
        (a.role() == OperatorSpec.Role.IN ? ins : outs).add(i);
      }
    }
    List<Class<?>> gradTypes = new ArrayList<>(Arrays.asList(types));
    outs.forEach(i -> gradTypes.add(types[i]));
    ins.forEach(i -> gradTypes.add(types[i]));
    String gname = op.name() + "Grad";
    Method g;
    try {
      g = kernels.getMethod(gname, gradTypes.toArray(Class<?>[]::new));
    } catch (NoSuchMethodException e) {
      problems.add(gname + gradTypes.toString().replace("class ", "") + " is missing (" + op.name() + " got no KILN043 note)");
      return;
    }
    for (int draw = 0; draw < GRID_DRAWS; draw++) {
      String why = gridDraw(op, f, g, outs, ins, draw >= POSITIVE_FROM, precision);
      if (why == null) {
        STATS.gridChecked++;
        return;
      }
      if (why.startsWith("!")) {
        problems.add(why.substring(1));
        return;
      }
      STATS.reject(why);
    }
    STATS.gridUnchecked++;
  }

  /** Null when checked and agreeing; "!problem" on a failure; otherwise why the draw was rejected. */
  private String gridDraw(OperatorSpec.Grid op, Method f, Method g, List<Integer> outs, List<Integer> ins, boolean positive,
      Precision precision) throws Exception {
    List<OperatorSpec.Param> params = op.params();
    Map<String, Integer> sizes = new LinkedHashMap<>();
    for (OperatorSpec.Param p : params) {
      if (p instanceof OperatorSpec.Dim d) {
        sizes.put(d.name(), 1 + r.nextInt(4));
      }
    }
    boolean randomOutputs = r.nextBoolean();
    Object[] args = new Object[params.size()];
    for (int i = 0; i < args.length; i++) {
      OperatorSpec.Param p = params.get(i);
      if (p instanceof OperatorSpec.Dim d) {
        args[i] = sizes.get(d.name());
      } else if (p instanceof OperatorSpec.Scalar s) {
        args[i] = operand(s.type(), false);
      } else {
        OperatorSpec.Array a = (OperatorSpec.Array) p;
        int n = Math.toIntExact(a.length(sizes));
        Object v = Values.array(r, a.element(), n, 0);
        boolean fill = a.role() == OperatorSpec.Role.IN || randomOutputs;
        for (int e = 0; e < n; e++) {
          java.lang.reflect.Array.set(v, e, fill ? operand(a.element(), positive) : zero(a.element()));
        }
        args[i] = v;
      }
    }
    String where = op.name() + " with " + sizes + scalars(op, args) + (randomOutputs ? ", outputs starting random" : "");
    Object[] forward = Values.copyAll(args);
    if (invoke(f, forward) == FAILED) {
      return "!" + where + ": the plain method threw " + lastThrown + " (a generator bug)";
    }
    for (int o : outs) {
      for (int e = 0; e < Precision.length(forward[o]); e++) {
        if (!Double.isFinite(Precision.get(forward[o], e))) {
          return "forward output is not finite";
        }
      }
    }
    Object[] dY = new Object[params.size()];
    for (int o : outs) {
      Object d = Values.array(r, ((OperatorSpec.Array) params.get(o)).element(), Precision.length(forward[o]), 0);
      for (int e = 0; e < Precision.length(d); e++) {
        double v = r.nextDouble(-1, 1);
        java.lang.reflect.Array.set(d, e, d instanceof float[] ? (Object) (float) v : (Object) v);
      }
      dY[o] = d;
    }
    // the gradient: fGrad(forward results, dY..., dX...), dX starting NaN so an unwritten element shows
    List<Object> call = new ArrayList<>(Arrays.asList(Values.copyAll(forward)));
    outs.forEach(o -> call.add(Values.copy(dY[o])));
    Object[] grads = new Object[ins.size()];
    for (int k = 0; k < ins.size(); k++) {
      Object x = forward[ins.get(k)];
      grads[k] = x instanceof float[] fa ? nans(new float[fa.length]) : nans(new double[Precision.length(x)]);
      call.add(grads[k]);
    }
    Object[] callArgs = call.toArray();
    if (invokeKernel(g, callArgs) == FAILED) {
      return "!" + where + ": " + g.getName() + " threw " + lastThrown;
    }
    for (int i = 0; i < params.size(); i++) {
      if (args[i] != null && args[i].getClass().isArray() && Values.firstDifference(forward[i], callArgs[i]) >= 0) {
        return "!" + where + ": " + g.getName() + " changed its argument '" + params.get(i).name() + "'["
            + Values.firstDifference(forward[i], callArgs[i]) + "]";
      }
    }
    for (int k = 0; k < outs.size(); k++) {
      if (Values.firstDifference(dY[outs.get(k)], callArgs[params.size() + k]) >= 0) {
        return "!" + where + ": " + g.getName() + " changed its upstream gradient for '" + params.get(outs.get(k)).name() + "'";
      }
    }
    for (int k = 0; k < ins.size(); k++) {
      int i = ins.get(k);
      OperatorSpec.Array xa = (OperatorSpec.Array) params.get(i);
      Loss loss = x -> loss(f, args, i, x, outs, dY);
      double[] gd = Precision.toDoubles(grads[k]);
      if (FD_STAND_IN) {
        gd = standIn(loss, args[i], precision);
      }
      String what = g.getName() + ": d" + xa.name() + " (" + where + ")";
      String why = new Check(what, loss, args[i], gd, precision).run();
      if (why != null) {
        return why;
      }
    }
    return null;
  }

  /** L's terms with argument {@code i} replaced by {@code x}: the plain forward from the initial outputs. */
  private static double[] loss(Method f, Object[] args, int i, Object x, List<Integer> outs, Object[] dY) throws Exception {
    Object[] run = Values.copyAll(args);
    run[i] = x;
    f.invoke(null, run);
    int n = 0;
    for (int o : outs) {
      n += Precision.length(run[o]);
    }
    double[] terms = new double[n];
    int t = 0;
    for (int o : outs) {
      for (int e = 0; e < Precision.length(run[o]); e++) {
        terms[t++] = Precision.get(dY[o], e) * Precision.get(run[o], e);
      }
    }
    return terms;
  }

  // ---- the check of one gradient against central differences ----

  /**
   * One array's gradient against central differences: along a random direction, then at {@link
   * #SINGLES} random single elements. {@link #run} gives null when it agrees, {@code "!problem"}
   * when it does not, and otherwise why L was too rough to tell (judged from L alone).
   */
  private final class Check {
    private final String what;
    private final Loss loss;
    private final Object x;
    private final double[] grad;
    private final Precision precision;

    Check(String what, Loss loss, Object x, double[] grad, Precision precision) {
      this.what = what;
      this.loss = loss;
      this.x = x;
      this.grad = grad;
      this.precision = precision;
    }

    String run() throws Exception {
      int n = grad.length;
      if (n == 0) {
        return null;
      }
      double[] l0 = loss.terms(x);
      // a non-finite gradient element fails where L is smooth along that element, else the draw is rejected
      for (int j = 0; j < n; j++) {
        if (!Double.isFinite(grad[j])) {
          Probe at = Probe.at(loss, x, l0, unit(j), precision.step, Probe.Noise.EVERY_TERM);
          String rough = at.roughness(precision);
          if (rough != null) {
            return what + " at element [" + j + "] (whose gradient is " + grad[j] + "): " + rough;
          }
          if (COUNT_NON_FINITE) {
            synchronized (STATS) {
              STATS.nonFinite++;
            }
            return "non-finite gradient where L is smooth (counted)";
          }
          return "!" + what + " is " + grad[j] + " at element [" + j + "] of " + n + " where L is smooth: d/dt L is "
              + String.format("%.6g", at.change() / (2 * precision.step)) + " by central differences; x = " + values(x)
              + "; gradient = " + Arrays.toString(grad);
        }
      }
      double[] dir = new double[n];
      for (int j = 0; j < n; j++) {
        dir[j] = r.nextDouble(-1, 1) * scale(j);
      }
      Probe along = Probe.at(loss, x, l0, dir, precision.step, Probe.Noise.EVERY_TERM);
      String rough = along.roughness(precision);
      if (rough != null) {
        return what + " along a random direction: " + rough;
      }
      double ratio = along.ratio(precision, grad);
      STATS.ratio(ratio);
      if (!(ratio <= 1)) {
        // the direction may cross a kink that the probe along it does not see but the probe along
        // one element's own axis does (1 / x near 0, a floor): leave those elements out, look again
        double[] smooth = dir.clone();
        boolean dropped = false;
        boolean left = false;
        for (int j = 0; j < n; j++) {
          if (Probe.at(loss, x, l0, unit(j), precision.step, Probe.Noise.EVERY_TERM).roughness(precision) != null) {
            smooth[j] = 0;
            dropped = true;
          } else if (dir[j] != 0) {
            left = true;
          }
        }
        if (!dropped) {
          return "!" + mismatch("along a random direction", along);
        }
        if (!left) {
          return what + " along a random direction: L is not smooth along any element";
        }
        Probe again = Probe.at(loss, x, l0, smooth, precision.step, Probe.Noise.EVERY_TERM);
        String roughAgain = again.roughness(precision);
        if (roughAgain != null) {
          return what + " along the elements where L is smooth: " + roughAgain;
        }
        if (!(again.ratio(precision, grad) <= 1)) {
          return "!" + mismatch("along a random direction over the elements where L is smooth", again);
        }
      }
      int want = Math.min(SINGLES, n);
      int checked = 0;
      for (int tries = 0; checked < want && tries < 4 * SINGLES; tries++) {
        int j = r.nextInt(n);
        Probe at = Probe.at(loss, x, l0, unit(j), precision.step, Probe.Noise.EVERY_TERM);
        if (at.roughness(precision) != null) {
          continue;
        }
        ratio = at.ratio(precision, grad);
        STATS.ratio(ratio);
        if (!(ratio <= 1)) {
          return "!" + mismatch("at element [" + j + "]", at);
        }
        checked++;
      }
      return null;
    }

    private double scale(int j) {
      return Math.max(1, Math.abs(Precision.get(x, j)));
    }

    private double[] unit(int j) {
      double[] dir = new double[grad.length];
      dir[j] = scale(j);
      return dir;
    }

    private String mismatch(String where, Probe probe) throws Exception {
      double twoH = 2 * precision.step;
      StringBuilder perElement = new StringBuilder();
      for (int j = 0; j < Math.min(grad.length, 24); j++) {
        Probe at = Probe.at(loss, x, loss.terms(x), unit(j), precision.step, Probe.Noise.EVERY_TERM);
        double fd = at.change() / (2 * precision.step * scale(j));
        perElement.append(String.format("%n      [%d] x %.6g: gradient %.6g, central difference %.6g%s", j, Precision.get(x, j),
            grad[j], fd, at.roughness(precision) != null ? " (not smooth there)" : at.ratio(precision, grad) > 1 ? "  <-- differs" : ""));
      }
      return String.format("%s (%s) disagrees with central differences %s: d/dt L(x + t v) is %.6g by central"
              + " differences but %.6g by the gradient (tolerance %.3g, h %.1g); per element:%s",
          what, precision, where, probe.change() / twoH, probe.predicted(grad) / twoH, probe.tolerance(precision, grad) / twoH,
          precision.step, perElement);
    }
  }

  /** A central-difference gradient at a third of the step, standing in for fGrad to calibrate the check. */
  private static double[] standIn(Loss loss, Object x, Precision precision) throws Exception {
    int n = Precision.length(x);
    double[] g = new double[n];
    double h = precision.step / 3;
    for (int j = 0; j < n; j++) {
      double[] dir = new double[n];
      dir[j] = Math.max(1, Math.abs(Precision.get(x, j)));
      Object p = Precision.shifted(x, dir, h);
      Object m = Precision.shifted(x, dir, -h);
      double[] lp = loss.terms(p);
      double[] lm = loss.terms(m);
      double change = 0;
      for (int t = 0; t < lp.length; t++) {
        change += lp[t] - lm[t];
      }
      double delta = Precision.get(p, j) - Precision.get(m, j);
      g[j] = delta == 0 ? 0 : change / delta;
    }
    return g;
  }

  // ---- values and calls ----

  /** A value to differentiate at or hold fixed: floating in [-2, 2) (or [0.25, 2)), ints in [-5, 5]. */
  private Object operand(FuzzType t, boolean positive) {
    switch (t) {
      case FLOAT: return (float) r.nextDouble(positive ? 0.25 : -2, 2);
      case DOUBLE: return r.nextDouble(positive ? 0.25 : -2, 2);
      case INT: return r.nextInt(-5, 6);
      case LONG: return (long) r.nextInt(-5, 6);
      default: return r.nextBoolean();
    }
  }

  private static Object zero(FuzzType t) {
    switch (t) {
      case FLOAT: return 0f;
      case DOUBLE: return 0.0;
      case INT: return 0;
      case LONG: return 0L;
      default: return false;
    }
  }

  private static float[] nans(float[] a) {
    Arrays.fill(a, Float.NaN);
    return a;
  }

  private static double[] nans(double[] a) {
    Arrays.fill(a, Double.NaN);
    return a;
  }

  private static final Object FAILED = new Object();
  private Throwable lastThrown;

  /** Calls a plain method; FAILED (and lastThrown) if it threw; null only for a void method. */
  private Object invoke(Method m, Object[] args) throws IllegalAccessException {
    try {
      lastThrown = null;
      Object v = m.invoke(null, args);
      return m.getReturnType() == void.class ? Boolean.TRUE : v;
    } catch (InvocationTargetException e) {
      lastThrown = e.getCause();
      return m.getReturnType() == void.class ? FAILED : null;
    }
  }

  private Object invokeKernel(Method m, Object[] args) throws IllegalAccessException {
    return invoke(m, args);
  }

  private static String scalars(OperatorSpec.Grid op, Object[] args) {
    StringBuilder b = new StringBuilder();
    for (int k = 0; k < args.length; k++) {
      OperatorSpec.Param p = op.params().get(k);
      if (p instanceof OperatorSpec.Scalar s) {
        b.append(", ").append(s.name()).append('=').append(args[k]);
      } else if (p instanceof OperatorSpec.Array a && !a.element().isFloating()) {
        b.append(", ").append(a.name()).append('=').append(values(args[k]));
      }
    }
    return b.toString();
  }

  static String values(Object array) {
    if (array instanceof float[] a) return Arrays.toString(a);
    if (array instanceof double[] a) return Arrays.toString(a);
    if (array instanceof int[] a) return Arrays.toString(a);
    if (array instanceof long[] a) return Arrays.toString(a);
    return String.valueOf(array);
  }

  private static String describe(Object[] args) {
    StringBuilder b = new StringBuilder("(");
    for (Object a : args) {
      b.append(b.length() == 1 ? "" : ", ").append(a instanceof Float v ? v + "f" : String.valueOf(a));
    }
    return b.append(')').toString();
  }
}
