package dev.kiln.tests.grad;

import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.testing.Loss;
import dev.kiln.testing.Precision;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * The gradient check of an elementwise operator {@code f} (scalar parameters, a scalar result):
 * each scalar gradient {@code fGrad} / {@code fGrad_p} (f's arguments, y, dy; returns {@code dy *
 * df/dp}) against central differences of {@code dy * f} at {@link #POINTS} random points, and the
 * map launcher, where there is one, element by element against the scalar gradient (exactly: the
 * same expression on the same values). Points where f is not finite or not smooth are replaced;
 * from the second half of the attempts on, floating arguments are positive (as in {@link
 * GridGradients}).
 */
final class ElementwiseGradients {
  static final int POINTS = 16;
  static final int ATTEMPTS = 64;
  static final int MAP_LENGTH = 37;

  private final String name;
  private final Launcher f;
  private final Class<?>[] types;
  private final Class<?> result;
  private final int[] floating;
  private final Precision precision;

  ElementwiseGradients(String name, Method op) {
    this.name = name;
    this.f = Launcher.of(op);
    this.types = op.getParameterTypes();
    this.result = op.getReturnType();
    this.floating = IntStream.range(0, types.length).filter(i -> Precision.floating(types[i])).toArray();
    Class<?>[] all = Arrays.copyOf(types, types.length + 1);
    all[types.length] = result;
    this.precision = Precision.of(all);
  }

  /** @param grads one scalar gradient per floating parameter, in order, with its name for messages */
  void checkScalar(List<Launcher> grads, List<String> gradNames) throws Exception {
    SplittableRandom random = new SplittableRandom(name.hashCode());
    int checked = 0;
    String lastRejection = "none";
    for (int attempt = 0; attempt < ATTEMPTS && checked < POINTS; attempt++) {
      Object[] args = new Object[types.length];
      for (int i = 0; i < args.length; i++) {
        args[i] = Inputs.operand(types[i], random, attempt >= ATTEMPTS / 2);
      }
      Object y = f.call(args);
      Object dy = boxed(random.nextDouble(-1, 1));
      double yValue = ((Number) y).doubleValue();
      String why = Double.isFinite(yValue) ? checkPoint(args, y, dy, grads, gradNames, random) : "f is " + y;
      if (why == null) {
        checked++;
      } else {
        lastRejection = why;
      }
    }
    if (checked < POINTS) {
      fail(name + ": only " + checked + " of " + POINTS + " random points could be checked in " + ATTEMPTS
          + " attempts (the last rejected: " + lastRejection + ")");
    }
  }

  private String checkPoint(Object[] args, Object y, Object dy, List<Launcher> grads, List<String> gradNames,
      SplittableRandom random) throws Exception {
    double dyValue = ((Number) dy).doubleValue();
    Object[] call = Arrays.copyOf(args, args.length + 2);
    call[args.length] = y;
    call[args.length + 1] = dy;
    for (int k = 0; k < floating.length; k++) {
      int p = floating[k];
      double g = ((Number) grads.get(k).call(call.clone())).doubleValue();
      Object x = Array.newInstance(types[p], 1);
      Array.set(x, 0, args[p]);
      Loss loss = a -> {
        Object[] at = args.clone();
        at[p] = Array.get(a, 0);
        return new double[] {dyValue * ((Number) f.call(at)).doubleValue()};
      };
      String what = gradNames.get(k) + " at " + Arrays.toString(call);
      String why = new GradientCheck(what, loss, x, new double[] {g}, precision).run(random);
      if (why != null) {
        return why;
      }
    }
    return null;
  }

  /**
   * The map launcher {@code fGrad(x[]..., y[], dy[], dx[])} against the scalar {@code fGrad},
   * element by element: the same values exactly (NaN where the scalar gives NaN).
   */
  void checkMap(Launcher map, Launcher scalar) throws Exception {
    SplittableRandom random = new SplittableRandom(name.hashCode() + 1L);
    int n = MAP_LENGTH;
    Object[] call = new Object[types.length + 3];
    for (int i = 0; i < types.length; i++) {
      call[i] = Inputs.array(types[i].arrayType(), n, 1, random, false);
      if (call[i] instanceof int[] ints) {
        Arrays.fill(ints, 1);
      }
    }
    Object y = Inputs.zeros(result.arrayType(), n);
    Object dy = Inputs.upstream(result.arrayType(), n, random);
    Class<?> dxType = types[floating[0]].arrayType();
    Object expected = Inputs.zeros(dxType, n);
    for (int e = 0; e < n; e++) {
      Object[] at = new Object[types.length + 2];
      for (int i = 0; i < types.length; i++) {
        at[i] = Array.get(call[i], e);
      }
      Array.set(y, e, f.call(Arrays.copyOf(at, types.length)));
      at[types.length] = Array.get(y, e);
      at[types.length + 1] = Array.get(dy, e);
      Array.set(expected, e, scalar.call(at));
    }
    call[types.length] = y;
    call[types.length + 1] = dy;
    call[types.length + 2] = Inputs.nans(dxType, n);
    map.call(call);
    Mismatch.exactly(name + "Grad(" + dxType.getSimpleName() + " ...) vs the scalar " + name + "Grad: dx",
        expected, call[types.length + 2]);
  }

  private Object boxed(double v) {
    return result == float.class ? (Object) (float) v : (Object) v;
  }
}
