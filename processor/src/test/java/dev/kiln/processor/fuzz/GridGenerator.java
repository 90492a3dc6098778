package dev.kiln.processor.fuzz;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Generates one grid operator: 0 to 3 {@code @Parallel} dimensions (0: a single worker) plus extra
 * {@code @Dim}s for sequential loops; input arrays whose {@code @Shape}s combine those dimensions
 * (row-major and transposed grids, vectors, halos {@code N + 2}, doubled {@code 2 * N}, literal
 * extents), read at in-bounds affine indices (Horner or expanded, or through a worker local {@code
 * int p = i * M + j}), neighbours guarded by {@code ?:}, {@code &&} or {@code if}; scalar
 * parameters; locals before the grid computed from parameters; worker code with locals, {@code
 * if}/{@code else}, sequential loops ({@code k < D}, {@code k <= D - 1}, from 1, {@code k += 2})
 * carrying accumulators, nested up to twice; {@code @Out} arrays written at injective indices
 * (all grid variables in any order, possibly under {@code if}/{@code else}, as two halves {@code
 * 2 * N} or pairs, or once per iteration of a sequential loop); and sometimes {@code @Out @Reduce}
 * arrays updated with {@code +=} (a float array sometimes with a double term, an int array with a
 * long one), {@code *=} (int) or {@code max}/{@code min}, at the worker level, under an {@code if}
 * or in a loop, whose elements several workers share.
 *
 * <p>Workers never assign locals declared before the grid and int reductions never get float
 * terms: Kiln refuses both (KILN036, KILN021), so {@link Mutator} makes them.
 */
final class GridGenerator {
  private static final String[] GRID_DIMS = {"N", "M", "B", "H", "W", "R", "C"};
  private static final String[] EXTRA_DIMS = {"K", "L", "T", "S"};
  private static final String[] GRID_VARS = {"i", "j", "b", "h", "r", "c", "x", "lo", "chunk", "n"};
  private static final String[] LOOP_VARS = {"k", "kk", "q", "l", "hi", "t", "i2"};
  private static final String[] INPUT_NAMES = {"x", "w", "u", "bias", "src", "gate", "in", "lo", "table"};
  private static final String[] OUTPUT_NAMES = {"y", "out", "dst", "z", "o", "res", "chunks", "hi"};
  private static final String[] REDUCE_NAMES = {"sums", "acc", "r", "m", "tot", "partial", "best"};
  private static final String[] SCALAR_NAMES = {"alpha", "beta", "scale", "eps", "flag", "shift", "lo"};

  /** The most worker-steps one size set may cost (plain, kernel and twin each run it). */
  private static final long MAX_WORK = 3_000_000;

  /** The most array elements one size set may allocate. */
  private static final long MAX_ELEMENTS = 2_000_000;

  record Result(OperatorSpec.Grid spec, String source) {}

  private enum WritePlan { SIMPLE, IF_ELSE, PAIR, LOOP }

  /** An output and how it is written; {@code position} is the doubled or looped extent. */
  private record Output(OperatorSpec.Array array, WritePlan plan, int position, boolean interleave) {}

  /** A reduced output, updated at the worker level or in a loop over {@code loopDim}. */
  private record Reduction(OperatorSpec.Array array, String loopDim) {}

  private final SplittableRandom r;
  private final Scope scope = new Scope();
  private final ExpressionGenerator expr;
  private final SourceWriter w = new SourceWriter(1);
  private final List<String> gridDims = new ArrayList<>();
  private final List<String> gridVars = new ArrayList<>();
  private final List<String> allDims = new ArrayList<>();
  private final List<OperatorSpec.Array> inputs = new ArrayList<>();
  private final List<Output> outputs = new ArrayList<>();
  private final List<Reduction> reductions = new ArrayList<>();
  private final List<List<String>> loopNests = new ArrayList<>();
  private final Deque<String> openLoops = new ArrayDeque<>();
  private boolean floatSum;

  private GridGenerator(SplittableRandom r, List<OperatorSpec.Elementwise> callable, List<Scope.Var> constants) {
    this.r = r;
    this.expr = new ExpressionGenerator(r, scope, callable, constants);
    constants.forEach(c -> scope.reserve(c.name()));
    callable.forEach(c -> scope.reserve(c.name()));
  }

