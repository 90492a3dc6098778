package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.transform.CompositeExpansion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The backward pass of a composite operator {@code C}, itself a composite {@code CGrad} for the
 * merger to fuse: it recomputes the temporaries the forward pass made (the forward outputs are
 * given), then walks the calls in reverse, expanding each callee's gradient composite at the call
 * with the gradient of what the call wrote as upstream. A tensor read by several calls gets one
 * contribution from each, summed before it flows further; an input read once receives its
 * gradient directly.
 */
public final class CompositeGradient {
  private final CompositeIr c;
  private final Function<OperatorIr.Grid, CompositeIr> calleeGradient;
  private final Map<String, CompositeIr.Temp> temps = new LinkedHashMap<>();
  private final Set<String> taken = new HashSet<>();
  private final List<CompositeIr.Call> calls = new ArrayList<>();
  private final Map<String, Integer> ids = new HashMap<>();
  private final Map<String, Param.Array> params = new HashMap<>();
  private final Map<String, List<String>> contributions = new HashMap<>();
  private final Map<String, String> upstreamOf = new HashMap<>();
  /** Temporaries of the forward pass given as inputs (kept by its saving form), not recomputed. */
  private final Set<String> saved;
  private final String name;

  private CompositeGradient(CompositeIr c, Function<OperatorIr.Grid, CompositeIr> calleeGradient, Set<String> saved, String name) {
    this.c = c;
    this.calleeGradient = calleeGradient;
    this.saved = saved;
    this.name = name;
  }

  /**
   * The backward composite of {@code c}; {@code calleeGradient} gives each callee's gradient
   * composite, or throws {@link NotDifferentiable} wrapped in {@link Unavailable}.
   */
  public static CompositeIr derive(CompositeIr c, Function<OperatorIr.Grid, CompositeIr> calleeGradient) throws NotDifferentiable {
    return derive(c, calleeGradient, Set.of(), GradientNames.launcher(c.signature().name()));
  }

  /**
   * The backward composite named {@code name} that takes the forward pass's temporaries {@code
   * saved} as inputs (after the forward parameters, in the order of {@code c}'s temporaries) instead
   * of recomputing them: the calls that write only saved temporaries (and outputs) are not repeated.
   */
  public static CompositeIr derive(CompositeIr c, Function<OperatorIr.Grid, CompositeIr> calleeGradient, Set<String> saved,
      String name) throws NotDifferentiable {
    try {
      return new CompositeGradient(c, calleeGradient, saved, name).build();
    } catch (Unavailable u) {
      throw u.cause;
    }
  }

  /**
   * The forward composite {@code c} as {@code name}, with its temporaries {@code saved} made
   * {@code @Out} parameters after its own (in the order of its temporaries): the same calls, which
   * now also hand those tensors to the caller, for {@link #derive(CompositeIr, Function, Set, String)}.
   */
  public static CompositeIr saving(CompositeIr c, Set<String> saved, String name) {
    OperatorIr.Composite sig = c.signature();
    List<Param> params = new ArrayList<>(sig.params());
    List<CompositeIr.Temp> temps = new ArrayList<>();
    for (CompositeIr.Temp t : c.temps()) {
      if (saved.contains(t.name())) {
        params.add(savedParam(t, params.size(), ArrayRole.OUT));
      } else {
        temps.add(t);
      }
    }
    OperatorIr.Composite savingSig = new OperatorIr.Composite(sig.owner(), name, params);
    return new CompositeIr(savingSig, temps, c.calls());
  }

  /** The forward calls a gradient that has {@code saved} given would still repeat. */
  public static long recomputedCalls(CompositeIr c, Set<String> saved) {
    Set<String> unsaved = unsaved(c, saved);
    return c.calls().stream().filter(call -> writesAny(call, unsaved)).count();
  }

  /** The names of {@code c}'s temporaries not in {@code saved}: what the backward pass computes again. */
  private static Set<String> unsaved(CompositeIr c, Set<String> saved) {
    Set<String> out = new HashSet<>();
    c.temps().forEach(t -> {
      if (!saved.contains(t.name())) {
        out.add(t.name());
      }
    });
    return out;
  }

  /** Whether {@code call} writes one of {@code tensors} (by name). */
  public static boolean writesAny(CompositeIr.Call call, Set<String> tensors) {
    for (int k = 0; k < call.args().size(); k++) {
      if (call.callee().params().get(k) instanceof Param.Array p && p.role() != ArrayRole.IN
          && call.args().get(k) instanceof CompositeIr.Arg.Tensor t && tensors.contains(t.name())) {
        return true;
      }
    }
    return false;
  }

  private static Param.Array savedParam(CompositeIr.Temp t, int position, ArrayRole role) {
    return new Param.Array(t.name(), position, t.elementType(), new Shape(t.length().toString(), List.of(t.length())), role);
  }

  /** A callee without a gradient, carried out of a {@link Function}. */
  public static final class Unavailable extends RuntimeException {
    private final NotDifferentiable cause;

