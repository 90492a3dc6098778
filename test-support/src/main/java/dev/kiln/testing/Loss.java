package dev.kiln.testing;

/**
 * A loss for finite differences: {@code L = sum_Y sum_i dY[i] * Y[i]} as a function of one floating
 * input array (a {@code float[]} or {@code double[]}), every other argument of the operator held
 * fixed, returned term by term ({@code dY[i] * Y[i]} in double, all outputs concatenated), so that a
 * {@link Probe} can tell which terms a perturbation changed.
 */
@FunctionalInterface
public interface Loss {
  double[] terms(Object x) throws Exception;
}