  static Result generate(SplittableRandom r, String name, List<OperatorSpec.Elementwise> callable, List<Scope.Var> constants) {
    return new GridGenerator(r, callable, constants).operator(name);
  }

  /**
   * The {@code @Parallel} bound {@code d}, sometimes spelled as a size made of it ({@code (N)},
   * {@code 1 * N}, {@code N + 0}): the same workers through the path of bounds made of {@code @Dim}s
   * (a polynomial in every analysis, an int expression in the kernels, checked by the launcher).
   */
  private String bound(String d) {
    return Picks.chance(r, 80) ? d : Picks.one(r, "(" + d + ")", "1 * " + d, d + " + 0", "0 + " + d, d + " * 1");
  }

  // ---- signature ----

  private Result operator(String name) {
    scope.reserve(name);
    scope.reserve(name + "AbsTwin");
    int g = Picks.weighted(r, 0, 1, 1, 5, 2, 5, 3, 2);
    List<String> dimPool = Picks.shuffled(r, List.of(GRID_DIMS));
    gridDims.addAll(dimPool.subList(0, g));
    int extra = g == 0 ? 1 + r.nextInt(2) : Picks.weighted(r, 0, 3, 1, 4, 2, 1);
    List<String> extraDims = Picks.shuffled(r, List.of(EXTRA_DIMS)).subList(0, extra);
    allDims.addAll(gridDims);
    allDims.addAll(extraDims);

    List<OperatorSpec.Param> dims = new ArrayList<>();
    for (String d : Picks.shuffled(r, allDims)) {
      scope.declare(new Scope.Var(d, FuzzType.INT, false, null));
      dims.add(new OperatorSpec.Dim(d));
    }
    List<OperatorSpec.Param> others = new ArrayList<>();
    for (int k = 1 + r.nextInt(4); k > 0; k--) {
      OperatorSpec.Array a = new OperatorSpec.Array(scope.fresh(r, INPUT_NAMES), elementType(), inputShape(), OperatorSpec.Role.IN, null);
      inputs.add(a);
      others.add(a);
    }
    for (int k = r.nextInt(3); k > 0; k--) {
      FuzzType t = Picks.weighted(r, FuzzType.FLOAT, 4, FuzzType.DOUBLE, 1, FuzzType.INT, 2, FuzzType.LONG, 1, FuzzType.BOOLEAN, 1);
      OperatorSpec.Scalar s = new OperatorSpec.Scalar(scope.fresh(r, SCALAR_NAMES), t);
      scope.declare(new Scope.Var(s.name(), t, false, null));
      others.add(s);
    }
    int nReductions = Picks.weighted(r, 0, 5, 1, 4, 2, 1);
    int outs = Picks.weighted(r, 1, 6, 2, 3, 3, 1);
    for (int k = 0; k < outs; k++) {
      Output o = output();
      outputs.add(o);
      others.add(o.array());
    }
    for (int k = nReductions; k > 0; k--) {
      Reduction red = reduction();
      reductions.add(red);
      others.add(red.array());
    }
    List<OperatorSpec.Param> params = new ArrayList<>(dims);
    params.addAll(Picks.chance(r, 40) ? Picks.shuffled(r, others) : others);

    List<String> decls = new ArrayList<>();
    for (OperatorSpec.Param p : params) {
      decls.add(declaration(p));
    }
    w.line("@Operator");
    w.open("public static void " + name + "(" + String.join(", ", decls) + ")");
    body(name);
    w.close();

    String source = w.toString();
    String twin = null;
    if (floatSum) {
      twin = name + "AbsTwin";
      source += "\n" + twin(source, name, twin);
    }
    List<Map<String, Integer>> sizes = sizes();
    List<Long> work = sizes.stream().map(this::work).toList();
    return new Result(new OperatorSpec.Grid(name, params, sizes, work, twin, this::work), source);
  }

  /** A parameter as the operator's signature declares it (composites too). */
  static String declaration(OperatorSpec.Param p) {
    if (p instanceof OperatorSpec.Dim d) {
      return "@Dim int " + d.name();
    }
    if (p instanceof OperatorSpec.Scalar s) {
      return s.type().javaName() + " " + s.name();
    }
    OperatorSpec.Array a = (OperatorSpec.Array) p;
    String role = a.role() == OperatorSpec.Role.OUT ? "@Out " : a.role() == OperatorSpec.Role.REDUCE ? "@Out @Reduce " : "";
    return role + "@Shape(\"" + a.shapeText() + "\") " + a.element().javaName() + "[] " + a.name();
  }