    public Unavailable(NotDifferentiable cause) {
      super(cause.reason(), null, false, false);
      this.cause = cause;
    }

    public NotDifferentiable notDifferentiable() {
      return cause;
    }
  }

  public static boolean applies(CompositeIr c) {
    OperatorIr.Composite sig = c.signature();
    return sig.arrays().stream().anyMatch(a -> a.role() == ArrayRole.IN && a.elementType().isFloating())
        && sig.arrays().stream().anyMatch(a -> a.role() != ArrayRole.IN && a.elementType().isFloating());
  }

  private CompositeIr build() throws NotDifferentiable {
    OperatorIr.Composite sig = c.signature();
    sig.params().forEach(p -> taken.add(p.name()));
    c.temps().forEach(t -> taken.add(t.name()));
    List<Param> out = new ArrayList<>();
    Set<String> outputs = new HashSet<>();
    for (Param p : sig.params()) {
      if (p instanceof Param.Array a && a.role() != ArrayRole.IN) {
        out.add(new Param.Array(a.name(), a.position(), a.elementType(), a.shape(), ArrayRole.IN));
        outputs.add(a.name());
      } else {
        out.add(p);
      }
      if (p instanceof Param.Array a) {
        params.put(a.name(), a);
      }
    }
    for (CompositeIr.Temp t : c.temps()) {
      if (saved.contains(t.name())) {
        Param.Array in = savedParam(t, out.size(), ArrayRole.IN);
        out.add(in);
        params.put(t.name(), in);
      }
    }
    for (Param.Array a : sig.arrays()) {
      if (a.role() != ArrayRole.IN && a.elementType().isFloating()) {
        String d = GradientNames.gradient(a.name(), taken);
        out.add(new Param.Array(d, out.size(), a.elementType(), a.shape(), ArrayRole.IN));
        upstreamOf.put(a.name(), d);
      }
    }
    Map<String, String> gradOf = new LinkedHashMap<>();
    for (Param.Array a : sig.arrays()) {
      if (a.role() == ArrayRole.IN && a.elementType().isFloating()) {
        String d = GradientNames.gradient(a.name(), taken);
        out.add(new Param.Array(d, out.size(), a.elementType(), a.shape(), ArrayRole.OUT));
        gradOf.put(a.name(), d);
      }
    }
    Map<String, Integer> readers = countReaders();
    recompute(outputs);
    for (int i = c.calls().size() - 1; i >= 0; i--) {
      backward(i, c.calls().get(i), gradOf, readers);
    }
    for (Map.Entry<String, String> g : gradOf.entrySet()) {
      List<String> parts = contributions.getOrDefault(g.getKey(), List.of());
      if (parts.size() == 1 && parts.get(0).equals(g.getValue())) {
        continue; // written directly
      }
      sum(parts, g.getValue(), params.get(g.getKey()).elementType(), params.get(g.getKey()).shape().length());
    }
    OperatorIr.Composite gradSig = new OperatorIr.Composite(sig.owner(), name, out);
    return new CompositeIr(gradSig, new ArrayList<>(temps.values()), calls);
  }

  /** How many floating-point gradient contributions each tensor will receive from the calls. */
  private Map<String, Integer> countReaders() {
    Map<String, Integer> n = new HashMap<>();
    for (CompositeIr.Call call : c.calls()) {
      for (int k = 0; k < call.args().size(); k++) {
        if (call.callee().params().get(k) instanceof Param.Array p && p.role() == ArrayRole.IN
            && p.elementType().isFloating() && call.args().get(k) instanceof CompositeIr.Arg.Tensor t) {
          n.merge(t.name(), 1, Integer::sum);
        }
      }
    }
    return n;
  }

  /** The forward calls that write temporaries, again; what they write into outputs goes to scratch. */
  private void recompute(Set<String> outputs) {
    Set<String> tempNames = unsaved(c, saved);
    c.temps().forEach(t -> {
      if (tempNames.contains(t.name())) {
        temps.put(t.name(), t);
      }
    });
    for (CompositeIr.Call call : c.calls()) {
      if (!writesAny(call, tempNames)) {
        continue; // what it wrote is given: an output, or a saved temporary
      }
      List<CompositeIr.Arg> args = new ArrayList<>(call.args());
      for (int k = 0; k < args.size(); k++) {
        if (call.callee().params().get(k) instanceof Param.Array p && p.role() != ArrayRole.IN
            && args.get(k) instanceof CompositeIr.Arg.Tensor t) {
          if (outputs.contains(t.name()) || saved.contains(t.name())) {
            String scratch = fresh("fwd$" + t.name());
            Param.Array o = params.get(t.name());
            temps.put(scratch, new CompositeIr.Temp(scratch, o.elementType(), o.shape().length(), call.origin()));
            args.set(k, new CompositeIr.Arg.Tensor(scratch));
          }
        }
      }
      calls.add(new CompositeIr.Call(id(call.callee().name()), call.callee(), call.dims(), args, call.origin(), call.line()));
    }
  }

