package dev.kiln.tests.types;

import dev.kiln.Dim;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Shape;

/**
 * {@code short[]} and {@code byte[]} arrays: loads promoted to {@code int} as Java promotes them,
 * stores narrowed by the source's casts (wrapping as Java's do).
 */
public final class NarrowArrays {
  private NarrowArrays() {}

  /** 16-bit audio samples times a gain, clipped to the 16-bit range. */
  @Operator
  public static void gain(@Dim int N, @Shape("N") short[] pcm, float g, @Out @Shape("N") short[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      float v = pcm[i] * g;
      out[i] = (short) Math.max(-32768f, Math.min(32767f, v));
    }
  }

  /** 8-bit pixels (unsigned in the data, signed in Java: {@code & 0xFF}) to floats in [0, 1]. */
  @Operator
  public static void normalize(@Dim int N, @Shape("N") byte[] px, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = (px[i] & 0xFF) / 255f;
    }
  }

  /** Sums and products that wrap when narrowed back, as in Java. */
  @Operator
  public static void wrap(@Dim int N, @Shape("N") byte[] a, @Shape("N") short[] b, @Out @Shape("N") byte[] s,
      @Out @Shape("N") short[] p) {
    for (@Parallel int i = 0; i < N; i++) {
      s[i] = (byte) (a[i] + b[i]);
      p[i] = (short) (a[i] * b[i] * 3);
    }
  }

  /** Row sums of a 16-bit matrix in an int. */
  @Operator
  public static void rowSums(@Dim int B, @Dim int N, @Shape("B, N") short[] x, @Out @Shape("B") int[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      int acc = 0;
      for (int k = 0; k < N; k++) {
        acc += x[b * N + k];
      }
      s[b] = acc;
    }
  }
}