  private FuzzType elementType() {
    return Picks.weighted(r, FuzzType.FLOAT, 7, FuzzType.DOUBLE, 2, FuzzType.INT, 2, FuzzType.LONG, 1);
  }

  private List<Extent> inputShape() {
    int g = gridDims.size();
    boolean extras = allDims.size() > g;
    int kind = Picks.weighted(r, 0, g > 0 ? 5 : 0, 1, 3, 2, g > 0 ? 2 : 0, 3, 1, 4, extras ? 3 : 0, 5, g > 0 ? 1 : 0);
    List<Extent> shape = new ArrayList<>();
    switch (kind) {
      case 0: // the grid, row-major or transposed, sometimes with a literal extent
        for (String d : Picks.chance(r, 65) ? gridDims : Picks.shuffled(r, gridDims)) {
          shape.add(Extent.dim(d));
        }
        if (Picks.chance(r, 15)) {
          shape.add(r.nextInt(shape.size() + 1), Extent.literal(1 + r.nextInt(3)));
        }
        break;
      case 1:
        shape.add(Extent.dim(Picks.one(r, allDims)));
        break;
      case 2:
        if (g >= 2 && r.nextBoolean()) {
          shape.add(Extent.dim(gridDims.get(0)));
        }
        shape.add(Extent.halo(Picks.one(r, gridDims), r.nextBoolean()));
        break;
      case 3:
        shape.add(Extent.literal(1 + r.nextInt(4)));
        break;
      case 4: {
        String e = Picks.one(r, allDims.subList(g, allDims.size()));
        String other = Picks.one(r, allDims);
        if (!other.equals(e)) {
          shape.add(Extent.dim(other));
        }
        shape.add(r.nextBoolean() ? shape.size() : 0, Extent.dim(e));
        break;
      }
      default: {
        int m = r.nextInt(g);
        for (int j = 0; j < g; j++) {
          shape.add(j == m ? Extent.twice(gridDims.get(j), r.nextBoolean()) : Extent.dim(gridDims.get(j)));
        }
        break;
      }
    }
    return shape;
  }

  private Output output() {
    int g = gridDims.size();
    WritePlan plan = g == 0
        ? Picks.weighted(r, WritePlan.SIMPLE, 1, WritePlan.LOOP, 3)
        : Picks.weighted(r, WritePlan.SIMPLE, 5, WritePlan.IF_ELSE, 2, WritePlan.PAIR, 2, WritePlan.LOOP, 2);
    List<Extent> shape = new ArrayList<>();
    for (String d : Picks.chance(r, 60) ? gridDims : Picks.shuffled(r, gridDims)) {
      shape.add(Extent.dim(d));
    }
    int position = -1;
    boolean interleave = r.nextBoolean();
    switch (plan) {
      case PAIR:
        position = r.nextInt(g + 1);
        if (position < g && r.nextBoolean()) {
          shape.set(position, Extent.twice(shape.get(position).dim(), r.nextBoolean()));
        } else {
          position = r.nextInt(g + 1);
          shape.add(position, Extent.literal(2));
        }
        break;
      case LOOP: {
        List<String> extra = allDims.subList(g, allDims.size());
        String d = extra.isEmpty() || Picks.chance(r, 20) ? Picks.one(r, allDims) : Picks.one(r, extra);
        position = r.nextInt(shape.size() + 1);
        shape.add(position, Extent.dim(d));
        break;
      }
      default:
        if (g == 0) {
          shape.add(Extent.literal(1 + r.nextInt(3)));
        } else if (Picks.chance(r, 15)) {
          shape.add(r.nextInt(shape.size() + 1), Extent.literal(1));
        }
        break;
    }
    OperatorSpec.Array a = new OperatorSpec.Array(scope.fresh(r, OUTPUT_NAMES), elementType(), shape, OperatorSpec.Role.OUT, null);
    return new Output(a, plan, position, interleave);
  }

