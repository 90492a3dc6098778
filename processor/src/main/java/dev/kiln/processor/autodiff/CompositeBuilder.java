package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.SourceRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a composite whose calls pass arrays and sizes by name: each callee parameter is bound to
 * the composite's parameter, temporary or size of the same name, unless the call says otherwise.
 */
final class CompositeBuilder {
  private final OperatorIr.Composite signature;
  private final Map<String, Param> byName = new HashMap<>();
  private final List<CompositeIr.Temp> temps = new ArrayList<>();
  private final List<CompositeIr.Call> calls = new ArrayList<>();
  private final Map<String, Integer> counts = new HashMap<>();

  CompositeBuilder(String name, String owner, List<Param> params) {
    this.signature = new OperatorIr.Composite(owner, name, params);
    params.forEach(p -> byName.put(p.name(), p));
  }

  void temp(String name, ScalarType type, Poly length, SourceRef origin) {
    temps.add(new CompositeIr.Temp(name, type, length, origin));
  }

  /**
   * A call of {@code callee} with its parameters bound by name; {@code sizes} binds size parameters
   * that the composite does not have.
   */
  void call(OperatorIr.Grid callee, Map<String, Poly> sizes) {
    Map<String, Poly> dims = new HashMap<>();
    List<CompositeIr.Arg> args = new ArrayList<>();
    for (Param p : callee.params()) {
      if (p instanceof Param.Array) {
        args.add(new CompositeIr.Arg.Tensor(p.name()));
        continue;
      }
      Param.Scalar s = (Param.Scalar) p;
      Poly bound = sizes.get(s.name());
      if (bound == null && s.dim()) {
        bound = Poly.symbol(s.name());
      }
      if (s.dim()) {
        dims.put(s.name(), bound);
        args.add(new CompositeIr.Arg.Size(bound));
      } else {
        args.add(new CompositeIr.Arg.Value((Param.Scalar) byName.get(s.name()), 0));
      }
    }
    int n = counts.merge(callee.name(), 1, Integer::sum);
    calls.add(new CompositeIr.Call(callee.name() + "#" + n, callee, dims, args, null, 0));
  }

  CompositeIr build() {
    return new CompositeIr(signature, temps, calls);
  }
}
