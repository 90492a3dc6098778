package dev.kiln;

/**
 * Counter-based random numbers for operator bodies: each value is a pure function of a seed, a
 * stream and an element index, so a kernel draws the same numbers however its grid is cut into
 * chunks or threads, on the CPU and on CUDA, and a backward pass draws the same numbers as its
 * forward pass (dropout's mask is computed again, never stored).
 *
 * <p>The generator is Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as
 * easy as 1, 2, 3", SC 2011), the one Random123, cuRAND, JAX and PyTorch use: ten rounds of two
 * 32-bit multiplications on a 128-bit counter under a 64-bit key, with the published multipliers
 * and Weyl constants; {@link #philox4x32} matches Random123's known-answer vectors. {@link
 * #uniform} draws from counter {@code (index, stream, 0, 0)} under key {@code (seed, 0)} and keeps
 * the first word.
 *
 * <p>In an operator, call it with {@code int} arguments, typically the worker's element index:
 *
 * <pre>{@code
 * for (@Parallel int i = 0; i < N; i++) {
 *   y[i] = KRandom.uniform(seed, 0, i) < p ? 0f : x[i] / (1f - p);
 * }
 * }</pre>
 *
 * Generated CPU kernels call this class; the CUDA backend's {@code kiln::uniform} computes the same
 * bits. The value has no gradient (its arguments are integers).
 */
public final class KRandom {
  /** Philox's multipliers. */
  static final int M0 = 0xD2511F53;
  static final int M1 = 0xCD9E8D57;
  /** Philox's key increments (Weyl sequence: the golden ratio and sqrt(3) - 1, as 32-bit fractions). */
  static final int W0 = 0x9E3779B9;
  static final int W1 = 0xBB67AE85;
  /** Rounds: Philox4x32-10. */
  static final int ROUNDS = 10;

  private KRandom() {}

  /**
   * A float uniformly distributed in [0, 1): the top 24 bits of Philox4x32-10's first word for
   * counter {@code (index, stream, 0, 0)} and key {@code (seed, 0)}, times 2^-24 (every value a
   * multiple of 2^-24, exactly representable; 0 possible, 1 never).
   */
  public static float uniform(int seed, int stream, int index) {
    int word0 = (int) (philoxHalf(0, index, stream, 0, 0, seed, 0) >>> 32);
    return (word0 >>> 8) * 0x1.0p-24f;
  }

  /**
   * A float from the standard normal distribution (mean 0, variance 1), by Box and Muller: {@code
   * sqrt(-2 log u1) cos(2 pi u2)} with {@code u1} in (0, 1] and {@code u2} in [0, 1) the top 24 bits
   * of Philox4x32-10's first two words for counter {@code (index, stream, 0, 0)} and key {@code
   * (seed, 1)} (another key than {@link #uniform}'s, so the two are not the same draws). {@code log}
   * and {@code cos} are Kiln's own float polynomials with fused multiply-adds, so CUDA computes the
   * same bits; values lie within about 5.8 of 0 (u1 is at least 2^-24).
   */
  public static float normal(int seed, int stream, int index) {
    long words = philoxHalf(0, index, stream, 0, 0, seed, 1);
    float u1 = (((int) (words >>> 32) >>> 8) + 1) * 0x1.0p-24f;
    int k = (int) words >>> 8;
    return (float) Math.sqrt(-2f * logUnit(u1)) * cosTurn(k);
  }

  /**
   * Philox4x32-10 of the counter {@code (c0, c1, c2, c3)} under the key {@code (k0, k1)}: four
   * 32-bit words (two's complement, read them unsigned).
   */
  public static int[] philox4x32(int c0, int c1, int c2, int c3, int k0, int k1) {
    long low = philoxHalf(0, c0, c1, c2, c3, k0, k1);
    long high = philoxHalf(1, c0, c1, c2, c3, k0, k1);
    return new int[] {(int) (low >>> 32), (int) low, (int) (high >>> 32), (int) high};
  }

