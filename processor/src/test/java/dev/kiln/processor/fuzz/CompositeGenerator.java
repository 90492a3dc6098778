package dev.kiln.processor.fuzz;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Generates a composite operator over a class's generated grid operators: two to four calls (half
 * the time all of one operator, a chain whose calls share a grid), each input either an array an earlier call wrote (a temporary or
 * an output) of the same element type and {@code @Shape}, or a new input parameter; each output a
 * new temporary ({@code float[] tmp0 = new float[(N + 2) * M];}), some never read (dead), or an
 * {@code @Out} parameter of the composite, which later calls may read too. Scalars are the
 * composite's own parameters or literals; a callee's {@code @Dim}s are the composite's of the same
 * name. What the merger fuses, and the fused kernels' temporaries kept per worker, must compute the
 * plain method's bits. Callees with {@code @Reduce} outputs are left out (their sums are reordered
 * between chunks, and a composite's outputs are compared exactly).
 */
final class CompositeGenerator {
  /** The most worker-steps a size set may cost over all calls. */
  private static final long MAX_WORK = 3_000_000;

  record Result(OperatorSpec.Grid spec, String source) {}

  /** An array visible in the composite: a parameter or a temporary, with what wrote it. */
  private record Tensor(String name, FuzzType element, List<Extent> shape) {}

  private final SplittableRandom r;
  private final List<OperatorSpec.Grid> callees;
  private final Set<String> dims = new LinkedHashSet<>();
  private final List<OperatorSpec.Param> inputs = new ArrayList<>();
  private final List<OperatorSpec.Param> scalars = new ArrayList<>();
  private final List<OperatorSpec.Param> outputs = new ArrayList<>();
  private final List<Tensor> written = new ArrayList<>();
  private final SourceWriter w = new SourceWriter(1);
  private int counter;

  private CompositeGenerator(SplittableRandom r, List<OperatorSpec.Grid> callees) {
    this.r = r;
    this.callees = callees;
  }

  /** A composite named {@code name} calling some of {@code grids}, or null when none can be called. */
  static Result generate(SplittableRandom r, String name, List<OperatorSpec.Grid> grids) {
    List<OperatorSpec.Grid> callable = grids.stream()
        .filter(g -> g.params().stream().noneMatch(p -> p instanceof OperatorSpec.Array a && a.role() == OperatorSpec.Role.REDUCE))
        .filter(g -> g.params().stream().anyMatch(p -> p instanceof OperatorSpec.Array a && a.role() == OperatorSpec.Role.OUT))
        .toList();
    return callable.isEmpty() ? null : new CompositeGenerator(r, callable).composite(name);
  }

  private Result composite(String name) {
    int calls = 2 + r.nextInt(3);
    List<OperatorSpec.Grid> chosen = new ArrayList<>();
    OperatorSpec.Grid only = Picks.chance(r, 50) ? Picks.one(r, callees) : null; // a chain of one operator fuses more often
    for (int k = 0; k < calls; k++) {
      chosen.add(only != null ? only : Picks.one(r, callees));
    }
    chosen.forEach(g -> g.params().forEach(p -> {
      if (p instanceof OperatorSpec.Dim d) {
        dims.add(d.name());
      }
    }));
    List<String> body = new ArrayList<>();
    for (int k = 0; k < chosen.size(); k++) {
      call(chosen.get(k), k == chosen.size() - 1, body);
    }
    List<OperatorSpec.Param> params = new ArrayList<>();
    dims.forEach(d -> params.add(new OperatorSpec.Dim(d)));
    params.addAll(inputs);
    params.addAll(scalars);
    params.addAll(outputs);
    List<String> decls = new ArrayList<>();
    for (OperatorSpec.Param p : params) {
      decls.add(GridGenerator.declaration(p));
    }
    w.line("@Operator");
    w.open("public static void " + name + "(" + String.join(", ", decls) + ")");
    body.forEach(w::line);
    w.close();
    List<Map<String, Integer>> sizes = sizes(chosen);
    List<Long> work = sizes.stream().map(s -> work(chosen, s)).toList();
    return new Result(new OperatorSpec.Grid(name, params, sizes, work, null, s -> work(chosen, s)), w.toString());
  }

