package dev.kiln.tests.grad;

import dev.kiln.Operator;
import dev.kiln.tests.fusion.AcrossJars;
import dev.kiln.tests.fusion.Composites;
import dev.kiln.tests.fusion.Edges;
import dev.kiln.tests.fusion.Graphs;
import dev.kiln.tests.fusion.Layouts;
import dev.kiln.tests.fusion.Loops;
import dev.kiln.tests.fusion.Prims;
import dev.kiln.tests.ops.Activations;
import dev.kiln.tests.gradients.HandGradients;
import dev.kiln.tests.gradients.Regressions;
import dev.kiln.tests.gradients.Gradients;
import dev.kiln.tests.ops.Layout;
import dev.kiln.tests.ops.Linear;
import dev.kiln.tests.ops.Lstm;
import dev.kiln.tests.ops.Normalization;
import dev.kiln.tests.ops.Reductions;
import dev.kiln.tests.ops.Stencils;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The operators whose gradients are checked: every static {@code @Operator} method of {@link #CLASSES}. */
final class Operators {
  private Operators() {}

  /**
   * The classes of {@code dev.kiln.tests.cuda.OperatorRuns.OPERATOR_CLASSES} (package-private
   * there; {@code GradientCheckTest} checks that none is missing here), and any others to check.
   */
  static final List<Class<?>> CLASSES = List.of(
      Activations.class, dev.kiln.tests.ops.DerivedBounds.class, dev.kiln.tests.types.LongArrays.class, dev.kiln.tests.types.NarrowArrays.class, Layout.class, Linear.class, Lstm.class, Normalization.class, Reductions.class, dev.kiln.tests.ops.RowLoops.class, Stencils.class, dev.kiln.tests.ops.RandomOps.class, dev.kiln.tests.records.Records.class,
      Prims.class, Composites.class, Graphs.class, Layouts.class, Loops.class, Edges.class, AcrossJars.class,
      HandGradients.class, Gradients.class,
      Regressions.class, dev.kiln.tests.contraction.Products.class, dev.kiln.tests.simd.SimdOps.class,
      dev.kiln.tests.simd.MathOps.class,
      // the standard library's primitives (its Layout and Linear share simple names with the tests' own)
      dev.kiln.lib.Elementwise.class, dev.kiln.lib.Rows.class);

  static List<Method> all() {
    return CLASSES.stream()
        .flatMap(c -> Stream.of(c.getDeclaredMethods()).sorted(Comparator.comparing(Method::getName)))
        .filter(m -> m.isAnnotationPresent(Operator.class) && Modifier.isStatic(m.getModifiers()))
        .collect(Collectors.toList());
  }

  /** {@code SimpleClassName.method}: the key of {@link NoGradient} and the name in messages. */
  static String key(Method op) {
    return op.getDeclaringClass().getSimpleName() + "." + op.getName();
  }
}