  private Reduction reduction() {
    FuzzType t = elementType();
    OperatorSpec.ReduceKind kind = t == FuzzType.INT
        ? Picks.weighted(r, OperatorSpec.ReduceKind.SUM, 4, OperatorSpec.ReduceKind.PRODUCT, 1, OperatorSpec.ReduceKind.MAX, 2, OperatorSpec.ReduceKind.MIN, 2)
        : Picks.weighted(r, OperatorSpec.ReduceKind.SUM, 5, OperatorSpec.ReduceKind.MAX, 2, OperatorSpec.ReduceKind.MIN, 2);
    floatSum |= t.isFloating() && kind == OperatorSpec.ReduceKind.SUM;
    String loopDim = gridDims.isEmpty() || Picks.chance(r, 40) ? Picks.one(r, allDims) : null;
    List<String> available = new ArrayList<>(gridDims);
    if (loopDim != null && !available.contains(loopDim)) {
      available.add(loopDim);
    }
    List<Extent> shape = new ArrayList<>();
    if (available.isEmpty() || Picks.chance(r, 30)) {
      shape.add(Extent.literal(1));
    } else {
      List<String> pick = Picks.shuffled(r, available);
      for (String d : pick.subList(0, Math.min(pick.size(), 1 + r.nextInt(2)))) {
        shape.add(Extent.dim(d));
      }
    }
    return new Reduction(new OperatorSpec.Array(scope.fresh(r, REDUCE_NAMES), t, shape, OperatorSpec.Role.REDUCE, kind), loopDim);
  }

  // ---- body ----

  private void body(String name) {
    w.line("/*@P:" + name + "*/");
    for (int k = r.nextInt(3); k > 0; k--) {
      FuzzType t = Picks.weighted(r, FuzzType.FLOAT, 3, FuzzType.DOUBLE, 1, FuzzType.INT, 1);
      String value = expr.of(t, 2);
      String local = scope.fresh(r);
      w.line(t.javaName() + " " + local + " = " + value + ";");
      // not assignable: workers may not assign it (KILN036)
      scope.declare(new Scope.Var(local, t, false, null));
    }
    for (int k = 0; k < gridDims.size(); k++) {
      String v = scope.fresh(r, GRID_VARS);
      gridVars.add(v);
      w.open("for (@Parallel int " + v + " = 0; " + v + " < " + bound(gridDims.get(k)) + "; " + v + "++)");
      if (k == 0 && gridDims.size() > 1) {
        w.line("/*@B:" + name + "*/");
      }
    }
    scope.push();
    for (int k = 0; k < gridDims.size(); k++) {
      scope.declare(new Scope.Var(gridVars.get(k), FuzzType.INT, false, gridDims.get(k)));
    }
    scope.readable = inputs;
    w.line("/*@W:" + name + "*/");
    if (!gridDims.isEmpty() && Picks.chance(r, 35)) {
      String p = scope.fresh(r, "p", "idx", "base", "row");
      List<Extent> shape = gridDims.stream().map(Extent::dim).toList();
      w.line("int " + p + " = " + IndexBuilder.flat(shape, gridVars, r.nextBoolean()) + ";");
      scope.declare(new Scope.Var(p, FuzzType.INT, false, null));
      scope.rowLocal = p;
      scope.rowDims = gridDims;
      scope.rowVars = gridVars;
    }
    statements(0, 1 + r.nextInt(4));
    List<Runnable> tail = new ArrayList<>();
    outputs.forEach(o -> tail.add(() -> write(o)));
    reductions.forEach(red -> tail.add(() -> reduce(red)));
    Picks.shuffled(r, tail).forEach(Runnable::run);
    scope.pop();
    for (int k = 0; k < gridDims.size(); k++) {
      w.close();
    }
    if (!gridDims.isEmpty()) {
      w.line("/*@A:" + name + "*/");
    }
  }

  private void statements(int nesting, int count) {
    for (int s = 0; s < count; s++) {
      int kind = Picks.weighted(r, 0, 4, 1, nesting < 2 ? 2 : 0, 2, openLoops.size() < 2 ? 2 : 0, 3, 1, 4, 1);
      switch (kind) {
        case 0: local(); break;
        case 1: ifElse(nesting); break;
        case 2: accumulatorLoop(nesting); break;
        case 3: neighbour(); break;
        default: update(); break;
      }
    }
  }

