package dev.kiln.processor.ir.transform;

import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.SourceRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Expands a call of a composite operator into the calls of its body, bound to the caller's
 * arrays, sizes and scalars (the front end, for a composite calling one; autodiff, for a composite
 * gradient calling a gradient that is a composite). The callee's temporaries become the caller's, renamed
 * {@code <callee>_<name>} (with a number when that name is taken).
 */
public final class CompositeExpansion {
  private final CompositeIr callee;
  private final Map<String, Poly> dims;
  private final List<CompositeIr.Arg> args;
  private final Map<String, CompositeIr.Temp> temps;
  /** Where the call is in the source (a javac tree, opaque here), for the temporaries and calls it makes. */
  private final SourceRef site;
  private final long line;
  private final Function<String, String> ids;
  private final java.util.Set<String> taken;

  public CompositeExpansion(CompositeIr callee, Map<String, Poly> dims, List<CompositeIr.Arg> args,
      Map<String, CompositeIr.Temp> temps, java.util.Set<String> taken, SourceRef site, long line, Function<String, String> ids) {
    this.taken = taken;
    this.callee = callee;
    this.dims = dims;
    this.args = args;
    this.temps = temps;
    this.site = site;
    this.line = line;
    this.ids = ids;
  }

  public void expandInto(List<CompositeIr.Call> calls) {
    Map<String, CompositeIr.Arg> byParam = new HashMap<>();
    List<Param> params = callee.signature().params();
    for (int i = 0; i < params.size(); i++) {
      byParam.put(params.get(i).name(), args.get(i));
    }
    Map<String, String> renamed = new HashMap<>();
    for (CompositeIr.Temp t : callee.temps()) {
      // '$' cannot clash with a name the user declares in a composite (Java allows it, nobody writes it)
      String name = callee.name() + "$" + t.name();
      for (int n = 2; temps.containsKey(name) || taken.contains(name); n++) {
        name = callee.name() + "$" + t.name() + n;
      }
      renamed.put(t.name(), name);
      temps.put(name, new CompositeIr.Temp(name, t.elementType(), t.length().substitute(dims), site));
    }
    for (CompositeIr.Call inner : callee.calls()) {
      Map<String, Poly> innerDims = new HashMap<>();
      inner.dims().forEach((k, v) -> innerDims.put(k, v.substitute(dims)));
      List<CompositeIr.Arg> bound = new ArrayList<>();
      for (CompositeIr.Arg a : inner.args()) {
        bound.add(bind(a, byParam, renamed));
      }
      calls.add(new CompositeIr.Call(ids.apply(inner.callee().name()), inner.callee(), innerDims, bound, site, line));
    }
  }

  private CompositeIr.Arg bind(CompositeIr.Arg a, Map<String, CompositeIr.Arg> byParam, Map<String, String> renamed) {
    if (a instanceof CompositeIr.Arg.Tensor t) {
      return renamed.containsKey(t.name()) ? new CompositeIr.Arg.Tensor(renamed.get(t.name())) : byParam.get(t.name());
    }
    if (a instanceof CompositeIr.Arg.Size s) {
      return new CompositeIr.Arg.Size(s.value().substitute(dims));
    }
    CompositeIr.Arg.Value v = (CompositeIr.Arg.Value) a;
    return v.param() == null ? v : byParam.get(v.param().name());
  }
}