  /** One call of {@code g}: its arguments picked or declared, the statement added to {@code body}. */
  private void call(OperatorSpec.Grid g, boolean last, List<String> body) {
    List<String> args = new ArrayList<>();
    List<Tensor> producedHere = new ArrayList<>();
    for (OperatorSpec.Param p : g.params()) {
      if (p instanceof OperatorSpec.Dim d) {
        args.add(d.name());
      } else if (p instanceof OperatorSpec.Scalar s) {
        args.add(scalar(s.type()));
      } else {
        OperatorSpec.Array a = (OperatorSpec.Array) p;
        if (a.role() == OperatorSpec.Role.IN) {
          args.add(input(a));
        } else {
          boolean out = last || Picks.chance(r, 35);
          String n = (out ? "res" : "tmp") + counter++;
          if (out) {
            outputs.add(new OperatorSpec.Array(n, a.element(), a.shape(), OperatorSpec.Role.OUT, null));
          } else {
            body.add(a.element().javaName() + "[] " + n + " = new " + a.element().javaName() + "[" + length(a.shape()) + "];");
          }
          producedHere.add(new Tensor(n, a.element(), a.shape()));
          args.add(n);
        }
      }
    }
    body.add(g.name() + "(" + String.join(", ", args) + ");");
    written.addAll(producedHere); // readable by later calls only
  }

  /** An array an earlier call wrote, of the same type and shape, or a new input parameter. */
  private String input(OperatorSpec.Array a) {
    List<Tensor> same = written.stream()
        .filter(t -> t.element() == a.element() && t.shape().equals(a.shape()))
        .toList();
    if (!same.isEmpty() && Picks.chance(r, 75)) {
      return Picks.one(r, same).name();
    }
    List<OperatorSpec.Param> reusable = inputs.stream()
        .filter(p -> p instanceof OperatorSpec.Array in && in.element() == a.element() && in.shape().equals(a.shape()))
        .toList();
    if (!reusable.isEmpty() && Picks.chance(r, 30)) {
      return Picks.one(r, reusable).name();
    }
    String n = "in" + counter++;
    inputs.add(new OperatorSpec.Array(n, a.element(), a.shape(), OperatorSpec.Role.IN, null));
    return n;
  }

  private String scalar(FuzzType type) {
    if ((type == FuzzType.FLOAT || type == FuzzType.INT) && Picks.chance(r, 25)) {
      return type == FuzzType.FLOAT ? Picks.one(r, "0.5f", "-1.25f", "3f") : Picks.one(r, "0", "2", "-3");
    }
    List<OperatorSpec.Param> same = scalars.stream().filter(p -> ((OperatorSpec.Scalar) p).type() == type).toList();
    if (!same.isEmpty() && Picks.chance(r, 40)) {
      return Picks.one(r, same).name();
    }
    String n = "p" + counter++;
    scalars.add(new OperatorSpec.Scalar(n, type));
    return n;
  }

  private static String length(List<Extent> shape) {
    if (shape.isEmpty()) {
      return "1";
    }
    List<String> factors = new ArrayList<>();
    shape.forEach(e -> factors.add(shape.size() == 1 ? e.text() : e.factor()));
    return String.join(" * ", factors);
  }

  /** Small sizes (each dim as one callee's first size set has it), and sometimes larger ones. */
  private List<Map<String, Integer>> sizes(List<OperatorSpec.Grid> chosen) {
    Map<String, Integer> small = new LinkedHashMap<>();
    for (String d : dims) {
      for (OperatorSpec.Grid g : chosen) {
        Integer v = g.sizes().get(0).get(d);
        if (v != null) {
          small.putIfAbsent(d, v);
        }
      }
    }
    List<Map<String, Integer>> sets = new ArrayList<>(List.of(small));
    for (int attempt = 0; attempt < 3; attempt++) {
      Map<String, Integer> larger = new LinkedHashMap<>();
      for (String d : dims) {
        larger.put(d, 5 + r.nextInt(attempt == 0 ? 60 : 20));
      }
      if (work(chosen, larger) <= MAX_WORK) {
        sets.add(larger);
        break;
      }
    }
    return sets;
  }

  private static long work(List<OperatorSpec.Grid> chosen, Map<String, Integer> sizes) {
    long total = 0;
    for (OperatorSpec.Grid g : chosen) {
      total += g.workAt().applyAsLong(sizes);
    }
    return total;
  }
}