  private void local() {
    FuzzType t = Picks.weighted(r, FuzzType.FLOAT, 5, FuzzType.DOUBLE, 1, FuzzType.INT, 2, FuzzType.LONG, 1, FuzzType.BOOLEAN, 1);
    String value = expr.of(t, 1 + r.nextInt(4));
    String name = scope.fresh(r);
    w.line(t.javaName() + " " + name + " = " + value + ";");
    declareLocal(name, t);
  }

  private void declareLocal(String name, FuzzType t) {
    scope.declare(new Scope.Var(name, t, true, null));
  }

  /** Assigns or updates a local of this worker. */
  private void update() {
    List<Scope.Var> locals = scope.assignable().stream().filter(v -> v.type().isNumeric()).toList();
    if (locals.isEmpty()) {
      local();
      return;
    }
    Scope.Var v = Picks.one(r, locals);
    String op = v.type().isIntegral() ? Picks.one(r, "=", "+=", "-=", "*=") : Picks.one(r, "=", "+=", "-=", "*=", "/=");
    w.line(v.name() + " " + op + " " + expr.of(v.type(), 1 + r.nextInt(3)) + ";");
  }

  private void ifElse(int nesting) {
    w.open("if (" + expr.condition(2) + ")");
    scope.push();
    statements(nesting + 1, 1 + r.nextInt(2));
    scope.pop();
    if (r.nextBoolean()) {
      w.close("} else {");
      scope.push();
      statements(nesting + 1, 1 + r.nextInt(2));
      scope.pop();
    }
    w.close();
  }

  /** {@code T nb = 0; if (i > 0) { nb = x[i - 1]; }}: a neighbour read guarded by an if. */
  private void neighbour() {
    for (int attempt = 0; attempt < 4; attempt++) {
      ExpressionGenerator.Read read = expr.read(null);
      if (read != null && read.guard() != null) {
        String name = scope.fresh(r, "left", "right", "up", "down", "nb");
        w.line(read.type().javaName() + " " + name + " = " + read.type().zero() + ";");
        w.open("if (" + read.guard() + ")");
        w.line(name + " = " + read.access() + ";");
        w.close();
        declareLocal(name, read.type());
        return;
      }
    }
    local();
  }

  /** A sequential loop carrying an accumulator declared before it. */
  private void accumulatorLoop(int nesting) {
    FuzzType t = Picks.weighted(r, FuzzType.FLOAT, 5, FuzzType.DOUBLE, 2, FuzzType.INT, 1, FuzzType.LONG, 1);
    String acc = scope.fresh(r, "acc", "sum", "m", "best", "tot");
    w.line(t.javaName() + " " + acc + " = " + (r.nextBoolean() ? t.zero() : expr.leaf(t)) + ";");
    declareLocal(acc, t);
    openLoop(Picks.one(r, allDims), k -> {
      for (int s = 1 + r.nextInt(3); s > 0; s--) {
        switch (r.nextInt(6)) {
          case 0:
          case 1:
            w.line(acc + " += " + expr.of(t, 1 + r.nextInt(4)) + ";");
            break;
          case 2:
            w.line(acc + " = " + (t.isIntegral() ? "Math." : Picks.one(r, "", "KMath.", "Math.")) + Picks.one(r, "max", "min")
                + "(" + acc + ", " + expr.of(t, 1 + r.nextInt(3)) + ");");
            break;
          case 3:
            w.open("if (" + expr.condition(2) + ")");
            w.line(acc + " += " + expr.of(t, 1 + r.nextInt(3)) + ";");
            w.close("} else {");
            w.line(acc + " = " + expr.of(t, 1 + r.nextInt(3)) + ";");
            w.close();
            break;
          default:
            statements(Math.max(nesting + 1, 1), 1);
            break;
        }
      }
    });
  }

  /** Opens a sequential loop over {@code dim}, runs {@code body} inside it, and closes it. */
  private void openLoop(String dim, java.util.function.Consumer<String> body) {
    String k = scope.fresh(r, LOOP_VARS);
    w.open(Picks.one(r,
        "for (int " + k + " = 0; " + k + " < " + dim + "; " + k + "++)",
        "for (int " + k + " = 0; " + k + " < " + dim + "; " + k + "++)",
        "for (int " + k + " = 1; " + k + " < " + dim + "; " + k + "++)",
        "for (int " + k + " = 0; " + k + " <= " + dim + " - 1; " + k + "++)",
        "for (int " + k + " = 0; " + k + " < " + dim + "; " + k + " += 2)",
        "for (int " + k + " = 0; " + k + " < " + dim + "; " + k + " += 3)"));
    scope.push();
    scope.declare(new Scope.Var(k, FuzzType.INT, false, dim));
    openLoops.push(dim);
    loopNests.add(new ArrayList<>(openLoops));
    body.accept(k);
    openLoops.pop();
    scope.pop();
    w.close();
  }

