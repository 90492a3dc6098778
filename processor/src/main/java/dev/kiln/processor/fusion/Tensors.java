package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.Shape;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The arrays of a composite as the fused kernels see them: its array parameters, and one array per
 * temporary whose shape is the one its first writer declares (bound to the composite's sizes), so
 * index patterns delinearize the way the producer wrote them.
 */
final class Tensors {
  private final Map<String, Param.Array> byName = new LinkedHashMap<>();
  private final Map<Param.Array, CompositeIr.Temp> temps = new LinkedHashMap<>();

  Tensors(CompositeIr composite) {
    for (Param.Array a : composite.signature().arrays()) {
      byName.put(a.name(), a);
    }
    Map<String, Shape> shapes = new LinkedHashMap<>();
    for (CompositeIr.Temp t : composite.temps()) {
      shapes.put(t.name(), writerShape(composite, t));
    }
    propagate(composite, shapes);
    for (CompositeIr.Temp t : composite.temps()) {
      Shape shape = shapes.get(t.name());
      Param.Array a = new Param.Array(t.name(), -1, t.elementType(), shape, ArrayRole.OUT);
      byName.put(t.name(), a);
      temps.put(a, t);
    }
  }

  /**
   * A flat temporary that a 1-D call uses beside a shaped array of the same length takes that
   * shape (repeated until nothing changes), so chains of flat elementwise calls over a [B, H]
   * tensor all see [B, H].
   */
  private void propagate(CompositeIr composite, Map<String, Shape> shapes) {
    boolean changed = true;
    while (changed) {
      changed = false;
      for (CompositeIr.Call c : composite.calls()) {
        if (c.callee().grid().size() != 1) {
          continue;
        }
        Poly extent = c.callee().grid().get(0).size().substitute(c.dims());
        Shape shaped = null;
        for (CompositeIr.Arg a : c.args()) {
          Shape s = a instanceof CompositeIr.Arg.Tensor t ? shapeOf(t.name(), shapes) : null;
          if (s != null && s.rank() > 1 && s.length().equals(extent)) {
            shaped = s;
            break;
          }
        }
        if (shaped == null) {
          continue;
        }
        for (CompositeIr.Arg a : c.args()) {
          if (a instanceof CompositeIr.Arg.Tensor t && shapes.containsKey(t.name())
              && shapes.get(t.name()).rank() == 1 && shapes.get(t.name()).length().equals(extent)) {
            shapes.put(t.name(), shaped);
            changed = true;
          }
        }
      }
    }
  }

  private Shape shapeOf(String name, Map<String, Shape> shapes) {
    return shapes.containsKey(name) ? shapes.get(name) : byName.get(name).shape();
  }

  private static Shape writerShape(CompositeIr composite, CompositeIr.Temp t) {
    for (CompositeIr.Call c : composite.calls()) {
      for (int i = 0; i < c.args().size(); i++) {
        if (c.args().get(i) instanceof CompositeIr.Arg.Tensor arg && arg.name().equals(t.name())
            && c.callee().params().get(i) instanceof Param.Array p && p.role() != ArrayRole.IN) {
          List<Poly> extents = p.shape().extents().stream().map(e -> e.substitute(c.dims())).toList();
          return new Shape(text(extents), extents);
        }
      }
    }
    return new Shape(t.length().toString(), List.of(t.length()));
  }

  static String text(List<Poly> extents) {
    StringBuilder b = new StringBuilder();
    for (Poly e : extents) {
      b.append(b.length() == 0 ? "" : ", ").append(e);
    }
    return b.toString();
  }

  Param.Array get(String name) {
    return byName.get(name);
  }

  boolean isTemp(Param.Array a) {
    return temps.containsKey(a);
  }

  CompositeIr.Temp temp(Param.Array a) {
    return temps.get(a);
  }

  /** Every array: parameters first, then temporaries, in declaration order. */
  Iterable<Param.Array> all() {
    return byName.values();
  }
}
