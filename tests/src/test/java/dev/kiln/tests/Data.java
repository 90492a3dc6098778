package dev.kiln.tests;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Reproducible test inputs: every array comes from a fixed seed. */
public final class Data {
  private Data() {}

  /** Uniform floats in {@code [lo, hi)}. */
  public static float[] floats(long seed, int n, float lo, float hi) {
    SplittableRandom random = new SplittableRandom(seed);
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = (float) random.nextDouble(lo, hi);
    }
    return a;
  }

  /** Uniform floats in {@code [-1, 1)}. */
  public static float[] floats(long seed, int n) {
    return floats(seed, n, -1f, 1f);
  }

  /** Uniform doubles in {@code [lo, hi)}. */
  public static double[] doubles(long seed, int n, double lo, double hi) {
    SplittableRandom random = new SplittableRandom(seed);
    double[] a = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = random.nextDouble(lo, hi);
    }
    return a;
  }

  /** Uniform ints in {@code [lo, hi)}. */
  public static int[] ints(long seed, int n, int lo, int hi) {
    SplittableRandom random = new SplittableRandom(seed);
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = random.nextInt(lo, hi);
    }
    return a;
  }

  /** Uniform ints over the whole int range (products and sums of them wrap). */
  public static int[] anyInts(long seed, int n) {
    SplittableRandom random = new SplittableRandom(seed);
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = random.nextInt();
    }
    return a;
  }

  /**
   * Multiples of 1/64 in {@code [-8, 8]}. Every partial sum of fewer than 32768 of them is a
   * multiple of 1/64 below 2^18 in magnitude, which a float holds exactly, so their float sum is
   * the same in any order.
   */
  public static float[] dyadic(long seed, int n) {
    SplittableRandom random = new SplittableRandom(seed);
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = random.nextInt(-512, 513) / 64f;
    }
    return a;
  }

  /**
   * Whole numbers in {@code [-bound, bound]} as floats. With {@code bound <= 16}, products of two
   * are at most 256 in magnitude, and sums of fewer than 65536 such products are exact in float, in
   * any order.
   */
  public static float[] integral(long seed, int n, int bound) {
    SplittableRandom random = new SplittableRandom(seed);
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = random.nextInt(-bound, bound + 1);
    }
    return a;
  }

  /**
   * Signed powers of two, {@code +-0.5, +-1, +-2}: their products are exact in double, in any
   * order, for the lengths used here (the exponent walks far less than 1000 from zero).
   */
  public static double[] powersOfTwo(long seed, int n) {
    double[] choices = {-2.0, -1.0, -0.5, 0.5, 1.0, 2.0};
    SplittableRandom random = new SplittableRandom(seed);
    double[] a = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = choices[random.nextInt(choices.length)];
    }
    return a;
  }

  /** A new array of {@code n} copies of {@code value}. */
  public static float[] filled(int n, float value) {
    float[] a = new float[n];
    Arrays.fill(a, value);
    return a;
  }

  /** A new array of {@code n} copies of {@code value}. */
  public static double[] filledDoubles(int n, double value) {
    double[] a = new double[n];
    Arrays.fill(a, value);
    return a;
  }

  /** Special float values that elementwise operators must treat like the JVM does. */
  public static float[] specialFloats() {
    return new float[] {
      0f,
      -0f,
      1f,
      -1f,
      0.5f,
      -0.5f,
      1e-30f,
      -1e-30f,
      Float.MIN_VALUE,
      -Float.MIN_VALUE,
      Float.MIN_NORMAL,
      3f,
      -3f,
      10f,
      -10f,
      20f,
      -20f,
      88f,
      -88f,
      89f,
      -89f,
      104f,
      -104f,
      1e20f,
      -1e20f,
      Float.MAX_VALUE,
      -Float.MAX_VALUE,
      Float.POSITIVE_INFINITY,
      Float.NEGATIVE_INFINITY,
      Float.NaN
    };
  }

  /** {@link #specialFloats()} followed by {@code n} uniform floats in {@code [-8, 8)}. */
  public static float[] specialAndRandomFloats(long seed, int n) {
    float[] special = specialFloats();
    float[] random = floats(seed, n, -8f, 8f);
    float[] a = Arrays.copyOf(special, special.length + n);
    System.arraycopy(random, 0, a, special.length, n);
    return a;
  }
}