  // ---- outputs ----

  private void write(Output o) {
    OperatorSpec.Array a = o.array();
    switch (o.plan()) {
      case SIMPLE:
        w.line(a.name() + "[" + index(a.shape(), -1, null) + "] = " + expr.of(a.element(), 2 + r.nextInt(4)) + ";");
        break;
      case IF_ELSE: {
        String index = index(a.shape(), -1, null);
        w.open("if (" + expr.condition(2) + ")");
        w.line(a.name() + "[" + index + "] = " + expr.of(a.element(), 1 + r.nextInt(4)) + ";");
        w.close("} else {");
        w.line(a.name() + "[" + index + "] = " + expr.of(a.element(), 1 + r.nextInt(4)) + ";");
        w.close();
        break;
      }
      case PAIR: {
        Extent e = a.shape().get(o.position());
        String first;
        String second;
        if (e.kind() == Extent.Kind.LITERAL) {
          first = "0";
          second = "1";
        } else {
          String v = gridVars.get(gridDims.indexOf(e.dim()));
          first = o.interleave() ? "(2 * " + v + ")" : v;
          second = o.interleave() ? "(2 * " + v + " + 1)" : "(" + e.dim() + " + " + v + ")";
        }
        List<String> writes = new ArrayList<>(List.of(
            a.name() + "[" + index(a.shape(), o.position(), first) + "] = " + expr.of(a.element(), 1 + r.nextInt(4)) + ";",
            a.name() + "[" + index(a.shape(), o.position(), second) + "] = " + expr.of(a.element(), 1 + r.nextInt(4)) + ";"));
        Picks.shuffled(r, writes).forEach(w::line);
        break;
      }
      default:
        openLoop(a.shape().get(o.position()).dim(), k -> {
          if (r.nextBoolean()) {
            local();
          }
          w.line(a.name() + "[" + index(a.shape(), o.position(), k) + "] = " + expr.of(a.element(), 1 + r.nextInt(4)) + ";");
        });
        break;
    }
  }

  /**
   * The flat index naming this worker's element of an output: each grid dimension at its grid
   * variable, literal extents at 0, and position {@code special} at {@code specialIndex}.
   */
  private String index(List<Extent> shape, int special, String specialIndex) {
    boolean rowOrder = shape.size() == gridDims.size() && special < 0
        && shape.stream().map(Extent::dim).toList().equals(gridDims);
    if (rowOrder && scope.rowLocal != null && r.nextBoolean()) {
      return scope.rowLocal;
    }
    List<String> positions = new ArrayList<>();
    for (int j = 0; j < shape.size(); j++) {
      Extent e = shape.get(j);
      positions.add(j == special ? specialIndex
          : e.kind() == Extent.Kind.LITERAL ? Integer.toString(r.nextInt(e.literal()))
          : gridVars.get(gridDims.indexOf(e.dim())));
    }
    return IndexBuilder.flat(shape, positions, r.nextBoolean());
  }

  private void reduce(Reduction red) {
    if (red.loopDim() != null) {
      openLoop(red.loopDim(), k -> reduceUpdate(red.array()));
    } else if (Picks.chance(r, 30)) {
      w.open("if (" + expr.condition(2) + ")");
      reduceUpdate(red.array());
      w.close();
    } else {
      reduceUpdate(red.array());
    }
  }