  private void backward(int index, CompositeIr.Call call, Map<String, String> gradOf, Map<String, Integer> readers)
      throws NotDifferentiable {
    OperatorIr.Grid callee = call.callee();
    if (!GridGradient.applies(callee)) {
      return; // nothing floating flows through it
    }
    Map<String, String> upstream = new HashMap<>();
    boolean any = false;
    for (int k = 0; k < call.args().size(); k++) {
      if (callee.params().get(k) instanceof Param.Array p && p.role() != ArrayRole.IN && p.elementType().isFloating()) {
        String tensor = ((CompositeIr.Arg.Tensor) call.args().get(k)).name();
        String g = gradientOf(tensor, p, call);
        upstream.put(p.name(), g);
        any |= g != null;
      }
    }
    if (!any) {
      return; // no gradient reaches what it wrote
    }
    CompositeIr g;
    try {
      g = calleeGradient.apply(callee);
    } catch (Unavailable u) {
      throw new NotDifferentiable("it calls '" + callee.name() + "', which has no gradient: " + u.cause.reason(),
          call.origin());
    }
    List<CompositeIr.Arg> args = new ArrayList<>();
    int forward = callee.params().size();
    for (int k = 0; k < forward; k++) {
      args.add(call.args().get(k));
    }
    List<Param> gp = g.signature().params();
    int outs = 0;
    for (int k = forward; k < gp.size(); k++) {
      Param.Array p = (Param.Array) gp.get(k);
      if (p.role() == ArrayRole.IN) { // an upstream gradient, in the order of the callee's outputs
        Param.Array o = GridGradient.outputs(callee).get(outs++);
        String name = upstream.get(o.name());
        if (name == null) { // this output's gradient is zero
          name = fresh("zero$" + o.name());
          Poly length = o.shape().length().substitute(call.dims());
          sum(List.of(), name, o.elementType(), length);
          temps.put(name, new CompositeIr.Temp(name, o.elementType(), length, call.origin()));
        }
        args.add(new CompositeIr.Arg.Tensor(name));
      } else { // the gradient of an input
        Param.Array in = GridGradient.wrt(callee).get(k - forward - outs);
        String tensor = ((CompositeIr.Arg.Tensor) call.args().get(callee.params().indexOf(in))).name();
        String target;
        if (gradOf.containsKey(tensor) && readers.getOrDefault(tensor, 0) == 1) {
          target = gradOf.get(tensor);
        } else {
          target = fresh("g$" + tensor + "$" + (index + 1));
          temps.put(target, new CompositeIr.Temp(target, in.elementType(), in.shape().length().substitute(call.dims()),
              call.origin()));
        }
        contributions.computeIfAbsent(tensor, t -> new ArrayList<>()).add(target);
        args.add(new CompositeIr.Arg.Tensor(target));
      }
    }
    new CompositeExpansion(g, call.dims(), args, temps, taken, call.origin(), call.line(), this::id).expandInto(calls);
  }

  /**
   * The tensor holding the whole gradient of {@code tensor} (written by {@code call} as its
   * parameter {@code p}), summing its contributions first when there are several; null when none.
   */
  private String gradientOf(String tensor, Param.Array p, CompositeIr.Call call) {
    List<String> parts = new ArrayList<>(contributions.getOrDefault(tensor, List.of()));
    if (upstreamOf.containsKey(tensor)) {
      parts.add(0, upstreamOf.get(tensor));
    }
    if (parts.isEmpty()) {
      return null;
    }
    if (parts.size() == 1) {
      return parts.get(0);
    }
    String name = fresh("g$" + tensor);
    Poly length = p.shape().length().substitute(call.dims());
    temps.put(name, new CompositeIr.Temp(name, p.elementType(), length, call.origin()));
    sum(parts, name, p.elementType(), length);
    return name;
  }

  /** A call writing {@code out = parts[0] + parts[1] + ...} (zeros when there are none). */
  private void sum(List<String> parts, String out, ScalarType type, Poly length) {
    OperatorIr.Grid op = SumOps.sum(c.signature().owner(), parts.size(), type);
    List<CompositeIr.Arg> args = new ArrayList<>();
    args.add(new CompositeIr.Arg.Size(length));
    parts.forEach(p -> args.add(new CompositeIr.Arg.Tensor(p)));
    args.add(new CompositeIr.Arg.Tensor(out));
    calls.add(new CompositeIr.Call(id(op.name()), op, Map.of(SumOps.SIZE, length), args, null, 0));
  }

  private String fresh(String name) {
    String n = name;
    for (int k = 2; !taken.add(n); k++) {
      n = name + k;
    }
    return n;
  }

  private String id(String callee) {
    return callee + "#" + ids.merge(callee, 1, Integer::sum);
  }
}
