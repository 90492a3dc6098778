package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A gradient the user wrote, {@code @Gradient(of = "f")}: the signature it must have (the derived
 * gradient's), and the forms the rest of Kiln uses in place of a derived one.
 */
public final class HandWritten {
  private HandWritten() {}

  /** The parameters and result a gradient of {@code f} must have, as Java text; null when {@code g} has them. */
  public static String mismatch(OperatorIr f, OperatorIr g) {
    List<Expected> expected = expected(f);
    if (expected == null) {
      return "an elementwise operator with " + ElementwiseGradient.floating((OperatorIr.Elementwise) f).size() + " floating-point parameters has"
          + " one derived gradient per parameter; Kiln takes a hand-written gradient of an elementwise operator with one";
    }
    String text = "its signature must be " + text(f, expected);
    if (g.params().size() != expected.size() || (f instanceof OperatorIr.Elementwise) != (g instanceof OperatorIr.Elementwise)) {
      return text;
    }
    if (f instanceof OperatorIr.Elementwise map && ((OperatorIr.Elementwise) g).resultType() != ElementwiseGradient.floating(map).get(0).type()) {
      return text;
    }
    Map<String, Poly> rename = new HashMap<>();
    for (int i = 0; i < expected.size(); i++) {
      if (g.params().get(i) instanceof Param.Scalar s && expected.get(i).param() instanceof Param.Scalar e && s.dim() && e.dim()) {
        rename.put(s.name(), Poly.symbol(e.name()));
      }
    }
    for (int i = 0; i < expected.size(); i++) {
      if (!fits(g.params().get(i), expected.get(i), rename)) {
        return text;
      }
    }
    return null;
  }

  /** One expected parameter: the forward parameter it comes from, its role in the gradient, a name. */
  private record Expected(Param param, ArrayRole role, String name, ScalarType type) {}

  private static List<Expected> expected(OperatorIr f) {
    List<Expected> out = new ArrayList<>();
    Set<String> taken = new java.util.HashSet<>();
    f.params().forEach(p -> taken.add(p.name()));
    if (f instanceof OperatorIr.Elementwise map) {
      if (ElementwiseGradient.floating(map).size() != 1) {
        return null;
      }
      f.params().forEach(p -> out.add(new Expected(p, null, p.name(), ((Param.Scalar) p).type())));
      out.add(new Expected(null, null, "y", map.resultType()));
      out.add(new Expected(null, null, "dy", map.resultType()));
      return out;
    }
    for (Param p : f.params()) {
      out.add(new Expected(p, p instanceof Param.Array ? ArrayRole.IN : null, p.name(), null));
    }
    for (Param.Array a : GridGradient.outputs(f)) {
      out.add(new Expected(a, ArrayRole.IN, GradientNames.gradient(a.name(), taken), null));
    }
    for (Param.Array a : GridGradient.wrt(f)) {
      out.add(new Expected(a, ArrayRole.OUT, GradientNames.gradient(a.name(), taken), null));
    }
    return out;
  }

  private static boolean fits(Param actual, Expected e, Map<String, Poly> rename) {
    if (e.param() == null) {
      return actual instanceof Param.Scalar s && s.type() == e.type();
    }
    if (e.param() instanceof Param.Scalar ps) {
      return actual instanceof Param.Scalar s && s.type() == ps.type() && s.dim() == ps.dim();
    }
    Param.Array pa = (Param.Array) e.param();
    if (!(actual instanceof Param.Array a) || a.elementType() != pa.elementType()
        || (a.role() == ArrayRole.IN) != (e.role() == ArrayRole.IN) || a.shape().rank() != pa.shape().rank()) {
      return false;
    }
    for (int d = 0; d < a.shape().rank(); d++) {
      if (!a.shape().extents().get(d).substitute(rename).equals(pa.shape().extents().get(d))) {
        return false;
      }
    }
    return true;
  }

  private static String text(OperatorIr f, List<Expected> expected) {
    if (expected == null) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    b.append(f instanceof OperatorIr.Elementwise map ? ElementwiseGradient.floating(map).get(0).type().javaName() : "void")
        .append(' ').append(GradientNames.launcher(f.name())).append('(');
    for (int i = 0; i < expected.size(); i++) {
      Expected e = expected.get(i);
      b.append(i == 0 ? "" : ", ");
      if (e.param() instanceof Param.Array a) {
        b.append(e.role() == ArrayRole.OUT ? "@Out " : "").append("@Shape(\"").append(a.shape().text()).append("\") ")
            .append(a.elementType().javaName()).append("[] ");
      } else if (e.param() instanceof Param.Scalar s) {
        b.append(s.dim() ? "@Dim " : "").append(s.type().javaName()).append(' ');
      } else {
        b.append(e.type().javaName()).append(' ');
      }
      b.append(e.name());
    }
    return b.append(')').toString();
  }


  /** {@code g} renamed. */
  public static OperatorIr renamed(OperatorIr g, String name) {
    if (g instanceof OperatorIr.Grid grid) {
      return grid.withName(name);
    }
    if (g instanceof OperatorIr.Elementwise map) {
      return new OperatorIr.Elementwise(map.owner(), name, map.params(), map.resultType(), map.result(), map.names());
    }
    return renamed((OperatorIr.Composite) g, name);
  }

  private static OperatorIr.Composite renamed(OperatorIr.Composite g, String name) {
    return new OperatorIr.Composite(g.owner(), name, g.params());
  }

  /** {@code c} with its signature renamed. */
  public static CompositeIr renamed(CompositeIr c, String name) {
    return new CompositeIr(renamed(c.signature(), name), c.temps(), c.calls());
  }

  /**
   * A hand-written grid or composite gradient as the composite a backward pass expands at a call of
   * its operator ({@code gComposite}: the body of a composite gradient, else null).
   */
  public static CompositeIr composite(OperatorIr g, CompositeIr gComposite) {
    if (gComposite != null) {
      return gComposite;
    }
    if (!(g instanceof OperatorIr.Grid grid)) {
      throw new IllegalArgumentException(g.name() + " is a " + g.kind() + " operator: a composite gradient comes with its body");
    }
    CompositeBuilder b = new CompositeBuilder(g.name(), g.owner(), g.params());
    b.call(grid, Map.of());
    return b.build();
  }
}
