package dev.kiln.sample;

/**
 * The least memory traffic of each operator: every array it reads or writes, once. A kernel's GB/s
 * is this over its time, so it is a lower bound on what the memory system moved.
 */
final class Traffic {
  private Traffic() {}

  static final int FLOAT = Float.BYTES;

  /** Reads x, writes y. */
  static long map(long n) {
    return 2 * n * FLOAT;
  }

  /** Reads x (B×K), w (K×N), bias (N); writes y (B×N). */
  static long affine(long b, long k, long n) {
    return (b * k + k * n + n + b * n) * FLOAT;
  }

  static long affineFlops(long b, long k, long n) {
    return 2 * b * k * n;
  }

  /** Reads gates (B×4H) and c (B×H); writes cNext and hNext (B×H each). */
  static long lstmCell(long b, long h) {
    return 7 * b * h * FLOAT;
  }

  /** Reads x (B×I) and h (B×H); writes xh (B×(I+H)). */
  static long concat(long b, long i, long h) {
    return 2 * b * (i + h) * FLOAT;
  }

  /** Reads x, writes y (B×N each). */
  static long softmax(long b, long n) {
    return 2 * b * n * FLOAT;
  }
}