  /**
   * Words {@code 2 half} and {@code 2 half + 1} of Philox4x32-10's output, the first in the high
   * 32 bits (the rounds run in full each time: no array in kernels).
   */
  static long philoxHalf(int half, int c0, int c1, int c2, int c3, int k0, int k1) {
    for (int r = 0; r < ROUNDS; r++) {
      if (r > 0) {
        k0 += W0;
        k1 += W1;
      }
      long p0 = (M0 & 0xFFFF_FFFFL) * (c0 & 0xFFFF_FFFFL);
      long p1 = (M1 & 0xFFFF_FFFFL) * (c2 & 0xFFFF_FFFFL);
      c0 = (int) (p1 >>> 32) ^ c1 ^ k0;
      c1 = (int) p1;
      c2 = (int) (p0 >>> 32) ^ c3 ^ k1;
      c3 = (int) p0;
    }
    return half == 0 ? ((long) c0 << 32) | (c1 & 0xFFFF_FFFFL) : ((long) c2 << 32) | (c3 & 0xFFFF_FFFFL);
  }

  /**
   * The natural logarithm of {@code u} in (0, 1], a normal float: Cephes' single-precision logf
   * (u = m 2^e with m in [sqrt(1/2), sqrt(2)), log(1 + f) = f - f^2/2 + f^3 P(f), e ln 2 in two
   * parts), every step a fused multiply-add. Within 1 ulp of the correctly rounded result on every
   * u this class passes it (the 2^24 multiples of 2^-24; KRandomTest checks them all).
   */
  static float logUnit(float u) {
    int bits = Float.floatToRawIntBits(u);
    int e = (bits >>> 23) - 126;
    float x = Float.intBitsToFloat((bits & 0x007F_FFFF) | 0x3F00_0000); // in [0.5, 1)
    if (x < 0.70710677f) {
      e -= 1;
      x = x + x - 1f;
    } else {
      x = x - 1f;
    }
    float z = x * x;
    float y = 7.0376836292E-2f;
    y = Math.fma(y, x, -1.1514610310E-1f);
    y = Math.fma(y, x, 1.1676998740E-1f);
    y = Math.fma(y, x, -1.2420140846E-1f);
    y = Math.fma(y, x, 1.4249322787E-1f);
    y = Math.fma(y, x, -1.6668057665E-1f);
    y = Math.fma(y, x, 2.0000714765E-1f);
    y = Math.fma(y, x, -2.4999993993E-1f);
    y = Math.fma(y, x, 3.3333331174E-1f);
    y = y * x * z;
    float fe = e;
    y = Math.fma(fe, -2.12194440e-4f, y);
    y = Math.fma(-0.5f, z, y);
    return Math.fma(fe, 0.693359375f, x + y);
  }

  /**
   * {@code cos(2 pi k / 2^24)} for {@code k} in [0, 2^24): the quarter turn from k's top two bits,
   * then {@code cos(pi t / 2)} or {@code sin(pi t / 2)} of the rest ({@code t} in [0, 1), exact) by
   * polynomials in {@code t^2} fitted on Chebyshev nodes (within 1.2e-7 of the true value).
   */
  static float cosTurn(int k) {
    int quarter = k >>> 22;
    float t = (k & 0x3F_FFFF) * 0x1.0p-22f;
    float z = t * t;
    float c = -2.3848322598496452e-05f;
    c = Math.fma(c, z, 0.0009177866159006953f);
    c = Math.fma(c, z, -0.020862746983766556f);
    c = Math.fma(c, z, 0.2536693513393402f);
    c = Math.fma(c, z, -1.2337005138397217f);
    c = Math.fma(c, z, 1f);
    float s = -3.434721293160692e-06f;
    s = Math.fma(s, z, 0.0001602623233338818f);
    s = Math.fma(s, z, -0.004681664984673262f);
    s = Math.fma(s, z, 0.07969260960817337f);
    s = Math.fma(s, z, -0.6459640860557556f);
    s = Math.fma(s, z, 1.5707963705062866f);
    s = s * t;
    return quarter == 0 ? c : quarter == 1 ? -s : quarter == 2 ? -c : s;
  }
}