  private void reduceUpdate(OperatorSpec.Array a) {
    List<String> positions = new ArrayList<>();
    for (Extent e : a.shape()) {
      positions.add(e.kind() == Extent.Kind.LITERAL ? "0" : Picks.one(r, scope.rangingOver(e.dim())));
    }
    String target = a.name() + "[" + IndexBuilder.flat(a.shape(), positions, r.nextBoolean()) + "]";
    // A term may be wider where the result does not change (long into int, which wraps alike) or
    // only by rounding (double into float); a float term of an int array is refused (KILN021).
    FuzzType term = a.element();
    if (a.element() == FuzzType.INT && a.reduce() != OperatorSpec.ReduceKind.MAX && a.reduce() != OperatorSpec.ReduceKind.MIN && Picks.chance(r, 25)) {
      term = FuzzType.LONG;
    } else if (a.element() == FuzzType.FLOAT && a.reduce() == OperatorSpec.ReduceKind.SUM && Picks.chance(r, 20)) {
      term = FuzzType.DOUBLE;
    }
    String value = expr.of(term, 1 + r.nextInt(4));
    switch (a.reduce()) {
      case SUM:
        // the markers become Math.abs( ) in the twin, which sums |terms| for the tolerance
        w.line(target + " += " + (a.element().isFloating() ? "/*<*/" + value + "/*>*/" : value) + ";");
        break;
      case PRODUCT:
        w.line(target + " *= " + value + ";");
        break;
      default: {
        String fn = (a.element().isIntegral() ? "Math." : Picks.one(r, "", "KMath.", "Math."))
            + (a.reduce() == OperatorSpec.ReduceKind.MAX ? "max" : "min");
        w.line(target + " = " + fn + (r.nextBoolean() ? "(" + target + ", " + value + ")" : "(" + value + ", " + target + ")") + ";");
        break;
      }
    }
  }

  // ---- twin and sizes ----

  /** The plain method that sums |term| where the operator sums term: no Kiln annotations. */
  private static String twin(String source, String name, String twinName) {
    return source
        .replace("  @Operator\n", "")
        .replaceAll("(?m)^ *+/\\*@\\w:\\w+\\*/\n", "")
        .replaceAll("@Shape\\(\"[^\"]*\"\\) ", "")
        .replace("@Dim ", "")
        .replace("@Out ", "")
        .replace("@Reduce ", "")
        .replace("@Parallel ", "")
        .replace("/*<*/", "Math.abs(")
        .replace("/*>*/", ")")
        .replace("void " + name + "(", "void " + twinName + "(");
  }

  /** Small sizes (some zero), and sometimes a grid of about 100k workers, past the executor's grain. */
  private List<Map<String, Integer>> sizes() {
    List<Map<String, Integer>> sets = new ArrayList<>();
    Map<String, Integer> small = new LinkedHashMap<>();
    for (String d : allDims) {
      small.put(d, r.nextInt(12) == 0 ? 0 : 1 + r.nextInt(6));
    }
    sets.add(small);
    if (Picks.chance(r, 60)) {
      Map<String, Integer> large = new LinkedHashMap<>();
      int workers = 60_000 + r.nextInt(60_000);
      int g = gridDims.size();
      int[] extents = new int[g];
      int rest = workers;
      for (int k = 0; k < g; k++) {
        extents[k] = k == g - 1 ? Math.max(1, rest) : g == 2 ? 150 + r.nextInt(300) : 20 + r.nextInt(40);
        rest = Math.max(1, rest / extents[k]);
      }
      for (int k = 0; k < g; k++) {
        large.put(gridDims.get(k), extents[k]);
      }
      for (String d : allDims.subList(g, allDims.size())) {
        large.put(d, g == 0 ? 20_000 + r.nextInt(80_000) : 1 + r.nextInt(3));
      }
      if (work(large) <= MAX_WORK && elements(large) <= MAX_ELEMENTS) {
        sets.add(large);
      }
    }
    return sets;
  }

  /** The elements of all array parameters together. */
  private long elements(Map<String, Integer> sizes) {
    long n = 0;
    for (OperatorSpec.Array a : inputs) {
      n += a.length(sizes);
    }
    for (Output o : outputs) {
      n += o.array().length(sizes);
    }
    for (Reduction red : reductions) {
      n += red.array().length(sizes);
    }
    return n;
  }

  /** Workers times the longest nest of sequential loops (plus one step for the worker itself). */
  private long work(Map<String, Integer> sizes) {
    long workers = 1;
    for (String d : gridDims) {
      workers *= sizes.get(d);
    }
    long steps = 1;
    for (List<String> nest : loopNests) {
      long n = 1;
      for (String d : nest) {
        n *= Math.max(1, sizes.get(d));
      }
      steps += n;
    }
    return workers * steps;
  }
}
