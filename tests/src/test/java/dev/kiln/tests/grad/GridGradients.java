package dev.kiln.tests.grad;

import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.Out;
import dev.kiln.testing.Loss;
import dev.kiln.testing.Precision;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The gradient check of a grid or composite operator {@code f} (a void method): its plain-Java
 * forward gives the outputs, {@code fGrad(f's arguments, forward outputs, dY..., dX...)} the
 * gradients, and each floating input array's gradient is checked by {@link GradientCheck}.
 *
 * <p>A draw of inputs is rejected, and new ones drawn, when the forward outputs are not finite or
 * L is not smooth along a probe; from draw {@link #POSITIVE_FROM} on, floating arrays are positive.
 * If all {@link #DRAWS} draws are rejected the check fails: an operator that can never be checked
 * must say so in {@link NoGradient}.
 */
final class GridGradients {
  static final int DRAWS = 8;
  static final int POSITIVE_FROM = 3;

  private final String name;
  private final Method op;
  private final Launcher forward;
  private final Launcher gradient;
  private final Parameter[] params;
  private final Precision precision;

  GridGradients(String name, Method op, Launcher gradient) {
    this.name = name;
    this.op = op;
    this.forward = Launcher.of(op);
    this.gradient = gradient;
    this.params = op.getParameters();
    this.precision = Precision.of(op.getParameterTypes());
  }

  void check(int base) throws Exception {
    List<String> rejected = new ArrayList<>();
    for (int draw = 0; draw < DRAWS; draw++) {
      SplittableRandom random = new SplittableRandom(name.hashCode() * 1_000_003L + base * 1009L + draw);
      String why = tryDraw(Inputs.grid(params, base, random, draw >= POSITIVE_FROM), random);
      if (why == null) {
        return;
      }
      rejected.add("draw " + draw + ": " + why);
    }
    fail(name + ": no draw of inputs could be checked (dims from " + base + "):\n  " + String.join("\n  ", rejected));
  }

  /** Null when every floating input array's gradient agrees; why not checked when the draw is rejected. */
  private String tryDraw(Object[] args, SplittableRandom random) throws Exception {
    Object[] outputs = Inputs.copy(args);
    forward.call(outputs);
    List<Integer> outs = new ArrayList<>();
    List<Integer> ins = new ArrayList<>();
    for (int i = 0; i < params.length; i++) {
      if (params[i].isAnnotationPresent(Out.class)) {
        outs.add(i);
      } else if (params[i].getType().isArray() && Precision.floating(params[i].getType())) {
        ins.add(i);
      }
    }
    Object[] dY = new Object[params.length];
    for (int i : outs) {
      dY[i] = Inputs.upstream(params[i].getType(), Precision.length(outputs[i]), random);
      for (int e = 0; e < Precision.length(outputs[i]) && !(outputs[i] instanceof int[]); e++) {
        if (!Double.isFinite(Precision.get(outputs[i], e))) {
          return "forward output " + params[i].getName() + "[" + e + "] is " + Precision.get(outputs[i], e);
        }
      }
    }
    Object[] grads = runGradient(outputs, outs, ins, dY);
    for (int k = 0; k < ins.size(); k++) {
      int i = ins.get(k);
      String what = name + "Grad: d" + params[i].getName();
      Loss loss = x -> loss(args, i, x, outs, dY);
      String why = new GradientCheck(what, loss, args[i], Inputs.toDoubles(grads[k]), precision).run(random);
      if (why != null) {
        return why;
      }
    }
    return null;
  }

  /** Calls fGrad; the gradient arrays start NaN, so an element it does not write shows. */
  private Object[] runGradient(Object[] outputs, List<Integer> outs, List<Integer> ins, Object[] dY) throws Exception {
    List<Object> call = new ArrayList<>(Arrays.asList(Inputs.copy(outputs)));
    for (int i : outs) {
      call.add(Inputs.copyOf(dY[i]));
    }
    Object[] grads = new Object[ins.size()];
    for (int k = 0; k < ins.size(); k++) {
      grads[k] = Inputs.nans(params[ins.get(k)].getType(), Precision.length(outputs[ins.get(k)]));
      call.add(grads[k]);
    }
    Object[] callArgs = call.toArray();
    gradient.call(callArgs);
    for (int i = 0; i < params.length; i++) {
      if (!Inputs.same(outputs[i], callArgs[i])) {
        fail(name + "Grad modified its argument '" + params[i].getName() + "'");
      }
    }
    for (int k = 0; k < outs.size(); k++) {
      if (!Inputs.same(dY[outs.get(k)], callArgs[params.length + k])) {
        fail(name + "Grad modified its upstream gradient d" + params[outs.get(k)].getName());
      }
    }
    for (int k = 0; k < ins.size(); k++) {
      for (int j = 0; j < Precision.length(grads[k]); j++) {
        if (!Double.isFinite(Precision.get(grads[k], j))) {
          fail(name + "Grad: d" + params[ins.get(k)].getName() + "[" + j + "] is " + Precision.get(grads[k], j)
              + " (the gradient arrays start NaN: an element not written stays NaN)");
        }
      }
    }
    return grads;
  }

  /** L's terms with argument {@code i} replaced by {@code x}: the forward run from fresh outputs; int outputs count zero. */
  private double[] loss(Object[] args, int i, Object x, List<Integer> outs, Object[] dY) throws Exception {
    Object[] run = Inputs.copy(args);
    run[i] = x;
    forward.call(run);
    List<Double> terms = new ArrayList<>();
    for (int o : outs) {
      if (!(run[o] instanceof int[])) {
        for (int e = 0; e < Precision.length(run[o]); e++) {
          terms.add(Precision.get(dY[o], e) * Precision.get(run[o], e));
        }
      }
    }
    return terms.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
