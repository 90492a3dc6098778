package dev.kiln.tests.grad;

/**
 * {@code L = sum_Y sum_i dY[i] * Y[i]} as a function of one floating input array (a {@code
 * float[]} or {@code double[]}), every other argument of the operator held fixed, returned term by
 * term ({@code dY[i] * Y[i]} in double, all outputs concatenated): differences of L are summed over
 * the terms that changed, so outputs a perturbation does not reach add neither noise nor tolerance.
 */
@FunctionalInterface
interface Loss {
  double[] terms(Object x) throws Exception;
}
