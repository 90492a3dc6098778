package dev.kiln.lib;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Reproducible test inputs (a copy of part of the tests module's helper): fixed seeds. */
final class Data {
  private Data() {}

  /** Uniform floats in {@code [lo, hi)}. */
  static float[] floats(long seed, int n, float lo, float hi) {
    SplittableRandom random = new SplittableRandom(seed);
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = (float) random.nextDouble(lo, hi);
    }
    return a;
  }

  /** Uniform floats in {@code [-1, 1)}. */
  static float[] floats(long seed, int n) {
    return floats(seed, n, -1f, 1f);
  }

  /** A new array of {@code n} copies of {@code value}. */
  static float[] filled(int n, float value) {
    float[] a = new float[n];
    Arrays.fill(a, value);
    return a;
  }

  /** Special float values that elementwise operators must treat like the JVM does. */
  static float[] specialFloats() {
    return new float[] {
      0f, -0f, 1f, -1f, 0.5f, -0.5f, 1e-30f, -1e-30f, Float.MIN_VALUE, -Float.MIN_VALUE,
      Float.MIN_NORMAL, 3f, -3f, 20f, -20f, 88f, -88f, 89f, -89f, 104f, -104f, 1e20f, -1e20f,
      Float.MAX_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN
    };
  }

  /**
   * {@code n} values: the {@link #specialFloats()} first (as many as fit), then uniform floats in
   * {@code [-8, 8)}.
   */
  static float[] specialAndRandom(long seed, int n) {
    float[] a = floats(seed, n, -8f, 8f);
    float[] special = specialFloats();
    System.arraycopy(special, 0, a, 0, Math.min(n, special.length));
    return a;
  }
}
